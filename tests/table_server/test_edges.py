"""The table server's limits at their edges (issue 17): bad UTF-8 inside a request, a
request whose rest never comes, the per-player connection and open-table limits, a peer
uid with no account, the descriptor limit reached, and a full disk under the store.

Real ``python -m table.serve`` processes on Unix sockets in /tmp; timeouts are hang
bounds, never speed assertions.
"""

from __future__ import annotations

import asyncio
import getpass
import os
import resource
import socket as sockets
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import core
from table import protocol as wire
from table.client.connection import Refused, connect
from table.server.connections import REQUEST_WITHIN
from table.store import Append, SeatRow, TableStore
from tests.table_server.bots import create
from tests.table_server.test_processes import REPO, Launch, Launched, servers

WAIT = 30.0
"""Seconds any one answer may take (a hang bound)."""
PAIR = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben")]
DESCRIPTORS = 128
"""The server's descriptor limit in the flood test."""
FLOOD = 200
"""Connections held open against it (more than it has descriptors)."""
WAVES = 3
"""Floods of hellos, until one shows a misnamed login (a bound)."""
NO_ACCOUNT = (54321, 54322)
"""Uids with no passwd entry."""


@pytest.fixture
def launch() -> Iterator[Launch]:
    with servers() as start:
        yield start


async def raw(server: Launched) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection that said hello as ann and was welcomed."""
    reader, writer = await asyncio.open_unix_connection(str(server.socket))
    writer.write(wire.frame(wire.Hello(wire.VERSION, "ann")))
    assert isinstance(await heard(reader), wire.Welcome)
    return reader, writer


async def heard(reader: asyncio.StreamReader) -> wire.ServerMessage:
    body = await asyncio.wait_for(wire.read_body(reader, wire.MAX_FRAME, "frame"), WAIT)
    return wire.read_server(body)


def framed(body: bytes) -> bytes:
    return wire.HEADER.pack(len(body)) + body


# ---------------------------------------------------------------- requests


async def test_bad_utf_8_inside_a_string_is_answered_and_the_connection_goes_on(launch) -> None:
    """A Say whose text is not UTF-8: an Error (with its ref, or saying why), then the
    same connection's ListTables is answered."""
    server = launch()
    await server.answering()
    reader, writer = await raw(server)
    writer.write(framed(b'{"t":"say","ref":7,"table":1,"text":"caf\xc3\x28 \xff\xfe"}'))
    answer = await heard(reader)
    assert isinstance(answer, wire.Error), answer
    assert answer.ref == 7 or "malformed" in answer.reason, answer
    writer.write(wire.frame(wire.ListTables(8)))
    lobby = await heard(reader)
    assert isinstance(lobby, wire.Lobby) and lobby.ref == 8, lobby
    writer.close()


@pytest.mark.slow
async def test_a_request_that_never_finishes_arriving_is_closed_after_the_deadline(
    launch,
) -> None:
    """Two bytes of a frame's header, then nothing: the connection is told and closed once
    ``REQUEST_WITHIN`` has passed (not before), and another client is answered meanwhile."""
    server = launch()
    await server.answering()
    reader, writer = await raw(server)
    writer.write(wire.frame(wire.ListTables(1))[:2])
    began = time.monotonic()
    other = await connect(server.socket, "ben")
    answered = 0
    closing = asyncio.create_task(heard(reader))
    while not closing.done():
        assert time.monotonic() - began < REQUEST_WITHIN + WAIT, "never closed"
        assert isinstance(await other.ask(wire.ListTables(other.new_ref())), wire.Lobby)
        answered += 1
        await asyncio.wait([closing], timeout=0.5)
    took = time.monotonic() - began
    told = closing.result()
    assert isinstance(told, wire.Error) and "took more than" in told.reason, told
    assert await reader.read() == b""  # closed
    assert took >= REQUEST_WITHIN - 0.5, took
    assert answered >= 5
    await other.close()


# ---------------------------------------------------------------- per-player limits


async def test_a_players_connections_are_limited_and_another_player_still_connects(
    launch,
) -> None:
    server = launch("--max-connections", "3")
    await server.answering()
    held = [await connect(server.socket, "ann") for _ in range(3)]
    with pytest.raises(Refused, match="3 connections"):
        await connect(server.socket, "ann")
    ben = await connect(server.socket, "ben")
    await held.pop().close()
    for _ in range(200):  # the server sees the close a moment later
        try:
            held.append(await connect(server.socket, "ann"))
            break
        except Refused:
            await asyncio.sleep(0.02)
    assert len(held) == 3, "a closed connection still counts"
    for connection in [*held, ben]:
        await connection.close()


async def test_a_players_open_tables_are_limited_and_another_player_still_creates(
    launch,
) -> None:
    server = launch("--max-tables", "2")
    await server.answering()
    for _ in range(2):
        await create(server.socket, "ann", PAIR)
    ann = await connect(server.socket, "ann")
    answer = await ann.ask(wire.CreateTable(ann.new_ref(), tuple(PAIR)))
    assert isinstance(answer, wire.Error) and "at most 2" in answer.reason, answer
    await ann.close()
    assert await create(server.socket, "ben", [PAIR[1], PAIR[0]]) == 3


async def test_the_table_limit_holds_for_creations_sent_at_once(launch) -> None:
    """Creations racing on several connections are counted while they are stored: the
    limit is not passed by asking from many terminals at once."""
    server = launch("--max-tables", "2")
    await server.answering()
    connections = [await connect(server.socket, "ann") for _ in range(4)]
    answers = await asyncio.gather(*(
        c.ask(wire.CreateTable(c.new_ref(), tuple(PAIR))) for c in connections for _ in range(2)
    ))  # fmt: skip
    made = [a for a in answers if isinstance(a, wire.Lobby)]
    assert len(made) == 2, answers
    assert all("at most 2" in a.reason for a in answers if isinstance(a, wire.Error))
    for connection in connections:
        await connection.close()


# ---------------------------------------------------------------- identity

CLIENT = """
import asyncio, os, sys
from pathlib import Path
from table.client.connection import connect

uid = int(sys.argv[2])
os.setgroups([])
os.setgid(uid)
os.setuid(uid)


async def main():
    connection = await connect(Path(sys.argv[1]))
    print(connection.player)
    await connection.close()


asyncio.run(main())
"""
"""A client that gives up root for ``uid`` (after its imports) and prints its name."""


def named_as(server: Launched, uid: int) -> str:
    done = subprocess.run(
        [sys.executable, "-c", CLIENT, str(server.socket), str(uid)],
        cwd=REPO, capture_output=True, text=True, timeout=WAIT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.skipif(os.geteuid() != 0, reason="changing uid needs root")
async def test_a_uid_without_an_account_plays_as_uid_number(launch) -> None:
    """Each uid with no passwd entry is its own player, ``uid-<uid>``."""
    server = launch()
    await server.answering()
    launch.folder.chmod(0o777)
    server.socket.chmod(0o777)
    names = [named_as(server, uid) for uid in NO_ACCOUNT]
    assert names == [f"uid-{uid}" for uid in NO_ACCOUNT]


# ---------------------------------------------------------------- resources


def few_descriptors() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (DESCRIPTORS, DESCRIPTORS))


def open_descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


async def test_more_connections_than_descriptors_harm_no_connected_client(launch) -> None:
    """With a descriptor limit of 128, 200 connections held open: the server keeps
    answering (and storing for) a client connected before, logs a few lines and no
    traceback, and takes new clients once the flood is gone."""
    server = launch(preexec_fn=few_descriptors)
    await server.answering()
    ann = await connect(server.socket, "ann")
    flood: list[sockets.socket] = []
    try:
        for _ in range(FLOOD):
            sock = sockets.socket(sockets.AF_UNIX)
            sock.settimeout(2)
            try:
                sock.connect(str(server.socket))
            except OSError:
                sock.close()
                break
            flood.append(sock)
        assert len(flood) == FLOOD  # all held open: more than the server's descriptors
        lobby = await asyncio.wait_for(ann.ask(wire.ListTables(ann.new_ref())), WAIT)
        assert isinstance(lobby, wire.Lobby)
        made = await asyncio.wait_for(ann.ask(wire.CreateTable(ann.new_ref(), tuple(PAIR))), WAIT)
        assert isinstance(made, wire.Lobby), made
        await asyncio.sleep(1.5)  # asyncio puts accepts off for a second at the limit
        assert server.process.poll() is None
    finally:
        for sock in flood:
            sock.close()
    await ann.close()
    await server.answering()
    log = server.stderr()
    assert "Traceback" not in log and len(server.lines()) < 20, log


def test_a_full_disk_is_reported_as_full(tmp_path: Path) -> None:
    """Appends into a store capped at a few more pages fail with the real cause ("full"),
    not "cannot rollback"; nothing of the failed commit is stored, and the store goes on
    once there is room."""
    store = TableStore(tmp_path / "tables.db")
    try:
        colours = list(core.Colour)[:2]
        row = store.create("full", 1, [SeatRow("player", n, None, c) for n, c in
                                       zip(["ann", "ben"], colours, strict=True)])  # fmt: skip
        action = core.legal_actions(core.new_game(2, 1))[0]
        (pages,) = store.db.execute("PRAGMA page_count").fetchone()
        store.db.execute(f"PRAGMA max_page_count = {pages + 3}")
        failure: Exception | None = None
        for seq in range(10_000):
            try:
                store.commit([Append(row.id, seq, action)])
            except Exception as exc:
                failure = exc
                break
        assert failure is not None, "the store never filled"
        assert "full" in str(failure) and "cannot rollback" not in str(failure), failure
        assert len(store.tables()[0].actions) == seq
        store.db.execute("PRAGMA max_page_count = 1000000")
        store.commit([Append(row.id, seq, action)])
        assert len(store.tables()[0].actions) == seq + 1
    finally:
        store.close()


async def hello_as_login(server: Launched) -> str:
    """What the server says to one connection's hello without a name: the name granted,
    ``refused`` or ``closed``."""
    try:
        reader, writer = await asyncio.open_unix_connection(str(server.socket))
    except OSError:
        return "closed"
    try:
        writer.write(wire.frame(wire.Hello(wire.VERSION, None)))
        answer = await heard(reader)
    except (OSError, ConnectionError, asyncio.IncompleteReadError, TimeoutError):
        return "closed"
    finally:
        writer.close()
    return answer.player if isinstance(answer, wire.Welcome) else "refused"


async def test_a_login_keeps_its_name_when_descriptors_run_out(launch) -> None:
    """200 connections at once against a limit of 128 descriptors, each saying hello
    without a name: each is welcomed as this login or refused, never under another
    name (looking the login up needs a descriptor of its own)."""
    server = launch(preexec_fn=few_descriptors)
    await server.answering()
    expected = {getpass.getuser(), "refused", "closed"}
    names: Counter[str] = Counter()
    for _ in range(WAVES):
        names.update(await asyncio.gather(*(hello_as_login(server) for _ in range(FLOOD))))
        if set(names) - expected:
            break
    assert set(names) <= expected, names
    assert server.process.poll() is None
