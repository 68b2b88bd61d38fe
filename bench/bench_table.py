"""The table server under load, over its real Unix socket. Prints figures, asserts none.

For N concurrent tables (default N = 1, 10, 50, 200), each with 4 protocol-level clients
(one connection each, deciding client-side with the ``normal`` computer player on the
public position they were sent), plays ACTIONS actions per table and reports:

- round trip: from a client sending its action to the update reaching all 4 clients of
  the table (p50, p99), in ms;
- durable actions per second, the whole server (every action is committed, WAL +
  synchronous=FULL, before anyone hears of it);
- server CPU per action (from /proc/<pid>/stat) and the size of a move's update frame.

Then memory: the server's resident memory after creating 200 idle tables, per table.
Last, start-up: seconds until the new-game screen without a server against seconds until
the lobby with one (pty, 80×24, medians of 5), and their ratio (target ≤ 1.5).

The clients run in this one process, on the same 2 cores as the server: at high N their
own decisions and scheduling are part of what is measured.

Run: .venv/bin/python bench/bench_table.py [--tables 1,10,50,200] [--actions 30]
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import core  # noqa: E402 - after the path, like the other benches
from core.ai import make_bot  # noqa: E402
from table import journal  # noqa: E402
from table import protocol as wire  # noqa: E402
from table.client.connection import Connection, connect  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
NAMES = ["ann", "ben", "cleo", "dan"]


class Server:
    def __init__(self, folder: Path) -> None:
        self.socket = folder / "t.sock"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "table.serve", "--socket", str(self.socket),
             "--db", str(folder / "t.db"), "--trust-account", getpass.getuser(),
             # Four names play every table here: lift the per-player limits.
             "--max-tables", "100000", "--max-connections", "100000"],
            cwd=ROOT, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        while not self.socket.exists():
            time.sleep(0.02)

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def rss(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def decide(level: str, seed: int, state: core.GameState) -> core.Action:
    """A client's decision, in the decision process (so that one table's thinking never
    holds up the round trips of the others, which this process times)."""
    if level == "random":
        return random.Random(seed).choice(core.legal_actions(state))
    return make_bot(level, seed=seed).choose(state)


def move_of(message: wire.ServerMessage) -> journal.Move | None:
    """The move a Told tells (None: another message, or a Told of something else)."""
    if not isinstance(message, wire.Told):
        return None
    return next((e for e in message.entries if isinstance(e, journal.Move)), None)


class Player:
    """One client of one table."""

    def __init__(self, connection: Connection, seed: int) -> None:
        self.connection = connection
        self.seed = seed
        self.seats: tuple[int, ...] = ()
        self.table = 0
        self.actions: list[core.Action] = []
        self.states: list[core.GameState] = []
        self.heard = asyncio.Event()

    def take(self, snapshot: wire.Snapshot) -> None:
        self.table, self.seats = snapshot.table.id, snapshot.seats_here
        self.actions = list(snapshot.actions)
        self.states = core.replay(snapshot.start, snapshot.actions)

    def hear(self, message: wire.ServerMessage) -> None:
        move = move_of(message)
        if move is not None and move.seq == len(self.actions):
            assert isinstance(message, wire.Told) and message.state is not None
            self.actions.append(move.action)
            self.states.append(message.state)
            self.heard.set()

    async def listen(self) -> None:
        try:
            while True:
                self.hear(await self.connection.unasked())
        except ConnectionError:
            return


async def one_table(
    socket: Path, index: int, actions: int, trips: list[float], level: str, pool: Executor
) -> None:
    names = NAMES
    maker = await connect(socket, names[0])
    seats = tuple(wire.SeatSpec("player", n) for n in names)
    answer = await maker.ask(wire.CreateTable(maker.new_ref(), seats))
    await maker.close()
    assert isinstance(answer, wire.Lobby)
    table = answer.tables[0].id
    players = []
    for i, name in enumerate(names):
        player = Player(await connect(socket, name), index * 10 + i)
        snapshot = await player.connection.ask(wire.Join(player.connection.new_ref(), table))
        assert isinstance(snapshot, wire.Snapshot)
        player.take(snapshot)
        players.append(player)
    listeners = [asyncio.create_task(p.listen()) for p in players]
    for _ in range(actions):
        state = players[0].states[-1]
        if core.is_over(state):
            break
        mover = next(p for p in players if state.current_player in p.seats)
        loop = asyncio.get_running_loop()
        action = await loop.run_in_executor(
            pool, decide, level, mover.seed + len(mover.actions), state
        )
        for p in players:
            p.heard.clear()
        seq = len(mover.actions)
        sent = time.perf_counter()
        reply = await mover.connection.ask(
            wire.Play(mover.connection.new_ref(), table, seq, action)
        )
        mover.hear(reply)
        for p in players:
            while len(p.actions) <= seq:
                await p.heard.wait()
                p.heard.clear()
        trips.append(time.perf_counter() - sent)
    for task in listeners:
        task.cancel()
    for p in players:
        await p.connection.close()


async def load(socket: Path, tables: int, actions: int, level: str) -> tuple[list[float], float]:
    trips: list[float] = []
    with ProcessPoolExecutor(1) as pool:
        await asyncio.get_running_loop().run_in_executor(
            pool, decide, "random", 0, core.new_game(2, 0)
        )
        started = time.perf_counter()
        await asyncio.gather(
            *(one_table(socket, i, actions, trips, level, pool) for i in range(tables))
        )
        return trips, time.perf_counter() - started


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def update_frame_size() -> int:
    """A move's Told at a table of four players, every seat here (its TableInfo is part
    of it: protocol 3 tells the table with every change)."""
    state = core.new_game(4, 1)
    from core.public import public_view

    def told(state: core.GameState, seq: int) -> bytes:
        action = core.legal_actions(state)[0]
        after, events = core.apply_action_with_events(state, action)
        seats = tuple(
            wire.SeatInfo(c, n, None, True) for c, n in zip(core.Colour, NAMES, strict=True)
        )
        info = wire.TableInfo(1, ", ".join(NAMES), seats, "playing", after.current_player,
                              after.season, 0.0, 0.0, seq + 1)  # fmt: skip
        move = journal.Move(time.time(), seq, state.current_player or 0, action)
        return wire.frame(wire.Told(0, info, seq, (move,), public_view(after), tuple(events)))

    frame = told(state, 0)
    # The heaviest moment is a late position; measure one from a played game too.
    rng = random.Random(1)
    while not core.is_over(state) and len(state.deck) > 4:
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    return max(len(frame), len(told(state, 99)))


async def idle_memory(socket: Path, server: Server, count: int) -> float:
    before = server.rss()
    maker = await connect(socket, "ann")
    for _ in range(count):
        seats = (wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben"))
        await maker.ask(wire.CreateTable(maker.new_ref(), seats))
    await maker.close()
    await asyncio.sleep(0.2)
    return (server.rss() - before) / count


def start_up() -> tuple[float, float]:
    sys.path.insert(0, str(ROOT / "bench"))
    from ptyprobe import Terminal

    mykerinos = str(Path(sys.executable).parent / "mykerinos")
    local: list[float] = []
    lobby: list[float] = []
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        server = Server(Path(folder))
        try:
            for _ in range(5):
                for text, sock, out in (
                    ("new game", Path(folder) / "none.sock", local),
                    ("Tables on the server", server.socket, lobby),
                ):
                    command = [mykerinos, "--save-dir", f"{folder}/saves", "--socket", str(sock)]
                    with Terminal(command, cols=80, rows=24, timeout=20) as term:
                        out.append(term.wait(text).seconds)
        finally:
            server.stop()
    return statistics.median(local), statistics.median(lobby)


def run(count: int, actions: int, level: str) -> None:
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        server = Server(Path(folder))
        try:
            cpu = server.cpu()
            trips, seconds = asyncio.run(load(server.socket, count, actions, level))
            used = server.cpu() - cpu
        finally:
            server.stop()
    done = len(trips)
    p50, p99 = 1000 * percentile(trips, 0.5), 1000 * percentile(trips, 0.99)
    print(
        f"{count:4d} tables: {done:5d} actions in {seconds:5.1f} s, {done / seconds:6.0f} "
        f"durable actions/s; to all 4 clients p50 {p50:6.1f} ms, p99 {p99:6.1f} ms; "
        f"server CPU {1000 * used / max(done, 1):5.2f} ms/action"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", default="1,10,50,200")
    parser.add_argument("--actions", type=int, default=30)
    args = parser.parse_args()
    print(f"update frame of a move: {update_frame_size()} bytes (target < 4096)")
    for level in ("normal", "random"):
        if level == "random":
            print("the same with clients playing at random (no thinking: the server's capacity)")
        for count in (int(n) for n in args.tables.split(",")):
            run(count, args.actions, level)
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        server = Server(Path(folder))
        try:
            per_table = asyncio.run(idle_memory(server.socket, server, 200))
        finally:
            server.stop()
    kilobytes = per_table / 1024
    print(f"memory: {kilobytes:.1f} KB of server RSS per idle table (200; target ≤ 1 MB)")
    local, lobby = start_up()
    print(
        f"start-up: new-game screen {local:.2f} s without a server, lobby {lobby:.2f} s with "
        f"one: ratio {lobby / local:.2f} (target ≤ 1.5)"
    )


if __name__ == "__main__":
    main()
