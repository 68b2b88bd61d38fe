"""Notices far from the terminal in the store (schema 13 of :data:`MIGRATIONS`): each
player's choice (delay, all off), their channels and the outbox.

A notice of a turn is an outbox row written by :func:`queue_turn` inside the
transaction of the change that made it the player's turn (:class:`TurnBegan`), so it is
never lost nor due without its turn. The server's sender (:mod:`table.server.notices`)
reads the rows due, and marks each sent (after it was delivered: a server killed
between the two sends it again, with the same message id), failed (tried again later)
or dropped (the turn passed…). A channel's code is kept as its SHA-256; the code itself
is in its message's row only until that is sent.

:class:`NoticeStore` has a connection of its own (the sender's, from its own thread),
like :class:`table.store.PlayerStore`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Final, Literal, NamedTuple

from table.notices import DEFAULT_DELAY, Kind
from table.store.schema import StoreError, rollback

BUSY_TIMEOUT: Final = 5.0

Confirmed = Literal["confirmed", "wrong", "expired", "unknown"]


class ChannelRow(NamedTuple):
    id: int
    kind: Kind
    address: str
    confirmed: bool
    failing_since: float | None
    last_error: str | None


class OutboxRow(NamedTuple):
    """A message due, with its channel: ``kind`` is ``turn`` or ``confirm``."""

    id: int
    channel: int
    name: str
    channel_kind: Kind
    address: str
    confirmed: bool
    kind: str
    table: int | None
    seq: int | None
    since: float
    due: float
    message_id: str
    subject: str | None
    body: str | None
    batch: str | None
    attempts: int
    last_digest: float | None


def queue_turn(db: sqlite3.Connection, table: int, seq: int, name: str, at: float) -> None:
    """In the caller's transaction: a turn notice for each of ``name``'s confirmed
    channels, due once their delay has passed (a turn undone and played again is a new
    turn: its row is made anew if the old one is no longer pending)."""
    db.execute(
        "INSERT INTO notice_outbox (channel, kind, table_id, seq, since, due, message_id, "
        "next_try) SELECT c.id, 'turn', ?1, ?2, ?3, ?3 + coalesce(p.delay, ?5), "
        "'turn.' || ?1 || '.' || ?2 || '.' || c.id || '.' || CAST(?3 * 1000 AS INTEGER), "
        "?3 + coalesce(p.delay, ?5) "
        "FROM notice_channels c LEFT JOIN notice_players p ON p.name = c.name "
        "WHERE c.name = ?4 AND c.confirmed = 1 AND coalesce(p.off, 0) = 0 "
        "ON CONFLICT (channel, kind, table_id, seq) DO UPDATE SET since = excluded.since, "
        "due = excluded.due, next_try = excluded.next_try, message_id = excluded.message_id, "
        "state = 'pending', attempts = 0, batch = NULL, last_error = NULL "
        "WHERE notice_outbox.state != 'pending'",
        (table, seq, at, name, DEFAULT_DELAY),
    )


class NoticeStore:
    """The notices' rows of one store file, on a connection of its own (one thread)."""

    def __init__(self, path: Path, busy_timeout: float = BUSY_TIMEOUT) -> None:
        from table.store.tables import TableStore

        TableStore(path).close()  # created or brought up to date
        try:
            self.db = sqlite3.connect(
                path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
            )
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None

    def close(self) -> None:
        self.db.close()

    def _write(self, *statements: tuple[str, Sequence[object]]) -> list[sqlite3.Cursor]:
        """``statements`` in one transaction; :class:`StoreError` if it fails."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                done = [self.db.execute(sql, args) for sql, args in statements]
                self.db.execute("COMMIT")
                return done
            except BaseException:
                rollback(self.db)
                raise
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None

    # ---------------------------------------------------------------- the player's

    def player(self, name: str) -> tuple[float, bool]:
        """(delay in seconds, all off) as ``name`` chose, else the defaults."""
        found = self.db.execute(
            "SELECT delay, off FROM notice_players WHERE name = ?", (name,)
        ).fetchone()
        return (DEFAULT_DELAY, False) if found is None else (float(found[0]), bool(found[1]))

    def set_player(self, name: str, delay: float, off: bool) -> None:
        """Keep ``name``'s choice; turning all off drops every notice not yet sent."""
        statements: list[tuple[str, Sequence[object]]] = [(
            "INSERT INTO notice_players (name, delay, off) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET delay = excluded.delay, off = excluded.off",
            (name, delay, off),
        )]  # fmt: skip
        if off:
            statements.append((
                "UPDATE notice_outbox SET state = 'dropped', last_error = 'all off' "
                "WHERE state = 'pending' AND kind = 'turn' AND channel IN "
                "(SELECT id FROM notice_channels WHERE name = ?)",
                (name,),
            ))  # fmt: skip
        self._write(*statements)

    def channels(self, name: str) -> list[ChannelRow]:
        return [
            ChannelRow(i, kind, address, bool(confirmed), failing, error)
            for i, kind, address, confirmed, failing, error in self.db.execute(
                "SELECT id, kind, address, confirmed, failing_since, last_error "
                "FROM notice_channels WHERE name = ? ORDER BY id",
                (name,),
            )
        ]

    def add_channel(
        self, name: str, kind: Kind, address: str, code_hash: str, expires: float,
        message: tuple[str, str, str], now: float,
    ) -> int:  # fmt: skip
        """A new unconfirmed channel (an earlier one of the same address is replaced) and
        its confirmation message, due now: ``message`` is (message id, subject, body)."""
        self._write(
            ("DELETE FROM notice_channels WHERE name = ? AND kind = ? AND address = ?",
             (name, kind, address)),
            ("INSERT INTO notice_channels (name, kind, address, code_hash, code_expires, "
             "added) VALUES (?, ?, ?, ?, ?, ?)", (name, kind, address, code_hash, expires, now)),
            ("INSERT INTO notice_outbox (channel, kind, since, due, message_id, subject, body, "
             "next_try) SELECT id, 'confirm', ?, ?, ?, ?, ?, ? FROM notice_channels "
             "WHERE name = ? AND kind = ? AND address = ?",
             (now, now, *message, now, name, kind, address)),
        )  # fmt: skip
        (channel,) = self.db.execute(
            "SELECT id FROM notice_channels WHERE name = ? AND kind = ? AND address = ?",
            (name, kind, address),
        ).fetchone()
        return int(channel)

    def confirm(self, name: str, channel: int, code_hash: str, now: float, tries: int) -> Confirmed:
        """Confirm ``name``'s ``channel`` if ``code_hash`` is its code's, still good; a
        channel whose code was wrong ``tries`` times is removed (added again, a new code
        goes)."""
        found = self.db.execute(
            "SELECT code_hash, code_expires, wrong_codes, confirmed FROM notice_channels "
            "WHERE id = ? AND name = ?",
            (channel, name),
        ).fetchone()
        if found is None:
            return "unknown"
        kept, expires, wrong, confirmed = found
        if confirmed:
            return "confirmed"
        if expires is None or expires < now:
            return "expired"
        if kept != code_hash:
            if wrong + 1 >= tries:
                self._write(("DELETE FROM notice_channels WHERE id = ?", (channel,)))
                return "unknown"
            self._write(("UPDATE notice_channels SET wrong_codes = wrong_codes + 1 "
                         "WHERE id = ?", (channel,)))  # fmt: skip
            return "wrong"
        self._write(("UPDATE notice_channels SET confirmed = 1, code_hash = NULL, "
                     "code_expires = NULL WHERE id = ?", (channel,)))  # fmt: skip
        return "confirmed"

    def remove(self, name: str, channel: int) -> bool:
        """Remove ``name``'s ``channel`` and its messages not yet sent."""
        (gone,) = self._write(
            ("DELETE FROM notice_channels WHERE id = ? AND name = ?", (channel, name))
        )
        return gone.rowcount == 1

    # ---------------------------------------------------------------- the sender's

    def due(self, now: float, limit: int = 200) -> list[OutboxRow]:
        """Messages to send now (or to judge), the oldest first."""
        return [
            OutboxRow(*row)
            for row in self.db.execute(
                "SELECT o.id, o.channel, c.name, c.kind, c.address, c.confirmed, o.kind, "
                "o.table_id, o.seq, o.since, o.due, o.message_id, o.subject, o.body, o.batch, "
                "o.attempts, c.last_digest FROM notice_outbox o "
                "JOIN notice_channels c ON c.id = o.channel "
                "WHERE o.state = 'pending' AND o.next_try <= ? ORDER BY o.next_try, o.id "
                "LIMIT ?",
                (now, limit),
            )
        ]

    def next_due(self) -> float | None:
        """When the next pending message is due (None: nothing pending)."""
        (at,) = self.db.execute(
            "SELECT min(next_try) FROM notice_outbox WHERE state = 'pending'"
        ).fetchone()
        return None if at is None else float(at)

    def batched(self, ids: Sequence[int], batch: str) -> None:
        """Several turn notices go as one digest, ``batch`` its message id (kept, so a
        retry after a restart is the same message)."""
        marks = ",".join("?" * len(ids))
        self._write((f"UPDATE notice_outbox SET batch = ? WHERE id IN ({marks})",
                     (batch, *ids)))  # fmt: skip

    def sent(self, ids: Sequence[int], channel: int, now: float, digest: bool) -> None:
        """Delivered: done, the code a confirmation carried forgotten, the channel well."""
        marks = ",".join("?" * len(ids))
        statements: list[tuple[str, Sequence[object]]] = [
            (f"UPDATE notice_outbox SET state = 'sent', done = ?, body = NULL, "
             f"attempts = attempts + 1 WHERE id IN ({marks})", (now, *ids)),
            ("UPDATE notice_channels SET failing_since = NULL, last_error = NULL "
             "WHERE id = ?", (channel,)),
        ]  # fmt: skip
        if digest:
            statements.append(
                ("UPDATE notice_channels SET last_digest = ? WHERE id = ?", (now, channel))
            )
        self._write(*statements)

    def failed(
        self, ids: Sequence[int], channel: int, error: str, next_try: float, now: float
    ) -> None:
        """This try failed: tried again at ``next_try``; the channel is failing since its
        first failure (the lobby shows it)."""
        marks = ",".join("?" * len(ids))
        self._write(
            (f"UPDATE notice_outbox SET attempts = attempts + 1, last_error = ?, next_try = ? "
             f"WHERE id IN ({marks})", (error, next_try, *ids)),
            ("UPDATE notice_channels SET failing_since = coalesce(failing_since, ?), "
             "last_error = ? WHERE id = ?", (now, error, channel)),
        )  # fmt: skip

    def dropped(self, ids: Sequence[int], why: str, now: float) -> None:
        marks = ",".join("?" * len(ids))
        self._write((f"UPDATE notice_outbox SET state = 'dropped', last_error = ?, done = ?, "
                     f"body = NULL WHERE id IN ({marks})", (why, now, *ids)))  # fmt: skip

    def later(self, ids: Sequence[int], next_try: float) -> None:
        marks = ",".join("?" * len(ids))
        self._write((f"UPDATE notice_outbox SET next_try = ? WHERE id IN ({marks})",
                     (next_try, *ids)))  # fmt: skip

    def history(self, name: str) -> list[tuple[str, str, int, str, str | None]]:
        """(message id, kind, attempts, state, last error) of ``name``'s messages, for
        the host's look and the tests."""
        return list(self.db.execute(
            "SELECT o.message_id, o.kind, o.attempts, o.state, o.last_error FROM notice_outbox o "
            "JOIN notice_channels c ON c.id = o.channel WHERE c.name = ? ORDER BY o.id",
            (name,),
        ))  # fmt: skip
