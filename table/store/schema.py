"""The store's schema, versioned by ``PRAGMA user_version``: :data:`MIGRATIONS` (SQL)
and :data:`CONVERSIONS` (the rows a schema's SQL cannot move by itself) bring any older
file up to date when :func:`migrate` opens it, each step in one transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Final

import msgspec

import core
from table import journal
from table.store.changes import SeatRow, seat_names

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
    # 10: each table's journal (table.journal): entry n of a table is its (n+1)th event,
    # stored as msgspec JSON; the chat moves into it (see _journal_from_actions_and_chat)
    """
    CREATE TABLE journal (
        table_id INTEGER NOT NULL REFERENCES tables(id),
        n INTEGER NOT NULL,
        at REAL NOT NULL,
        entry BLOB NOT NULL,
        PRIMARY KEY (table_id, n)
    ) WITHOUT ROWID;
    """,
    # 11: whether a table gives hints (chosen at creation); a table made before has the
    # default rule's answer: off where two or more people play (a player or an open seat)
    """
    ALTER TABLE tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 1;
    UPDATE tables SET hints = 0 WHERE (
        SELECT count(*) FROM seats WHERE seats.table_id = tables.id AND seats.kind != 'computer'
    ) >= 2;
    """,
    # 12: the computer's analysis of each finished table (core.analysis.Analysis as msgspec
    # JSON), made by the server and kept so that a second look is instant
    """
    CREATE TABLE analyses (
        table_id INTEGER PRIMARY KEY REFERENCES tables(id),
        analysis BLOB NOT NULL
    );
    """,
    # 13: notices far from the terminal (table.store.notices): each player's choice, their
    # channels (a code's SHA-256 until confirmed, never the code), and the outbox, whose
    # rows are written in the transaction that makes them due
    """
    CREATE TABLE notice_players (
        name TEXT PRIMARY KEY,
        delay REAL NOT NULL,
        off INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE notice_channels (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        address TEXT NOT NULL,
        confirmed INTEGER NOT NULL DEFAULT 0,
        code_hash TEXT,
        code_expires REAL,
        wrong_codes INTEGER NOT NULL DEFAULT 0,
        added REAL NOT NULL,
        failing_since REAL,
        last_error TEXT,
        last_digest REAL,
        UNIQUE (name, kind, address)
    );
    CREATE TABLE notice_outbox (
        id INTEGER PRIMARY KEY,
        channel INTEGER NOT NULL REFERENCES notice_channels(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        table_id INTEGER,
        seq INTEGER,
        since REAL NOT NULL,
        due REAL NOT NULL,
        message_id TEXT NOT NULL,
        subject TEXT,
        body TEXT,
        batch TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_try REAL NOT NULL,
        last_error TEXT,
        state TEXT NOT NULL DEFAULT 'pending',
        done REAL,
        UNIQUE (channel, kind, table_id, seq)
    );
    CREATE INDEX notice_outbox_due ON notice_outbox (state, next_try);
    """,
)
"""Each entry brings the schema from version ``index`` to ``index + 1``."""


def _journal_from_actions_and_chat(db: sqlite3.Connection) -> None:
    """Schema 10: each table's journal, from what older schemas kept. Its moves become
    :class:`journal.Move` entries (the seat from replaying the game, the stand-in as
    stored with the action) and its chat :class:`journal.Chat` entries, each where it
    was said (after the moves it followed; a line older than schema 7, which kept no
    place, by its time among the moves'). What was never stored (undos, pauses, who came
    and went) is simply not there.

    A table whose rows cannot be read here (a damaged page) keeps its chat in the old
    table, renamed ``chat_unmigrated`` (read by nothing, but not lost); so do rows of a
    table that does not exist. Otherwise the old table goes."""
    ids = [table_id for (table_id,) in db.execute("SELECT id FROM tables ORDER BY id")]
    migrated = []
    for table_id in ids:
        try:
            entries = _old_journal(db, table_id)
        except sqlite3.DatabaseError:
            continue
        db.executemany(
            "INSERT INTO journal (table_id, n, at, entry) VALUES (?, ?, ?, ?)",
            [(table_id, n, e.at, journal.ENCODER.encode(e)) for n, e in enumerate(entries)],
        )
        migrated.append(table_id)
    try:
        marks = ",".join("?" * len(migrated))
        (left,) = db.execute(
            f"SELECT COUNT(*) FROM chat WHERE table_id NOT IN ({marks})", migrated
        ).fetchone()
    except sqlite3.DatabaseError:
        left = 1
    if left:
        db.execute("ALTER TABLE chat RENAME TO chat_unmigrated")
    else:
        db.execute("DROP TABLE chat")


def _old_journal(db: sqlite3.Connection, table_id: int) -> list[journal.Any]:
    """One table's journal from its actions and chat as schema 9 kept them."""
    (seed,) = db.execute("SELECT seed FROM tables WHERE id = ?", (table_id,)).fetchone()
    seats = db.execute(
        "SELECT kind, name, level, colour FROM seats WHERE table_id = ? ORDER BY seat",
        (table_id,),
    ).fetchall()
    actions = db.execute(
        "SELECT seq, action, at, standin FROM actions WHERE table_id = ? ORDER BY seq",
        (table_id,),
    ).fetchall()
    chat = db.execute(
        "SELECT at, name, spectator, text, seq FROM chat WHERE table_id = ? ORDER BY at, rowid",
        (table_id,),
    ).fetchall()
    placed: list[tuple[tuple[int, int, float], journal.Any]] = []
    for seq, seat, action, at, standin in _moves(seed, seats, actions):
        move = journal.Move(at, seq, seat, action, standin)
        placed.append(((seq, 1, at), move))
    times = [at for _, _, at, _ in actions]
    for at, name, spectator, text, seq in chat:
        if seq is None or seq < 0:  # before schema 7: placed by its time
            seq = sum(1 for moment in times if moment <= at)
        line = journal.Chat(at, seq, str(name)[:40], str(text)[:400], bool(spectator))
        placed.append(((seq, 0, at), line))
    placed.sort(key=lambda item: item[0])
    return [entry for _, entry in placed]


def _moves(
    seed: int,
    seats: list[tuple[str, str | None, str | None, str]],
    actions: list[tuple[int, bytes, float, str | None]],
) -> list[tuple[int, int, core.Action, float, core.Level | None]]:
    """(seq, seat, action, at, stand-in) of each stored action, as far as the game
    replays (the rest is the table's damage, which reading it will name)."""
    try:
        rows = [
            SeatRow(kind, name, level, core.Colour(colour))  # type: ignore[arg-type]
            for kind, name, level, colour in seats
        ]
        state = core.new_game(len(rows), seed, seat_names(rows), [r.colour for r in rows])
    except (ValueError, core.IllegalActionError):
        return []
    moves = []
    for number, (seq, blob, at, standin) in enumerate(actions):
        if seq != number or state.current_player is None:
            break
        try:
            action = msgspec.json.decode(blob, type=core.Action)
            after = core.apply_action(state, action)
        except (msgspec.MsgspecError, core.IllegalActionError, ValueError):
            break
        level = standin if standin in core.LEVELS else None
        moves.append((seq, state.current_player, action, at, level))
        state = after
    return moves


CONVERSIONS: Final[dict[int, Callable[[sqlite3.Connection], None]]] = {
    10: _journal_from_actions_and_chat,
}
"""Python steps run after the SQL of the schema they are keyed by, in its transaction."""


class StoreError(Exception):
    """The store file cannot be used (newer schema, not a database…); ``str`` says why."""


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the store opened as ``db`` (autocommit) up to :data:`MIGRATIONS`; raises
    :class:`StoreError` for a file of a newer schema."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > len(MIGRATIONS):
        raise StoreError(
            f"{path} was written by a newer server (schema {version}; this one "
            f"knows up to {len(MIGRATIONS)})"
        )
    for number in range(version, len(MIGRATIONS)):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[number].split(";"):
                if statement.strip():
                    db.execute(statement)
            conversion = CONVERSIONS.get(number + 1)
            if conversion is not None:
                conversion(db)
            db.execute(f"PRAGMA user_version = {number + 1}")
            db.execute("COMMIT")
        except BaseException:
            rollback(db)
            raise


def rollback(db: sqlite3.Connection) -> None:
    """Undo a transaction that failed, if SQLite has not already (it has after a full
    disk or an I/O error: a ROLLBACK then would hide the real cause behind "cannot
    rollback - no transaction is active")."""
    if db.in_transaction:
        db.execute("ROLLBACK")
