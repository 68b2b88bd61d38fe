"""The host's players in the table server's store: their SSH keys, the invitations the
host made and the browsers' web sessions (schemas 8 and 9 of :data:`MIGRATIONS`).

Every SQL statement about players lives here, behind :class:`PlayerStore`'s small typed
methods, so that :mod:`table.host.players` keeps only what they mean (codes, hashes,
fingerprints, expiry, the words of a refusal) and moving the store to another database
stays this package. The store keeps what it is given: codes and tokens arrive as their
hashes, keys as their checked lines; it checks nothing about them.

The host's ``mykerinos players`` and the doors write the file the running server writes,
each through a connection of its own that waits :data:`BUSY_TIMEOUT` for a write lock.
A change that must be whole (redeeming a code: the invitation used and the key bound) is
made of several calls inside one :meth:`PlayerStore.transaction`, which takes the write
lock first, so two doors redeeming one code are served one after the other. A store
still busy when the wait is over is :class:`StoreBusy`; any other failure of the file
(a full disk, a damaged page) is a :class:`StoreError` saying what SQLite said.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import TracebackType
from typing import Any, Final, NamedTuple

from table.store.tables import StoreError, TableStore

BUSY_TIMEOUT: Final = 5.0
"""Seconds to wait for the running server's write to end before giving up."""


class StoreBusy(StoreError):
    """A transaction could not begin: another process held the write lock for longer
    than the busy timeout. ``str`` is what SQLite said."""


class KeyRow(NamedTuple):
    """A player's key as stored: its OpenSSH ``line`` without the comment, its
    fingerprint, its comment and when it was added (a ``time.time()``)."""

    name: str
    line: str
    fingerprint: str
    comment: str
    added: float


class InvitationRow(NamedTuple):
    """An invitation as stored (its code is not: only the code's hash is its key)."""

    name: str
    created: float
    expires: float
    used_at: float | None


class PlayerStore:
    """The players' rows of one store file (``tables.db``), safe to use while a server
    writes the same file. One connection: use it from one thread at a time."""

    def __init__(self, path: Path, busy_timeout: float = BUSY_TIMEOUT) -> None:
        """Open the store at ``path``, creating it or bringing its schema up to date the
        one way there is (:class:`TableStore` migrates on open); raises
        :class:`StoreError` when the file cannot be the table store."""
        TableStore(path).close()
        try:
            self.db = sqlite3.connect(
                path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
            )
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None
        self.path = path

    def close(self) -> None:
        self.db.close()

    def transaction(self) -> Transaction:
        """``with store.transaction(): …``: the calls inside are one change, all of it
        or nothing (see :class:`Transaction`)."""
        return Transaction(self)

    # ---------------------------------------------------------------- keys

    def key_owner(self, line: str) -> str | None:
        """Whose key ``line`` is; None when nobody's."""
        row = self._one("SELECT name FROM player_keys WHERE key = ?", (line,))
        return None if row is None else str(row[0])

    def add_key(self, key: KeyRow) -> None:
        """Store ``key`` as ``key.name``'s; a key already stored is kept as it was (the
        caller checks whose it is first)."""
        self._change(
            "INSERT OR IGNORE INTO player_keys (key, name, fingerprint, comment, added) "
            "VALUES (?, ?, ?, ?, ?)",
            (key.line, key.name, key.fingerprint, key.comment, key.added),
        )

    def player_keys(self) -> list[KeyRow]:
        """Every key, by player's name, each player's oldest first."""
        rows = self._all(
            "SELECT name, key, fingerprint, comment, added FROM player_keys ORDER BY name, added"
        )
        return [
            KeyRow(str(name), str(line), str(fingerprint), str(comment), float(added))
            for name, line, fingerprint, comment, added in rows
        ]

    def remove_keys(self, name: str) -> int:
        """Take away every key of ``name``; returns how many there were."""
        return self._change("DELETE FROM player_keys WHERE name = ?", (name,))

    def remove_key(self, name: str, line_or_fingerprint: str) -> int:
        """Take away the key of ``name`` whose line or fingerprint is
        ``line_or_fingerprint``; returns 1, or 0 when ``name`` has no such key."""
        return self._change(
            "DELETE FROM player_keys WHERE name = ? AND (key = ? OR fingerprint = ?)",
            (name, line_or_fingerprint, line_or_fingerprint),
        )

    # ---------------------------------------------------------------- invitations

    def add_invitation(self, code_hash: str, name: str, created: float, expires: float) -> None:
        """Store an unused invitation for ``name``, known by its code's hash."""
        self._change(
            "INSERT INTO invitations (code_hash, name, created, expires) VALUES (?, ?, ?, ?)",
            (code_hash, name, created, expires),
        )

    def invitation(self, code_hash: str) -> InvitationRow | None:
        """The invitation of the code whose hash is ``code_hash``, used or not; None
        when there is none."""
        row = self._one(
            "SELECT name, created, expires, used_at FROM invitations WHERE code_hash = ?",
            (code_hash,),
        )
        if row is None:
            return None
        name, created, expires, used_at = row
        return InvitationRow(
            str(name), float(created), float(expires), None if used_at is None else float(used_at)
        )

    def use_invitation(self, code_hash: str, used_at: float, used_by: str) -> bool:
        """Mark the invitation of ``code_hash`` used at ``used_at`` by ``used_by`` (a
        key's line, or what stands for a browser), unless it already is; says whether
        it was marked now. Inside a :meth:`transaction` after :meth:`invitation`, it
        always is: the write lock keeps every other use out."""
        used = self._change(
            "UPDATE invitations SET used_at = ?, used_by_key = ? "
            "WHERE code_hash = ? AND used_at IS NULL",
            (used_at, used_by, code_hash),
        )
        return used == 1

    def remove_unused_invitations(self, name: str) -> None:
        """Take away the invitations for ``name`` not used yet (used ones stay, a record
        of which key or browser came in with them)."""
        self._change("DELETE FROM invitations WHERE name = ? AND used_at IS NULL", (name,))

    def open_invitations(self, now: float) -> list[InvitationRow]:
        """The invitations neither used nor expired at ``now``, oldest first."""
        rows = self._all(
            "SELECT name, created, expires FROM invitations "
            "WHERE used_at IS NULL AND expires > ? ORDER BY created",
            (now,),
        )
        return [
            InvitationRow(str(name), float(created), float(expires), None)
            for name, created, expires in rows
        ]

    def table_exists(self, table_id: int) -> bool:
        """Whether the store has a table ``table_id`` (a watch link names one)."""
        return self._one("SELECT 1 FROM tables WHERE id = ?", (table_id,)) is not None

    # ---------------------------------------------------------------- web sessions

    def add_web_session(self, token_hash: str, name: str, created: float, expires: float) -> None:
        """Store a web session of ``name``, known by its token's hash."""
        self._change(
            "INSERT INTO web_sessions (token_hash, name, created, expires) VALUES (?, ?, ?, ?)",
            (token_hash, name, created, expires),
        )

    def web_session_player(self, token_hash: str, now: float) -> str | None:
        """Whose web session ``token_hash`` is, while it lasts at ``now``; else None."""
        row = self._one(
            "SELECT name FROM web_sessions WHERE token_hash = ? AND expires > ?",
            (token_hash, now),
        )
        return None if row is None else str(row[0])

    def end_web_session(self, token_hash: str) -> None:
        """End the web session of ``token_hash``, if there is one."""
        self._change("DELETE FROM web_sessions WHERE token_hash = ?", (token_hash,))

    def end_web_sessions(self, name: str, now: float) -> int:
        """End every web session of ``name``; returns how many had not expired at
        ``now``. Two statements: call it inside a :meth:`transaction` for a true count."""
        row = self._one(
            "SELECT COUNT(*) FROM web_sessions WHERE name = ? AND expires > ?", (name, now)
        )
        self._change("DELETE FROM web_sessions WHERE name = ?", (name,))
        return 0 if row is None else int(row[0])

    def remove_expired_web_sessions(self, now: float) -> None:
        """Forget the web sessions of everyone that have expired at ``now``."""
        self._change("DELETE FROM web_sessions WHERE expires <= ?", (now,))

    def web_sessions(self, now: float) -> list[tuple[str, int]]:
        """The players who have web sessions lasting at ``now``, by name, with how many."""
        rows = self._all(
            "SELECT name, COUNT(*) FROM web_sessions WHERE expires > ? GROUP BY name ORDER BY name",
            (now,),
        )
        return [(str(name), int(count)) for name, count in rows]

    # ---------------------------------------------------------------- statements

    def _one(self, sql: str, parameters: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
        try:
            row: tuple[Any, ...] | None = self.db.execute(sql, parameters).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None
        return row

    def _all(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self.db.execute(sql, parameters).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None

    def _change(self, sql: str, parameters: tuple[Any, ...] = ()) -> int:
        """Run one writing statement; returns the rows it changed."""
        try:
            return self.db.execute(sql, parameters).rowcount
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None


class Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` on any exception (and when the
    commit itself fails, so the connection is never left inside a transaction). The
    write lock is taken first, waiting up to the busy timeout: a :class:`StoreBusy`
    then, before anything inside ran."""

    def __init__(self, store: PlayerStore) -> None:
        self.store = store

    def __enter__(self) -> None:
        try:
            self.store.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreBusy(str(exc)) from None
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is None:
            try:
                self.store.db.execute("COMMIT")
                return
            except sqlite3.Error as exc:
                self._rollback()
                raise StoreError(str(exc)) from None
        self._rollback()

    def _rollback(self) -> None:
        if self.store.db.in_transaction:
            try:
                self.store.db.execute("ROLLBACK")
            except sqlite3.Error as exc:
                raise StoreError(str(exc)) from None
