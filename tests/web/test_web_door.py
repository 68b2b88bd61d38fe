"""The web door, end to end, in headless Chromium (issue 20): the invitation link signs a
browser in and shows the lobby; a browser without a session, or with a forged, expired or
signed-out cookie, gets the sign-in page and no game process; a websocket from another
origin is refused; a table against a computer is created and a cube placed with keys; two
browsers at one table see each other's moves; a reload comes back to the same position; a
smaller or larger window redraws the game at its size; an SSH player and a browser player
share a table; a closed tab shows its player away.

The screen is what the page received on its websocket, read through pyte
(tests/web/browser.py); keys are pressed in the page, as a player does.
"""

from __future__ import annotations

import base64
import http.server
import os
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from table.doors.web.server import COOKIE
from table.host.players import DAY, Players
from tests.door.conftest import HOST, LOBBY, LOBBY_KEYS, wait_no_sessions
from tests.door.sshpty import PtyProcess, wait_until
from tests.web.browser import Terminal
from tests.web.conftest import Player, WebDoor

GAME_ROWS = 10
"""The rows of the game screen that show the position: the title, the board, the players."""
GONE_LIMIT = 5.0
"""Seconds within which a closed tab's game must be gone (the door allows it 1.5 s to
leave, then kills it; the rest is a margin for a loaded machine)."""
NO_GAME_WAIT = 0.5
"""Seconds given to a game process that should not start, to show itself if it did."""
AWAY = re.compile(r"\baway \d\d:\d\d\b")
"""The game screen's mark of a player not connected: "away 14:02"."""

# ---------------------------------------------------------------- helpers


def signed_in(door: WebDoor, player: Player, name: str) -> str:
    """``name`` invited with ``invite --web`` and signed in through the link: the lobby."""
    _code, link = door.invite_link(name)
    return player.sign_in(link, name)


def create_table(terminal: Terminal, *, computer: bool) -> None:
    """In the lobby: a table of two, you and an open seat (or an easy computer)."""
    terminal.wait_quiet()
    terminal.press("c")
    terminal.wait_for("New table")
    terminal.press("ArrowLeft")  # players: 3 → 2
    terminal.wait_for("Waits for 1 open seat")
    if computer:
        for key in ("ArrowDown", "ArrowDown", "ArrowRight", "ArrowRight"):
            terminal.press(key)  # seat 2: open → player → computer easy
        terminal.wait_for("Starts now.")
    terminal.press("Enter")


def excavation_of(name: str) -> Callable[[str], bool]:
    """A check for ``wait_for``: the log says ``name`` started an excavation."""
    said = re.compile(rf"\b{re.escape(name)} starts an excavation on [a-h][1-6]\b")
    return lambda screen: said.search(screen) is not None


def my_turn_prompt(name: str) -> str:
    return f"{name} (B): choose an action"


def position(screen: str) -> list[str]:
    """The rows of the game screen that show the position, the mark of a move just seen
    arrive (``{N}`` on the board, drawn only live) taken out."""
    return [row.replace("{", " ").replace("}", " ") for row in screen.split("\n")[:GAME_ROWS]]


def decider(screen: str) -> str:
    """Whose decision it is, from the game screen's first row (``… · ann (B) to decide``)."""
    first = screen.split("\n")[0]
    match = re.search(r"· (\S+) \([A-Z]\) to decide", first)
    assert match, screen
    return match.group(1)


def keys_on_last_row(terminal: Terminal) -> Callable[[str], bool]:
    """A check for :meth:`Terminal.wait_for`: the lobby drawn at the terminal's size, its
    title on the first row and its keys bar on the last."""

    def check(_screen: str) -> bool:
        lines = terminal.lines()
        return (
            len(lines) == terminal.size[1]
            and lines[0].startswith(LOBBY)
            and lines[-1].lstrip().startswith(LOBBY_KEYS)
        )

    return check


def handshake(door: WebDoor, headers: dict[str, str], path: str = "/ws?width=80&height=24") -> str:
    """A websocket handshake with the door, by hand: its response's head (status line and
    headers). The connection is closed at once (a game it started then leaves)."""
    port = int(door.origin.rsplit(":", 1)[1])
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {HOST}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    with socket.create_connection((HOST, port), timeout=10) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                break
            head += chunk
    return head.split(b"\r\n\r\n")[0].decode(errors="replace")


def status_of(head: str) -> int:
    return int(head.split(" ", 2)[1])


def cookie_of(player: Player) -> str:
    [cookie] = [c for c in player.context.cookies() if c.get("name") == COOKIE]
    return str(cookie.get("value", ""))


def expired_token(door: WebDoor, name: str) -> str:
    """A real session token of ``name``'s that expired: redeemed 40 days ago, when its
    invitation was new (a session lasts about 30 days)."""
    then = time.time() - 40 * DAY
    with Players(door.db) as players:
        code = players.invite(name, 7, now=then)
        got, token = players.redeem_web(code, now=then + 60)
        assert got == name
        assert players.web_player(token) is None  # expired, as the store says too
    return token


def assert_sign_in_page(player: Player, what: str, sockets: int = 0) -> None:
    """The page is the sign-in form (a code field), with no terminal, and has opened no
    websocket (none beyond the ``sockets`` it had before)."""
    page = player.page
    assert page.locator("form input[name=code]").count() == 1, f"{what}: {page.content()[:2000]}"
    assert page.locator("#terminal").count() == 0, f"{what}: {page.content()[:2000]}"
    player.terminal.pump(200)
    assert len(player.terminal.sockets) == sockets, f"{what}: the page opened a websocket"


@contextmanager
def other_site(page_html: str) -> Iterator[str]:
    """A page served from another loopback port (another origin): its URL."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page_html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer((HOST, 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


# ---------------------------------------------------------------- signing in


def test_the_invitation_link_signs_in_and_shows_the_lobby(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    """The link opens the sign-in page with its code filled in; its button signs the
    browser in (an HttpOnly, SameSite=Strict cookie) and the app page shows ann's lobby
    in a terminal connected to the door's own websocket; every response on the way carries
    a Content-Security-Policy; the link does not work twice."""
    code, link = web_door.invite_link("ann")
    ann = players()
    responses: list[tuple[str, int, str | None]] = []
    ann.page.on(
        "response",
        lambda r: responses.append((r.url, r.status, r.headers.get("content-security-policy"))),
    )
    ann.page.goto(link)
    assert ann.page.locator("input[name=code]").input_value() == code
    assert ann.page.locator("#terminal").count() == 0
    ann.page.locator("#sign-in").click()
    socket_ = ann.terminal.wait_socket(1, 20)
    screen = ann.terminal.wait_for(f"{LOBBY} ann", 30)
    assert screen.split("\n")[0].startswith(f"{LOBBY} ann"), screen

    terminal = ann.page.locator("div#terminal")
    websocket = terminal.get_attribute("data-session-websocket-url") or ""
    assert websocket.startswith(f"ws://{HOST}:") and websocket.endswith("/ws"), websocket
    assert socket_.url.startswith(websocket + "?width="), (socket_.url, websocket)
    [cookie] = ann.context.cookies()
    assert cookie.get("name") == COOKIE
    assert cookie.get("httpOnly") is True and cookie.get("sameSite") == "Strict", cookie
    assert ann.page.evaluate("document.cookie") == "", "the session cookie is readable by script"

    assert responses, "no response seen"
    assert any(url.endswith("/textual.js") for url, _status, _csp in responses), responses
    lacking = [(url, status) for url, status, csp in responses if not csp]
    assert not lacking, f"responses without a Content-Security-Policy: {lacking}"

    again = players()
    again.page.goto(link)
    again.page.locator("#sign-in").click()
    problem = again.page.locator("#problem")
    problem.wait_for()  # the sign-in page again, saying why
    assert "already used" in (problem.text_content() or ""), again.page.content()
    assert again.page.locator("form input[name=code]").count() == 1
    assert again.context.cookies() == []
    assert again.terminal.sockets == []


def test_no_session_forged_or_expired_cookie_gets_the_sign_in_page_and_no_game(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    """A browser without a cookie, with a made-up one, and with a real one that expired:
    each is shown the sign-in page and opens no websocket, a websocket asked for by hand
    with that cookie is refused (403, with a CSP), and no game process starts under the
    server."""
    before = web_door.processes()
    cookies = {
        "no cookie": None,
        "a forged cookie": base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("="),
        "an expired cookie": expired_token(web_door, "ann"),
    }
    for what, value in cookies.items():
        player = players()
        if value is not None:
            player.context.add_cookies([{"name": COOKIE, "value": value, "url": web_door.url}])
        response = player.page.goto(web_door.url)
        assert response is not None and response.headers.get("content-security-policy"), what
        assert_sign_in_page(player, what)
        headers = {"Origin": web_door.origin}
        if value is not None:
            headers["Cookie"] = f"{COOKIE}={value}"
        head = handshake(web_door, headers)
        assert status_of(head) == 403, f"{what}: {head}"
        assert "content-security-policy" in head.lower(), head
    time.sleep(NO_GAME_WAIT)
    assert web_door.sessions(before) == set(), "a game process started without a session"


def test_signing_out_ends_the_session_and_closes_its_tab(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    """POST signout from the app page: the tab's game ends, its websocket closes, the
    page is the sign-in page again, and the old cookie, put back, signs nobody in."""
    before = web_door.processes()
    ann = players()
    signed_in(web_door, ann, "ann")
    games = web_door.sessions(before)
    assert games, "no game process under the server"
    token = cookie_of(ann)
    status = ann.page.evaluate(
        "fetch('signout', {method: 'POST', credentials: 'same-origin'}).then(r => r.status)"
    )
    assert status == 200, status
    ann.terminal.wait_closed(10)
    wait_no_sessions(web_door, games, GONE_LIMIT)
    ann.page.goto(web_door.url)
    assert_sign_in_page(ann, "after signing out", sockets=1)

    back = players()
    back.context.add_cookies([{"name": COOKIE, "value": token, "url": web_door.url}])
    back.page.goto(web_door.url)
    assert_sign_in_page(back, "the signed-out cookie")
    time.sleep(NO_GAME_WAIT)
    assert web_door.sessions(before) == set()


def test_a_websocket_from_another_origin_is_refused(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    """With ann's real cookie: a handshake whose Origin is another site, another port of
    this host, or absent is refused (403) and starts nothing, where the door's own Origin
    is let in (101); and in the browser, a page on another loopback port (same site, so
    the SameSite=Strict cookie goes along) that opens the door's websocket gets no
    connection and no frame."""
    ann = players()
    signed_in(web_door, ann, "ann")
    ann.terminal.wait_quiet()
    cookie = f"{COOKIE}={cookie_of(ann)}"
    port = int(web_door.origin.rsplit(":", 1)[1])
    before = web_door.processes()
    for origin in ("http://evil.example", f"http://{HOST}:{port + 1}", f"https://{HOST}:{port}"):
        head = handshake(web_door, {"Origin": origin, "Cookie": cookie})
        assert status_of(head) == 403, f"Origin {origin}: {head}"
    head = handshake(web_door, {"Cookie": cookie})
    assert status_of(head) == 403, f"no Origin: {head}"
    time.sleep(NO_GAME_WAIT)
    assert web_door.sessions(before) == set(), "a refused websocket started a game"

    head = handshake(web_door, {"Origin": web_door.origin, "Cookie": cookie})
    assert status_of(head) == 101, f"the door's own Origin: {head}"  # the control

    websocket = f"ws://{HOST}:{port}/ws?width=80&height=24"
    page_html = f"""<!DOCTYPE html><html><body><script>
window.seen = [];
const ws = new WebSocket({websocket!r});
ws.binaryType = "arraybuffer";
ws.onopen = () => window.seen.push("open");
ws.onmessage = () => window.seen.push("message");
ws.onerror = () => window.seen.push("error");
ws.onclose = (event) => window.seen.push("close");
</script></body></html>"""
    with other_site(page_html) as elsewhere:
        evil = ann.context.new_page()
        watcher = Terminal(evil)
        evil.goto(elsewhere)
        evil.wait_for_function("window.seen.includes('close')", timeout=10_000)
        seen = evil.evaluate("window.seen")
        assert "open" not in seen and "message" not in seen, seen
        assert watcher.sockets and watcher.sockets[0].total == 0, watcher.report("frames", 0)
        evil.close()
    wait_until(
        lambda: web_door.sessions(before) == set(),
        GONE_LIMIT,
        lambda: f"games left: {web_door.sessions(before)}",
    )


# ---------------------------------------------------------------- playing


def test_a_table_against_a_computer_and_a_cube_placed_with_keys(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    """c, the form (two players, seat 2 an easy computer), Enter: the game; at ann's turn,
    a (start an excavation) and Enter place her cube, which the log and the server show."""
    ann = players()
    signed_in(web_door, ann, "ann")
    terminal = ann.terminal
    create_table(terminal, computer=True)
    terminal.wait_for(my_turn_prompt("ann"), 30)
    [table] = web_door.tables()
    terminal.wait_quiet()
    terminal.press("a")
    terminal.wait_for("start an excavation, cube 1 of 1")
    terminal.press("Enter")
    screen = terminal.wait_for(excavation_of("ann"), what="ann's excavation in the log")
    assert "place neutral cubes now, or none" in terminal.wait_for("place neutral cubes"), screen
    wait_until(
        lambda: web_door.tables()[0]["actions"] > table["actions"],
        10,
        lambda: f"the server has no more actions than {table['actions']}: {web_door.tables()}",
    )


def test_two_browsers_at_one_table_see_each_other_s_moves(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    """ann creates a table for two with an open seat; bob, in another context, takes it;
    whoever decides first starts an excavation and the other sees it; then, their turn
    come, the other passes and the first sees that."""
    ann, bob = players(), players()
    signed_in(web_door, ann, "ann")
    signed_in(web_door, bob, "bob")
    create_table(ann.terminal, computer=False)
    ann.terminal.wait_for("waiting for 1")
    bob.terminal.wait_for("a seat is free. Enter: take it", 20)
    bob.terminal.wait_quiet()
    bob.terminal.press("Enter")
    bob.terminal.wait_for("to decide", 20)
    ann.terminal.wait_for("your table. Enter: play.", 20)
    ann.terminal.press("Enter")
    screen = ann.terminal.wait_for("to decide", 20)
    names = {"ann": ann, "bob": bob}
    first_name = decider(screen)
    second_name = "bob" if first_name == "ann" else "ann"
    first, second = names[first_name].terminal, names[second_name].terminal
    first.wait_for(f"{first_name} (", 20)
    first.wait_for("choose an action", 20)
    first.wait_quiet()
    first.press("a")
    first.wait_for("cube 1 of 1")
    first.press("Enter")
    second.wait_for(excavation_of(first_name), 20, what=f"{first_name}'s excavation")
    first.wait_for("place neutral cubes")
    first.press("x")
    second.wait_for(f"{first_name} places no neutral cube", 20)
    second.wait_for(f"{second_name} (", 20)
    second.wait_for("choose an action", 20)
    second.wait_quiet()
    second.press("p")
    first.wait_for(
        lambda s: f"{second_name} passes" in s or "Season 2 begins" in s or "Season 2/4" in s,
        20,
        what=f"{second_name}'s pass",
    )


def test_a_reload_comes_back_to_the_same_position(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    """At ann's turn against a computer, after her excavation: the page reloaded opens a
    new websocket and a new game (the old one gone), which comes back to the table she sat
    at by itself, at the same position, waiting on the same decision."""
    before = web_door.processes()
    ann = players()
    signed_in(web_door, ann, "ann")
    first_games = web_door.sessions(before)
    terminal = ann.terminal
    create_table(terminal, computer=True)
    terminal.wait_for(my_turn_prompt("ann"), 30)
    terminal.wait_quiet()
    terminal.press("a")
    terminal.wait_for("cube 1 of 1")
    terminal.press("Enter")
    terminal.wait_for("place neutral cubes")
    terminal.wait_quiet()
    left = position(terminal.screen_text())

    ann.page.reload()
    terminal.wait_socket(2, 20)
    wait_no_sessions(web_door, first_games, GONE_LIMIT)
    terminal.wait_for("place neutral cubes", 30)
    terminal.wait_quiet()
    screen = terminal.screen_text()
    assert position(screen) == left, "\n".join(["before:", *left, "after:", *position(screen)])


def test_a_resize_of_the_window_redraws_the_game_at_its_size(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    """The lobby at 1200×720 pixels, then 900×560, then 1400×900 (all above the game's
    80×24 cells): each time the page tells the game its new columns and rows, and the
    lobby is drawn again to them (its title on the first row, its keys bar on the last)."""
    ann = players(viewport=(1200, 720))
    signed_in(web_door, ann, "ann")
    terminal = ann.terminal
    terminal.wait_for(keys_on_last_row(terminal), what="the keys bar on the last row")
    sizes = [terminal.size]
    for width, height in ((900, 560), (1400, 900)):
        terminal.wait_quiet()
        ann.page.set_viewport_size({"width": width, "height": height})
        terminal.wait_for(
            lambda _screen: terminal.size != sizes[-1],
            10,
            what=f"a new size after {width}×{height} pixels",
        )
        terminal.wait_for(
            keys_on_last_row(terminal), 10, what=f"the lobby redrawn at {terminal.size}"
        )
        sizes.append(terminal.size)
    (cols0, rows0), (cols1, rows1), (cols2, rows2) = sizes
    assert cols1 < cols0 < cols2 and rows1 < rows0 < rows2, sizes
    assert len(terminal.sockets) == 1, "a resize opened a new websocket"


def test_an_ssh_player_and_a_browser_player_share_a_table(
    both_doors: WebDoor, players: Callable[..., Player]
) -> None:
    """ann through the SSH door (the real ssh client in a pty), bob in the browser: ann
    creates a table with an open seat, bob takes it, and each sees the other's move."""
    door = both_doors
    ssh = door.lobby(door.player("ann"), "ann")
    bob = players()
    signed_in(door, bob, "bob")
    ssh.wait_quiet()
    ssh.send("c")
    ssh.wait_for("New table")
    ssh.send("\x1b[D")  # players: 3 → 2
    ssh.wait_for("Waits for 1 open seat")
    ssh.send("\r")
    ssh.wait_for("waiting for 1", 20)
    bob.terminal.wait_for("a seat is free. Enter: take it", 20)
    bob.terminal.wait_quiet()
    bob.terminal.press("Enter")
    bob.terminal.wait_for("to decide", 20)
    ssh.wait_for("your table. Enter: play.", 20)
    ssh.send("\r")
    screen = ssh.wait_for("to decide", 20)
    if decider(screen) == "ann":
        _ssh_moves(ssh, bob.terminal)
        _browser_passes(bob.terminal, ssh, "bob")
    else:
        _browser_passes(bob.terminal, ssh, "bob")
        ssh.wait_for("ann (", 20)
        ssh.wait_for("choose an action", 20)
        ssh.wait_quiet()
        ssh.send("p")
        bob.terminal.wait_for(
            # Its log line, or the season it ended (the season's summary, docked at the
            # bottom while another decides, may cover the log's last lines).
            lambda s: "ann passes" in s or "Season 2" in s,
            20,
            what="ann's pass",
        )


def _ssh_moves(ssh: PtyProcess, browser: Terminal) -> None:
    """ann, over ssh, starts an excavation and places no neutral cube; the browser sees it."""
    ssh.wait_for("choose an action", 20)
    ssh.wait_quiet()
    ssh.send("a")
    ssh.wait_for("cube 1 of 1")
    ssh.send("\r")
    ssh.wait_for("place neutral cubes")
    ssh.send("x")
    browser.wait_for(excavation_of("ann"), 20, what="ann's excavation")
    browser.wait_for("ann places no neutral cube", 20)


def _browser_passes(browser: Terminal, ssh: PtyProcess, name: str) -> None:
    """``name``, in the browser, passes at their turn; the ssh client sees it."""
    browser.wait_for(f"{name} (", 20)
    browser.wait_for("choose an action", 20)
    browser.wait_quiet()
    browser.press("p")
    ssh.wait_for(
        lambda s: f"{name} passes" in s or "Season 2 begins" in s or "Season 2/4" in s,
        20,
        what="the pass",
    )


def test_closing_the_tab_shows_the_player_away(
    web_door: WebDoor, players: Callable[..., Player]
) -> None:
    """ann and bob at a table in two browsers; bob's tab closed: his game is gone within
    a few seconds, the server shows his seat not present, and ann's game screen marks
    him away."""
    ann, bob = players(), players()
    signed_in(web_door, ann, "ann")
    before = web_door.processes()
    signed_in(web_door, bob, "bob")
    bobs = web_door.sessions(before)
    assert bobs, "no game process of bob's under the server"
    create_table(ann.terminal, computer=False)
    bob.terminal.wait_for("a seat is free. Enter: take it", 20)
    bob.terminal.wait_quiet()
    bob.terminal.press("Enter")
    bob.terminal.wait_for("to decide", 20)
    ann.terminal.wait_for("your table. Enter: play.", 20)
    ann.terminal.press("Enter")
    screen = ann.terminal.wait_for("to decide", 20)
    assert not AWAY.search(screen), screen

    bob.page.close()
    wait_no_sessions(web_door, bobs, GONE_LIMIT)
    ann.terminal.wait_for(
        lambda s: AWAY.search(s) is not None, 10, what="bob marked away on ann's screen"
    )
    [table] = web_door.tables()
    seats = {seat.get("name"): seat for seat in table["seats"]}
    assert seats["bob"].get("present") is False and seats["ann"].get("present") is True, seats
