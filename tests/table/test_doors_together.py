"""Both doors on one server: a player's sessions are counted together, whichever door
they came by (``--sessions-per-player``)."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

import aiohttp
import asyncssh

from table.doors.options import PORT_FILE, WEB_URL_FILE
from table.host.players import Players
from tests.table_server.process import spawn, stop

START_LIMIT = 20.0
"""Seconds the server may take to open its doors (a bound against hangs, not a timing)."""


async def test_a_tab_open_counts_against_the_ssh_door_too() -> None:
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as name:
        folder = Path(name)
        db, socket = folder / "data" / "tables.db", folder / "t.sock"
        server = spawn(
            socket, db, "--ssh", "127.0.0.1:0", "--web", "127.0.0.1:0",
            "--sessions-per-player", "1",
        )  # fmt: skip
        try:
            key = asyncssh.generate_private_key("ssh-ed25519")
            with Players(db) as players:
                players.add("Ann", key.export_public_key().decode())
                code = players.invite("Ann")
            port = int((db.parent / PORT_FILE).read_text())
            url = (db.parent / WEB_URL_FILE).read_text().strip()
            origin = url.rstrip("/")

            async def status() -> asyncssh.SSHCompletedProcess:
                async with asyncssh.connect(
                    "127.0.0.1", port, known_hosts=None, username="ann",
                    client_keys=[key], agent_path=None,
                ) as conn:  # fmt: skip
                    return await conn.run("status", encoding="utf-8")

            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                await http.post(url + "signin", data={"code": code}, headers={"Origin": origin})
                tab = await http.ws_connect(url + "ws?width=80&height=24", origin=origin)
                await tab.receive(timeout=START_LIMIT)  # the game is under way
                refused = await status()
                assert refused.exit_status == 1
                assert "you have 1 sessions open through the doors already" in str(refused.stderr)
                await tab.close()
            deadline = time.monotonic() + 5
            while (answer := await status()).exit_status != 1 or answer.stderr:
                assert time.monotonic() < deadline, answer
                await asyncio.sleep(0.1)
            assert answer.stdout == "No table is waiting for Ann.\n"
        finally:
            stop(server)
