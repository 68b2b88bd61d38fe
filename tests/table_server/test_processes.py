"""The table server's processes at their edges (issue 17): a kill -9 of the server alone
takes its computer-player workers with it, the workers never hold the server's sockets or
store, a new server takes over the same socket and store; SIGTERM tells every client why
and exits cleanly.

Every server here is a real ``python -m table.serve`` on a Unix socket in a short /tmp
folder, with its stderr in a file (a pipe nobody reads could stall a chatty server).
Timeouts are hang bounds only; the one time measured (a restart) is printed, not asserted.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from table import protocol as wire
from table.client.connection import Connection, connect
from tests.table_server.bots import Bot, create, played

REPO = Path(__file__).resolve().parents[2]
GONE_WITHIN = 5.0
"""Seconds the workers and a client's connection may outlive a killed server (a bound)."""
ANSWER_WITHIN = 20.0
"""Seconds a starting server may take to answer (a hang bound, not a timing)."""
ACCEPTING = 0x10000
"""``__SO_ACCEPTCON``: the flag of a listening socket in /proc/net/unix."""
HARD_TABLE = [
    wire.SeatSpec("player", "ann"),
    wire.SeatSpec("computer", level="hard"),
    wire.SeatSpec("computer", level="hard"),
]


# ---------------------------------------------------------------- server processes


class Launched:
    """A ``python -m table.serve`` process whose stderr goes to a file."""

    def __init__(
        self,
        socket: Path,
        db: Path,
        *options: str,
        preexec_fn: Callable[[], None] | None = None,
    ) -> None:
        self.socket, self.db = socket, db
        self.log = socket.with_name(f"{socket.name}.{time.monotonic_ns()}.log")
        with self.log.open("wb") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "table.serve", "--socket", str(socket), "--db", str(db),
                 "--trust-account", getpass.getuser(), *options],
                cwd=REPO, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=preexec_fn,
            )  # fmt: skip

    @property
    def pid(self) -> int:
        return self.process.pid

    def stderr(self) -> str:
        return self.log.read_text(errors="replace")

    def lines(self) -> list[str]:
        return [line for line in self.stderr().splitlines() if line.strip()]

    def exited(self, within: float = ANSWER_WITHIN) -> int:
        """The exit code (fails if the process still runs after ``within`` seconds)."""
        try:
            return self.process.wait(within)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the server still runs: {self.stderr()}") from None

    async def answering(self, within: float = ANSWER_WITHIN) -> float:
        """Seconds until the server said welcome (fails if it exits or never answers)."""
        began = time.monotonic()
        while True:
            code = self.process.poll()
            assert code is None, f"the server exited {code}: {self.stderr()}"
            try:
                connection = await connect(self.socket, "ann")
            except (OSError, ConnectionError):
                assert time.monotonic() - began < within, "the server never answered"
                await asyncio.sleep(0.02)
                continue
            await connection.close()
            return time.monotonic() - began

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


class Launch:
    """Starts servers in one ``folder``: ``launch(*options, socket="t.sock",
    db="tables.db", preexec_fn=…)``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started: list[Launched] = []

    def __call__(
        self,
        *options: str,
        socket: str = "t.sock",
        db: str = "tables.db",
        preexec_fn: Callable[[], None] | None = None,
    ) -> Launched:
        server = Launched(self.folder / socket, self.folder / db, *options, preexec_fn=preexec_fn)
        self.started.append(server)
        return server


@contextlib.contextmanager
def servers() -> Iterator[Launch]:
    """Starts servers in one short folder in /tmp (a Unix socket's path must fit in 108
    bytes), and stops every one still running at the end."""
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as name:
        launch = Launch(Path(name))
        try:
            yield launch
        finally:
            for server in launch.started:
                server.stop()


@pytest.fixture
def launch() -> Iterator[Launch]:
    with servers() as start:
        yield start


# ---------------------------------------------------------------- processes in /proc


def children(pid: int) -> list[int]:
    """The pids whose parent is ``pid``."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(word) for word in task.read_text().split()]
    return found


def started_at(pid: int) -> str | None:
    """The start time of live process ``pid`` (None: gone, or a zombie nobody reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return None if fields[0] in "ZX" else fields[19]


def command_line(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def descriptors(pid: int) -> list[str]:
    """What each open descriptor of ``pid`` points at (``socket:[inode]``, a path…)."""
    links = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):  # closed meanwhile
            links.append(str(fd.readlink()))
    return links


def listening_inodes(pid: int) -> set[str]:
    """The inodes of the listening Unix sockets ``pid`` holds (flag ``__SO_ACCEPTCON`` in
    /proc/net/unix: bound under a temporary name, the path there is not the socket's)."""
    held = {link[len("socket:[") : -1] for link in descriptors(pid) if link.startswith("socket:")}
    listening = set()
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[3], 16) & ACCEPTING and fields[6] in held:
            listening.add(fields[6])
    return listening


async def gone_within(pids: dict[int, str | None], bound: float) -> None:
    """Wait until none of ``pids`` (pid: start time) lives; fails after ``bound`` s."""
    began = time.monotonic()
    while True:
        living = [pid for pid, start in pids.items() if start and started_at(pid) == start]
        if not living:
            return
        assert time.monotonic() - began < bound, f"still alive: {living}"
        await asyncio.sleep(0.05)


async def until_eof(connection: Connection, bound: float) -> None:
    """Read ``connection``'s updates until it ends; fails if it has not after ``bound`` s."""
    async with asyncio.timeout(bound):
        for _ in range(10_000):
            try:
                await connection.unasked()
            except ConnectionError:
                return
    raise AssertionError("the connection never ended")


async def computers_thinking(server: Launched) -> Bot:
    """Ann at a table with two hard computers, once it is a computer's turn."""
    table = await create(server.socket, "ann", HARD_TABLE)
    ann = await Bot.join(server.socket, "ann", table)
    for _ in range(50):
        if ann.state.current_player not in ann.seats:
            return ann
        assert played(await ann.play_one())
    raise AssertionError("never a computer's turn")


# ---------------------------------------------------------------- the tests


async def test_kill_9_of_the_server_alone_takes_its_workers_and_frees_socket_and_store(
    launch,
) -> None:
    """The workers hold none of the server's sockets or store; after a kill -9 of the
    server's main process alone they are gone, its client sees the end, and a new server
    starts on the same socket and store."""
    server = launch()
    await server.answering()
    ann = await computers_thinking(server)
    await asyncio.sleep(0.2)  # a hard decision (up to ~2 s) is under way
    workers = [p for p in children(server.pid) if "spawn_main" in command_line(p)]
    assert len(workers) >= 2, [command_line(p) for p in children(server.pid)]  # quick, deep
    server_links = descriptors(server.pid)
    assert len(listening_inodes(server.pid)) == 1 and str(server.db) in server_links
    for worker in workers:
        links = descriptors(worker)
        assert not [link for link in links if link.startswith("socket:")], links
        assert not [link for link in links if link.startswith(str(server.db))], links
    family = {pid: started_at(pid) for pid in children(server.pid)}  # workers, resource tracker

    server.process.send_signal(signal.SIGKILL)
    server.process.wait(10)
    await gone_within(family, GONE_WITHIN)
    await until_eof(ann.connection, GONE_WITHIN)

    again = launch()  # the killed server's socket file is still there
    took = await again.answering()
    print(f"\nafter kill -9, a new server answered on the same socket and store in {took:.2f} s")
    table = await create(again.socket, "ann", HARD_TABLE)
    assert table == ann.table + 1  # the store is the same one


async def test_sigterm_tells_every_client_why_and_exits_0_without_a_traceback(launch) -> None:
    """SIGTERM while clients are connected (one at a table whose computers think): each
    hears an Error saying the server is stopping; exit code 0; no traceback logged."""
    server = launch()
    await server.answering()
    ann = await computers_thinking(server)
    idle = [await connect(server.socket, name) for name in ("ben", "cleo")]
    lobby = await idle[0].ask(wire.ListTables(idle[0].new_ref()))
    assert isinstance(lobby, wire.Lobby)
    await asyncio.sleep(0.2)

    server.process.send_signal(signal.SIGTERM)
    for connection in [ann.connection, *idle]:
        async with asyncio.timeout(GONE_WITHIN):
            heard = await connection.unasked()
            while not isinstance(heard, wire.Error):  # a move or a seat notice may come first
                heard = await connection.unasked()
        assert heard.ref == 0 and "stopping" in heard.reason, heard
        await until_eof(connection, GONE_WITHIN)
    assert server.exited() == 0, server.stderr()
    log = server.stderr()
    assert "Traceback" not in log and "CancelledError" not in log, log
