"""The web door at the HTTP level, with aiohttp's client against a real ``mykerinos
serve --web``: what a browser would never do on its own (a forged cookie, another
origin, a form without one), the headers of every response, and the bounds on codes.
The door as players use it, in Chromium, is tested in tests/web/."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from table.doors.options import WEB_URL_FILE
from table.host.players import Players
from tests.table_server.process import spawn, stop

START_LIMIT = 20.0
"""Seconds the server may take to open its door (a bound against hangs, not a timing)."""


class WebDoor:
    """``mykerinos serve --web 127.0.0.1:0 [ARGS]`` on temporary folders."""

    def __init__(self, folder: Path, *args: str) -> None:
        self.db = folder / "data" / "tables.db"
        self.socket = folder / "t.sock"
        self.process = spawn(self.socket, self.db, "--web", "127.0.0.1:0", *args)
        self.public = (self.db.parent / WEB_URL_FILE).read_text().strip()
        self.url = self.public if "127.0.0.1" in self.public else self._bound()
        self.origin = self.url.rstrip("/")

    def _bound(self) -> str:
        """The address it listens on, when the public one is a proxy's (--web-url)."""
        assert self.process.stderr is not None
        for line in iter(self.process.stderr.readline, b""):
            found = re.search(rb"web door on (127\.0\.0\.1:\d+)", line)
            if found:
                return f"http://{found.group(1).decode()}/"
        raise AssertionError("the door never said where it listens")

    def code(self, name: str) -> str:
        with Players(self.db) as players:
            return players.invite(name)

    def games(self) -> int:
        """The game processes the door runs now (forked by its warm process, or started,
        as tui.web on its socket)."""
        return len(games_of(str(self.socket.parent)))

    def stop(self) -> None:
        stop(self.process)


@pytest.fixture(scope="module")
def door() -> Iterator[WebDoor]:
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        running = WebDoor(Path(folder))
        try:
            yield running
        finally:
            running.stop()


def client() -> aiohttp.ClientSession:
    """A client that keeps cookies of an IP address, as a browser does (aiohttp's
    default jar refuses them)."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def sign_in(door: WebDoor, http: aiohttp.ClientSession, name: str) -> aiohttp.ClientResponse:
    return await http.post(
        door.url + "signin",
        data={"code": door.code(name)},
        headers={"Origin": door.origin},
        allow_redirects=False,
    )


async def test_without_a_session_the_page_is_the_sign_in_form_and_no_game_starts(
    door: WebDoor,
) -> None:
    async with client() as http:
        for cookie in ("", "forged-token", "x" * 300):
            http.cookie_jar.clear()
            if cookie:
                http.cookie_jar.update_cookies({"mykerinos": cookie})
            page = await (await http.get(door.url)).text()
            assert 'name="code"' in page and "textual.js" not in page
            refused = await http.get(door.url + "ws", headers={"Origin": door.origin})
            assert refused.status == 403
    assert door.games() == 0


async def test_a_code_signs_in_with_a_cookie_only_this_door_can_use(door: WebDoor) -> None:
    async with client() as http:
        answer = await sign_in(door, http, "Ann")
        assert answer.status == 303 and answer.headers["Location"] == "./"
        cookie = answer.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        assert "Secure" not in cookie  # plain http on loopback: a Secure cookie never returns
        token = answer.cookies["mykerinos"].value
        with Players(door.db) as players:
            assert players.web_player(token) == "Ann"
            stored = players.store.db.execute("SELECT token_hash FROM web_sessions").fetchall()
        assert token not in {row[0] for row in stored}  # kept hashed
        page = await (await http.get(door.url)).text()
        assert "textual.js" in page and 'data-session-websocket-url="ws://' in page


async def test_another_origin_gets_no_game_and_no_sign_in(door: WebDoor) -> None:
    async with client() as http:
        await sign_in(door, http, "Ben")
        for origin in ("http://evil.example", "null", "http://127.0.0.1:1"):
            ws = await http.get(
                door.url + "ws",
                headers={
                    "Origin": origin,
                    "Upgrade": "websocket",
                    "Connection": "Upgrade",
                    "Sec-WebSocket-Version": "13",
                    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                },
            )
            assert ws.status == 403
            form = await http.post(
                door.url + "signin",
                data={"code": door.code("Cat")},
                headers={"Origin": origin},
                allow_redirects=False,
            )
            assert form.status == 403
    assert door.games() == 0


async def test_a_signed_in_websocket_runs_the_game_and_closing_it_ends_the_game(
    door: WebDoor,
) -> None:
    async with client() as http:
        await sign_in(door, http, "Dan")
        tab = await http.ws_connect(door.url + "ws?width=80&height=24", origin=door.origin)
        seen = b""
        deadline = time.monotonic() + START_LIMIT
        while b"you play as Dan" not in seen and time.monotonic() < deadline:
            message = await tab.receive(timeout=START_LIMIT)
            if message.type == aiohttp.WSMsgType.BINARY:
                seen += message.data
        assert b"you play as Dan" in seen
        assert door.games() == 1
        await tab.close()
    deadline = time.monotonic() + 5
    while door.games() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert door.games() == 0


async def test_every_response_carries_a_content_security_policy(door: WebDoor) -> None:
    async with client() as http:
        for path in (
            "",
            "join?code=<script>",
            "static/js/textual.js",
            "door/door.css",
            "nothing-here",
            "signout",
        ):
            answer = await http.get(door.url + path)
            policy = answer.headers.get("Content-Security-Policy", "")
            assert "default-src 'none'" in policy and "script-src 'self'" in policy, path
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
        page = await (await http.get(door.url + "join?code=<script>alert(1)</script>")).text()
        assert "<script>alert" not in page and "&lt;script&gt;" in page


async def test_wrong_codes_are_refused_in_words_then_bounded_per_address() -> None:
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        door = WebDoor(Path(folder))
        try:
            async with client() as http:
                answers = [
                    await http.post(
                        door.url + "signin",
                        data={"code": f"WRONG-{n}"},
                        headers={"Origin": door.origin},
                    )
                    for n in range(10)
                ]
                assert {a.status for a in answers} == {403}
                assert "This is not an invitation code of this server." in await answers[0].text()
                late = await http.post(
                    door.url + "signin",
                    data={"code": door.code("Eve")},
                    headers={"Origin": door.origin},
                )
                assert late.status == 429 and "Too many wrong codes" in await late.text()
        finally:
            door.stop()


async def test_behind_a_proxy_the_public_url_sets_origin_cookie_path_and_scheme() -> None:
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        door = WebDoor(Path(folder), "--web-url", "https://games.example/mykerinos")
        try:
            assert door.public == "https://games.example/mykerinos/"
            async with client() as http:
                here = await http.post(
                    door.url + "signin",
                    data={"code": door.code("Fay")},
                    headers={"Origin": door.origin},
                    allow_redirects=False,
                )
                assert here.status == 403  # the loopback address is not the door's origin
                answer = await http.post(
                    door.url + "signin",
                    data={"code": door.code("Fay")},
                    headers={"Origin": "https://games.example"},
                    allow_redirects=False,
                )
                assert answer.status == 303
                cookie = answer.headers["Set-Cookie"]
                assert "Secure" in cookie and "Path=/mykerinos/" in cookie
                http.cookie_jar.update_cookies({"mykerinos": answer.cookies["mykerinos"].value})
                page = await (await http.get(door.url)).text()
                assert 'data-session-websocket-url="wss://games.example/mykerinos/ws"' in page
        finally:
            door.stop()


async def test_focus_and_blur_from_the_page_keep_the_game(door: WebDoor) -> None:
    """textual.js sends ``["focus"]`` and ``["blur"]`` (one word, no data) when the
    terminal gains or loses focus: the game goes on (it closed the tab once)."""
    async with client() as http:
        await sign_in(door, http, "Gil")
        tab = await http.ws_connect(door.url + "ws?width=80&height=24", origin=door.origin)
        for message in (["focus"], ["blur"], ["focus"], ["ping", "7"]):
            await tab.send_json(message)
        answer = None
        deadline = time.monotonic() + START_LIMIT
        while answer is None and time.monotonic() < deadline:
            received = await tab.receive(timeout=START_LIMIT)
            assert received.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), received
            if received.type == aiohttp.WSMsgType.TEXT:
                answer = received.json()
        assert answer == ["pong", "7"] and not tab.closed
        await tab.close()


async def test_wrong_codes_sent_all_at_once_are_bounded_too() -> None:
    """Twenty sign-ins sent together: each counts from the moment the store looks at it,
    so no more than ten are even tried (and a right code does not count)."""
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        door = WebDoor(Path(folder))
        try:
            async with client() as http:
                right = await sign_in(door, http, "Hal")
                assert right.status == 303

                async def wrong(n: int) -> int:
                    answer = await http.post(
                        door.url + "signin",
                        data={"code": f"WRONG-{n}"},
                        headers={"Origin": door.origin},
                    )
                    return answer.status

                statuses = await asyncio.gather(*(wrong(n) for n in range(20)))
                assert statuses.count(403) == 10 and statuses.count(429) == 10
        finally:
            door.stop()


def games_of(folder: str) -> list[str]:
    """The web door's game processes of the server in ``folder`` (orphans included)."""
    found = subprocess.run(
        ["pgrep", "-f", f"tui.web --socket {folder}"], capture_output=True, text=True
    )
    return found.stdout.split()


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM])
async def test_a_server_killed_or_stopped_takes_its_tabs_games_with_it(stop) -> None:
    """kill -9 runs nothing of the server's: its games, whose pipes are not watched by
    the web driver, leave by their parent-death signal; SIGTERM closes their tabs."""
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        door = WebDoor(Path(folder))
        try:
            async with client() as http:
                await sign_in(door, http, "Ivy")
                tab = await http.ws_connect(door.url + "ws?width=80&height=24", origin=door.origin)
                await tab.receive(timeout=START_LIMIT)
                assert len(games_of(folder)) == 1
                door.process.send_signal(stop)
                door.process.wait(10)
                deadline = time.monotonic() + 2
                while games_of(folder) and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                assert games_of(folder) == []
        finally:
            for pid in games_of(folder):
                os.kill(int(pid), signal.SIGKILL)
            door.stop()
