"""The web door in Chromium as a guest meets it (issue 26 #13, #14): the keys reach the
game as soon as it is drawn, after the sign-in and after a reload, without a click; a
stopping server says so in the page's "Session ended" box."""

from __future__ import annotations

import signal
from collections.abc import Callable

from tests.door.conftest import LOBBY
from tests.web.conftest import Player, WebDoor


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
