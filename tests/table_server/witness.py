"""Clients that bear witness, for the table server's concurrency tests: each keeps, in the
order they arrived, every frame the server sent it, and the one table history those frames
tell; and the checks that compare what clients were told with what the store holds.

A :class:`Witness` differs from ``bots.Bot`` in one way that matters under concurrency:
answers and unasked messages go through one reader, in arrival order, so a Told answering
an undo and a Told of a move just before it are heard in the order the server sent them.
Every frame is stamped with a clock shared by all witnesses of a test.

A :class:`Verdict` gathers the broken promises of one run instead of stopping at the
first, so that a failing test names every invariant the server broke.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import tempfile
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msgspec.structs import replace

import core
from table import journal
from table import protocol as wire
from table.client.connection import read_message
from table.store import TableRow, TableStore
from tests.table_server.history import History, line_of
from tests.table_server.process import Server

WAIT = 30.0
"""Seconds any one answer may take (a hang bound, never a measure of speed)."""

SHOWN = 2
"""Frames out of sequence named one by one, per client (the rest are counted)."""
SHOWN_IN_ALL = 40
"""Broken promises a verdict names one by one (the rest are counted)."""

_ARRIVALS = itertools.count(1)
"""The order in which frames reached this test process, across all its witnesses."""


@dataclass(frozen=True)
class Heard:
    """A frame as it arrived: ``order`` among every frame this process heard, ``at`` the
    event loop's clock."""

    order: int
    at: float
    message: wire.ServerMessage


@dataclass(eq=False)
class Witness:
    """One client connection at (at most) one table, keeping what it was told."""

    name: str
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    heard: list[Heard] = field(default_factory=list)
    history: History = field(default_factory=History)
    """The table as told (see :class:`History`: its contradictions are the Tolds that did
    not follow from what came before them)."""
    _refs: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _waiting: dict[int, asyncio.Future[wire.ServerMessage]] = field(default_factory=dict)
    _reading: asyncio.Task[None] | None = None
    gone: str | None = None
    """Why the connection ended (None while it is open)."""

    @classmethod
    async def connect(cls, socket: Path, name: str) -> Witness:
        reader, writer = await asyncio.open_unix_connection(str(socket), limit=wire.MAX_FRAME)
        writer.write(wire.frame(wire.Hello(wire.VERSION, name)))
        welcome = await asyncio.wait_for(read_message(reader), WAIT)
        assert isinstance(welcome, wire.Welcome), welcome
        witness = cls(name, reader, writer)
        witness._reading = asyncio.get_running_loop().create_task(witness._read_all())
        return witness

    def ref(self) -> int:
        return next(self._refs)

    @property
    def actions(self) -> list[core.Action]:
        return self.history.actions

    @property
    def states(self) -> list[core.GameState]:
        """The table's public positions as told, the start first (empty before a Snapshot)."""
        return self.history.states

    @property
    def seats_here(self) -> tuple[int, ...]:
        return self.history.seats_here

    @property
    def info(self) -> wire.TableInfo | None:
        """The table as last told."""
        return self.history.info

    @property
    def chat(self) -> list[tuple[str, str]]:
        """(name, text) of the table's chat as told."""
        return self.history.chat()

    @property
    def contradictions(self) -> list[str]:
        return [f"{self.name}: {said}" for said in self.history.contradictions]

    @property
    def state(self) -> core.GameState:
        return self.states[-1]

    @property
    def table(self) -> int:
        assert self.info is not None, f"{self.name} is at no table"
        return self.info.id

    def my_turn(self) -> bool:
        return bool(self.states) and self.state.current_player in self.seats_here

    async def ask(self, message: wire.ClientMessage) -> wire.ServerMessage:
        """Send ``message`` (its ``ref`` from :meth:`ref`) and wait for its answer, which is
        heard, like every frame, in arrival order; ConnectionError if the server goes."""
        ref: int = getattr(message, "ref", 0)
        future: asyncio.Future[wire.ServerMessage] = asyncio.get_running_loop().create_future()
        self._waiting[ref] = future
        try:
            if self.gone is not None:
                raise ConnectionError(self.gone)
            self.writer.write(wire.frame(message))
            await self.writer.drain()
            return await asyncio.wait_for(future, WAIT)
        finally:
            self._waiting.pop(ref, None)

    async def barrier(self) -> None:
        """Return once this client has heard everything the server sent it before now (a
        round trip: the answer comes after every frame queued before it)."""
        answer = await self.ask(wire.ListTables(self.ref()))
        assert isinstance(answer, wire.Lobby), answer

    async def ended(self) -> None:
        """Wait until the server has closed the connection (every frame before it heard)."""
        if self._reading is not None:
            await asyncio.wait_for(asyncio.shield(self._reading), WAIT)
        await self.close()

    async def close(self) -> None:
        if self._reading is not None:
            self._reading.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reading
        self.writer.close()
        with contextlib.suppress(OSError, ConnectionError):
            await self.writer.wait_closed()

    async def _read_all(self) -> None:
        try:
            while True:
                message = await read_message(self.reader)
                self.hear(message)
                ref = getattr(message, "ref", 0)
                future = self._waiting.get(ref) if ref else None
                if future is not None and not future.done():
                    future.set_result(message)
        except (OSError, ConnectionError, asyncio.IncompleteReadError, wire.ProtocolError) as exc:
            self.gone = str(exc) or "the server closed the connection"
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError(self.gone))

    def hear(self, message: wire.ServerMessage) -> None:
        """Take ``message`` into the history told (see :attr:`contradictions`)."""
        self.heard.append(Heard(next(_ARRIVALS), asyncio.get_running_loop().time(), message))
        if isinstance(message, wire.Snapshot):
            self.history.take(message)
        elif isinstance(message, wire.Told):
            self.history.hear(message)

    def shown(self) -> list[tuple[int, core.Action]]:
        """Every (seq, action) this client was ever shown, in Snapshots and Tolds."""
        seen: list[tuple[int, core.Action]] = []
        for heard in self.heard:
            if isinstance(heard.message, wire.Snapshot):
                seen += enumerate(heard.message.actions)
            elif isinstance(heard.message, wire.Told):
                seen += [(e.seq, e.action) for e in heard.message.entries
                         if isinstance(e, journal.Move)]  # fmt: skip
        return seen


# ---------------------------------------------------------------- answers


def answer_to(witness: Witness, ref: int) -> Heard | None:
    """The frame that answered ``witness``'s request ``ref``, as heard (None: not yet)."""
    return next((h for h in witness.heard if getattr(h.message, "ref", 0) == ref), None)


def is_refusal(answer: object) -> bool:
    """An Error whose reason is words a player can read (not the server's own failure)."""
    return (
        isinstance(answer, wire.Error)
        and re.search(r"[a-z]{2,} [a-z]{2,}", answer.reason) is not None
        and "server failed" not in answer.reason
    )


def described(answer: object) -> str:
    """An answer (or the exception that came instead) in a few words, for a failure."""
    if isinstance(answer, wire.Error):
        return f"Error({answer.reason!r})"
    if isinstance(answer, wire.Told):
        return f"Told({', '.join(line_of(entry) for entry in answer.entries) or 'nothing new'})"
    if isinstance(answer, wire.Snapshot):
        return f"Snapshot({len(answer.actions)} actions, seats {answer.seats_here})"
    if isinstance(answer, BaseException):
        return f"{type(answer).__name__}({answer})"
    return type(answer).__name__


# ---------------------------------------------------------------- the store


def stored_tables(db: Path) -> dict[int, TableRow]:
    """Every table the store holds (open it only once the server has stopped)."""
    store = TableStore(db)
    try:
        return {row.id: row for row in store.tables()}
    finally:
        store.close()


def real_positions(row: TableRow) -> list[core.GameState]:
    """The real positions of a stored game, replayed with core from its seed (raises
    AssertionError naming the first stored action that is not legal where it falls)."""
    seats = row.seats
    state = core.new_game(len(seats), row.seed, [s.name or "?" for s in seats],
                          [s.colour for s in seats])  # fmt: skip
    states = [state]
    for seq, action in enumerate(row.actions):
        try:
            states.append(core.apply_action(states[-1], action))
        except core.IllegalActionError as exc:
            raise AssertionError(
                f"table {row.id}: stored action {seq} ({action!r}) is illegal there: {exc}"
            ) from None
    return states


def same_public_position(told: core.GameState, real: core.GameState) -> bool:
    """``told`` is what a client may know of ``real``: its public view, the undealt
    parcels in any order (a Snapshot's start orders those dealt later as they were dealt)."""
    public = core.public_view(real)
    return replace(told, deck=()) == replace(public, deck=()) and sorted(
        f >> 1 for f in told.deck
    ) == sorted(f >> 1 for f in public.deck)


def check_told_the_store(verdict: Verdict, row: TableRow, witnesses: list[Witness]) -> None:
    """Every witness at ``row``'s table was told exactly the stored history, position by
    position, with no frame out of sequence; the stored game replays with core."""
    with verdict.step(f"table {row.id}'s stored game replays with core"):
        real = real_positions(row)
        for witness in witnesses:
            for contradiction in witness.contradictions[:SHOWN]:
                verdict.broken(f"table {row.id}: {contradiction}")
            more = len(witness.contradictions) - SHOWN
            if more > 0:
                verdict.broken(f"table {row.id}: {witness.name} had {more} more out of sequence")
            if witness.actions != row.actions:
                verdict.broken(
                    f"table {row.id}: {witness.name} was last told {len(witness.actions)} "
                    f"actions, the store holds {len(row.actions)}; they differ from action "
                    f"{first_difference(witness.actions, row.actions)}"
                )
                continue
            lines = [line_of(e) for e in witness.history.journal]
            stored = [line_of(e) for e in row.journal[witness.history.left_out :]]
            later = row.journal[witness.history.left_out + len(lines) :]
            if lines != stored[: len(lines)] or not all(isinstance(e, journal.Away) for e in later):
                verdict.broken(
                    f"table {row.id}: {witness.name} was told a journal of {len(lines)} entries "
                    f"unlike the store's {len(stored)} (they differ from entry "
                    f"{first_difference(lines, stored)}; only players leaving may come after)"
                )
            if witness.states and witness.state != core.public_view(real[-1]):
                verdict.broken(f"table {row.id}: {witness.name}'s position now is not the real one")
            wrong = [
                i
                for i, (told, truth) in enumerate(zip(witness.states, real, strict=False))
                if not same_public_position(told, truth)
            ]
            if wrong:
                verdict.broken(f"table {row.id}: {witness.name} was shown positions {wrong[:5]} "
                               "unlike the stored game's")  # fmt: skip


def first_difference(a: list[Any], b: list[Any]) -> int:
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


async def answers_on_restart(server: Server, tables: set[int]) -> str | None:
    """Start a new server process on the same store and socket; None if it answers a
    ListTables listing every one of ``tables``, else what went wrong."""
    try:
        server.start()
    except AssertionError as exc:
        # Server.start's message is the server's stderr, as bytes: its last line says why.
        said = str(exc).replace("\\n", "\n").strip(" '\n")
        last = [line for line in said.splitlines() if line.strip()][-1:]
        return f"the server does not start again on the store: {' '.join(last)[-200:]}"
    witness = await Witness.connect(server.socket, "ann")
    try:
        lobby = await witness.ask(wire.ListTables(witness.ref()))
    finally:
        await witness.close()
    if not isinstance(lobby, wire.Lobby):
        return f"the restarted server answered a ListTables with {described(lobby)}"
    listed = {info.id for info in lobby.tables}
    if not tables <= listed:
        return f"the restarted server lists tables {sorted(listed)}, not {sorted(tables)}"
    damaged = [f"{info.id} ({info.damaged})" for info in lobby.tables if info.damaged]
    if damaged:
        return f"the restarted server found tables {', '.join(damaged)} damaged"
    return None


# ---------------------------------------------------------------- the verdict


@dataclass
class Verdict:
    """The promises a run broke, each in one line; :meth:`settle` fails with them all."""

    lines: list[str] = field(default_factory=list)

    def broken(self, line: str) -> None:
        self.lines.append(line)

    def check(self, holds: bool, line: str) -> None:
        if not holds:
            self.broken(line)

    @contextlib.contextmanager
    def step(self, what: str) -> Iterator[None]:
        """Run a step whose failure (an assertion or any error) is one broken promise."""
        try:
            yield
        except AssertionError as exc:
            self.broken(f"{what}: {exc}".split("\nassert")[0])
        except Exception as exc:
            where = traceback.extract_tb(exc.__traceback__)[-1]
            self.broken(f"{what}: {type(exc).__name__}: {exc} (at {where.name}:{where.lineno})")

    def settle(self) -> None:
        shown = self.lines[:SHOWN_IN_ALL]
        if len(self.lines) > SHOWN_IN_ALL:
            shown.append(f"and {len(self.lines) - SHOWN_IN_ALL} more")
        assert not self.lines, "the server broke its promises:\n  " + "\n  ".join(shown)


# ---------------------------------------------------------------- servers and tables


@contextlib.contextmanager
def slow_server(commit_delay: float) -> Iterator[Server]:
    """A real server process whose every group commit first sleeps ``commit_delay``
    seconds, so that requests arriving meanwhile interleave with it."""
    # A short folder: a Unix socket's path must fit in 108 bytes, pytest's tmp_path may not.
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        running = Server(Path(folder), commit_delay=commit_delay)
        running.start()
        try:
            yield running
        finally:
            running.stop()


async def new_table(server: Server, seats: list[wire.SeatSpec]) -> int:
    """A new table's id, created by its first seat's player (on a short connection)."""
    creator = await Witness.connect(server.socket, seats[0].name or "ann")
    try:
        answer = await creator.ask(wire.CreateTable(creator.ref(), tuple(seats)))
    finally:
        await creator.close()
    assert isinstance(answer, wire.Lobby), answer
    return answer.tables[0].id
