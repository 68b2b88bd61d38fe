"""The table server while one name floods it: what the flood costs the players at another
table, who did nothing wrong. Prints figures, asserts none.

The victim: a 4-player table of three protocol-level clients (ann, ben, cleo; each deciding
client-side with the ``normal`` computer player after a short think, as in bench_table.py)
and one of the server's own computer players (``normal``; ``--computer easy``). Measured:

- round trip: a victim sends a Play → the update has reached all three victim clients;
- the computer's reply: the action before the computer's turn acknowledged → the
  computer's move told to all three clients (a computer acting twice in a row: from its
  previous action).

The flood, all of it from one other name (mallory) on the same server, set up in this order
(so that per-name limits on tables and connections cannot be spent before the later kinds
of flood are tried):

- hard tables: [mallory, computer hard, computer hard]; mallory joins and hands her seat to
  a hard computer, so that the server's computer players never rest;
- half requests: connections that send a frame header promising 100 bytes and only 10 of
  them, then hold (half of them before their hello, half after it);
- idle connections: hundreds of connections that say hello, then nothing;
- a creation burst: tables created as fast as several connections can ask (new ones; if
  those are refused, the flooder's open ones), bounded in attempts and in time, while the
  victim plays.

The victim first plays as long alone, on a fresh server; both runs are printed side by side
with their ratio and the issue's targets (victim p99 ≤ 50 ms; easy/normal computer replies
within 1 s under the flood). Refusals (a per-name table limit, a connection limit, a request
deadline) and connections the server closes are counted and printed, never fatal. Every
loop is bounded in count and time; everything lives in one short /tmp folder; the servers
(and their computer-player workers) are stopped at the end, on Ctrl+C or SIGTERM too.
Few samples are a finding too: a victim whose computer waits behind the hard tables plays
few moves, so its counts are printed beside its percentiles.

All the clients run in this one process, on the same cores as the server: the flooder's own
CPU is part of the flood, as it would be on a shared host. Identity: the server trusts this
login (``--trust-account``), so each client names its player in its hello.

Run: .venv/bin/python bench/bench_table_flood.py [--quick] [--computer easy|normal]
     [--workers N]   (about 1.5 minutes; --quick: about 10 s, for a smoke run)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_table import Player, decide, move_of, percentile  # noqa: E402

import core  # noqa: E402 - after the path, like the other benches
from core.ai import Level  # noqa: E402
from table import protocol as wire  # noqa: E402
from table.client.connection import Connection, Refused, connect, read_message  # noqa: E402

FLOODER = "mallory"
FLOODER_FRIEND = "oscar"
"""The other seat of the burst's tables (a table needs two; nobody ever comes)."""
VICTIMS = ("ann", "ben", "cleo")

TARGET_ROUND_TRIP = 0.050
"""The victim's p99 round trip under the flood, seconds (the issue's target)."""
TARGET_COMPUTER = 1.0
"""An easy or normal computer's reply under the flood, seconds (the issue's target)."""

START_WITHIN = 20.0
"""Seconds a server has to create its socket."""
CONNECT_WITHIN = 5.0
"""Seconds a connection has to be welcomed before it counts as not answered."""
ANSWER_WITHIN = 15.0
"""Seconds a request of the victim or of the flooder's set-up waits for its answer."""
BATCH = 50
"""Idle connections opened at once."""
HALF_PROMISED = 100
HALF_SENT = b'{"t":"list'
"""A half request: a header promising HALF_PROMISED bytes, then only these 10."""


@dataclass(frozen=True)
class Plan:
    """How long and how big: the full run or the quick one."""

    seconds: float
    """The victim plays this long, alone, then under the flood."""
    grace: float
    """Beyond ``seconds``, how long an answer already due is still awaited."""
    setup_seconds: float
    """The most the flood's set-up (hard tables, idle and half connections) may take."""
    create_attempts: int
    create_seconds: float
    creators: int
    """Connections asking for tables at once in the burst."""
    idle: int
    half: int
    hard_tables: int
    think: float
    """Seconds a victim thinks before sending its action (not part of the round trip)."""


FULL = Plan(
    seconds=40, grace=15, setup_seconds=20, create_attempts=3000, create_seconds=10,
    creators=8, idle=300, half=50, hard_tables=6, think=0.1,
)  # fmt: skip
QUICK = Plan(
    seconds=4, grace=3, setup_seconds=5, create_attempts=200, create_seconds=2,
    creators=2, idle=20, half=6, hard_tables=1, think=0.05,
)  # fmt: skip


def reason(exc: BaseException) -> str:
    """An error in a few words, for counting alike errors together."""
    return f"{type(exc).__name__}: {exc}"[:100] if str(exc) else type(exc).__name__


class Tally:
    """Reasons counted together when they differ only in their numbers ("you have 21
    tables" and "you have 22 tables"), each shown by its first example."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.examples: dict[str, str] = {}

    def add(self, reason: str) -> None:
        key = re.sub(r"\d+(\.\d+)?", "#", reason)
        self.counts[key] += 1
        self.examples.setdefault(key, reason)

    def total(self) -> int:
        return sum(self.counts.values())

    def common(self) -> list[tuple[int, str]]:
        """(count, first example), the most frequent first."""
        return [(n, self.examples[key]) for key, n in self.counts.most_common()]

    def describe(self, shown: int = 3) -> str:
        common = self.common()
        words = "; ".join(f"{n} × {example}" for n, example in common[:shown])
        more = len(common) - shown
        return words + (f"; and {more} other reasons" if more > 0 else "")


async def ask(connection: Connection, message: wire.ClientMessage) -> wire.ServerMessage:
    """``connection.ask``, but ``TimeoutError`` after :data:`ANSWER_WITHIN` seconds."""
    return await asyncio.wait_for(connection.ask(message), ANSWER_WITHIN)


async def dial(socket: Path, player: str) -> Connection:
    return await asyncio.wait_for(connect(socket, player), CONNECT_WITHIN)


# ---------------------------------------------------------------- the server


class ServerProcess:
    """``python -m table.serve`` in a session of its own, so that stopping it stops its
    computer-player workers too, however busy they are."""

    def __init__(self, folder: Path, workers: int | None) -> None:
        self.socket = folder / "t.sock"
        self.log = folder / "server.log"
        command = [sys.executable, "-m", "table.serve", "--socket", str(self.socket),
                   "--db", str(folder / "t.db"), "--trust-account", getpass.getuser()]  # fmt: skip
        if workers:
            command += ["--workers", str(workers)]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True
            )
        deadline = time.monotonic() + START_WITHIN
        while not self.socket.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not start: {self.last_words()}")
            time.sleep(0.02)

    def exit_code(self) -> int | None:
        return self.process.poll()

    def last_words(self, lines: int = 5) -> str:
        with contextlib.suppress(OSError):
            return " | ".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        return "(no log)"

    def why_gone(self) -> str | None:
        """None while the server serves; else its exit code and what it said last."""
        code = self.exit_code()
        if code is None:
            return None
        said = self.log.read_text(errors="replace") if self.log.exists() else ""
        if code == 0 and "stopping" in said:  # it stops so on SIGTERM or SIGINT only
            return "exit code 0: it was sent SIGTERM or SIGINT by another process"
        return f"exit code {code}: {self.last_words()}"

    def rss(self) -> int:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def stop(self) -> None:
        """SIGTERM to the server's group, SIGKILL to what is left 3 s later. The server is
        reaped only after both, so that its group id cannot have been reused meanwhile."""
        group = self.process.pid
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGTERM)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and not self._exited_unreaped():
            time.sleep(0.05)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)
        self.process.wait(10)

    def _exited_unreaped(self) -> bool:
        if self.process.returncode is not None:
            return True
        flags = os.WEXITED | os.WNOHANG | os.WNOWAIT
        with contextlib.suppress(ChildProcessError):
            return os.waitid(os.P_PID, self.process.pid, flags) is not None
        return True


# ---------------------------------------------------------------- the victim


@dataclass
class VictimFigures:
    trips: list[tuple[float, float]] = field(default_factory=list)
    """(when the Play was sent, its round trip), seconds."""
    replies: list[float] = field(default_factory=list)
    """The computer's reply times, seconds."""
    awaited: list[float] = field(default_factory=list)
    """Computer replies still missing at the end: how long they had been awaited."""
    tables: int = 0
    server_gone_after: float | None = None
    """Seconds into the run when the victims found the server gone (None: it stayed)."""
    errors: Tally = field(default_factory=Tally)


class Refusal(Exception):
    """The server refused a victim's request (``str``: its reason)."""


def refusal(answer: wire.ServerMessage) -> Refusal:
    if isinstance(answer, wire.Error):
        return Refusal(f"refused: {answer.reason}")
    return Refusal(f"answered with {type(answer).__name__}")


class Victim(Player):
    """A client of the victim table (bench_table's Player) that also keeps an update that
    overtakes the answer to its own Play (the computer acting at once after it: its
    Told can reach the listener before the answer reaches the player) until its turn."""

    def __init__(self, connection: Connection, seed: int) -> None:
        super().__init__(connection, seed)
        self.early: dict[int, wire.ServerMessage] = {}

    def hear(self, message: wire.ServerMessage) -> None:
        move = move_of(message)
        if move is not None and move.seq > len(self.actions):
            self.early[move.seq] = message
            return
        super().hear(message)
        while len(self.actions) in self.early:
            super().hear(self.early.pop(len(self.actions)))


async def listen(player: Player) -> None:
    """``player`` hears every update; at the end of its connection it wakes its waiter."""
    try:
        while True:
            player.hear(await player.connection.unasked())
    except ConnectionError:
        player.heard.set()


async def heard_by_all(players: Sequence[Player], seq: int, until: float) -> bool:
    """Wait until action ``seq`` has reached every player (True) or ``until`` passes
    (False); ``ConnectionError`` if a connection ends first."""

    async def one(player: Player) -> None:
        while len(player.actions) <= seq:
            if player.connection.closed_reason is not None:
                name, why = player.connection.player, player.connection.closed_reason
                raise ConnectionError(f"{name}: {why}")
            player.heard.clear()
            await player.heard.wait()

    try:
        await asyncio.wait_for(
            asyncio.gather(*(one(p) for p in players)), max(0.0, until - time.perf_counter())
        )
    except TimeoutError:
        return False
    return True


async def sit_victims(socket: Path, computer: Level) -> list[Victim]:
    """The victims at a new table of their own, with the server's computer in seat 4."""
    players: list[Victim] = []
    try:
        for index, name in enumerate(VICTIMS):
            players.append(Victim(await dial(socket, name), index))
        maker = players[0].connection
        seats = (
            *(wire.SeatSpec("player", name) for name in VICTIMS),
            wire.SeatSpec("computer", None, computer),
        )
        lobby = await ask(maker, wire.CreateTable(maker.new_ref(), seats))
        if not isinstance(lobby, wire.Lobby):
            raise refusal(lobby)
        for player in players:
            join = wire.Join(player.connection.new_ref(), lobby.tables[0].id)
            snapshot = await ask(player.connection, join)
            if not isinstance(snapshot, wire.Snapshot):
                raise refusal(snapshot)
            player.take(snapshot)
    except BaseException:
        await asyncio.gather(*(p.connection.close() for p in players))
        raise
    return players


async def play_victims(
    players: Sequence[Player], plan: Plan, pool: Executor, stop: float, figures: VictimFigures
) -> None:
    """Play until ``stop`` (an answer already due: until ``stop + grace``) or the end of
    the game, measuring every round trip and every reply of the computer."""
    loop = asyncio.get_running_loop()
    known: float | None = None  # when the last action was acknowledged (None: before any)
    while not core.is_over(players[0].states[-1]):
        state, seq = players[0].states[-1], len(players[0].actions)
        mover = next((p for p in players if state.current_player in p.seats), None)
        if mover is None:  # the computer's turn
            if not await heard_by_all(players, seq, stop + plan.grace):
                if known is not None:
                    figures.awaited.append(time.perf_counter() - known)
                return
            if known is not None:
                figures.replies.append(time.perf_counter() - known)
            known = time.perf_counter()
            continue
        if time.perf_counter() >= stop:
            return
        seed = 1000 * figures.tables + seq
        action = await loop.run_in_executor(pool, decide, "normal", seed, state)
        await asyncio.sleep(plan.think)
        sent = time.perf_counter()
        connection = mover.connection
        reply = await ask(connection, wire.Play(connection.new_ref(), mover.table, seq, action))
        known = time.perf_counter()
        if move_of(reply) is None:
            raise refusal(reply)
        mover.hear(reply)
        if not await heard_by_all(players, seq, stop + plan.grace):
            raise TimeoutError("an update did not reach all three victims")
        figures.trips.append((sent, time.perf_counter() - sent))


async def victim(
    socket: Path,
    plan: Plan,
    computer: Level,
    pool: Executor,
    figures: VictimFigures,
    seated: asyncio.Event,
    server_gone: Callable[[], bool],
) -> None:
    """The victims play table after table for ``plan.seconds`` (``seated`` is set once
    they sit at their first); an error ends the table (counted), a new one begins, unless
    the server is gone."""
    start = time.perf_counter()
    stop = start + plan.seconds
    while time.perf_counter() < stop:
        if server_gone():
            figures.server_gone_after = time.perf_counter() - start
            return
        try:
            players = await sit_victims(socket, computer)
        except Exception as exc:
            figures.errors.add(f"sitting down: {reason(exc)}")
            await asyncio.sleep(0.5)
            continue
        figures.tables += 1
        seated.set()
        listeners = [asyncio.create_task(listen(p)) for p in players]
        try:
            await play_victims(players, plan, pool, stop, figures)
        except Exception as exc:
            figures.errors.add(f"playing: {reason(exc)}")
        finally:
            for task in listeners:
                task.cancel()
            await asyncio.gather(*(p.connection.close() for p in players))


# ---------------------------------------------------------------- the flood


class Flood:
    """Everything mallory does; counts what the server accepted, refused and closed."""

    def __init__(self, socket: Path, plan: Plan) -> None:
        self.socket, self.plan = socket, plan
        self.refused: defaultdict[str, Tally] = defaultdict(Tally)
        self.errors: defaultdict[str, Tally] = defaultdict(Tally)
        self.attempts = self.created = 0
        self.burst_window = (0.0, 0.0)
        self.hard_tables = self.hard_actions = 0
        self.idle: list[Connection] = []
        self.idle_closed = 0
        self.lent = 0
        """Idle connections the burst used, a new connection being refused."""
        self.half: Counter[bool] = Counter()
        """Half requests held, by whether their hello came first."""
        self.half_closed: defaultdict[bool, list[float]] = defaultdict(list)
        """Seconds from a half request to the server closing its connection, by whether
        its hello came first."""
        self.connections: list[Connection] = []
        self.hard_connection: Connection | None = None
        """The connection at the hard tables (the burst's last resort)."""
        self.writers: list[asyncio.StreamWriter] = []
        self.tasks: list[asyncio.Task[None]] = []

    def count(self, what: str, exc: BaseException) -> None:
        if isinstance(exc, Refused):
            self.refused[what].add(str(exc))
        else:
            self.errors[what].add(reason(exc))

    async def set_up(self) -> None:
        """The flood that stays: hard tables, half requests, idle connections (in this
        order, so that a per-name connection limit leaves room for the half requests)."""
        until = time.perf_counter() + self.plan.setup_seconds
        await self.start_hard_tables(until)
        await self.send_halves(until)
        await self.open_idle(until)

    async def start_hard_tables(self, until: float) -> None:
        try:
            connection = await dial(self.socket, FLOODER)
        except Exception as exc:
            self.count("hard tables", exc)
            return
        self.connections.append(connection)
        self.hard_connection = connection
        seats = (wire.SeatSpec("player", FLOODER), *[wire.SeatSpec("computer", None, "hard")] * 2)
        for _ in range(self.plan.hard_tables):
            if time.perf_counter() > until:
                break
            try:
                await self.start_hard_table(connection, seats)
            except Exception as exc:
                self.count("hard tables", exc)
                if connection.closed_reason is not None:
                    break
        self.tasks.append(asyncio.create_task(self.count_hard_actions(connection)))

    async def start_hard_table(
        self, connection: Connection, seats: tuple[wire.SeatSpec, ...]
    ) -> None:
        """Create, join, hand the flooder's seat to a hard computer: three hard players."""
        lobby = await ask(connection, wire.CreateTable(connection.new_ref(), seats))
        if not isinstance(lobby, wire.Lobby):
            raise Refused(lobby.reason if isinstance(lobby, wire.Error) else str(lobby))
        table = lobby.tables[0].id
        for request in (wire.Join(connection.new_ref(), table),
                        wire.HandOver(connection.new_ref(), table, "hard")):  # fmt: skip
            answer = await ask(connection, request)
            if isinstance(answer, wire.Error):
                raise Refused(f"{type(request).__name__}: {answer.reason}")
        self.hard_tables += 1

    async def count_hard_actions(self, connection: Connection) -> None:
        with contextlib.suppress(ConnectionError):
            while True:
                if move_of(await connection.unasked()) is not None:
                    self.hard_actions += 1

    async def open_idle(self, until: float) -> None:
        async def one() -> None:
            try:
                self.idle.append(await dial(self.socket, FLOODER))
            except Exception as exc:
                self.count("idle connections", exc)

        for start in range(0, self.plan.idle, BATCH):
            if time.perf_counter() > until:
                break
            await asyncio.gather(*(one() for _ in range(min(BATCH, self.plan.idle - start))))

    async def send_halves(self, until: float) -> None:
        for index in range(self.plan.half):
            if time.perf_counter() > until:
                break
            try:
                await self.send_half(hello_first=index % 2 == 1)
            except Exception as exc:
                self.count("half requests", exc)

    async def send_half(self, hello_first: bool) -> None:
        """One connection that promises a request and sends a tenth of it."""
        opening = asyncio.open_unix_connection(str(self.socket))
        reader, writer = await asyncio.wait_for(opening, CONNECT_WITHIN)
        self.writers.append(writer)
        if hello_first:
            writer.write(wire.frame(wire.Hello(wire.VERSION, FLOODER)))
            answer = await asyncio.wait_for(read_message(reader), CONNECT_WITHIN)
            if not isinstance(answer, wire.Welcome):
                raise Refused(answer.reason if isinstance(answer, wire.Error) else str(answer))
        writer.write(wire.HEADER.pack(HALF_PROMISED) + HALF_SENT)
        await writer.drain()
        self.half[hello_first] += 1
        watching = self.watch_half(reader, time.perf_counter(), hello_first)
        self.tasks.append(asyncio.create_task(watching))

    async def watch_half(self, reader: asyncio.StreamReader, sent: float, hello: bool) -> None:
        with contextlib.suppress(OSError):
            while await reader.read(4096):
                pass  # the server's refusal, if it says one
        self.half_closed[hello].append(time.perf_counter() - sent)

    async def burst(self) -> None:
        """Tables, as fast as ``plan.creators`` connections can ask, within the bounds."""
        start = time.perf_counter()
        end = start + self.plan.create_seconds
        await asyncio.gather(*(self.create_tables(end) for _ in range(self.plan.creators)))
        self.burst_window = (start, time.perf_counter())

    async def create_tables(self, end: float) -> None:
        seats = (wire.SeatSpec("player", FLOODER), wire.SeatSpec("player", FLOODER_FRIEND))
        connection: Connection | None = None
        while self.attempts < self.plan.create_attempts and time.perf_counter() < end:
            if connection is None or connection.closed_reason is not None:
                connection = await self.burst_connection(connection)
                if connection is None:
                    await asyncio.sleep(0.1)
                    continue
            self.attempts += 1
            asking = connection.ask(wire.CreateTable(connection.new_ref(), seats))
            try:
                answer = await asyncio.wait_for(asking, end + self.plan.grace - time.perf_counter())
            except Exception as exc:
                self.count("tables", exc)
                if connection is not self.hard_connection:
                    await connection.close()
                connection = None
                continue
            if isinstance(answer, wire.Lobby):
                self.created += 1
            elif isinstance(answer, wire.Error):
                self.refused["tables"].add(answer.reason)
            else:
                self.errors["tables"].add(f"answered with {type(answer).__name__}")

    async def burst_connection(self, old: Connection | None) -> Connection | None:
        """A new connection to ask for tables on; if the server refuses one, one of the
        idle connections instead, else the hard tables' (a flooder uses what it has)."""
        if old is not None:
            self.errors["burst connections"].add(f"closed: {old.closed_reason}"[:100])
        try:
            connection = await dial(self.socket, FLOODER)
        except Exception as exc:
            self.count("burst connections", exc)
            spare = [c for c in self.idle if c.closed_reason is None]
            if not spare:
                hard = self.hard_connection
                return hard if hard is not None and hard.closed_reason is None else None
            connection = spare[0]
            self.idle.remove(connection)
            self.lent += 1
        self.connections.append(connection)
        return connection

    async def stop(self) -> None:
        """Close everything (bounded: what does not close in 10 s is left to the exit)."""
        self.idle_closed = sum(1 for c in self.idle if c.closed_reason is not None)
        for task in self.tasks:
            task.cancel()
        for writer in self.writers:
            writer.close()
        closing = asyncio.gather(
            *(c.close() for c in self.idle + self.connections), *self.tasks, return_exceptions=True
        )
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(closing, 10)


# ---------------------------------------------------------------- one run


@dataclass
class Run:
    victim: VictimFigures
    flood: Flood | None
    rss: int
    server_exit: str | None
    """None: the server was still serving at the end; else its exit code and last words."""


async def play(
    server: ServerProcess, plan: Plan, computer: Level, pool: Executor, flooding: bool
) -> tuple[VictimFigures, Flood | None]:
    socket = server.socket

    def gone() -> bool:
        return server.exit_code() is not None

    await asyncio.get_running_loop().run_in_executor(pool, decide, "random", 0, core.new_game(2, 0))
    figures, seated = VictimFigures(), asyncio.Event()
    if not flooding:
        await victim(socket, plan, computer, pool, figures, seated, gone)
        return figures, None
    flood = Flood(socket, plan)
    try:
        await flood.set_up()
        playing = asyncio.create_task(victim(socket, plan, computer, pool, figures, seated, gone))
        with contextlib.suppress(TimeoutError):  # the burst comes anyway, sat or not
            await asyncio.wait_for(seated.wait(), plan.seconds / 2)
        await flood.burst()
        await playing
    finally:
        await flood.stop()
    return figures, flood


def run(plan: Plan, computer: Level, pool: Executor, workers: int | None, flooding: bool) -> Run:
    """One fresh server in a fresh folder, the victim on it (and the flood), then stopped."""
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        server = ServerProcess(Path(folder), workers)
        try:
            figures, flood = asyncio.run(play(server, plan, computer, pool, flooding))
            return Run(figures, flood, server.rss(), server.why_gone())
        finally:
            server.stop()


# ---------------------------------------------------------------- the figures


P99 = 0.99
Row = tuple[str, str, str, str, str]
"""What is measured, alone, flooded, their ratio, the target."""


def ms(values: list[float], share: float) -> str:
    return f"{1000 * percentile(values, share):.1f}" if values else "-"


def ratio(alone: list[float], flooded: list[float], share: float) -> str:
    if not alone or not flooded or percentile(alone, share) == 0:
        return "-"
    return f"{percentile(flooded, share) / percentile(alone, share):.1f}×"


def verdict(values: list[float], target: float, awaited: Sequence[float] = ()) -> str:
    """Whether the p99 of ``values`` is within ``target``; a reply still awaited longer
    than the target misses it too."""
    if not values and not awaited:
        return "no figure"
    worst = max([percentile(values, P99) if values else 0.0, *awaited])
    return "met" if worst <= target else "MISSED"


def spread(what: str, alone: list[float], flooded: list[float], target: str) -> list[Row]:
    """The p50, p99 and max rows of one measure, the target beside the p99."""
    return [
        (f"{what} {name}, ms", ms(alone, share), ms(flooded, share), ratio(alone, flooded, share),
         target if share == P99 else "")
        for name, share in (("p50", 0.5), ("p99", P99), ("max", 1.0))
    ]  # fmt: skip


def show(alone: Run, flooded: Run, plan: Plan, computer: str) -> None:
    a, f = alone.victim, flooded.victim
    trips_a, trips_f = [t for _, t in a.trips], [t for _, t in f.trips]
    flood = flooded.flood
    start, end = flood.burst_window if flood else (0.0, 0.0)
    in_burst = [t for sent, t in f.trips if start <= sent <= end]
    target_trip = f"≤ {1000 * TARGET_ROUND_TRIP:.0f} ms: {verdict(trips_f, TARGET_ROUND_TRIP)}"
    target_reply = f"≤ {TARGET_COMPUTER:.0f} s: {verdict(f.replies, TARGET_COMPUTER, f.awaited)}"
    rows = [
        ("round trips (count)", f"{len(trips_a)}", f"{len(trips_f)}", "", ""),
        *spread("round trip", trips_a, trips_f, target_trip),
        ("  p99 during the creation burst", "", ms(in_burst, P99), "", f"({len(in_burst)} trips)"),
        ("computer replies (count)", f"{len(a.replies)}", f"{len(f.replies)}", "", ""),
        *spread("computer reply", a.replies, f.replies, target_reply),
        ("replies still awaited at the end", awaited(a.awaited), awaited(f.awaited), "", ""),
        ("victim tables", f"{a.tables}", f"{f.tables}", "", ""),
        ("server memory, MB", megabytes(alone.rss), megabytes(flooded.rss), "", ""),
    ]
    print(
        f"victim: {', '.join(VICTIMS)} (normal, client-side, {plan.think} s think) and the "
        f"server's {computer} computer at a 4-player table, {plan.seconds:.0f} s alone, then "
        f"{plan.seconds:.0f} s under the flood (fresh server each)"
    )
    print(f"{'':34}{'alone':>12}{'flooded':>12}{'ratio':>9}  target (flooded)")
    for label, left, right, times, target in rows:
        print(f"{label:34}{left:>12}{right:>12}{times:>9}  {target}")
    for name, run_ in (("alone", alone), ("flooded", flooded)):
        for count, example in run_.victim.errors.common():
            print(f"victim error ({name}): {count} × {example}")
        if run_.server_exit:
            after = run_.victim.server_gone_after
            when = f", found gone {after:.0f} s in" if after is not None else ""
            print(f"the server stopped during the run ({name}{when}): {run_.server_exit}")
    if flood is not None:
        show_flood(flood)


def half_closed(flood: Flood, hello: bool) -> str:
    closed = sorted(flood.half_closed[hello])
    after = f" (after {closed[0]:.1f}–{closed[-1]:.1f} s)" if closed else ""
    return f"{len(closed)} of {flood.half[hello]}{after}"


def megabytes(size: int) -> str:
    return f"{size / 2**20:.0f}" if size else "-"


def awaited(waits: list[float]) -> str:
    return f"{len(waits)} ({max(waits):.1f} s)" if waits else "0"


def show_flood(flood: Flood) -> None:
    plan = flood.plan
    start, end = flood.burst_window
    print(f"flood by {FLOODER}:")
    print(
        f"  tables: {flood.attempts} attempts (bound {plan.create_attempts}) in "
        f"{end - start:.1f} s (bound {plan.create_seconds:.0f} s) from {plan.creators} "
        f"connections: {flood.created} created ({flood.created + flood.hard_tables} tables of "
        f"{FLOODER}'s with the hard ones)"
    )
    print(
        f"  hard tables: {flood.hard_tables} of {plan.hard_tables} playing; "
        f"{flood.hard_actions} hard actions heard during the run"
    )
    print(
        f"  idle connections: {len(flood.idle) + flood.lent} of {plan.idle} open "
        f"({flood.lent} lent to the burst); closed by the server by the end: {flood.idle_closed}"
    )
    print(
        f"  half requests ({HALF_PROMISED} bytes promised, {len(HALF_SENT)} sent): "
        f"{flood.half.total()} of {plan.half} held; closed by the server: "
        f"{half_closed(flood, False)} before their hello, {half_closed(flood, True)} after it"
    )
    for kind, tally in (("refused", flood.refused), ("errors", flood.errors)):
        for what, reasons in tally.items():
            print(f"  {what} {kind}: {reasons.total()} ({reasons.describe()})")
        if not tally:
            print(f"  {kind}: none")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a few seconds: a smoke run")
    parser.add_argument("--computer", choices=("easy", "normal"), default="normal",
                        help="the level of the victim table's computer")  # fmt: skip
    parser.add_argument("--workers", type=int, help="the server's computer-player processes")
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    computer = cast(Level, args.computer)
    # A SIGTERM stops the bench as Ctrl+C does: through the ``finally`` that stops the
    # servers (they run in sessions of their own, so no signal to this one reaches them).
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        with ProcessPoolExecutor(1) as pool:  # the victims' decisions
            alone = run(plan, computer, pool, args.workers, flooding=False)
            flooded = run(plan, computer, pool, args.workers, flooding=True)
    except KeyboardInterrupt:
        print("interrupted: the servers are stopped", file=sys.stderr)
        sys.exit(130)
    show(alone, flooded, plan, args.computer)


if __name__ == "__main__":
    main()
