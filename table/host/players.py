"""Who the players of a table server are, by their SSH keys or their browsers' web
sessions, and one-time invitations.

A door that faces the internet (the SSH door, issue 19) knows a person by the public key
they authenticate with: :meth:`Players.player_of` says whose a key is. A friend whose key
is not known yet redeems a one-time invitation code the host made with
:meth:`Players.invite`; :meth:`Players.redeem` binds the key to the invited player and uses
the code up in one transaction, so that a code lets in one key once, even when two doors
redeem it at the same moment.

The web door (issue 20) knows a browser by a session token it keeps in a cookie: the same
invitation codes, redeemed by :meth:`Players.redeem_web`, make a session for the invited
player instead of binding a key (a code is for a key or for a browser, whichever comes
first), and :meth:`Players.web_player` says whose a token is while it lasts
(:data:`WEB_SESSION_DAYS`). Removing a player ends their web sessions too.

A watch link (issue 26, :meth:`Players.invite_watch`) is an invitation to watch one table
from a browser, with no seat: it is stored as an invitation, and its browser's session as
a web session, of :func:`watcher` (``" watch 12"``), a name no player can have (a player's
name never starts with a space); :func:`watched_table` reads the table back, and the web
door makes such a session a spectator of that table only.

The keys, invitations and web sessions live in the table server's own store (tables.db),
read and written through :class:`table.store.PlayerStore`, which holds every SQL statement
about them and waits for the running server's writes: the host runs ``mykerinos players``
and ``mykerinos invite`` whether or not the server runs. This module says what the rows
mean. Codes and tokens are stored as their SHA-256 only. Nothing here reads the clock
unless no time is passed in; every mistake is a :class:`PlayersError` whose ``str`` is one
sentence a host can read, quoting the input safely (a store that fails under us, a full
disk, is a :class:`table.store.StoreError`).

Public keys themselves (their OpenSSH line, structure and fingerprint) are
:mod:`table.host.keys`.
"""

from __future__ import annotations

import builtins
import hashlib
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final

from saves.text import check_player_name, printable, shown
from table.host.keys import MAX_KEYS_TEXT as MAX_KEYS_TEXT
from table.host.keys import Key as Key
from table.host.keys import PlayersError as PlayersError
from table.host.keys import fingerprint as fingerprint
from table.host.keys import key_line
from table.host.keys import parse_keys as parse_keys
from table.store import BUSY_TIMEOUT, KeyRow, PlayerStore, StoreBusy, StoreError

# ---------------------------------------------------------------- constants

CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""No 0/O, 1/I/L: a code read aloud or copied by hand is not mistaken."""
CODE_GROUPS: Final = 4
CODE_GROUP_LENGTH: Final = 4
"""4 groups of 4 characters of 31: about 79 bits, far beyond guessing through a door."""
DEFAULT_DAYS: Final = 7
MAX_DAYS: Final = 365
DAY: Final = 86400.0

WEB_SESSION_DAYS: Final = 30
"""How long a browser stays signed in after redeeming an invitation."""
WEB_TOKEN_BYTES: Final = 32
"""Random bytes of a web session token (``secrets.token_urlsafe``: 43 characters)."""
MAX_WEB_TOKEN: Final = 200
"""Characters of a token worth looking up; anything longer is nobody's, unread."""
WATCHER: Final = " watch "
"""How a watch link's invitation and session name what they grant (see :func:`watcher`)."""
WEB_USED_BY: Final = "web"
"""What an invitation redeemed by a browser has in ``used_by_key`` (a key's line
otherwise)."""


# ---------------------------------------------------------------- codes


def new_code() -> str:
    """A fresh random invitation code: ``XXXX-XXXX-XXXX-XXXX``."""
    groups = (
        "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_GROUP_LENGTH))
        for _ in range(CODE_GROUPS)
    )
    return "-".join(groups)


def code_hash(code: str) -> str:
    """What the store keeps of a code: the SHA-256 of its characters, upper case, without
    spaces or dashes (so ``abcd efgh…`` typed by hand is the same code)."""
    plain = "".join(code.split()).replace("-", "").upper()
    return hashlib.sha256(plain.encode("utf-8", "replace")).hexdigest()


def token_hash(token: str) -> str:
    """What the store keeps of a web session token: the SHA-256 of its characters."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def when(moment: float) -> str:
    """A stored time as a host reads it: local time with its zone."""
    return datetime.fromtimestamp(moment).astimezone().strftime("%Y-%m-%d %H:%M %Z")


# ---------------------------------------------------------------- the players


@dataclass(frozen=True)
class Invitation:
    """An invitation not used yet (the code itself is not kept)."""

    name: str
    created: float
    expires: float


@dataclass(frozen=True)
class Removed:
    """What :meth:`Players.remove` took away: keys, and web sessions ended."""

    keys: int
    web_sessions: int


class Players:
    """The players' keys, invitations and web sessions of one store file (``tables.db``),
    safe to use while a server writes the same file."""

    def __init__(self, path: Path) -> None:
        """Open (and create or migrate) the store at ``path``; raises
        :class:`PlayersError` when it cannot be the table store."""
        if not path.parent.exists():
            path.parent.mkdir(parents=True, mode=0o700)
        try:
            self.store = PlayerStore(path, busy_timeout=BUSY_TIMEOUT)
        except (StoreError, OSError) as exc:
            raise PlayersError(printable(str(exc))) from None
        self.path = path

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Players:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ---------------------------------------------------------------- keys

    def add(self, name: str, keys_text: str, now: float | None = None) -> builtins.list[Key]:
        """Give ``name`` the keys of ``keys_text`` (an OpenSSH public key file); returns
        them. A key that already belongs to ``name`` is kept as it was; one that belongs
        to someone else refuses the whole file, naming its owner."""
        name = checked_name(name)
        keys = list({key.line: key for key in parse_keys(keys_text, _now(now))}.values())
        with self._transaction():
            for key in keys:
                owner = self.store.key_owner(key.line)
                if owner is not None and owner != name:
                    raise PlayersError(f"the key {key.fingerprint} is already {shown(owner)}'s")
                self.store.add_key(_row(name, key))
        return keys

    def remove(
        self, name: str, key_or_fingerprint: str | None = None, now: float | None = None
    ) -> Removed:
        """Take away one of ``name``'s keys (a key line, or its ``SHA256:`` fingerprint),
        or all of them, their unused invitations and their web sessions, in one
        transaction; says how many keys went and how many web sessions not yet expired
        ended (expired ones go too, uncounted; none ends when one key is named)."""
        name = checked_name(name)
        now = _now(now)
        wanted = None if key_or_fingerprint is None else _lookup(key_or_fingerprint)
        with self._transaction():
            if wanted is not None:
                return Removed(self.store.remove_key(name, wanted), 0)
            self.store.remove_unused_invitations(name)
            keys = self.store.remove_keys(name)
            return Removed(keys, self.store.end_web_sessions(name, now))

    def list(self) -> builtins.list[tuple[str, builtins.list[Key]]]:
        """Every player who has a key, by name, with their keys, oldest first."""
        players: dict[str, list[Key]] = {}
        for row in self.store.player_keys():
            key = Key(row.line, row.fingerprint, row.comment, row.added)
            players.setdefault(row.name, []).append(key)
        return list(players.items())

    def player_of(self, key: str | bytes) -> str | None:
        """Whose ``key`` is (an OpenSSH line, comment or not, or the wire blob a client
        presents); None when nobody's, or when it is not a key at all."""
        try:
            line = key_line(key) if isinstance(key, bytes) else Key.parse(key).line
        except PlayersError:
            return None
        return self.store.key_owner(line)

    # ---------------------------------------------------------------- invitations

    def invite(self, name: str, days: float = DEFAULT_DAYS, now: float | None = None) -> str:
        """A new one-time code that lets one key in as ``name`` for ``days`` days; only
        its hash is stored, so this is the only time it is seen."""
        name = checked_name(name)
        if not 0 < days <= MAX_DAYS:
            raise PlayersError(f"an invitation lasts more than 0 and at most {MAX_DAYS} days")
        now = _now(now)
        code = new_code()
        with self._transaction():
            self.store.add_invitation(code_hash(code), name, now, now + days * DAY)
        return code

    def invite_watch(self, table: int, days: float = DEFAULT_DAYS, now: float | None = None) -> str:
        """A one-time code that signs one browser in to watch ``table`` (no seat, no other
        table) for ``days`` days; like :meth:`invite`, only its hash is stored. Raises
        :class:`PlayersError` when there is no such table."""
        if not 0 < days <= MAX_DAYS:
            raise PlayersError(f"an invitation lasts more than 0 and at most {MAX_DAYS} days")
        if not self.store.table_exists(table):
            raise PlayersError(f"there is no table {table} in this store")
        now = _now(now)
        code = new_code()
        with self._transaction():
            self.store.add_invitation(code_hash(code), watcher(table), now, now + days * DAY)
        return code

    def redeem(self, code: str, key: str | bytes, now: float | None = None) -> str:
        """Bind ``key`` (a line or a wire blob) to the player ``code`` invites, and use
        the code up, in one transaction; returns the player's name. Raises
        :class:`PlayersError` for a code that is unknown, already used or expired, or a
        key that is someone else's (the code then stays unused)."""
        now = _now(now)
        parsed = _key_of(key, now)
        with self._transaction():
            name = self._use_code(code, now, parsed.line)
            self.store.add_key(_row(name, parsed))
        return name

    def invitations(self, now: float | None = None) -> builtins.list[Invitation]:
        """The invitations neither used nor expired, oldest first."""
        return [
            Invitation(row.name, row.created, row.expires)
            for row in self.store.open_invitations(_now(now))
        ]

    # ---------------------------------------------------------------- web sessions

    def redeem_web(self, code: str, now: float | None = None) -> tuple[str, str]:
        """Use ``code`` up for a browser and open a web session for the player it invites,
        valid :data:`WEB_SESSION_DAYS` days, in one transaction; returns (name, token).
        The token is the browser's secret (a cookie): only its hash is stored, so this is
        the only time it is seen. No key is bound, and the code no longer lets a key in.
        Raises :class:`PlayersError` in :meth:`redeem`'s words for a code that is unknown,
        already used or expired. Expired sessions of everyone are cleared on the way."""
        now = _now(now)
        token = secrets.token_urlsafe(WEB_TOKEN_BYTES)
        with self._transaction():
            self.store.remove_expired_web_sessions(now)
            name = self._use_code(code, now, None)
            self.store.add_web_session(token_hash(token), name, now, now + WEB_SESSION_DAYS * DAY)
        return name, token

    def web_player(self, token: str, now: float | None = None) -> str | None:
        """Whose web session ``token`` is; None when it is nobody's, has expired or ended,
        or is longer than :data:`MAX_WEB_TOKEN` characters (then without reading the
        store)."""
        if not token or len(token) > MAX_WEB_TOKEN:
            return None
        return self.store.web_session_player(token_hash(token), _now(now))

    def end_web_session(self, token: str) -> None:
        """Sign the browser of ``token`` out: its session ends at once. A token that is
        nobody's (already ended, expired, made up) is no error."""
        if not token or len(token) > MAX_WEB_TOKEN:
            return
        with self._transaction():
            self.store.end_web_session(token_hash(token))

    def web_sessions(self, now: float | None = None) -> builtins.list[tuple[str, int]]:
        """The players who have web sessions not expired, by name, with how many."""
        return self.store.web_sessions(_now(now))

    # ---------------------------------------------------------------- helpers

    def _use_code(self, code: str, now: float, key: str | None) -> str:
        """Mark the invitation of ``code`` used by ``key`` (a key's line; None: a browser,
        :data:`WEB_USED_BY`) and return its player's name; raises :class:`PlayersError`
        when it is unknown, used or expired, or when ``key`` is someone else's. Call it
        inside :meth:`_transaction`, so that a failure further on leaves it unused."""
        hashed = code_hash(code)
        invitation = self.store.invitation(hashed)
        if invitation is None:
            raise PlayersError("this is not an invitation code of this server")
        if invitation.used_at is not None:
            raise PlayersError(f"this invitation was already used on {when(invitation.used_at)}")
        if now >= invitation.expires:
            raise PlayersError(f"this invitation expired on {when(invitation.expires)}")
        if key is not None and watched_table(invitation.name) is not None:
            raise PlayersError("this is a link to watch a table: open it in a browser")
        if key is not None:
            owner = self.store.key_owner(key)
            if owner is not None and owner != invitation.name:
                raise PlayersError(f"this key is already {shown(owner)}'s")
        used_by = WEB_USED_BY if key is None else key
        if not self.store.use_invitation(hashed, now, used_by):
            # cannot happen under the write lock; never use it twice
            raise PlayersError("this invitation was just used by someone else")
        return invitation.name

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """The store's transaction (the write lock first, so two doors redeeming one code
        are served one after the other); a store kept busy past the timeout is a
        :class:`PlayersError`."""
        try:
            with self.store.transaction():
                yield
        except StoreBusy as exc:
            raise PlayersError(f"the store is busy ({exc}); try again") from None


def watcher(table: int) -> str:
    """The name a watch link of ``table`` is stored under (see the module docstring)."""
    return f"{WATCHER}{table}"


def watched_table(name: str) -> int | None:
    """The table a watch link's invitation or session grants, from its stored name
    (None: a player's name)."""
    if not name.startswith(WATCHER):
        return None
    number = name.removeprefix(WATCHER)
    return int(number) if number.isdigit() and len(number) < 19 else None


def who(name: str) -> str:
    """A stored name in words for the host: the player's, or ``a guest watching table
    12``."""
    table = watched_table(name)
    return shown(name) if table is None else f"a guest watching table {table}"


def checked_name(name: str) -> str:
    """``name`` stripped if it can be a player's; raises :class:`PlayersError`."""
    try:
        return check_player_name(name)
    except ValueError as exc:
        raise PlayersError(str(exc)) from None


def _lookup(key_or_fingerprint: str) -> str:
    """What to match a stored key's line or fingerprint against."""
    text = key_or_fingerprint.strip()
    if text.startswith("SHA256:"):
        return text
    return Key.parse(text).line


def _row(name: str, key: Key) -> KeyRow:
    """What the store keeps of ``name``'s ``key``."""
    return KeyRow(name, key.line, key.fingerprint, key.comment, key.added)


def _key_of(key: str | bytes, now: float) -> Key:
    if isinstance(key, bytes):
        line = key_line(key)
        return Key(line, fingerprint(key), "", now)
    return Key.parse(key, now)


def _now(now: float | None) -> float:
    return time.time() if now is None else now
