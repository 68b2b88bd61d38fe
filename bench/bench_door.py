"""The SSH door (issue 19) end to end: ``mykerinos serve --ssh 127.0.0.1:PORT`` on a
temporary store, reached with the system's OpenSSH client (/usr/bin/ssh) in a real pty
(bench/ptyprobe.py), against the same game started locally on the same server's socket.
Prints figures, asserts none; every comparison is between two figures of the same run.

1. First frame of the lobby at 80×24: seconds from starting ``ssh -t`` until the lobby
   (its title, then its list of tables) is on screen and the output has gone quiet,
   against ``mykerinos --socket`` started in a pty on the same server, interleaved, after
   one warm-up each; medians and spread of RUNS runs. The SSH handshake is timed in the
   same door runs (see :func:`ssh_argv`), so the report can say the door's cost beyond it:
   (door − handshake) / local.
2. Bytes per cursor move in the lobby (3 tables, Down and Up in turn) through the door
   against locally: the bytes the pty receives after each key until quiet. What the ssh
   client writes to its pty is the decrypted stream, so this is what the game itself adds
   (target ≤ 1.1×). The lobby asks for the list every 2 s and repaints what changed (it
   repainted the whole list each time until 16b311e); the moves are sent just after such
   a moment, so that none is counted with a repaint; what an idle lobby sends is printed
   too (what every idle session costs its link).
3. SESSIONS sessions idle at the lobby at once (each of its own player; started 4 at a
   time, the door accepts 10 connections signing in from one address): memory of their
   game processes (the server's children it started for them: PSS from
   /proc/PID/smaps_rollup, and RSS), the server's own RSS before, with them, and after
   they closed; their CPU while idle; and the time for one more session (the 51st) to
   reach its lobby against the first one on the empty door (medians of RUNS). Then
   whether every game left once its client was gone. The memory is read SETTLE seconds
   after the last session reached its lobby: 2 s; longer where the host runs Linux's
   same-page merging (KSM), which merges the games' pages over a minute or more.

Everything runs on this machine's cores: the ssh clients, the door, the games and this
script share them (the load average is printed at the start and the end).

Run: .venv/bin/python bench/bench_door.py [--runs 5] [--sessions 50] [--moves 20] [--quick]
     [--settle SECONDS] [--cold]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import os
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ptyprobe import ProbeError, Terminal  # bench/, this script's folder, is first on sys.path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from table import protocol as wire  # noqa: E402 - after the path, like the other benches
from table.client.connection import connect  # noqa: E402
from table.host.players import Players  # noqa: E402

MYKERINOS = str(Path(sys.executable).parent / "mykerinos")
SSH = "/usr/bin/ssh"
SSH_KEYGEN = "/usr/bin/ssh-keygen"
HOST = "127.0.0.1"
COLS, ROWS = 80, 24
PLAYER = "ann"
"""The player of parts 1 and 2, through the door (by her key) and locally (named by
this login, a trusted account): both see the very same lobby."""
MAKER = "cleo"
"""Who created the tables: to ``ann``, each has a free seat, from either side."""
TABLES = 3
LOBBY = "Tables on the server"
LISTED = "a seat is free"
"""The lobby's detail line once its list of tables is drawn (the cursor on one)."""
AUTHENTICATED = "Authenticated to"
"""What the ssh client says (LogLevel=VERBOSE) once the door accepted its key."""
SETTLED = 0.3
"""Seconds without output after which a first frame is settled (the lobby's repaint
comes 2 s after it opens, well after that)."""
MOVE_QUIET = 0.15
"""Seconds without output after which a cursor move is drawn (as bench_tui.py)."""
REPAINT = 2.0
"""Seconds between two of the lobby's own repaints (tui.screens.lobby.REFRESH)."""
MOVE_WINDOW = 1.2
"""Moves are sent at most this long after a repaint ended (a move takes < 0.3 s)."""
BATCH = 4
"""Sessions started at once in part 3 (the door lets 10 from one address sign in)."""
START_LIMIT = 30.0
LOBBY_LIMIT = 60.0
GONE_LIMIT = 10.0
"""Bounds on the waits (never timings: a wait that reaches one stops the bench)."""
MB = 1024 * 1024
TICKS = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- the terminal


class Probe(Terminal):
    """A ptyprobe terminal that knows when the program last wrote."""

    def __init__(
        self,
        command: Sequence[str],
        timeout: float = LOBBY_LIMIT,
        *,
        size: tuple[int, int] = (COLS, ROWS),
        env: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(command, cols=size[0], rows=size[1], env=env, timeout=timeout)
        self.last_write = self.since
        self.gone = False
        self.closed = False
        self._text_at = -1
        self._text = ""

    def _pump(self, deadline: float) -> bool | None:
        wrote = super()._pump(deadline)
        if wrote:
            self.last_write = time.monotonic()
        elif wrote is False:
            self.gone = True
        return wrote

    def close(self) -> None:
        """ptyprobe's close, once."""
        if not self.closed:
            self.closed = True
            super().close()

    def text(self) -> str:
        """:meth:`screen_text`, worked out again only when something new was written."""
        if self._text_at != len(self.output):
            self._text_at, self._text = len(self.output), self.screen_text()
        return self._text

    def repaint(self) -> int:
        """Until the lobby's next repaint is over, its bytes; 0 when it sends nothing
        over a whole :data:`REPAINT` period and a little more (nothing changed)."""
        start, deadline = len(self.output), time.monotonic() + REPAINT + 0.5
        while len(self.output) == start:
            if time.monotonic() > deadline or self._pump(deadline) is False:
                self.last_write = time.monotonic()  # the moves' window starts now
                return 0
        while time.monotonic() - self.last_write < MOVE_QUIET:
            if self._pump(self.last_write + MOVE_QUIET) is False:
                break
        return len(self.output) - start


def pump(terminals: Sequence[Probe], seconds: float) -> None:
    """Read whatever any of ``terminals`` wrote, waiting up to ``seconds`` for some (an
    idle session must be read: a full pty would stall its ssh client, then its game)."""
    fds = {t.fd: t for t in terminals if not (t.gone or t.closed)}
    if not fds:
        time.sleep(seconds)
        return
    ready, _, _ = select.select(list(fds), [], [], seconds)
    now = time.monotonic()
    for fd in ready:
        fds[fd]._pump(now)


@dataclass(frozen=True)
class Arrival:
    """Seconds from starting the client: to its key accepted (None: not asked), and to
    the lobby on screen with its tables, settled."""

    authenticated: float | None
    lobby: float


def reach_lobby(term: Probe, others: Sequence[Probe] = ()) -> Arrival:
    """Wait until ``term`` shows the settled lobby, reading ``others`` meanwhile."""
    deadline = time.monotonic() + LOBBY_LIMIT
    authenticated: float | None = None
    while True:
        pump([term, *others], 0.01)
        now = time.monotonic()
        text = term.text()
        if authenticated is None and AUTHENTICATED in text:
            authenticated = now - term.since
        if LOBBY in text and LISTED in text and now - term.last_write >= SETTLED:
            return Arrival(authenticated, term.last_write - term.since)
        if term.gone or now > deadline:
            state = "ended" if term.gone else f"not settled within {LOBBY_LIMIT:g} s"
            raise ProbeError(f"no lobby ({state}): {text[-300:]!r}")


def close_all(terminals: Sequence[Probe]) -> None:
    """SIGTERM every client at once, then reap each (ptyprobe's close)."""
    for term in terminals:
        if not term.closed:
            with contextlib.suppress(ProcessLookupError):
                os.kill(term.pid, signal.SIGTERM)
    for term in terminals:
        term.close()


# ---------------------------------------------------------------- processes


def children(pid: int) -> set[int]:
    """Every process below ``pid``."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{parent}/task"):
                with contextlib.suppress(OSError):
                    for word in Path(f"/proc/{parent}/task/{task}/children").read_text().split():
                        if int(word) not in found:
                            found.add(int(word))
                            todo.append(int(word))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def memory(pid: int, field: str) -> int:
    """``field`` (``Rss``, ``Pss``…) of /proc/PID/smaps_rollup, in bytes (0: gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) * 1024
    return 0


def cpu(pid: int) -> float:
    """Seconds of CPU ``pid`` used so far (user and system), 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


# ---------------------------------------------------------------- the door


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


class Door:
    """``mykerinos serve --ssh 127.0.0.1:PORT`` on a store of its own in ``folder``."""

    GAME = "--save-dir"
    """A word of its game processes' command lines (not of its computer players')."""

    def __init__(self, folder: Path, cold: bool = False) -> None:
        """``cold``: each session a new interpreter (``serve --cold-sessions``), as before
        issue 29, instead of a fork of the doors' warm process."""
        self.folder = folder
        self.cold = cold
        self.socket = folder / "t.sock"
        self.db = folder / "tables.db"
        self.log = folder / "server.log"
        self.known_hosts = folder / "known_hosts"
        self.keys = folder / "keys"
        self.keys.mkdir()
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.seen: set[int] = set()
        """Every process of the server's ever seen, to be sure none is left at the end."""

    def start(self) -> None:
        """Start the server and wait for its socket (it appears once the door listens);
        :meth:`stop` ends it, even when this failed."""
        for _attempt in range(3):  # another program may take the free port first
            self.port = free_port()
            if self.serve(["--ssh", f"{HOST}:{self.port}"], self.socket.exists):
                kind, blob = (self.folder / "ssh_host_ed25519_key.pub").read_text().split()[:2]
                self.known_hosts.write_text(f"[{HOST}]:{self.port} {kind} {blob}\n")
                return
            if "in use" not in self.log.read_text():
                break
        raise ProbeError(f"the server did not start: {self.log.read_text()}")

    def serve(self, door: Sequence[str], ready: Callable[[], bool]) -> bool:
        """Start ``mykerinos serve`` with the options of ``door``, and wait until it is
        ``ready`` (bounded); whether it still runs then."""
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [MYKERINOS, "serve", "--socket", str(self.socket), "--db", str(self.db),
                 *door, "--trust-account", getpass.getuser(), "--max-connections", "1000",
                 *(["--cold-sessions"] if self.cold else [])],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=ROOT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + START_LIMIT
        while not ready() and self.process.poll() is None:
            if time.monotonic() > deadline:
                raise ProbeError(f"the server never listened: {self.log.read_text()}")
            time.sleep(0.02)
        return self.process.poll() is None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def games(self) -> set[int]:
        """The live game processes of the door's sessions: the server's children whose
        command line has :attr:`GAME` (here, those given a ``--save-dir``: ``python -I -m
        tui.door --socket … --save-dir …``, whatever the module's name; not its computer
        players, nor a ``status``)."""
        found = children(self.pid)
        self.seen |= found
        return {p for p in found if self.GAME in command_line(p).split() and alive(p)}

    def wait_gone(self, games: set[int], others: Sequence[Probe] = ()) -> tuple[float, set[int]]:
        """Until ``games`` have all left (bounded): seconds taken, and those still there."""
        started = time.monotonic()
        while time.monotonic() - started < GONE_LIMIT:
            left = {p for p in games if alive(p)}
            if not left:
                break
            pump(others, 0.02)
        return time.monotonic() - started, {p for p in games if alive(p)}

    def add_player(self, name: str) -> Path:
        """A new key, made ``name``'s with ``mykerinos players add``; its private file."""
        key = self.new_key(name)
        done = subprocess.run(
            [MYKERINOS, "players", "add", name, f"{key}.pub", "--db", str(self.db)],
            capture_output=True, text=True, timeout=START_LIMIT, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise ProbeError(f"players add {name}: {done.stderr.strip()}")
        return key

    def add_players(self, names: Sequence[str]) -> list[Path]:
        """New keys for ``names``, added in one go with the API ``players add`` uses
        (51 starts of the command would cost a quarter of a minute)."""
        keys = [self.new_key(name) for name in names]
        with Players(self.db) as players:
            for name, key in zip(names, keys, strict=True):
                players.add(name, Path(f"{key}.pub").read_text())
        return keys

    def new_key(self, name: str) -> Path:
        path = self.keys / name
        subprocess.run(
            [SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)],
            check=True, timeout=START_LIMIT, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        return path

    def ssh_argv(self, key: Path, *, handshake: bool = False) -> list[str]:
        """The client, told everything on its command line (nothing of ~/.ssh is read).

        With ``handshake``, it logs at VERBOSE level, so it writes "Authenticated to …"
        to the pty the moment the door accepted its key: the handshake is then timed in
        the very run whose lobby is timed, from the same start, on the same load. It
        covers the client's own start, TCP, the key exchange, the host key's check and
        the public-key authentication (the door looks up the key's owner); what follows
        (the session channel, the pty, the game's start and first frame) is the door's.
        A separate ``ssh host status`` would time a Python process the door starts as
        well, and ``ssh -N`` a run other than the one measured.
        """
        return [
            SSH, "-F", "/dev/null", "-o", f"UserKnownHostsFile={self.known_hosts}",
            "-o", "GlobalKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=yes",
            "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none",
            "-o", "ControlMaster=no", "-o", "ControlPath=none", "-o", "BatchMode=yes",
            "-o", f"LogLevel={'VERBOSE' if handshake else 'ERROR'}",
            "-i", str(key), "-p", str(self.port), "-t", HOST,
        ]  # fmt: skip

    def local_argv(self) -> list[str]:
        return [
            MYKERINOS, "--socket", str(self.socket), "--player", PLAYER,
            "--save-dir", str(self.folder / "saves"),
        ]  # fmt: skip

    def rss(self) -> int:
        return memory(self.pid, "Rss")

    def warm_pss(self) -> int | None:
        """PSS of the doors' warm process (``python -I -m tui.zygote``), the sessions'
        parent; None when there is none (``--cold-sessions``)."""
        found = [p for p in children(self.pid) if "-m tui.zygote" in command_line(p)]
        return memory(found[0], "Pss") if found else None

    def failures(self) -> list[str]:
        """The log's lines about sessions that failed."""
        lines = self.log.read_text(errors="replace").splitlines()
        return [line for line in lines if "failed" in line or "Traceback" in line]

    def stop(self) -> set[int]:
        """SIGTERM the server (SIGKILL its group if it lingers), then any process of its
        still there; returns those that were still there."""
        if self.process is None:
            return set()
        self.seen |= children(self.pid)
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.pid, signal.SIGKILL)
                self.process.wait(10)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and any(alive(p) for p in self.seen):
            time.sleep(0.05)
        left = {p for p in self.seen if alive(p)}
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        return left


async def make_tables(path: Path, count: int) -> None:
    """``count`` tables of ``MAKER``'s on the server at ``path``, each with a seat open."""
    connection = await connect(path, MAKER)
    seats = (wire.SeatSpec("player", MAKER), wire.SeatSpec("open"))
    for i in range(count):
        answer = await connection.ask(
            wire.CreateTable(connection.new_ref(), seats, title=f"bench {i + 1}")
        )
        if not isinstance(answer, wire.Lobby):
            raise ProbeError(f"the table was not created: {answer!r}")
    await connection.close()


def create_tables(door: Door, count: int = TABLES) -> None:
    """``count`` tables of ``MAKER``'s, each with a seat open."""
    asyncio.run(make_tables(door.socket, count))


# ---------------------------------------------------------------- the parts


def spread(values: Sequence[float], scale: float = 1000.0) -> str:
    """``median (min–max)``, in ms by default."""
    return (
        f"{statistics.median(values) * scale:.0f} ms "
        f"({min(values) * scale:.0f}–{max(values) * scale:.0f})"
    )


def print_memory(
    pss: Sequence[int],
    rss: Sequence[int],
    server: Sequence[int],
    sessions: int,
    warm: int | None = None,
) -> None:
    """The games' PSS and RSS, and the ``server``'s RSS at its start, after a warm-up
    session, with ``sessions`` sessions, after they closed (part 3, and bench_web's);
    the PSS of the warm process that forked the games (``warm``), and what it adds to
    each of them."""
    start, before, with_them, after = server
    print(
        f"   per game process: PSS {statistics.mean(pss) / MB:.1f} MB (sum {sum(pss) / MB:.0f} "
        f"MB), RSS {statistics.mean(rss) / MB:.1f} MB (min {min(rss) / MB:.1f}, max "
        f"{max(rss) / MB:.1f})"
    )
    print(
        f"   server RSS: {start / MB:.1f} MB at start, {before / MB:.1f} MB after a "
        f"warm-up session, {with_them / MB:.1f} MB with {sessions} sessions "
        f"({(with_them - before) / max(sessions, 1) / 1024:.0f} KB per session), "
        f"{after / MB:.1f} MB after they closed"
    )
    if warm is not None:
        print(
            f"   the warm process that forked them: PSS {warm / MB:.1f} MB, "
            f"{warm / max(sessions, 1) / MB:.2f} MB per session; per game process with it: "
            f"{(statistics.mean(pss) + warm / max(sessions, 1)) / MB:.1f} MB"
        )


def one_session(door: Door, argv: Sequence[str], others: Sequence[Probe] = ()) -> Arrival:
    """Start ``argv`` in a pty until its lobby, close it, wait until its game left."""
    before = door.games()
    term = Probe(argv)
    try:
        arrival = reach_lobby(term, others)
    finally:
        new = door.games() - before
        term.close()
    _seconds, left = door.wait_gone(new, others)
    if left:
        print(f"  !! {len(left)} game process(es) still there {GONE_LIMIT:g} s after ssh ended")
    return arrival


def first_frame(door: Door, key: Path, runs: int, cold: Door, cold_key: Path) -> None:
    """Part 1: the door (its sessions forked by its warm process), the same door with
    each session a new interpreter (``cold``, another server: as before issue 29), and
    the game started locally, interleaved."""
    sides = {
        "forked": (door, door.ssh_argv(key, handshake=True)),
        "new interpreter": (cold, cold.ssh_argv(cold_key, handshake=True)),
    }
    local_argv = door.local_argv()
    for server, argv in sides.values():  # warm-up: bytecode caches, disk cache, imports
        one_session(server, argv)
    one_session(door, local_argv)
    through: dict[str, list[Arrival]] = {side: [] for side in sides}
    local: list[float] = []
    for _ in range(runs):  # interleaved, so that all see the same load
        for side, (server, argv) in sides.items():
            through[side].append(one_session(server, argv))
        local.append(one_session(door, local_argv).lobby)
    med = statistics.median
    print(f"1. first frame of the lobby, {COLS}×{ROWS}, {runs} runs, median (min–max):")
    print(f"   local {spread(local)}")
    for side, arrivals in through.items():
        lobby = [a.lobby for a in arrivals]
        handshake = [a.authenticated for a in arrivals if a.authenticated is not None]
        if len(handshake) != len(arrivals):
            raise ProbeError("the ssh client never said it was authenticated")
        beyond = [a.lobby - h for a, h in zip(arrivals, handshake, strict=True)]
        print(f"   through the door, game {side}: {spread(lobby)}; of which SSH handshake "
              f"{spread(handshake)}; beyond the handshake {spread(beyond)}")  # fmt: skip
        print(
            f"     ratios of the medians: door / local {med(lobby) / med(local):.2f}, "
            f"(door − handshake) / local {med(beyond) / med(local):.2f}"
        )


def moves(term: Probe, count: int) -> tuple[list[int], list[int]]:
    """Bytes of ``count`` cursor moves (Down, Up, …), and of the repaints between them."""
    sizes: list[int] = []
    repaints: list[int] = []
    while len(sizes) < count:
        repaints.append(term.repaint())
        painted = term.last_write
        while len(sizes) < count and time.monotonic() - painted < MOVE_WINDOW:
            term.key("down" if len(sizes) % 2 == 0 else "up")
            step = term.quiet(MOVE_QUIET)
            if term.last_write - painted > REPAINT - 0.2:
                raise ProbeError("a move was drawn so late that a repaint may be in its bytes")
            sizes.append(step.bytes)
    return sizes, repaints


def move_bytes(door: Door, key: Path, count: int) -> None:
    results: dict[str, tuple[list[int], list[int]]] = {}
    for side, argv in (("door", door.ssh_argv(key)), ("local", door.local_argv())):
        before = door.games()
        term = Probe(argv)
        try:
            reach_lobby(term)
            results[side] = moves(term, count)
        finally:
            new = door.games() - before
            term.close()
        door.wait_gone(new)
    (door_moves, door_repaints), (local_moves, local_repaints) = results["door"], results["local"]
    d, loc = statistics.mean(door_moves), statistics.mean(local_moves)
    print(f"2. bytes per cursor move in the lobby ({TABLES} tables, {count} moves, Down/Up):")
    for side, sizes in (("through the door", door_moves), ("local", local_moves)):
        print(
            f"   {side}: mean {statistics.mean(sizes):.0f}, median "
            f"{statistics.median(sizes):.0f}, min {min(sizes)}, max {max(sizes)}"
        )
    print(f"   ratio door / local of the means {d / loc:.3f} (target <= 1.1)")
    print(
        f"   an idle lobby, every {REPAINT:g} s: median "
        f"{statistics.median(door_repaints):.0f} bytes through the door, "
        f"{statistics.median(local_repaints):.0f} local"
    )


def crowd(
    folder: Path, sessions: int, runs: int, idle: float, cold: bool = False, settle: float = 2.0
) -> None:
    """Part 3, on a server of its own (``cold``: each session a new interpreter); the
    memory is read ``settle`` seconds after the last session reached its lobby."""
    door = Door(folder, cold)
    opened: list[Probe] = []
    try:
        door.start()
        create_tables(door)
        names = [f"p{i:03d}" for i in range(sessions)]
        keys = door.add_players(["warm", "first", "last", *names])
        warm, first, last, keys = keys[0], keys[1], keys[2], keys[3:]
        rss_start = door.rss()
        one_session(door, door.ssh_argv(warm))  # warm-up, as in part 1
        rss_before = door.rss()
        firsts = [one_session(door, door.ssh_argv(first)).lobby for _ in range(runs)]

        started = time.monotonic()
        refused: list[str] = []
        for i in range(0, sessions, BATCH):
            batch = [Probe(door.ssh_argv(k)) for k in keys[i : i + BATCH]]
            opened.extend(batch)
            for term, name in zip(batch, names[i : i + BATCH], strict=True):
                try:
                    reach_lobby(term, opened)
                except ProbeError as exc:  # said below: the others go on
                    refused.append(f"{name}: {exc}")
        took = time.monotonic() - started
        games = door.games()
        if not games:
            raise ProbeError("no game process found among the server's children")
        end = time.monotonic() + settle  # the last ones finish their start (KSM merges)
        while time.monotonic() < end:
            pump(opened, 0.05)

        pss = [memory(p, "Pss") for p in games]
        rss = [memory(p, "Rss") for p in games]
        rss_with = door.rss()
        warm_pss = door.warm_pss()
        idle_from = time.monotonic()
        cpu_before = sum(cpu(p) for p in games), cpu(door.pid)
        received = sum(len(t.output) for t in opened)
        watch_from = time.monotonic()
        while time.monotonic() - watch_from < idle:
            pump(opened, 0.05)
        window = time.monotonic() - watch_from
        games_cpu = (sum(cpu(p) for p in games) - cpu_before[0]) / window
        server_cpu = (cpu(door.pid) - cpu_before[1]) / window
        sent = (sum(len(t.output) for t in opened) - received) / window

        lasts = [one_session(door, door.ssh_argv(last), opened).lobby for _ in range(runs)]
        rss_later = [memory(p, "Rss") for p in games]
        rss_with_later = door.rss()
        idle_for = time.monotonic() - idle_from

        ended = time.monotonic()
        close_all(opened)
        _seconds, left = door.wait_gone(games)
        gone_in = time.monotonic() - ended
        settle = time.monotonic() + 2.0
        while time.monotonic() < settle:
            time.sleep(0.1)
        rss_after = door.rss()
        failures = door.failures()
    finally:
        close_all(opened)
        stray = door.stop()

    n = len(games)
    how = "each a new interpreter (as before issue 29)" if cold else "forked by the warm process"
    print(f"3. {sessions} door sessions idle at the lobby, {how} ({n} game processes found),")
    print("   started", end="")
    print(f" {BATCH} at a time in {took:.1f} s; {len(refused)} never showed the lobby")
    for line in refused[:5]:
        print(f"   | {line}")
    print_memory(pss, rss, (rss_start, rss_before, rss_with, rss_after), n, warm_pss)
    print(
        f"   over {idle_for:.0f} s idle: games' RSS in all {sum(rss) / MB:.1f} MB → "
        f"{sum(rss_later) / MB:.1f} MB, server's {rss_with / MB:.1f} MB → "
        f"{rss_with_later / MB:.1f} MB"
    )
    print(
        f"   idle over {window:.1f} s: games {games_cpu * 100:.1f} % of a core in all, "
        f"server {server_cpu * 100:.1f} %; {sent / 1024:.1f} KB/s to the clients in all"
    )
    print(
        f"   time to the lobby, {runs} runs: first session on the empty door "
        f"{spread(firsts)}, one more with {sessions} idle {spread(lasts)}: ratio of the "
        f"medians {statistics.median(lasts) / statistics.median(firsts):.2f}"
    )
    print(
        f"   after SIGTERM to the {sessions} clients: games gone in {gone_in:.2f} s, "
        f"{len(left)} left after {GONE_LIMIT:g} s; processes of the server left at its "
        f"stop: {len(stray)}; lines about failed sessions in its log: {len(failures)}"
    )
    for line in failures[:5]:
        print(f"   | {line}")


# ---------------------------------------------------------------- main


@contextlib.contextmanager
def clean_environment(folder: Path) -> Iterator[None]:
    """What the door gives its games, for every program started here: TERM (ptyprobe
    sets it), LANG=C.UTF-8, no COLORTERM (the ssh client does not send it, and it would
    change the colour sequences the local game writes), Python's default bytecode
    caching, and a home of its own (nothing of the user's settings, ssh or game)."""
    saved = dict(os.environ)
    for name in list(os.environ):
        if name.startswith(("PYTHON", "MYKERINOS", "SSH_", "TEXTUAL", "LC_")) or name in (
            "COLORTERM", "NO_COLOR", "COLUMNS", "LINES", "ESCDELAY",
        ):  # fmt: skip
            del os.environ[name]
    os.environ["LANG"] = "C.UTF-8"
    for name, sub in (("HOME", "home"), ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                      ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache"),
                      ("XDG_RUNTIME_DIR", "run")):  # fmt: skip
        (folder / sub).mkdir(parents=True, mode=0o700)
        os.environ[name] = str(folder / sub)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="runs of each timing (default 5)")
    parser.add_argument("--sessions", type=int, default=50, help="idle sessions (default 50)")
    parser.add_argument("--moves", type=int, default=20, help="cursor moves (default 20)")
    parser.add_argument("--quick", action="store_true", help="2 runs, 10 sessions, 6 moves")
    parser.add_argument(
        "--settle", type=float, default=2.0,
        help="seconds idle before part 3 reads the memory (default 2; for KSM, a few minutes)",
    )  # fmt: skip
    parser.add_argument(
        "--cold", action="store_true",
        help="part 3 again with each session a new interpreter (as before issue 29)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.quick:
        args.runs, args.sessions, args.moves = 2, 10, 6
    if not os.access(SSH, os.X_OK) or not os.access(SSH_KEYGEN, os.X_OK):
        print(f"bench_door: skipped, it needs the OpenSSH client ({SSH}, {SSH_KEYGEN})")
        return
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load}; {sys.executable}")
    print(f"{ssh_version()}; runs {args.runs}, sessions {args.sessions}, moves {args.moves}")
    print(f"{same_page_merging()}; part 3 reads the memory {args.settle:g} s after the last lobby")
    with (
        tempfile.TemporaryDirectory(prefix="myk-bd-", dir="/tmp") as name,
        clean_environment(Path(name) / "env"),
    ):
        folder = Path(name)
        (folder / "one").mkdir()
        (folder / "cold").mkdir()
        door, cold = Door(folder / "one"), Door(folder / "cold", cold=True)
        try:
            for server in (door, cold):
                server.start()
                create_tables(server)
            key, cold_key = door.add_player(PLAYER), cold.add_player(PLAYER)
            first_frame(door, key, args.runs, cold, cold_key)
            move_bytes(door, key, args.moves)
        finally:
            stray = door.stop() | cold.stop()
        if stray:
            print(f"   !! {len(stray)} process(es) of the server were left at its stop")
        for how in ("forked", "cold") if args.cold else ("forked",):
            (folder / f"many-{how}").mkdir()
            crowd(folder / f"many-{how}", args.sessions, args.runs,
                  idle=3.0 if args.quick else 6.0, cold=how == "cold",
                  settle=args.settle)  # fmt: skip
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at the end {load}")


def same_page_merging() -> str:
    """Whether Linux's same-page merging (KSM) runs, which the doors' warm process offers
    its games' memory to (/sys/kernel/mm/ksm/run; the host's setting, 1: it runs)."""
    try:
        run = Path("/sys/kernel/mm/ksm/run").read_text().strip()
    except OSError:
        return "same-page merging (KSM): not in this kernel"
    return f"same-page merging (KSM): {'runs' if run == '1' else 'does not run'} (run={run})"


def ssh_version() -> str:
    done = subprocess.run([SSH, "-V"], capture_output=True, text=True, check=False)
    return done.stderr.strip().split(",")[0]


if __name__ == "__main__":
    main()
