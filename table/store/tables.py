"""The table server's store: tables, their seats and their actions, in SQLite.

One row per action, keyed ``(table, seq)``, so an action can never be stored twice or out
of order; a table's game is its seed, its seats and its actions (the rules replay it).
Tables are read one at a time: a table whose rows cannot be read (a damaged page, a bad
action, an unknown colour, a gap in its actions) comes back with ``damaged`` saying why,
and every other table is read as usual. Only a file that is not a store at all (or one
of a newer schema) raises :class:`StoreError`.
The file is in WAL mode with ``synchronous=FULL``: once :meth:`TableStore.commit` returns,
the actions survive a kill -9 or a power cut. The schema is versioned by ``PRAGMA
user_version``; :data:`MIGRATIONS` brings any older file up to date when it is opened.

Everything the server needs goes through :class:`TableStore`'s few methods, so a
deployment that outgrows one host can put PostgreSQL behind the same interface (see
``docs/table-server.md``). Calls block: the server makes them from one writer thread.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import msgspec

import core
from table.ladder import Rating
from table.protocol import Pace, SeatKind

MIGRATIONS: Final[tuple[str, ...]] = (
    # 1: tables, seats, actions
    """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        seed INTEGER NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT,
        level TEXT,
        colour TEXT NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        action BLOB NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID;
    """,
    # 2: a player's seat may be handed to a computer stand-in
    """
    ALTER TABLE seats ADD COLUMN standin TEXT;
    """,
    # 3: each table's chat
    """
    CREATE TABLE chat (
        table_id INTEGER NOT NULL REFERENCES tables(id),
        at REAL NOT NULL,
        name TEXT NOT NULL,
        spectator INTEGER NOT NULL,
        text TEXT NOT NULL
    );
    CREATE INDEX chat_by_table ON chat (table_id, at);
    """,
    # 4: when each game finished, and the ladder
    """
    ALTER TABLE tables ADD COLUMN finished REAL;
    CREATE TABLE ratings (
        name TEXT PRIMARY KEY,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL
    );
    """,
    # 5: live tables (a wait before an absent player's seat may be handed over) and pauses
    """
    ALTER TABLE tables ADD COLUMN pace TEXT NOT NULL DEFAULT 'days';
    ALTER TABLE tables ADD COLUMN wait REAL NOT NULL DEFAULT 300;
    ALTER TABLE tables ADD COLUMN paused_until REAL;
    ALTER TABLE tables ADD COLUMN paused_by TEXT;
    CREATE TABLE pauses (
        table_id INTEGER NOT NULL REFERENCES tables(id),
        name TEXT NOT NULL,
        season INTEGER NOT NULL,
        PRIMARY KEY (table_id, name, season)
    );
    """,
    # 6: who created each table (per-player limits, and whose computers' turn it is)
    """
    ALTER TABLE tables ADD COLUMN creator TEXT;
    """,
    # 7: the computer stand-in that made an action (the ladder rates people's play), and
    # how many actions a table had when a chat line was said (its place in the log)
    """
    ALTER TABLE actions ADD COLUMN standin TEXT;
    ALTER TABLE chat ADD COLUMN seq INTEGER;
    """,
    # 8: players known by their SSH keys, and one-time invitations (see table.host.players):
    # a key is its OpenSSH line without the comment ("ssh-ed25519 AAAA…"), an invitation
    # is kept as the SHA-256 of its code, never the code
    """
    CREATE TABLE player_keys (
        key TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        fingerprint TEXT NOT NULL UNIQUE,
        comment TEXT NOT NULL DEFAULT '',
        added REAL NOT NULL
    );
    CREATE INDEX player_keys_by_name ON player_keys (name);
    CREATE TABLE invitations (
        code_hash TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created REAL NOT NULL,
        expires REAL NOT NULL,
        used_at REAL,
        used_by_key TEXT
    );
    """,
    # 9: browsers signed in through the web door (see table.host.players): a session is kept as
    # the SHA-256 of its token, never the token; an invitation a browser used has
    # used_by_key 'web'
    """
    CREATE TABLE web_sessions (
        token_hash TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created REAL NOT NULL,
        expires REAL NOT NULL
    );
    CREATE INDEX web_sessions_by_name ON web_sessions (name);
    """,
)
"""Each entry brings the schema from version ``index`` to ``index + 1``."""

_ACTION = msgspec.json.Encoder()
_ACTION_OF: msgspec.json.Decoder[core.Action] = msgspec.json.Decoder(core.Action)


class StoreError(Exception):
    """The store file cannot be used (newer schema, not a database…); ``str`` says why."""


class Damaged(Exception):
    """A table's rows that cannot be a table; ``str`` says why, in words."""


@dataclass
class SeatRow:
    """A seat as stored: ``kind`` is ``player`` (``name`` set once someone sits),
    ``open`` (nobody yet: the first to join takes it, becoming ``player``) or ``computer``."""

    kind: SeatKind
    name: str | None
    level: core.Level | None
    colour: core.Colour
    standin: core.Level | None = None
    """A ``player`` seat handed to a computer of this level, until taken back."""


@dataclass
class TableRow:
    """A table and its whole game as stored."""

    id: int
    title: str
    seed: int
    created: float
    updated: float
    seats: list[SeatRow]
    finished: float | None = None
    """When the game's result went into the ladder (None: not over, or not rated yet)."""
    pace: Pace = "days"
    wait: float = 300
    paused_until: float | None = None
    paused_by: str | None = None
    pauses: set[tuple[str, int]] = field(default_factory=set)
    """(player, season) of each pause taken."""
    actions: list[core.Action] = field(default_factory=list)
    standins: list[core.Level | None] = field(default_factory=list)
    """For each action, the level of the computer stand-in that made it for its player
    (None: made by the seat's own player or computer)."""
    chat: list[Chat] = field(default_factory=list)
    creator: str | None = None
    """Who created the table (None in a store older than schema 6)."""
    damaged: str | None = None
    """Why the stored rows cannot be read (the rows read before the fault are kept)."""

    def names(self) -> list[str]:
        """The name each seat plays under: a player's own; a computer's level ("Normal",
        then "Normal 2" for a second of the same level); an open seat's "?"."""
        names: list[str] = []
        for seat in self.seats:
            if seat.kind == "computer" and seat.level is not None:
                level = seat.level.capitalize()
                same = sum(1 for name in names if name.split(" ")[0] == level)
                names.append(f"{level} {same + 1}" if same else level)
            else:
                names.append(seat.name or "?")
        return names


@dataclass(frozen=True)
class Append:
    """Store action ``seq`` of a table (``standin``: made by a computer standing in)."""

    table: int
    seq: int
    action: core.Action
    standin: core.Level | None = None


@dataclass(frozen=True)
class Truncate:
    """Forget a table's actions from ``seq`` on (an undo)."""

    table: int
    seq: int


@dataclass(frozen=True)
class SitDown:
    """``name`` takes the open seat ``seat``."""

    table: int
    seat: int
    name: str


@dataclass(frozen=True)
class StandIn:
    """Seat ``seat`` is played by a computer of ``level`` (None: by its player again)."""

    table: int
    seat: int
    level: core.Level | None


@dataclass(frozen=True)
class Chat:
    """A line of a table's chat."""

    table: int
    at: float
    name: str
    text: str
    spectator: bool
    seq: int | None = None
    """How many actions the table had when it was said (None: in an older store)."""


@dataclass(frozen=True)
class Finished:
    """A game's result went into the ladder at ``at``: the new ratings of its players."""

    table: int
    at: float
    ratings: tuple[Rating, ...]


@dataclass(frozen=True)
class Paused:
    """``name`` paused the table until ``until`` (their pause of ``season``)."""

    table: int
    name: str
    season: int
    until: float


@dataclass(frozen=True)
class Resumed:
    """``name`` ended their pause of the table early: it is no longer paused."""

    table: int
    name: str


Change = Append | Truncate | SitDown | StandIn | Chat | Finished | Paused | Resumed


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
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path} cannot be the table store: {exc}") from None

    def _migrate(self) -> None:
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path} was written by a newer server (schema {version}; this one "
                f"knows up to {len(MIGRATIONS)})"
            )
        for number in range(version, len(MIGRATIONS)):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {number + 1}")
                self.db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

    def close(self) -> None:
        self.db.close()

    # ---------------------------------------------------------------- reading

    def tables(self) -> list[TableRow]:
        """Every table with its seats and actions (the server holds them in memory), each
        read on its own: a table that cannot be read is returned with ``damaged`` set."""
        try:
            ids = [table_id for (table_id,) in self.db.execute("SELECT id FROM tables ORDER BY id")]
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: the list of tables cannot be read: {exc}") from None
        return [self._table(table_id) for table_id in ids]

    def _table(self, table_id: int) -> TableRow:
        row = TableRow(table_id, "?", 0, 0.0, 0.0, [])
        try:
            self._read_table(row)
        except (sqlite3.DatabaseError, msgspec.MsgspecError, Damaged, ValueError) as exc:
            row.damaged = str(exc) or type(exc).__name__
        return row

    def _read_table(self, row: TableRow) -> None:
        """Fill ``row`` from the store, raising at the first thing that is not right."""
        (
            row.title, row.seed, row.created, row.updated, row.finished, pace, row.wait,
            row.paused_until, row.paused_by, row.creator,
        ) = self.db.execute(
            "SELECT title, seed, created, updated, finished, pace, wait, paused_until, "
            "paused_by, creator FROM tables WHERE id = ?",
            (row.id,),
        ).fetchone()  # fmt: skip
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
        for at, name, spectator, text, seq in self.db.execute(
            "SELECT at, name, spectator, text, seq FROM chat WHERE table_id = ? ORDER BY at",
            (row.id,),
        ):
            row.chat.append(Chat(row.id, at, name, text, bool(spectator), seq))
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
    ) -> TableRow:
        """A new table, committed."""
        now = time.time()
        self.db.execute("BEGIN IMMEDIATE")
        try:
            cursor = self.db.execute(
                "INSERT INTO tables (title, seed, created, updated, pace, wait, creator) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (title, seed, now, now, pace, wait, creator),
            )
            table_id = cursor.lastrowid
            assert table_id is not None
            for rows in ("seats", "actions", "chat", "pauses"):  # orphans of a damaged store
                self.db.execute(f"DELETE FROM {rows} WHERE table_id = ?", (table_id,))
            self.db.executemany(
                "INSERT INTO seats (table_id, seat, kind, name, level, colour) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (table_id, i, s.kind, s.name, s.level, s.colour.value)
                    for i, s in enumerate(seats)
                ],
            )
            self.db.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise
        return TableRow(
            table_id, title, seed, now, now, list(seats), pace=pace, wait=wait, creator=creator
        )

    def commit(self, changes: Sequence[Change]) -> None:
        """Apply ``changes`` in one transaction: all of them are durable when this returns,
        or none (an exception: an action already stored, a write that failed)."""
        now = time.time()
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for change in changes:
                if isinstance(change, Append):
                    self.db.execute(
                        "INSERT INTO actions (table_id, seq, action, at, standin) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (change.table, change.seq, _ACTION.encode(change.action), now,
                         change.standin),
                    )  # fmt: skip
                elif isinstance(change, Truncate):
                    self.db.execute(
                        "DELETE FROM actions WHERE table_id = ? AND seq >= ?",
                        (change.table, change.seq),
                    )
                elif isinstance(change, Chat):
                    self.db.execute(
                        "INSERT INTO chat (table_id, at, name, spectator, text, seq) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (change.table, change.at, change.name, change.spectator, change.text,
                         change.seq),
                    )  # fmt: skip
                    continue  # a chat line does not make the game more recent
                elif isinstance(change, Finished):
                    self.db.execute(
                        "UPDATE tables SET finished = ? WHERE id = ?", (change.at, change.table)
                    )
                    self.db.executemany(
                        "INSERT OR REPLACE INTO ratings (name, mu, sigma, games, wins) "
                        "VALUES (?, ?, ?, ?, ?)",
                        [(r.name, r.mu, r.sigma, r.games, r.wins) for r in change.ratings],
                    )
                    continue
                elif isinstance(change, Paused):
                    self.db.execute(
                        "INSERT INTO pauses (table_id, name, season) VALUES (?, ?, ?)",
                        (change.table, change.name, change.season),
                    )
                    self.db.execute(
                        "UPDATE tables SET paused_until = ?, paused_by = ? WHERE id = ?",
                        (change.until, change.name, change.table),
                    )
                    continue
                elif isinstance(change, Resumed):
                    ended = self.db.execute(
                        "UPDATE tables SET paused_until = NULL, paused_by = NULL "
                        "WHERE id = ? AND paused_by = ?",
                        (change.table, change.name),
                    )
                    if ended.rowcount != 1:
                        raise StoreError(f"table {change.table} is not paused by {change.name}")
                    continue
                elif isinstance(change, StandIn):
                    self.db.execute(
                        "UPDATE seats SET standin = ? WHERE table_id = ? AND seat = ?",
                        (change.level, change.table, change.seat),
                    )
                else:
                    sat = self.db.execute(
                        "UPDATE seats SET kind = 'player', name = ? "
                        "WHERE table_id = ? AND seat = ? AND kind = 'open'",
                        (change.name, change.table, change.seat),
                    )
                    if sat.rowcount != 1:
                        raise StoreError(
                            f"seat {change.seat + 1} of table {change.table} is not open"
                        )
                self.db.execute("UPDATE tables SET updated = ? WHERE id = ?", (now, change.table))
            self.db.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        """Undo a transaction that failed, if SQLite has not already (it has after a full
        disk or an I/O error: a ROLLBACK then would hide the real cause behind "cannot
        rollback - no transaction is active")."""
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")


def _known(value: object, kind: Any, what: str) -> Any:
    """``value`` as a ``kind`` (a literal type or an enum); raises :class:`Damaged`."""
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError:
        raise Damaged(f"{what} {value!r} is unknown") from None
