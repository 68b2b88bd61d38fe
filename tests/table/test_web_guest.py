"""The web door as a guest meets it, at the HTTP level (issue 26 #14-16): the sign-in
page speaks to the guest, a stopping server says so to each tab, ``/favicon.ico`` is no
404; ``X-Forwarded-For`` is believed only from ``--web-proxy`` and only as an IP address,
and nothing a peer sent reaches the log raw; connections past the bound per address are
refused without an error in the log."""

from __future__ import annotations

import signal
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from table.doors.web.connections import CONNECTIONS_PER_ADDRESS
from table.doors.web.server import STOPPING
from tests.table.test_web_protocol import START_LIMIT, WebDoor, client, sign_in

HOSTILE = "\u202eNIMDA\u009b31m"
"""What a client put in X-Forwarded-For in the evening of issue 26 (U+202E turns the
line's text around, U+009B starts a terminal's control sequence)."""


@pytest.fixture
def folder() -> Iterator[str]:
    # A short folder: a Unix socket's path must fit in 108 bytes, pytest's tmp_path may not.
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as made:
        yield made


def log_of(door: WebDoor) -> str:
    """The server's stderr, once it stopped (:meth:`WebDoor.stop` first)."""
    assert door.process.stderr is not None
    return door.process.stderr.read().decode("utf-8", "replace")


async def wrong_codes(door: WebDoor, forwarded_for: list[str], origin: str) -> list[int]:
    """A wrong code sent once per entry of ``forwarded_for`` (its X-Forwarded-For): the
    statuses."""
    async with client() as http:
        statuses = []
        for forwarded in forwarded_for:
            answer = await http.post(
                door.url + "signin",
                data={"code": "WRONG"},
                headers={"Origin": origin, "X-Forwarded-For": forwarded},
            )
            statuses.append(answer.status)
        return statuses


# ---------------------------------------------------------------- the guest's pages


async def test_the_sign_in_page_speaks_to_the_guest_and_the_icon_is_no_404(folder: str) -> None:
    door = WebDoor(Path(folder))
    try:
        async with client() as http:
            page = await (await http.get(door.url)).text()
            assert "mykerinos invite" not in page
            assert "your host sent you" in page and "XXXX-XXXX-XXXX-XXXX" in page
            icon = await http.get(door.url + "favicon.ico")
            assert icon.status == 204
            assert "Content-Security-Policy" in icon.headers
    finally:
        door.stop()


async def test_a_stopping_server_tells_each_tab_why_it_closes(folder: str) -> None:
    """SIGTERM: the tab's websocket is closed with the SSH door's words, which the page's
    "Session ended" box shows (door.js)."""
    door = WebDoor(Path(folder))
    try:
        async with client() as http:
            await sign_in(door, http, "Ivy")
            tab = await http.ws_connect(door.url + "ws?width=80&height=24", origin=door.origin)
            await tab.receive(timeout=START_LIMIT)
            door.process.send_signal(signal.SIGTERM)
            while True:
                message = await tab.receive(timeout=START_LIMIT)
                if message.type != aiohttp.WSMsgType.BINARY:
                    break
            assert message.type == aiohttp.WSMsgType.CLOSE, message
            assert message.extra == STOPPING.decode(), message
            assert "connect again in a moment" in message.extra
    finally:
        door.stop()


# ---------------------------------------------------------------- X-Forwarded-For


async def test_without_web_proxy_nobody_s_forwarded_address_is_believed(folder: str) -> None:
    """Behind --web-url but without --web-proxy, a local client that names a new address
    in X-Forwarded-For for each try is still one address: bounded after 10 wrong codes;
    its text never reaches the log."""
    door = WebDoor(Path(folder), "--web-url", "https://games.example/mykerinos")
    try:
        forwarded = [f"10.0.0.{n}" for n in range(11)] + [HOSTILE]
        statuses = await wrong_codes(door, forwarded, "https://games.example")
        assert statuses[:10] == [403] * 10 and set(statuses[10:]) == {429}, statuses
    finally:
        door.stop()
    assert "\u202e" not in log_of(door)


async def test_the_proxy_s_forwarded_address_counts_if_it_is_an_ip_address(
    folder: str,
) -> None:
    """With --web-proxy 127.0.0.1, the last X-Forwarded-For address is the one counted:
    ten wrong codes from 10.0.0.1 leave 10.0.0.2 free; a forwarded text that is no IP
    address counts as the proxy itself; a sign-in logs a valid address only."""
    door = WebDoor(
        Path(folder), "--web-url", "https://games.example/mykerinos", "--web-proxy", "127.0.0.1"
    )
    origin = "https://games.example"
    try:
        statuses = await wrong_codes(door, ["1.2.3.4, 10.0.0.1"] * 11, origin)
        assert statuses[:10] == [403] * 10 and statuses[10] == 429, statuses
        assert await wrong_codes(door, ["10.0.0.2"], origin) == [403]
        assert await wrong_codes(door, [HOSTILE] * 11, origin) == [403] * 10 + [429]
        async with client() as http:
            answer = await http.post(
                door.url + "signin",
                data={"code": door.code("Pat")},
                headers={"Origin": origin, "X-Forwarded-For": f"10.0.0.3, {HOSTILE}"},
                allow_redirects=False,
            )
            assert answer.status == 429  # counted as the proxy, which is over its bound
            answer = await http.post(
                door.url + "signin",
                data={"code": door.code("Pat")},
                headers={"Origin": origin, "X-Forwarded-For": "10.0.0.4"},
                allow_redirects=False,
            )
            assert answer.status == 303
    finally:
        door.stop()
    log = log_of(door)
    assert "Pat signed in from 10.0.0.4" in log, log
    assert "\u202e" not in log and "\u009b" not in log and "NIMDA" not in log, log


def test_web_proxy_must_be_an_ip_address(folder: str) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "table.serve", "--socket", f"{folder}/s", "--db",
         f"{folder}/t.db", "--web", "127.0.0.1:0", "--web-proxy", "proxy.example"],
        capture_output=True, text=True, timeout=START_LIMIT,
    )  # fmt: skip
    assert done.returncode == 2 and "--web-proxy: not an IP address" in done.stderr


# ---------------------------------------------------------------- connections


def test_connections_past_the_bound_are_refused_without_an_error_in_the_log(
    folder: str,
) -> None:
    """8 connections from 127.0.0.1 past the bound are dropped; the server's stderr holds
    no "Task exception", AssertionError nor traceback (aiohttp's handler once failed on a
    transport aborted in connection_made)."""
    door = WebDoor(Path(folder))
    held: list[socket.socket] = []
    address = door.url.split("//")[1].rstrip("/").rsplit(":", 1)
    try:
        for _ in range(CONNECTIONS_PER_ADDRESS + 8):
            held.append(socket.create_connection((address[0], int(address[1])), timeout=5))
        time.sleep(0.3)
        for connection in held:
            connection.close()
        held.clear()
        time.sleep(0.3)
    finally:
        for connection in held:
            connection.close()
        door.stop()
    log = log_of(door)
    assert "refused" in log, log
    for fault in ("Task exception", "AssertionError", "Traceback"):
        assert fault not in log, log
