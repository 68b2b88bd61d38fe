"""A store with damage in it (issue 17): the server still starts, names each damaged
table once in its log, lists it as damaged with the reason, refuses to change it in
words, exports it as far as it replays, and serves every other table. Only a file that
is not a store at all stops the start, in one line.

The store is made by a real server and bots (tables of ann and ben, a few actions each),
copied for each test and damaged there with sqlite3, as a disk or a hand would.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest

import core
from saves.format import decode
from saves.replay import replay
from table import journal
from table import protocol as wire
from table.client.connection import Connection, connect
from table.store import MIGRATIONS, TableRow, TableStore
from tests.table_server.bots import Bot, catch_up, create, played
from tests.table_server.test_processes import Launch, Launched, servers

TABLES = 7
"""Tables in the store: one for each kind of damage to the rows of a table (the sixth has
its journal damaged in the tests that damage it), the last one kept whole."""
ACTIONS = 12
"""Actions played at each table before the store is damaged."""
BAD = 5
"""The action (0-based seq) the damage is done to: 5 actions stay readable before it."""
JOURNAL = TABLES - 1
"""The table whose journal is damaged (in the tests that damage it)."""
WHOLE = TABLES
"""The table no damage touches."""
CHAT_LINES = 40
"""Long chat lines written at the table whose page is damaged (several pages of them)."""
MARK = "line-"
PAIR = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben")]


# ---------------------------------------------------------------- the store, before damage


async def played_store(server: Launched) -> None:
    """``TABLES`` tables of ann and ben, ``ACTIONS`` actions played at each."""
    await server.answering()
    for _ in range(TABLES):
        table = await create(server.socket, "ann", PAIR)
        bots = [await Bot.join(server.socket, name, table, seed) for seed, name in
                enumerate(["ann", "ben"])]  # fmt: skip
        for _ in range(ACTIONS):
            mover = next(bot for bot in bots if bot.my_turn())
            assert played(await mover.play_one())
            await catch_up(bots)
        for bot in bots:
            await bot.connection.close()


@pytest.fixture(scope="module")
def pristine() -> Iterator[Path]:
    """A store file made by a real server, stopped cleanly."""
    with servers() as launch:
        server = launch()
        asyncio.run(played_store(server))
        server.stop()
        assert server.process.returncode == 0, server.stderr()
        yield server.db


def stored(db: Path) -> dict[int, TableRow]:
    store = TableStore(db)
    try:
        return {row.id: row for row in store.tables()}
    finally:
        store.close()


def copied(pristine: Path, to: Path) -> dict[int, TableRow]:
    """A consistent copy of ``pristine`` at ``to``; its tables as stored."""
    with sqlite3.connect(pristine) as source, sqlite3.connect(to) as copy:
        source.backup(copy)
    source.close()
    copy.close()
    rows = stored(to)
    assert sorted(rows) == list(range(1, TABLES + 1))
    assert all(len(row.actions) == ACTIONS and row.damaged is None for row in rows.values())
    return rows


def execute(db: Path, sql: str, *parameters: object) -> None:
    """One statement on the store, committed and checkpointed into the file."""
    connection = sqlite3.connect(db)
    try:
        connection.execute(sql, parameters)
        connection.commit()
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()


# ---------------------------------------------------------------- kinds of damage


def not_json(db: Path, rows: dict[int, TableRow]) -> None:
    execute(db, "UPDATE actions SET action = x'00ff' WHERE table_id = 1 AND seq = ?", BAD)


def illegal(db: Path, rows: dict[int, TableRow]) -> None:
    """Action ``BAD`` of table 2 replaced by one that is legal somewhere in the game (so
    well-formed) but not where it now stands."""
    row = rows[2]
    states = [core.new_game(2, row.seed, [s.name or "?" for s in row.seats],
                            [s.colour for s in row.seats])]  # fmt: skip
    for action in row.actions:
        states.append(core.apply_action(states[-1], action))
    candidates = [a for state in states for a in core.legal_actions(state)]
    for candidate in candidates:
        try:
            core.apply_action(states[BAD], candidate)
        except core.IllegalActionError:
            execute(db, "UPDATE actions SET action = ? WHERE table_id = 2 AND seq = ?",
                    msgspec.json.encode(candidate), BAD)  # fmt: skip
            return
    raise AssertionError("no illegal action found")


def gap(db: Path, rows: dict[int, TableRow]) -> None:
    execute(db, "DELETE FROM actions WHERE table_id = 3 AND seq = ?", BAD)


def purple(db: Path, rows: dict[int, TableRow]) -> None:
    execute(db, "UPDATE seats SET colour = 'purple' WHERE table_id = 4 AND seat = 1")


def damaged_page(db: Path, rows: dict[int, TableRow]) -> None:
    """A page of table 5's journal overwritten: its b-tree page type byte made invalid.
    The page holds a line of chat from the middle of the table's journal (long lines,
    several pages of them), so no other table's rows and none of the b-tree's inner pages
    are on it."""
    connection = sqlite3.connect(db)
    try:
        (told,) = connection.execute("SELECT COUNT(*) FROM journal WHERE table_id = 5").fetchone()
        lines = [journal.Chat(1000.0 + i, ACTIONS, "ann", f"{MARK}{i:03d} " + "x" * 180)
                 for i in range(CHAT_LINES)]  # fmt: skip
        connection.executemany(
            "INSERT INTO journal (table_id, n, at, entry) VALUES (5, ?, ?, ?)",
            [(told + i, line.at, journal.ENCODER.encode(line)) for i, line in enumerate(lines)],
        )
        connection.commit()
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (page_size,) = connection.execute("PRAGMA page_size").fetchone()
    finally:
        connection.close()
    data = bytearray(db.read_bytes())
    page = data.index(f"{MARK}{CHAT_LINES // 2:03d}".encode()) // page_size
    assert page > 0
    data[page * page_size] = 0x00  # no b-tree page has type 0
    db.write_bytes(bytes(data))


def bad_entry(db: Path, rows: dict[int, TableRow]) -> None:
    """An entry of a table's journal that is not an entry: the journal is read up to it,
    the game whole."""
    execute(db, "UPDATE journal SET entry = x'7b7d' WHERE table_id = ? AND n = ?", JOURNAL, BAD)


def journal_gap(db: Path, rows: dict[int, TableRow]) -> None:
    execute(db, "DELETE FROM journal WHERE table_id = ? AND n = ?", JOURNAL, BAD)


@dataclass(frozen=True)
class Damage:
    """A kind of damage done to table ``table``, and what its reason must say."""

    do: Callable[[Path, dict[int, TableRow]], None]
    table: int
    reason: str
    exported: int | None
    """Actions the table's export replays (None: no game to export, refused in words)."""


DAMAGES = {
    "not-json": Damage(not_json, 1, f"action {BAD + 1} cannot be read", BAD),
    "illegal": Damage(illegal, 2, f"action {BAD + 1} is not legal", BAD),
    "gap": Damage(gap, 3, f"action {BAD + 1} is missing", BAD),
    "purple": Damage(purple, 4, "colour 'purple' is unknown", None),
    "damaged-page": Damage(damaged_page, 5, "malformed", ACTIONS),  # its actions read first
    "bad-entry": Damage(
        bad_entry, JOURNAL, f"entry {BAD + 1} of its journal cannot be read", ACTIONS
    ),
    "journal-gap": Damage(
        journal_gap, JOURNAL, f"entry {BAD + 1} of its journal is missing", ACTIONS
    ),
}


# ---------------------------------------------------------------- a client's view


async def ask(connection: Connection, message: wire.ClientMessage) -> wire.ServerMessage:
    return await asyncio.wait_for(connection.ask(message), 30)


async def refused(connection: Connection, message: wire.ClientMessage, words: str) -> None:
    answer = await ask(connection, message)
    assert isinstance(answer, wire.Error) and words in answer.reason, answer


async def still_served(server: Launched) -> None:
    """The whole table takes a move, and a new table can be made."""
    bots = [await Bot.join(server.socket, name, WHOLE, seed) for seed, name in
            enumerate(["ann", "ben"])]  # fmt: skip
    mover = next(bot for bot in bots if bot.my_turn())
    assert played(await mover.play_one())
    for bot in bots:
        await bot.connection.close()
    assert await create(server.socket, "ann", PAIR) == TABLES + 1


@pytest.fixture
def launch() -> Iterator[Launch]:
    with servers() as start:
        yield start


# ---------------------------------------------------------------- the tests


@pytest.mark.parametrize("kind", list(DAMAGES))
async def test_a_damaged_table_is_set_aside_and_the_others_are_served(
    launch, pristine, kind
) -> None:
    """The server starts; one log line names the table and why; the lobby lists it as
    damaged; playing, joining it and talking there are refused in words; it exports as
    far as it replays; the whole table is served."""
    damage = DAMAGES[kind]
    rows = copied(pristine, launch.folder / "tables.db")
    damage.do(launch.folder / "tables.db", rows)
    server = launch()
    await server.answering()
    log = server.stderr()
    assert "Traceback" not in log, log
    lines = [line for line in server.lines() if "damaged" in line]
    assert len(lines) == 1 and f"table {damage.table} " in lines[0], log
    assert damage.reason in lines[0], log

    ann = await connect(server.socket, "ann")
    lobby = await ask(ann, wire.ListTables(ann.new_ref()))
    assert isinstance(lobby, wire.Lobby)
    listed = {info.id: info for info in lobby.tables}
    assert listed[damage.table].status == "damaged"
    assert damage.reason in (listed[damage.table].damaged or ""), listed[damage.table]
    assert all(info.status == "playing" for i, info in listed.items() if i != damage.table)

    table, action = damage.table, rows[damage.table].actions[BAD]
    cleo = await connect(server.socket, "cleo")
    await refused(cleo, wire.Join(cleo.new_ref(), table), "damaged")
    joined = await ask(ann, wire.Join(ann.new_ref(), table))  # read-only, or refused
    if isinstance(joined, wire.Snapshot):
        assert joined.table.status == "damaged"
    else:
        assert isinstance(joined, wire.Error) and "damaged" in joined.reason, joined
    await refused(ann, wire.Play(ann.new_ref(), table, BAD, action), "damaged")
    await refused(ann, wire.Say(ann.new_ref(), table, "hello?"), "damaged")

    exported = await ask(ann, wire.Export(ann.new_ref(), table))
    if damage.exported is not None:
        assert isinstance(exported, wire.Exported), exported
        save = decode(Path("exported.json"), exported.save)
        assert save.actions == rows[table].actions[: damage.exported]
        assert len(replay(Path("exported.json"), save)) == damage.exported + 1
    else:
        assert isinstance(exported, wire.Error) and "not started" in exported.reason, exported
    for connection in (ann, cleo):
        await connection.close()
    await still_served(server)


@pytest.mark.parametrize("orphan", [TABLES + 1, 999])
async def test_orphan_rows_harm_no_table(launch, pristine, orphan) -> None:
    """Seat, action and journal rows of a table that does not exist (under the id the next
    table gets, or another): the server starts, no table is damaged, every table is
    served, and the new table has its own seats and no actions."""
    db = launch.folder / "tables.db"
    rows = copied(pristine, db)
    for seat in (0, 1):
        execute(db, "INSERT INTO seats (table_id, seat, kind, name, level, colour) "
                "VALUES (?, ?, 'player', ?, NULL, 'red')", orphan, seat, f"zed{seat}")  # fmt: skip
    execute(db, "INSERT INTO actions (table_id, seq, action, at) VALUES (?, 0, ?, 0)",
            orphan, msgspec.json.encode(rows[1].actions[0]))  # fmt: skip
    line = journal.Chat(0, 0, "zed0", "left behind")
    execute(db, "INSERT INTO journal (table_id, n, at, entry) VALUES (?, 0, 0, ?)",
            orphan, journal.ENCODER.encode(line))  # fmt: skip
    server = launch()
    await server.answering()
    assert "Traceback" not in server.stderr() and "damaged" not in server.stderr()
    ann = await connect(server.socket, "ann")
    lobby = await ask(ann, wire.ListTables(ann.new_ref()))
    assert isinstance(lobby, wire.Lobby)
    assert {info.status for info in lobby.tables} == {"playing"}
    await still_served(server)
    lobby = await ask(ann, wire.ListTables(ann.new_ref()))
    assert isinstance(lobby, wire.Lobby)
    new = next(info for info in lobby.tables if info.id == TABLES + 1)
    assert [seat.name for seat in new.seats] == ["ann", "ben"] and new.actions == 0, new
    await ann.close()


async def test_a_file_that_is_not_a_store_stops_the_start_in_one_line(launch) -> None:
    (launch.folder / "tables.db").write_bytes(random.Random(7).randbytes(16 * 4096))
    server = launch()
    assert server.exited() == 1, server.stderr()
    lines = server.lines()
    assert len(lines) == 1 and str(server.db) in lines[0], lines


async def test_a_store_of_a_newer_schema_stops_the_start_in_one_line(launch) -> None:
    execute(launch.folder / "tables.db", f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    server = launch()
    assert server.exited() == 1, server.stderr()
    lines = server.lines()
    assert len(lines) == 1 and "newer" in lines[0], lines


def test_the_copies_are_whole(pristine) -> None:
    """The undamaged store reads whole (so each damage above is the only one)."""
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        rows = copied(pristine, Path(folder) / "tables.db")
    assert len(rows) == TABLES
