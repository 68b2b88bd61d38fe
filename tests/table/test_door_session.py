"""One SSH door session's life against its pty and its game, without an SSH client: what
asyncssh calls (``session_started``, ``data_received``, ``connection_lost``) in the
orders a client can make happen, on a real pty and a real child process.

The door end to end is in tests/door/ and tests/table/test_door_protocol.py."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from table.doors.ssh.gate import Visitor
from table.doors.ssh.server import Door
from table.doors.ssh.session import DoorSession
from table.server.hub import Hub

SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]
"""A game that never leaves by itself."""
GONE_WITHIN = 5.0
"""Seconds a session may take to end once its client is gone (a bound against hangs; the
door's own is 2 s)."""


class Channel:
    """What a session uses of its asyncssh channel."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.err = bytearray()
        self.paused = False
        self.status: int | None = None
        self._env: dict[bytes, bytes] = {}
        self._process_env_request = None

    def write(self, data: bytes) -> None:
        self.out += data

    def write_stderr(self, data: bytes) -> None:
        self.err += data

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def exit(self, status: int) -> None:
        self.status = status

    def get_environment(self) -> dict[str, str]:
        return {}


class QuietDoor(Door):
    """A door without a listener: its game is :data:`SLEEPER`, every key is its player's."""

    def game_command(self, home: Path) -> list[str]:
        return list(SLEEPER)

    async def key_refused(self, visitor: Visitor) -> str | None:
        return None


@pytest.fixture
def door(tmp_path: Path) -> QuietDoor:
    hub = Hub([], writer=None, ratings={})  # type: ignore[arg-type]
    return QuietDoor(hub, tmp_path / "t.sock", tmp_path / "tables.db")


def new_session(door: Door) -> DoorSession:
    """A session of ann's that asked for an 80×24 terminal."""
    visitor = Visitor(gate=None, sessions=lambda v: None)  # type: ignore[arg-type]
    visitor.player, visitor.key = "ann", b"ann's key"
    visitor.channels = 1
    session = DoorSession(door, visitor)
    session.connection_made(Channel())  # type: ignore[arg-type]
    session.pty_requested("xterm-256color", (80, 24, 0, 0), {})
    return session


@pytest.fixture
def reuse() -> Iterator[list[int]]:
    """Descriptors a test put in place of closed ones (closed at its end)."""
    opened: list[int] = []
    yield opened
    for fd in opened:
        os.close(fd)


def take_number(fd: int, reuse: list[int]) -> None:
    """Open something else under the number ``fd`` had, as the kernel does for a busy
    server's next connection or pty (a pipe's reading end, blocking)."""
    read, write = os.pipe()  # the lowest numbers free: maybe ``fd`` itself already
    if read != fd:
        os.dup2(read, fd)
        os.close(read)
    reuse.extend([fd, write])


async def test_keys_waiting_for_the_pty_leave_nothing_registered_once_the_client_is_gone(
    door: QuietDoor, reuse: list[int]
) -> None:
    """More keys than the pty takes (the game reads none), then the client drops: the pty
    closed with a writer still registered for its number broke whatever was opened next
    under that number (a flood and a drop, then another connection: FileNotFoundError)."""
    session = new_session(door)
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    session.master = master
    session.data_received(b"x" * 1_000_000, None)
    assert session.chan is not None and session.chan.paused  # type: ignore[attr-defined]
    session.connection_lost(None)
    os.close(slave)
    assert session.master is None
    take_number(master, reuse)
    loop = asyncio.get_running_loop()
    loop.add_reader(master, lambda: None)  # what the next connection's transport does
    loop.remove_reader(master)
    loop.add_writer(master, lambda: None)
    loop.remove_writer(master)


async def test_a_client_gone_while_its_game_starts_takes_the_game_with_it(
    door: QuietDoor, reuse: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection drops while the game's process is being started: the pty is closed
    at once (and its number soon another's), so the door must not touch that number
    afterwards, and must end the game, revoke the ticket and free the place."""
    session = new_session(door)
    start = asyncio.create_subprocess_exec
    closed: list[int] = []

    async def starting(*argv: str, **options: object) -> asyncio.subprocess.Process:
        master = session.master
        assert master is not None
        session.connection_lost(None)  # the client drops during the start
        take_number(master, reuse)
        closed.append(master)
        return await start(*argv, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(asyncio, "create_subprocess_exec", starting)
    session.session_started()
    assert session.task is not None
    try:
        await asyncio.wait_for(asyncio.shield(session.task), GONE_WITHIN)
    finally:
        await _no_game_left(session)
    assert session.process is not None and session.process.returncode is not None
    assert session.process.returncode < 0, "the game was not ended by the door"
    assert os.get_blocking(closed[0]), "the door changed a descriptor that is no longer its"
    assert not door.admissions.open and not door.hub._tickets and not door.sessions


@pytest.fixture
def nohup() -> Iterator[None]:
    """This process started as ``nohup`` starts a server: SIGHUP ignored (put back after)."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    yield
    signal.signal(signal.SIGHUP, before)


@pytest.mark.usefixtures("nohup")
async def test_a_server_started_by_nohup_still_hangs_its_games_up(door: QuietDoor) -> None:
    """A server started by ``nohup`` ignores SIGHUP, which every program it starts would
    inherit: a game would then miss the hang-up of its dropped connection and live on
    until killed. The game it starts ends by the hang-up itself (SIGHUP, at once)."""
    session = new_session(door)
    session.session_started()
    assert session.task is not None
    for _ in range(200):  # until the game runs (bounded: 10 s)
        if session.process is not None:
            break
        await asyncio.sleep(0.05)
    try:
        session.connection_lost(None)
        await asyncio.wait_for(asyncio.shield(session.task), GONE_WITHIN)
    finally:
        await _no_game_left(session)
    assert session.process is not None
    assert session.process.returncode == -signal.SIGHUP, "not ended by the hang-up"


async def test_a_client_gone_before_its_session_begins_starts_no_game(door: QuietDoor) -> None:
    """The shell request and the end of the connection arrive together (one read): the
    session's task has not run yet when the connection is lost. No game is started for
    nobody (it would sit in the lobby holding a place of the door's for ever)."""
    session = new_session(door)
    session.session_started()
    session.connection_lost(None)
    assert session.task is not None
    try:
        await asyncio.wait_for(asyncio.shield(session.task), GONE_WITHIN)
    finally:
        await _no_game_left(session)
    assert session.process is None
    assert not door.admissions.open and not door.hub._tickets and not door.sessions


async def _no_game_left(session: DoorSession) -> None:
    """Whatever happened, the test leaves no process behind (then reports the result)."""
    process = session.process
    if process is not None and process.returncode is None:
        process.kill()
        await process.wait()
