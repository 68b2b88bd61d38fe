"""The web door in Chromium as a guest meets it (issue 26 #13, #14, #19): the keys reach
the game as soon as it is drawn, after the sign-in and after a reload, without a click; a
stopping server says so in the page's "Session ended" box; a watch link opens on its
table, watching."""

from __future__ import annotations

import signal
from collections.abc import Callable

from tests.door.conftest import LOBBY
from tests.web.conftest import Player, WebDoor
from tests.web.test_web_door import create_table, excavation_of, my_turn_prompt, signed_in


def test_keys_reach_the_game_without_a_click_after_sign_in_and_reload(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    """Keys pressed in the page (never focusing the terminal first, nor clicking) open
    the new-table form: after the sign-in, and again after a reload."""
    _code, link = web_door.invite_link("ann")
    ann = players()
    ann.page.goto(link)
    ann.page.locator("#sign-in").click()
    terminal = ann.terminal
    terminal.wait_socket(1, 20)
    terminal.wait_for(f"{LOBBY} ann", 30)
    terminal.wait_quiet()
    ann.page.keyboard.press("c")  # not terminal.press, which focuses the terminal first
    terminal.wait_for("New table", 20)

    ann.page.reload()
    terminal.wait_socket(2, 20)
    terminal.wait_for(f"{LOBBY} ann", 30)
    terminal.wait_quiet()
    ann.page.keyboard.press("c")
    terminal.wait_for("New table", 20)


def test_a_stopping_server_says_so_in_the_session_ended_box(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    _code, link = web_door.invite_link("ann")
    ann = players()
    ann.sign_in(link, "ann")
    assert web_door.process is not None
    web_door.process.send_signal(signal.SIGTERM)
    ann.terminal.wait_closed(20)
    box = ann.page.locator(".closed")
    box.wait_for(state="visible", timeout=10_000)
    said = box.text_content() or ""
    assert "The table server is stopping; connect again in a moment." in said, said


def test_a_watch_link_shows_its_table_in_the_browser_and_nothing_else(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    """ann plays a computer; ``invite --watch 1`` prints a link whose browser opens on
    that table, watching (no lobby, no seat): ann's move shows there, and leaving the
    table ends the guest's session instead of opening the lobby."""
    ann = players()
    signed_in(web_door, ann, "ann")
    create_table(ann.terminal, computer=True)
    ann.terminal.wait_for(my_turn_prompt("ann"), 30)
    [table] = web_door.tables()

    done = web_door.mykerinos("invite", "--watch", str(table["id"]))
    assert done.returncode == 0, (done.stdout, done.stderr)
    code, link = [line.strip() for line in done.stdout.splitlines() if line.strip()][:2]
    assert link.startswith(web_door.url) and link.endswith(f"join?code={code}"), done.stdout
    guest = players()
    guest.page.goto(link)
    guest.page.locator("#sign-in").click()
    guest.terminal.wait_socket(1, 20)
    screen = guest.terminal.wait_for("Waiting for ann (B) to decide", 30)
    assert LOBBY not in screen and "WATCHING" in screen, screen

    ann.terminal.wait_quiet()
    ann.terminal.press("a")
    ann.terminal.wait_for("cube 1 of 1")
    ann.terminal.press("Enter")
    guest.terminal.wait_for(excavation_of("ann"), 30, what="ann's excavation, watched")
