"""What a signed-in SSH client can make the door hold: the game's output when the client
reads none of it (its channel's window, or its whole connection), and the environment it
sends. The door and a table server run in the test's own event loop (a real hub, a real
asyncssh listener on loopback, real games in ptys), so that the test can look at what the
door holds for the connection; the client is asyncssh's.

The door as players use it, with the real ``ssh``, is tested in tests/door/."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import struct
import tempfile
import termios
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import cast

import asyncssh
import pytest

from table.doors.ssh.server import Door
from table.doors.ssh.session import LOCALES_KEPT, DoorSession
from table.host.players import Players
from table.server.hub import Hub
from table.server.writer import Writer
from table.store import TableStore

LOBBY = b"Tables on the server"
FIRST_FRAME_WITHIN = 30.0
"""Seconds a game may take to draw its lobby (a bound against hangs, not a timing)."""
HELD_BOUND = 4 * 1024 * 1024
"""Bytes of output the door may hold for one connection whose client reads nothing: its
buffers' high-water marks and a read of the pty, far below (a frame of a 1000×1000 lobby
is about 3 MB, and every resize draws one)."""
RESIZES = 40
"""Resizes sent at most while the client reads nothing (each makes the game draw a frame)."""


@contextlib.asynccontextmanager
async def running_door() -> AsyncIterator[Door]:
    """A table server and its SSH door on 127.0.0.1 in this event loop, until the block
    ends; its store and socket in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        db = Path(folder) / "tables.db"
        store = TableStore(db)
        writer = Writer(store)
        hub = Hub(store.tables(), writer, store.ratings())
        socket = Path(folder) / "t.sock"
        listening = await asyncio.start_unix_server(hub.connected, str(socket))
        await hub.begin()
        door = Door(hub, socket, db)
        try:
            await door.start("127.0.0.1", 0)
            yield door
        finally:
            await door.stop()
            listening.close()
            await hub.stop("the test is over")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(listening.wait_closed(), 2)
            writer.close()
            store.close()


@pytest.fixture
async def door() -> AsyncIterator[Door]:
    async with running_door() as running:
        yield running


def player(door: Door, name: str) -> asyncssh.SSHKey:
    key = asyncssh.generate_private_key("ssh-ed25519")
    with Players(door.db) as players:
        players.add(name, key.export_public_key().decode())
    return key


class Screen(asyncssh.SSHClientSession[bytes]):
    """Counts what the game drew."""

    def __init__(self) -> None:
        self.received = bytearray()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.received += data


async def sign_in(door: Door, key: asyncssh.SSHKey) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1", door.port, known_hosts=None, username="anyone", client_keys=[key],
        agent_path=None, preferred_auth="publickey",
    )  # fmt: skip


async def until(check: Callable[[], bool], within: float, what: str) -> None:
    """Wait (polling the loop) until ``check`` holds; fails after ``within`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while not check():
        assert loop.time() < end, f"never {what} within {within:g} s"
        await asyncio.sleep(0.02)


def door_side(door: Door) -> DoorSession:
    [session] = door.sessions
    return session


def held(session: DoorSession) -> int:
    """Bytes the door holds for the session's connection, sent to no one yet: its
    channel's buffer and its socket transport's."""
    assert session.chan is not None
    connection = session.chan.get_extra_info("connection")
    transport = getattr(connection, "_transport", None)
    buffered = transport.get_write_buffer_size() if transport is not None else 0
    return int(session.chan.get_write_buffer_size()) + int(buffered)


def unread_output(session: DoorSession) -> int:
    """Bytes the game wrote to its terminal that the door has not read."""
    assert session.master is not None
    (count,) = struct.unpack("i", fcntl.ioctl(session.master, termios.FIONREAD, b"\0" * 4))
    return int(count)


@pytest.mark.parametrize(
    "stops",
    ["its channel", "its connection"],
    ids=["window", "socket"],
)
async def test_a_client_that_reads_nothing_makes_the_game_wait_not_the_door_hold(
    door: Door, stops: str
) -> None:
    """The client stops reading while the game draws (each resize to 1000×1000 draws a
    whole frame): either politely, by no longer opening its channel's window, or by
    opening a 4 GB window and then not reading its socket at all. Either way the door
    stops reading the game's terminal (the game waits on it), holds at most
    :data:`HELD_BOUND` bytes, and carries on once the client reads again."""
    conn = await sign_in(door, player(door, "ann"))
    async with conn:
        window = 2**32 - 1 if stops == "its connection" else 2 * 1024 * 1024
        chan, session_ = await conn.create_session(
            Screen, term_type="xterm-256color", term_size=(80, 24), encoding=None, window=window
        )  # fmt: skip
        screen = cast(Screen, session_)
        await until(lambda: LOBBY in screen.received, FIRST_FRAME_WITHIN, "saw the lobby")
        session = door_side(door)
        transport: asyncio.Transport = getattr(conn, "_transport")  # noqa: B009 - asyncssh's own
        if stops == "its channel":
            chan.pause_reading()
        else:
            transport.pause_reading()
        waited = False
        for size in range(RESIZES):
            chan.change_terminal_size(1000 - size % 2, 1000 - size % 2)
            for _ in range(50):
                await asyncio.sleep(0.02)
                assert held(session) <= HELD_BOUND, f"the door holds {held(session)} bytes"
                waited = not session._reading and unread_output(session) > 0
                if waited:
                    break
            if waited:
                break
        assert waited, "the door went on reading the game for a client that reads nothing"
        assert held(session) <= HELD_BOUND
        before = len(screen.received)
        if stops == "its channel":
            chan.resume_reading()
        else:
            transport.resume_reading()
        chan.change_terminal_size(80, 24)
        await until(
            lambda: LOBBY in screen.received[before:] and session._reading,
            FIRST_FRAME_WITHIN,
            "drew the lobby again once the client read",
        )


async def test_the_door_keeps_only_the_environment_the_game_may_get(door: Door) -> None:
    """asyncssh keeps every ``env`` request of a channel for as long as it is open: a
    client could grow the server by sending names without end. The door keeps only the
    names the game may get: ``LANG``, ``NO_COLOR``, and at most :data:`LOCALES_KEPT`
    ``LC_*`` names."""
    conn = await sign_in(door, player(door, "ann"))
    async with conn:
        sent: dict[str | bytes, str | bytes] = {f"JUNK_{n}": "x" * 1000 for n in range(2000)}
        sent |= {f"LC_{chr(65 + n // 26)}{chr(65 + n % 26)}": "C" for n in range(200)}
        sent |= {"LANG": "fr_FR.UTF-8", "NO_COLOR": "1"}
        chan, _screen = await conn.create_session(
            Screen, term_type="xterm-256color", term_size=(80, 24), encoding=None, env=sent
        )  # fmt: skip
        await until(lambda: bool(door.sessions), FIRST_FRAME_WITHIN, "began the session")
        session = door_side(door)
        assert session.chan is not None
        kept = session.chan.get_environment_bytes()
        assert len(kept) <= LOCALES_KEPT + 2
        assert not [name for name in kept if name.startswith(b"JUNK_")]
        assert (kept.get(b"LANG"), kept.get(b"NO_COLOR")) == (b"fr_FR.UTF-8", b"1")
        chan.close()
