"""One journal per table (issue 25), through the protocol, at a real server: an evening
of three players and a watcher (moves, an undo, chat, a pause that runs out and one ended
early, a seat handed to a computer while its player is away and taken back when she
comes back, a terminal that drops and redials in the middle, the end and the rating).

What is checked is the promise of the journal: everyone is told the same lines in the
same order, live or caught up. A player who reconnects is sent, in their snapshot,
exactly the entries those who stayed were told one by one; so is a watcher, and a
newcomer at the end; the store keeps that journal; and the export keeps its lines
(``table.journal.told_lines``) for the replay. Every frame is read in arrival order
(:class:`tests.table_server.witness.Witness`), and a Told that does not follow from what
came before it is named.

The evening runs once (a module fixture); each test reads what it left. Pauses are short
here: the server's hidden ``--minute`` makes a minute of a pause :data:`MINUTE` seconds.

Last, the migration: a store of schema 9 (made with the old migrations) opens with its
moves and its chat as journal entries.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
import pytest

import core
from saves.format import SaveFile, TableLine, decode
from table import journal
from table import protocol as wire
from table.store import MIGRATIONS, TableStore
from tests.table_server.history import History, has, line_of
from tests.table_server.process import Server
from tests.table_server.witness import WAIT, Witness, described, stored_tables

MINUTE = 0.5
"""Seconds in a minute of a pause at this server."""
AWAY_WAIT = 1.0
"""The table's wait before an absent player's seat may be handed over."""
NAMES = ("ann", "ben", "cleo")
ANN, BEN, CLEO = range(3)


# ---------------------------------------------------------------- the evening


@dataclass
class Evening:
    """What the evening left, for the tests to read."""

    entries: list[journal.Any] = field(default_factory=list)
    """The journal as ann was told it, live from her first snapshot to the end (she
    stayed the whole evening)."""
    watched: list[journal.Any] = field(default_factory=list)
    """The journal as eve, watching from the start, was told it."""
    catch_ups: dict[str, tuple[list[journal.Any], list[journal.Any]]] = field(default_factory=dict)
    """For each who came in during the evening: the journal of their snapshot, and ann's
    as she had been told it by then (once the server had sent her everything before)."""
    contradictions: list[str] = field(default_factory=list)
    stored: list[journal.Any] = field(default_factory=list)
    save: SaveFile | None = None


@dataclass
class At:
    """The table, its clients by seat (the terminal each seat's player is at now), and
    everyone hearing it."""

    id: int
    socket: Path
    ann: Witness
    seats: dict[int, Witness]
    everyone: list[Witness]
    rng: random.Random

    async def barrier(self) -> None:
        """Every client has heard everything the server sent before now."""
        for witness in self.everyone:
            await witness.barrier()

    async def play(self, moves: int) -> None:
        """``moves`` actions (fewer if the game ends): a present player's by a Play, a
        seat handed to a computer's by the server."""
        for _ in range(moves):
            state = self.ann.state
            if core.is_over(state):
                return
            seq, seat = len(self.ann.actions), state.current_player
            assert seat is not None and self.ann.info is not None
            mover = self.seats.get(seat)
            if self.ann.info.seats[seat].standin is None:
                assert mover is not None, f"seat {seat} decides, and nobody is there"
                action = self.rng.choice(core.legal_actions(mover.state))
                answer = await mover.ask(wire.Play(mover.ref(), self.id, seq, action))
                assert has(answer, journal.Move), described(answer)
            await until(self.ann, moved_past(seq), f"move {seq}")
            await self.barrier()

    async def undo_once(self) -> None:
        """A player acts and takes it back at once (in a season, so that they may)."""
        for _ in range(100):
            before = self.ann.state
            await self.play(1)
            mover = self.seats[before.current_player or 0]
            after = mover.state
            if after.season == before.season and not core.is_over(after):
                answer = await mover.ask(wire.Undo(mover.ref(), self.id, len(mover.actions)))
                assert has(answer, journal.Undo), described(answer)
                await self.barrier()
                return
        raise AssertionError("no action could be taken back")

    async def enter(self, name: str, evening: Evening, *, watch: bool = False, back: bool = True
                    ) -> Witness:  # fmt: skip
        """``name`` comes in (sits, or watches): their snapshot's journal is kept beside
        ann's once she has heard all the server sent before it."""
        witness = await Witness.connect(self.socket, name)
        request: wire.Join | wire.Watch = (
            wire.Watch(witness.ref(), self.id) if watch
            else wire.Join(witness.ref(), self.id, back=back)
        )  # fmt: skip
        snapshot = await witness.ask(request)
        assert isinstance(snapshot, wire.Snapshot), described(snapshot)
        await self.ann.barrier()
        told = self.ann.history.journal[: len(snapshot.journal)]
        evening.catch_ups[f"{name} {len(evening.catch_ups)}"] = (list(snapshot.journal), told)
        self.everyone.append(witness)
        if not watch:
            self.seats[NAMES.index(name)] = witness
        return witness


async def until(witness: Witness, holds: Callable[[History], bool], what: str) -> None:
    for _ in range(int(WAIT / 0.02)):
        if holds(witness.history):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{witness.name} was never told {what}")


def moved_past(seq: int) -> Callable[[History], bool]:
    """The history holds more than ``seq`` actions."""
    return lambda history: len(history.actions) > seq


def told_of(kind: type, **fields: object) -> Callable[[History], bool]:
    """The history holds an entry of ``kind`` with ``fields``."""

    def holds(history: History) -> bool:
        return any(
            isinstance(e, kind) and all(getattr(e, k) == v for k, v in fields.items())
            for e in history.journal
        )

    return holds


async def an_evening(server: Server) -> Evening:
    evening = Evening()
    creator = await Witness.connect(server.socket, "ann")
    seats = tuple(wire.SeatSpec("player", name) for name in NAMES)
    made = await creator.ask(wire.CreateTable(creator.ref(), seats, "", "live", AWAY_WAIT))
    await creator.close()
    assert isinstance(made, wire.Lobby), described(made)
    table = made.tables[0].id

    witnesses = {}
    for name in NAMES:
        witnesses[name] = await Witness.connect(server.socket, name)
        joined = await witnesses[name].ask(wire.Join(witnesses[name].ref(), table))
        assert isinstance(joined, wire.Snapshot), described(joined)
    eve = await Witness.connect(server.socket, "eve")
    assert isinstance(await eve.ask(wire.Watch(eve.ref(), table)), wire.Snapshot)
    ann = witnesses["ann"]
    at = At(table, server.socket, ann, {i: witnesses[n] for i, n in enumerate(NAMES)},
            [*witnesses.values(), eve], random.Random(25))  # fmt: skip
    await at.barrier()

    await at.play(6)
    await at.undo_once()
    for witness, text in ((witnesses["ben"], "good luck all"), (eve, "nice opening")):
        said = await witness.ask(wire.Say(witness.ref(), table, text))
        assert has(said, journal.Chat), described(said)

    # A pause that runs out (the room's own timer tells it over), then one ended early.
    paused = await ann.ask(wire.Pause(ann.ref(), table, 1))
    assert has(paused, journal.Pause), described(paused)
    await until(ann, told_of(journal.PauseEnd, early=False), "the pause's end")
    ben = witnesses["ben"]
    assert has(await ben.ask(wire.Pause(ben.ref(), table, 30)), journal.Pause)
    assert has(await ben.ask(wire.Resume(ben.ref(), table)), journal.PauseEnd)
    await at.barrier()
    await at.play(4)

    # Cleo leaves; after the table's wait, ann hands her seat to a computer.
    cleo = witnesses["cleo"]
    at.everyone.remove(cleo)
    del at.seats[CLEO]
    await cleo.close()
    await until(ann, told_of(journal.Away, name="cleo"), "cleo's leaving")
    handed: wire.ServerMessage | None = None
    for _ in range(50):
        await asyncio.sleep(AWAY_WAIT / 4)
        handed = await ann.ask(wire.HandOver(ann.ref(), table, "easy", CLEO))
        if has(handed, journal.HandOver):
            break
    assert handed is not None and has(handed, journal.HandOver), described(handed)
    await at.barrier()
    # The computer plays cleo's turns meanwhile: play on until it has (the table's deal is
    # the server's own, so cleo may have passed already and have no turn till next season).
    standing_in = told_of(journal.Move, seat=CLEO, standin="easy")
    for _ in range(80):
        await at.play(1)
        if standing_in(ann.history):
            break
    assert standing_in(ann.history), "the computer never played cleo's seat"
    await at.play(3)

    # Ben's terminal drops in the middle of the game and redials by itself.
    at.everyone.remove(ben)
    ben.writer.transport.abort()
    await ben.ended()
    await until(ann, told_of(journal.Away, name="ben"), "ben's leaving")
    await at.enter("ben", evening, back=False)
    await at.play(3)

    # Cleo comes back: her seat is hers again.
    await at.enter("cleo", evening)
    assert ann.info is not None and ann.info.seats[CLEO].standin is None
    await at.play(5000)
    await until(ann, told_of(journal.End), "the end and the rating")
    await at.barrier()
    await at.enter("zed", evening, watch=True)  # a newcomer at the end

    exported = await ann.ask(wire.Export(ann.ref(), table))
    assert isinstance(exported, wire.Exported), described(exported)
    evening.save = decode(Path("exported.json"), exported.save)
    evening.entries = list(ann.history.journal)
    evening.watched = list(eve.history.journal)
    evening.contradictions = [c for w in at.everyone for c in w.contradictions]
    for witness in at.everyone:
        await witness.close()
    server.stop()
    evening.stored = stored_tables(server.db)[table].journal
    return evening


@pytest.fixture(scope="module")
def evening() -> Iterator[Evening]:
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        server = Server(Path(folder), options=("--minute", str(MINUTE)))
        server.start()
        try:
            yield asyncio.run(asyncio.wait_for(an_evening(server), 240))
        finally:
            server.stop()


def lines(entries: list[journal.Any]) -> list[str]:
    """A journal as every terminal shows it, line for line (a move as who made it)."""
    return [line_of(entry) for entry in entries]


# ---------------------------------------------------------------- the tests


def test_the_evening_was_told_in_order_and_held_every_kind_of_event(evening: Evening) -> None:
    assert evening.contradictions == []
    kinds = {type(entry) for entry in evening.entries}
    assert kinds >= {journal.Move, journal.Undo, journal.Chat, journal.Pause, journal.PauseEnd,
                     journal.HandOver, journal.Away, journal.Back, journal.End}  # fmt: skip
    ends = [e for e in evening.entries if isinstance(e, journal.PauseEnd)]
    assert [e.early for e in ends] == [False, True]
    handed = [(e.by, e.name, e.level) for e in evening.entries if isinstance(e, journal.HandOver)]
    assert handed == [("ann", "cleo", "easy"), ("cleo", "cleo", None)]
    standins = {
        e.standin for e in evening.entries if isinstance(e, journal.Move) and e.seat == CLEO
    }
    assert standins == {None, "easy"}  # cleo's own moves and the computer's, told apart
    spectators = [e.name for e in evening.entries if isinstance(e, journal.Chat) and e.spectator]
    assert spectators == ["eve"]
    (end,) = [e for e in evening.entries if isinstance(e, journal.End)]
    assert [rated.name for rated in end.rated] == ["ann", "ben", "cleo"]
    assert evening.entries[-1] == end


def test_who_reconnects_is_sent_exactly_what_those_who_stayed_were_told(
    evening: Evening,
) -> None:
    """Ben's terminal that redialled, cleo coming back, zed at the end: each snapshot's
    journal is, line for line, what ann was told live until then."""
    assert [name.split()[0] for name in evening.catch_ups] == ["ben", "cleo", "zed"]
    for name, (snapshot, told) in evening.catch_ups.items():
        assert lines(snapshot) == lines(told), name
        assert snapshot == told, name  # the entries themselves, not only their words


def test_a_watcher_is_told_the_same_journal(evening: Evening) -> None:
    assert lines(evening.watched) == lines(evening.entries)


def test_the_store_keeps_the_journal_told(evening: Evening) -> None:
    """Entry for entry (the clients closed after the end: who leaves a finished table is
    no event of its game)."""
    assert evening.stored == evening.entries


def test_the_export_keeps_the_journal_s_lines(evening: Evening) -> None:
    """The save exported at the end holds the lines of the journal as told
    (:func:`table.journal.told_lines`: chat where it was said, and every note)."""
    save = evening.save
    assert save is not None
    kept = [
        getattr(save, f.name)
        for f in msgspec.structs.fields(SaveFile)
        if "TableLine" in str(f.type)
    ]
    if not kept:
        pytest.skip("this save format keeps no TableLine yet (the export's own change)")
    (saved,) = kept
    expected = journal.told_lines(evening.entries)
    assert list(saved) == expected and all(isinstance(line, TableLine) for line in saved)


# ---------------------------------------------------------------- migration


def schema_9(path: Path) -> None:
    """A store as schema 9 left it (the old migrations), with a table of ann and ben: a
    few actions (one by a computer standing in for ben) and chat said among them (one
    line before schema 7, which kept no place, placed by its time)."""
    states = [core.new_game(2, 5, ["ann", "ben"], [core.Colour.BLUE, core.Colour.RED])]
    chance = random.Random(3)
    actions: list[core.Action] = []
    for _ in range(4):
        actions.append(chance.choice(core.legal_actions(states[-1])))
        states.append(core.apply_action(states[-1], actions[-1]))
    with sqlite3.connect(path) as db:
        for migration in MIGRATIONS[:9]:
            for statement in migration.split(";"):
                if statement.strip():
                    db.execute(statement)
        db.execute("PRAGMA user_version = 9")
        db.execute(
            "INSERT INTO tables (id, title, seed, created, updated) VALUES (1, 't', 5, 0, 0)"
        )
        db.executemany(
            "INSERT INTO seats (table_id, seat, kind, name, colour) VALUES (1, ?, 'player', ?, ?)",
            [(0, "ann", "blue"), (1, "ben", "red")],
        )
        db.executemany(
            "INSERT INTO actions (table_id, seq, action, at, standin) VALUES (1, ?, ?, ?, ?)",
            [(seq, msgspec.json.encode(action), 100.0 + seq, "easy" if seq == 2 else None)
             for seq, action in enumerate(actions)],
        )  # fmt: skip
        db.executemany(
            "INSERT INTO chat (table_id, at, name, spectator, text, seq) VALUES (1, ?, ?, ?, ?, ?)",
            [(100.5, "ben", 0, "hello", 1), (101.5, "eve", 1, "from before schema 7", None),
             (110.0, "ann", 0, "gg", 4)],
        )  # fmt: skip
    db.close()


def test_a_store_of_schema_9_keeps_its_moves_and_chat_as_journal_entries(tmp_path) -> None:
    path = tmp_path / "tables.db"
    schema_9(path)
    store = TableStore(path)
    try:
        (row,) = store.tables()
        (version,) = store.db.execute("PRAGMA user_version").fetchone()
        old = store.db.execute("SELECT name FROM sqlite_master WHERE name LIKE 'chat%'").fetchall()
    finally:
        store.close()
    assert version == len(MIGRATIONS) and row.damaged is None
    states = core.replay(core.new_game(2, 5, ["ann", "ben"], [core.Colour.BLUE, core.Colour.RED]),
                         row.actions)  # fmt: skip
    seats = [state.current_player for state in states[:-1]]
    assert lines(row.journal) == [
        f"move 0 by seat {seats[0]}",
        "ben: hello",
        f"move 1 by seat {seats[1]}",
        "eve (watching): from before schema 7",
        f"move 2 by seat {seats[2]} (computer, easy)",
        f"move 3 by seat {seats[3]}",
        "ann: gg",
    ]
    assert [entry.at for entry in row.journal] == [100.0, 100.5, 101.0, 101.5, 102.0, 103.0, 110.0]
    assert old == []  # every line is in the journal: the old chat table is gone


def test_chat_of_no_table_is_kept_aside_not_lost(tmp_path) -> None:
    path = tmp_path / "tables.db"
    schema_9(path)
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO chat (table_id, at, name, spectator, text) VALUES (9, 0, 'z', 0, 'x')"
        )
    db.close()
    store = TableStore(path)
    try:
        kept = store.db.execute("SELECT table_id, text FROM chat_unmigrated").fetchall()
        (row,) = store.tables()
    finally:
        store.close()
    assert kept == [(1, "hello"), (1, "from before schema 7"), (1, "gg"), (9, "x")]
    assert sum(isinstance(entry, journal.Chat) for entry in row.journal) == 3
