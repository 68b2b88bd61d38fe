"""The web door against clients no browser would be: one that stops reading its
websocket, sign-ins whose forms come slowly (found in the review of issue 20's door).
Real ``mykerinos serve --web`` processes, raw sockets where aiohttp's client would be too
polite."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import select
import signal
import socket
import struct
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from table.doors.web.connections import CONNECTIONS_PER_ADDRESS
from table.doors.web.server import QUIET_WITHIN
from tests.table.test_web_protocol import START_LIMIT, WebDoor, client, games_of, sign_in


@pytest.fixture
def folder() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as made:
        try:
            yield made
        finally:
            for pid in games_of(made):
                os.kill(int(pid), signal.SIGKILL)


def _text_frame(text: str) -> bytes:
    """One masked websocket text frame, as a browser sends it."""
    data = text.encode()
    mask = os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else b"\xfe" + struct.pack(">H", len(data))
    return b"\x81" + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def _address(door: WebDoor) -> tuple[str, int]:
    host, port = door.url.split("//")[1].rstrip("/").split(":")
    return host, int(port)


def deaf_tab(door: WebDoor, token: str) -> socket.socket:
    """A signed-in tab's websocket that, once open, asks for screens of 500 by 500 and
    never reads one: the game's frames wait in the server for a reader that never comes."""
    host, port = _address(door)
    tab = socket.socket()
    tab.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    tab.settimeout(START_LIMIT)
    tab.connect((host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    tab.sendall(
        f"GET /ws?width=500&height=500 HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Origin: {door.origin}\r\nCookie: mykerinos={token}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n\r\n"
        "".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += tab.recv(1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    for n in range(40):  # each a whole new screen to draw
        size = 500 - n % 2
        tab.sendall(_text_frame(json.dumps(["resize", {"width": size, "height": size}])))
        time.sleep(0.05)
    time.sleep(2)  # the game draws them, the server's buffers fill
    return tab


async def _signed_in(door: WebDoor, http: aiohttp.ClientSession, name: str) -> str:
    answer = await sign_in(door, http, name)
    assert answer.status == 303
    return answer.cookies["mykerinos"].value


async def test_a_tab_that_stops_reading_does_not_keep_the_server_from_stopping(
    folder: str,
) -> None:
    """SIGTERM closed each tab in turn, waiting for room in a socket nobody read, and
    then for a killed game whose full pipe asyncio waited to see closed: `serve` never
    ended (the host's Ctrl+C did nothing)."""
    door = WebDoor(Path(folder))
    try:
        async with client() as http:
            tab = deaf_tab(door, await _signed_in(door, http, "Deaf"))
        assert len(games_of(folder)) == 1
        door.process.send_signal(signal.SIGTERM)
        stopped = await asyncio.to_thread(_ended_within, door, 8.0)
        assert stopped, "serve --web did not stop within 8 s of SIGTERM"
        assert door.process.returncode == 0
        tab.close()
    finally:
        door.stop()


def _ended_within(door: WebDoor, seconds: float) -> bool:
    try:
        door.process.wait(seconds)
    except Exception:
        return False
    return True


async def test_signing_out_ends_a_tab_that_stops_reading_and_frees_its_place(
    folder: str,
) -> None:
    """The sign-out waited for ever on the deaf tab's close; and once a tab that stopped
    reading had gone, its game's end waited for ever on the game's full pipe, so the
    player's place among the door's sessions (and the ticket) stayed taken for good."""
    door = WebDoor(Path(folder), "--sessions-per-player", "1")
    try:
        async with client() as http:
            token = await _signed_in(door, http, "Eve")
            tab = deaf_tab(door, token)
            assert len(games_of(folder)) == 1
            out = await asyncio.wait_for(
                http.post(door.url + "signout", headers={"Origin": door.origin}), 8
            )
            assert out.status == 200
            deadline = time.monotonic() + 8
            while games_of(folder) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert games_of(folder) == []
            tab.close()
            # The place is free again: a new sign-in's tab gets the lobby, not "close one".
            await _signed_in(door, http, "Eve")
            again = await http.ws_connect(door.url + "ws?width=80&height=24", origin=door.origin)
            seen = b""
            deadline = time.monotonic() + START_LIMIT
            while b"you play as Eve" not in seen and time.monotonic() < deadline:
                message = await again.receive(timeout=START_LIMIT)
                if message.type != aiohttp.WSMsgType.BINARY:
                    break
                seen += message.data
            assert b"you play as Eve" in seen, seen[-300:]
            await again.close()
    finally:
        door.stop()


async def test_wrong_codes_whose_forms_come_slowly_are_bounded_too(folder: str) -> None:
    """The bound was checked before the form was read: twenty sign-ins that sent their
    headers, waited, then their codes all passed it, and all twenty codes were tried."""
    door = WebDoor(Path(folder))
    try:
        host, port = _address(door)

        def started() -> socket.socket:
            form = socket.create_connection((host, port), timeout=START_LIMIT)
            form.sendall(
                f"POST /signin HTTP/1.1\r\nHost: {host}:{port}\r\nOrigin: {door.origin}\r\n"
                "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 16\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            return form

        forms = [started() for _ in range(20)]
        await asyncio.sleep(0.5)  # every request is waiting for its form
        for n, form in enumerate(forms):
            form.sendall(f"code=WRONG-{n:05d}".encode())

        def status(form: socket.socket) -> int:
            answer = b""
            while b"\r\n" not in answer:
                got = form.recv(4096)
                if not got:
                    break
                answer += got
            form.close()
            return int(answer.split(b" ", 2)[1])

        statuses = [await asyncio.to_thread(status, form) for form in forms]
        assert statuses.count(403) == 10 and statuses.count(429) == 10, statuses
    finally:
        door.stop()


def _raw_answer(door: WebDoor, request: bytes) -> tuple[int, dict[str, str]]:
    """The status and headers of one raw HTTP request."""
    with socket.create_connection(_address(door), timeout=START_LIMIT) as raw:
        raw.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            got = raw.recv(65536)
            if not got:
                break
            answer += got
    status, *lines = answer.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status.split(" ")[1]), headers


async def test_no_host_header_rewrites_or_drops_the_content_security_policy(
    folder: str,
) -> None:
    """The Host went as it came into the policy's connect-src: ``Host: a; script-src *``
    added a directive, and ``Host: [`` made every page a 500 without any policy."""
    door = WebDoor(Path(folder))
    try:
        for host in ("evil.example; script-src *", "[", "a]b", "x y"):
            request = f"GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
            status, headers = await asyncio.to_thread(_raw_answer, door, request.encode())
            assert status == 200, (host, status)
            policy = headers["Content-Security-Policy"]
            assert policy.count("script-src") == 1 and "*" not in policy, policy
            assert " " not in policy.split("connect-src 'self' ")[1].split(";")[0], policy
    finally:
        door.stop()


def _closed_soon(connection: socket.socket, within: float) -> bool:
    """Whether the door closed ``connection`` (EOF or reset) within ``within`` seconds."""
    connection.settimeout(within)
    try:
        return connection.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionError:
        return True


def _dropped(connections: list[socket.socket], within: float) -> list[socket.socket]:
    """Those of ``connections`` the door closed within ``within`` seconds, all watched at
    once (one at a time, the last would be looked at after the door's quiet while)."""
    readable, _, _ = select.select(connections, [], [], within)
    return [c for c in readable if _closed_soon(c, 0.5)]  # readable: answers at once


def test_connections_from_one_address_are_bounded(folder: str) -> None:
    """Connections that send nothing hold a descriptor each: past 32 from one address the
    newcomer is dropped at once; those within the bound are served."""
    door = WebDoor(Path(folder))
    held: list[socket.socket] = []
    try:
        for _ in range(CONNECTIONS_PER_ADDRESS + 4):
            held.append(socket.create_connection(_address(door), timeout=5))
        time.sleep(0.3)
        dropped = _dropped(held, 0.2)
        assert len(dropped) == 4
        kept = held[0]
        kept.settimeout(5)
        kept.sendall(b"GET /join HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert kept.recv(64).startswith(b"HTTP/1.1 200")
    finally:
        for connection in held:
            connection.close()
        door.stop()


async def test_a_signed_in_tab_s_game_does_not_count_against_its_address(folder: str) -> None:
    """Friends behind one router share an address: each one's game tab is bounded by the
    door's sessions, not by the address's connections. With a game tab open, as many
    connections as the bound still all come in; one more is dropped."""
    door = WebDoor(Path(folder))
    held: list[socket.socket] = []
    try:
        jar = aiohttp.CookieJar(unsafe=True)  # the tab's is then its only connection:
        alone = aiohttp.TCPConnector(force_close=True)  # the sign-in's is not kept alive
        async with aiohttp.ClientSession(cookie_jar=jar, connector=alone) as http:
            await sign_in(door, http, "Ann")
            tab = await http.ws_connect(door.url + "ws?width=80&height=24", origin=door.origin)
            await tab.receive(timeout=START_LIMIT)  # the game runs: its tab is a player's
            for _ in range(CONNECTIONS_PER_ADDRESS + 1):
                held.append(socket.create_connection(_address(door), timeout=5))
            await asyncio.sleep(0.3)
            dropped = _dropped(held, 0.2)
            assert len(dropped) == 1
            assert not tab.closed
    finally:
        for connection in held:
            connection.close()
        door.stop()


@pytest.mark.slow
def test_a_half_sent_request_is_closed_after_a_quiet_while(folder: str) -> None:
    door = WebDoor(Path(folder))
    try:
        half = socket.create_connection(_address(door), timeout=5)
        half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of it
        assert _closed_soon(half, QUIET_WITHIN + 5)
        half.close()
    finally:
        door.stop()
