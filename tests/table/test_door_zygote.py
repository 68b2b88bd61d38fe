"""The doors' warm process (issue 29, :mod:`tui.zygote`), seen from outside with a real
``mykerinos serve --web`` and aiohttp's client: a tab's game is forked by it, and is
still what a game the door started itself was (the door's environment and nothing
else, no descriptor of the server's or of the warm process's, its own command line);
the warm process holds neither the store nor a listening socket; it dies with the
server; without it, the door starts its games itself and says so.

The SSH door's games are forked the same way: tests/door (the kill -9 of its server
included) runs them through the warm process."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.door.sshpty import alive, command_line, environment
from tests.table.test_web_protocol import START_LIMIT, WebDoor, client, games_of, sign_in
from tests.table_server.test_processes import descriptors, listening_inodes

GONE_LIMIT = 2.0
"""Seconds within which a game and the warm process must be gone after a kill -9."""
GAME_ENV = {
    "PATH", "HOME", "LANG", "MYKERINOS_TICKET", "COLUMNS", "ROWS", "TEXTUAL_COLOR_SYSTEM",
    "TEXTUAL_FPS",
}  # fmt: skip
"""What the web door gives a tab's game (table.doors.web.game), and all it gets."""


@pytest.fixture
def door() -> Iterator[WebDoor]:
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        running = WebDoor(Path(folder))
        try:
            yield running
        finally:
            for pid in games_of(folder):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGKILL)
            running.stop()


def parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rpartition(")")[2].split()[1])


def warm_process(door: WebDoor) -> int:
    """The server's warm process (its one child running tui.zygote)."""
    children = Path(f"/proc/{door.process.pid}/task/{door.process.pid}/children").read_text()
    found = [int(p) for p in children.split() if "-m tui.zygote" in command_line(int(p))]
    assert len(found) == 1, f"the server's children: {[command_line(int(p)) for p in children]}"
    return found[0]


async def open_tab(door: WebDoor, http: aiohttp.ClientSession, name: str) -> int:
    """Sign ``name`` in, open a tab until its lobby is drawn; its game's pid."""
    await sign_in(door, http, name)
    tab = await http.ws_connect(door.url + "ws?width=80&height=24", origin=door.origin)
    seen = b""
    deadline = time.monotonic() + START_LIMIT
    while f"you play as {name}".encode() not in seen and time.monotonic() < deadline:
        message = await tab.receive(timeout=START_LIMIT)
        if message.type == aiohttp.WSMsgType.BINARY:
            seen += message.data
    assert f"you play as {name}".encode() in seen
    [game] = games_of(str(door.socket.parent))
    return int(game)


def inodes(pid: int, first: int = 0) -> set[str]:
    """What ``pid``'s descriptors from ``first`` on point at, those that name one thing
    (a socket, a pipe, a file: ``anon_inode:[eventpoll]`` is every epoll's name)."""
    links = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        if int(fd.name) >= first:
            with contextlib.suppress(OSError):
                links.add(str(fd.readlink()))
    return {link for link in links if not link.startswith("anon_inode:")}


def log_says(door: WebDoor, words: str) -> bool:
    """Whether the server's stderr says ``words`` within a few seconds."""
    assert door.process.stderr is not None
    fd = door.process.stderr.fileno()
    said = b""
    deadline = time.monotonic() + 5
    while words.encode() not in said and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            said += os.read(fd, 65536)
    return words.encode() in said


async def test_a_tab_s_game_is_forked_and_holds_nothing_of_the_server_s(door: WebDoor) -> None:
    """The game is the warm process's child, started as tui.web with the door's
    environment and no other variable, and none of its descriptors but its pipes
    (0, 1, 2) is the server's or the warm process's; the warm process holds no store and
    no listening socket."""
    zygote = warm_process(door)
    async with client() as http:
        game = await open_tab(door, http, "Ann")
        assert parent(game) == zygote
        assert f"-I -m tui.web --socket {door.socket}" in command_line(game)
        seen = environment(game)
        assert seen is not None and set(seen) == GAME_ENV, seen
        assert seen["TEXTUAL_COLOR_SYSTEM"] == "truecolor"
        theirs = inodes(door.process.pid) | inodes(zygote)
        shared = inodes(game, first=3) & theirs
        assert not shared, f"the game holds the server's or the warm process's {shared}"
        held = inodes(zygote)
        assert not [link for link in held if "tables.db" in link], held
        assert not listening_inodes(zygote)
        assert len(descriptors(zygote)) <= 6, held  # stdio, its socket, its signals' pipe


def offered_to_merging(pid: int, mapping: str) -> bool:
    """Whether ``pid``'s ``mapping`` (its name in /proc/PID/smaps) may be merged by the
    kernel's same-page merging (its VmFlags has ``mg``)."""
    inside = False
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        if "-" in line.split(" ", 1)[0] and not line.startswith("VmFlags"):
            inside = line.split()[-1] == mapping
        elif inside and line.startswith("VmFlags:"):
            return "mg" in line.split()[1:]
    raise AssertionError(f"no {mapping} in {pid}'s mappings")


async def test_a_game_s_memory_is_offered_to_the_kernel_s_same_page_merging(
    door: WebDoor,
) -> None:
    """The pages a game copies from the warm process (its heap here) may be merged again
    by Linux's KSM when the host runs it (docs/playing-over-ssh.md): the warm process
    offered them before forking it."""
    async with client() as http:
        game = await open_tab(door, http, "Cyd")
        assert offered_to_merging(warm_process(door), "[heap]")
        assert offered_to_merging(game, "[heap]")


async def test_a_killed_server_leaves_no_warm_process_and_no_game(door: WebDoor) -> None:
    """kill -9 of the server: its warm process and the tab's game are gone within 2 s."""
    zygote = warm_process(door)
    async with client() as http:
        game = await open_tab(door, http, "Bea")
        door.process.kill()
        door.process.wait(10)
        killed = time.monotonic()
        while (alive(zygote) or alive(game)) and time.monotonic() - killed < GONE_LIMIT:
            time.sleep(0.05)
        assert not alive(zygote), "the warm process outlived the server"
        assert not alive(game), "the game outlived the server"


async def test_without_the_warm_process_the_door_starts_games_itself(door: WebDoor) -> None:
    """The warm process killed: a new tab's game is the server's own child, as before
    issue 29, and the log says why, once."""
    zygote = warm_process(door)
    os.kill(zygote, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while alive(zygote) and time.monotonic() < deadline:
        time.sleep(0.05)
    async with client() as http:
        game = await open_tab(door, http, "Cid")
        assert parent(game) == door.process.pid
        assert log_says(door, "the warm process is not there")
