"""The table server's store: tables, their seats, their actions and their journals, in
SQLite.

One row per action, keyed ``(table, seq)``, and one per journal entry, keyed ``(table,
n)``, so neither can ever be stored twice or out of order; a table's game is its seed,
its seats and its actions (the rules replay it), and its journal is what its players
were told (:mod:`table.journal`). Tables are read one at a time: a table whose rows
cannot be read (a damaged page, a bad action or entry, an unknown colour, a gap in its
actions or its journal) comes back with ``damaged`` saying why and everything read up to
the fault, and every other table is read as usual. Only a file that is not a store at
all (or one of a newer schema) raises :class:`StoreError`.
The file is in WAL mode with ``synchronous=FULL``: once :meth:`TableStore.commit` returns,
the changes survive a kill -9 or a power cut. The schema is versioned
(:mod:`table.store.schema`), and any older file is brought up to date when it is opened.

Everything the server needs goes through :class:`TableStore`'s few methods, so a
deployment that outgrows one host can put PostgreSQL behind the same interface (see
``docs/table-server.md``). Calls block: the server makes them from one writer thread.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, assert_never

import msgspec

import core
from core.analysis import Analysis
from table import journal
from table.ladder import Rating
from table.protocol import Pace, SeatKind
from table.store.changes import (
    Analysed,
    Append,
    Change,
    Finished,
    Noted,
    Paused,
    Resumed,
    SeatRow,
    SitDown,
    StandIn,
    TableRow,
    Truncate,
    TurnBegan,
)
from table.store.notices import queue_turn
from table.store.schema import StoreError, migrate, rollback

__all__ = ["Damaged", "StoreError", "TableStore"]

_ACTION = msgspec.json.Encoder()
_ACTION_OF: msgspec.json.Decoder[core.Action] = msgspec.json.Decoder(core.Action)
_ANALYSIS_OF: msgspec.json.Decoder[Analysis] = msgspec.json.Decoder(Analysis)
_UNREADABLE = (sqlite3.DatabaseError, msgspec.MsgspecError, ValueError)
"""What reading a table's rows may raise besides :class:`Damaged`."""


class Damaged(Exception):
    """A table's rows that cannot be a table; ``str`` says why, in words."""


class TableStore:
    """The tables of one server, in one SQLite file (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            migrate(self.db, path)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path} cannot be the table store: {exc}") from None

    def close(self) -> None:
        self.db.close()

    # ---------------------------------------------------------------- reading

    def tables(self) -> list[TableRow]:
        """Every table with its seats, actions and journal (the server holds them in
        memory), each read on its own: a table that cannot be read is returned with
        ``damaged`` set."""
        try:
            ids = [table_id for (table_id,) in self.db.execute("SELECT id FROM tables ORDER BY id")]
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: the list of tables cannot be read: {exc}") from None
        return [self._table(table_id) for table_id in ids]

    def _table(self, table_id: int) -> TableRow:
        """One table, read part by part: a fault in one part (its seats, its actions, its
        journal) is the table's damage, and the other parts are still read as far as
        they go (a damaged table is watched and exported as far as it can be)."""
        row = TableRow(table_id, "?", 0, 0.0, 0.0, [])
        parts: list[Callable[[TableRow], None]] = [self._read_table, self._read_actions,
                                                    self._read_journal]  # fmt: skip
        for part in parts:
            try:
                part(row)
            except (Damaged, *_UNREADABLE) as exc:
                row.damaged = row.damaged or str(exc) or type(exc).__name__
        try:
            row.analysis = self._read_analysis(row.id)
        except _UNREADABLE:
            row.analysis = None  # not the game's damage: the analysis is made again
        return row

    def _read_analysis(self, table_id: int) -> Analysis | None:
        found = self.db.execute(
            "SELECT analysis FROM analyses WHERE table_id = ?", (table_id,)
        ).fetchone()
        return None if found is None else _ANALYSIS_OF.decode(found[0])

    def _read_table(self, row: TableRow) -> None:
        """``row``'s own line, its seats and its pauses, raising at the first thing that
        is not right."""
        (
            row.title, row.seed, row.created, row.updated, row.finished, pace, row.wait,
            row.paused_until, row.paused_by, row.creator, hints,
        ) = self.db.execute(
            "SELECT title, seed, created, updated, finished, pace, wait, paused_until, "
            "paused_by, creator, hints FROM tables WHERE id = ?",
            (row.id,),
        ).fetchone()  # fmt: skip
        row.hints = bool(hints)
        row.pace = _known(pace, Pace, "pace")
        query = "SELECT seat, kind, name, level, colour, standin FROM seats WHERE table_id = ?"
        for seat, kind, name, level, colour, standin in self.db.execute(
            query + " ORDER BY seat", (row.id,)
        ):
            if seat != len(row.seats):
                raise Damaged(f"seat {len(row.seats) + 1} is missing")
            row.seats.append(
                SeatRow(
                    _known(kind, SeatKind, "seat kind"),
                    name,
                    _known(level, core.Level, "level") if level is not None else None,
                    _known(colour, core.Colour, "colour"),
                    _known(standin, core.Level, "level") if standin is not None else None,
                )
            )
        if not 2 <= len(row.seats) <= 4:
            raise Damaged(f"{len(row.seats)} seats (a game has 2 to 4)")
        for name, season in self.db.execute(
            "SELECT name, season FROM pauses WHERE table_id = ?", (row.id,)
        ):
            row.pauses.add((name, season))

    def _read_actions(self, row: TableRow) -> None:
        for seq, blob, standin in self.db.execute(
            "SELECT seq, action, standin FROM actions WHERE table_id = ? ORDER BY seq", (row.id,)
        ):
            if seq != len(row.actions):
                raise Damaged(f"action {len(row.actions) + 1} is missing")
            try:
                row.actions.append(_ACTION_OF.decode(blob))
            except msgspec.MsgspecError as exc:
                raise Damaged(f"action {seq + 1} cannot be read: {exc}") from None
            row.standins.append(_known(standin, core.Level, "level") if standin else None)

    def _read_journal(self, row: TableRow) -> None:
        for n, blob in self.db.execute(
            "SELECT n, entry FROM journal WHERE table_id = ? ORDER BY n", (row.id,)
        ):
            if n != len(row.journal):
                raise Damaged(f"entry {len(row.journal) + 1} of its journal is missing")
            try:
                row.journal.append(journal.DECODER.decode(blob))
            except msgspec.MsgspecError as exc:
                raise Damaged(f"entry {n + 1} of its journal cannot be read: {exc}") from None

    def ratings(self) -> dict[str, Rating]:
        """The ladder as stored."""
        return {
            name: Rating(name, mu, sigma, games, wins)
            for name, mu, sigma, games, wins in self.db.execute(
                "SELECT name, mu, sigma, games, wins FROM ratings"
            )
        }

    # ---------------------------------------------------------------- writing

    def create(
        self,
        title: str,
        seed: int,
        seats: Sequence[SeatRow],
        pace: Pace = "days",
        wait: float = 300,
        creator: str | None = None,
        hints: bool = True,
        first: str | None = None,
    ) -> TableRow:
        """A new table, committed; ``first``: the person whose turn its game begins with
        (their notices are queued in the same transaction: :class:`TurnBegan`)."""
        now = time.time()
        self.db.execute("BEGIN IMMEDIATE")
        try:
            cursor = self.db.execute(
                "INSERT INTO tables (title, seed, created, updated, pace, wait, creator, hints) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (title, seed, now, now, pace, wait, creator, hints),
            )
            table_id = cursor.lastrowid
            assert table_id is not None
            # the orphans of a damaged store
            for rows in ("seats", "actions", "journal", "pauses", "analyses"):
                self.db.execute(f"DELETE FROM {rows} WHERE table_id = ?", (table_id,))
            self.db.executemany(
                "INSERT INTO seats (table_id, seat, kind, name, level, colour) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (table_id, i, s.kind, s.name, s.level, s.colour.value)
                    for i, s in enumerate(seats)
                ],
            )
            if first is not None:
                queue_turn(self.db, table_id, 0, first, now)
            self.db.execute("COMMIT")
        except BaseException:
            rollback(self.db)
            raise
        return TableRow(
            table_id, title, seed, now, now, list(seats), pace=pace, wait=wait, creator=creator,
            hints=hints,
        )  # fmt: skip

    def commit(self, changes: Sequence[Change]) -> None:
        """Apply ``changes`` in one transaction: all of them are durable when this returns,
        or none (an exception: an action or an entry already stored, a seat no longer
        open, a write that failed)."""
        now = time.time()
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for change in changes:
                if self._apply(change, now):
                    self.db.execute(
                        "UPDATE tables SET updated = ? WHERE id = ?", (now, change.table)
                    )
            self.db.execute("COMMIT")
        except BaseException:
            rollback(self.db)
            raise

    def _apply(self, change: Change, now: float) -> bool:
        """One change, inside :meth:`commit`'s transaction; True if it makes the table's
        game more recent (the lobby lists the most recent first)."""
        execute = self.db.execute
        match change:
            case Append(table, seq, action, standin):
                execute(
                    "INSERT INTO actions (table_id, seq, action, at, standin) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (table, seq, _ACTION.encode(action), now, standin),
                )
                return True
            case Truncate(table, seq):
                execute("DELETE FROM actions WHERE table_id = ? AND seq >= ?", (table, seq))
                return True
            case SitDown(table, seat, name):
                sat = execute(
                    "UPDATE seats SET kind = 'player', name = ? "
                    "WHERE table_id = ? AND seat = ? AND kind = 'open'",
                    (name, table, seat),
                )
                if sat.rowcount != 1:
                    raise StoreError(f"seat {seat + 1} of table {table} is not open")
                return True
            case StandIn(table, seat, level):
                execute(
                    "UPDATE seats SET standin = ? WHERE table_id = ? AND seat = ?",
                    (level, table, seat),
                )
                return True
            case Noted(table, n, entry):
                execute(
                    "INSERT INTO journal (table_id, n, at, entry) VALUES (?, ?, ?, ?)",
                    (table, n, entry.at, journal.ENCODER.encode(entry)),
                )
                return False  # what is said of a game does not make it more recent
            case Finished(table, at, ratings):
                execute("UPDATE tables SET finished = ? WHERE id = ?", (at, table))
                self.db.executemany(
                    "INSERT OR REPLACE INTO ratings (name, mu, sigma, games, wins) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [(r.name, r.mu, r.sigma, r.games, r.wins) for r in ratings],
                )
                return False
            case Paused(table, name, season, until):
                execute(
                    "INSERT INTO pauses (table_id, name, season) VALUES (?, ?, ?)",
                    (table, name, season),
                )
                execute(
                    "UPDATE tables SET paused_until = ?, paused_by = ? WHERE id = ?",
                    (until, name, table),
                )
                return False
            case Resumed(table, name):
                ended = execute(
                    "UPDATE tables SET paused_until = NULL, paused_by = NULL "
                    "WHERE id = ? AND paused_by = ?",
                    (table, name),
                )
                if ended.rowcount != 1:
                    raise StoreError(f"table {table} is not paused by {name}")
                return False
            case Analysed(table, analysis):
                execute(
                    "INSERT OR REPLACE INTO analyses (table_id, analysis) VALUES (?, ?)",
                    (table, _ACTION.encode(analysis)),
                )
                return False  # a look back at the game, not a move of it
            case TurnBegan(table, seq, name, at):
                queue_turn(self.db, table, seq, name, at)
                return False  # told later, far from the table
            case _:
                assert_never(change)


def _known(value: object, kind: Any, what: str) -> Any:
    """``value`` as a ``kind`` (a literal type or an enum); raises :class:`Damaged`."""
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError:
        raise Damaged(f"{what} {value!r} is unknown") from None
