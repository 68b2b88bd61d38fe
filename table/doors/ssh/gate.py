"""Who comes in through the door, decided once, at authentication.

Only two ways in, both starting from a key whose signature the door verified:

- a key named by ``mykerinos players add``: that player;
- an unknown key: the client proved it holds the key, then types an invitation code
  (keyboard-interactive); :meth:`table.host.players.Players.redeem` binds that key to the
  invited player and uses the code up. The code is only ever asked of a verified key, so
  a code cannot bind a key its typist does not hold.

asyncssh has no "partial success" (OpenSSH's ``AuthenticationMethods publickey,
keyboard-interactive``), so :class:`Visitor` wraps its connection's signature check (a
patch of asyncssh's internals: :mod:`table.doors.ssh.internals`): a verified unknown key
fails the public-key step, and from then on keyboard-interactive is offered. OpenSSH's
client goes on to its next key, then to keyboard-interactive.

Bounds (this faces the internet): keys tried per connection, code tries per connection,
wrong codes per address over a window (:class:`WrongCodes`: a code is counted wrong from
the moment it is looked at, so a client that hangs up or asks again before the answer
still spends a try), connections not yet signed in (per address and in all), connections
signed in (per player and in all), and asyncssh's login timeout. Passwords are never
offered. A connection whose client stops reading what it is sent stops being read, and its
games stop being read from, until it reads again (asyncssh itself ignores this: another
patch of :mod:`table.doors.ssh.internals`).
Every refusal is said in words where SSH lets a server speak: in the code prompt, or in
the disconnect reason the client prints.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

import asyncssh

from table.counts import uncount
from table.doors.players_thread import PlayersThread
from table.doors.ssh.internals import after_signature_check, watch_output
from table.host.players import Players, PlayersError, fingerprint
from table.server.log import log, log_once

if TYPE_CHECKING:
    from table.doors.ssh.session import DoorSession

KEY_CHECKS: Final = 12
"""Public-key checks on one connection before it is disconnected: a query and then a
signature for each key, so about 6 keys (OpenSSH's MaxAuthTries is 6)."""
CODE_TRIES: Final = 3
"""Invitation codes typed on one connection."""
WRONG_CODES_PER_ADDRESS: Final = 10
WRONG_CODES_WINDOW: Final = 15 * 60.0
"""At most 10 wrong codes from one address in 15 minutes: a code has 79 bits, so this
only slows a typist, and keeps the door from being a guessing machine."""
LOGIN_TIMEOUT: Final = 30.0
"""Seconds from connect to signed in (the login grace time)."""
CHANNELS: Final = 4
"""Session channels open at once on one connection (OpenSSH's MaxSessions is 10)."""
CODE_LENGTH: Final = 64
"""Characters of a typed code looked at (a real one has 19)."""
SWEEP_EVERY: Final = 256
"""Wrong codes counted between two sweeps of the addresses whose window has passed."""

Challenge = tuple[str, str, str, tuple[tuple[str, bool], ...]] | bool
"""A keyboard-interactive challenge as asyncssh's ``get_kbdint_challenge`` documents it
(title, instructions, language, prompts and whether each echoes), or a verdict."""


class WrongCodes:
    """Wrong invitation codes per address, over the last :data:`WRONG_CODES_WINDOW`."""

    def __init__(self, limit: int = WRONG_CODES_PER_ADDRESS, window: float = WRONG_CODES_WINDOW):
        self.limit, self.window = limit, window
        self._times: dict[str, deque[float]] = {}
        self._added = 0

    def blocked(self, address: str, now: float | None = None) -> float:
        """Seconds until ``address`` may type a code again (0: it may now)."""
        now = time.monotonic() if now is None else now
        times = self._times.get(address)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._times[address]
            return 0.0
        return times[0] + self.window - now if len(times) >= self.limit else 0.0

    def add(self, address: str, now: float | None = None) -> float:
        """One more wrong code from ``address``; the moment it counts from (see
        :meth:`forgive`). Addresses not heard from for a window are forgotten now and
        then, so that many addresses seen once each do not pile up."""
        now = time.monotonic() if now is None else now
        self._added += 1
        if self._added >= SWEEP_EVERY:
            self._added = 0
            for old in [a for a, times in self._times.items() if times[-1] <= now - self.window]:
                del self._times[old]
        self._times.setdefault(address, deque()).append(now)
        return now

    def forgive(self, address: str, moment: float) -> None:
        """The code counted at ``moment`` (:meth:`add`) was right after all."""
        times = self._times.get(address)
        if times is not None and moment in times:
            times.remove(moment)
            if not times:
                del self._times[address]

    def __len__(self) -> int:
        """Addresses remembered."""
        return len(self._times)


@dataclass(frozen=True)
class GateLimits:
    """Connections not yet signed in, and signed in (see the module docstring)."""

    pending_per_address: int = 10
    pending_in_all: int = 100
    signed_in_per_player: int = 8
    signed_in_in_all: int = 200


class Gate:
    """What every connection's authentication shares: the players' keys (read on one
    thread of its own, so a host's ``mykerinos players`` holding the store's write lock
    never stalls the event loop), the wrong codes, and the pending connections."""

    def __init__(self, db: Path, limits: GateLimits = GateLimits()) -> None:
        self.store = PlayersThread(db)
        self.wrong = WrongCodes()
        self.limits = limits
        self.pending: Counter[str] = Counter()
        self.signed_in: Counter[str] = Counter()
        """Connections signed in, by player."""

    async def owner(self, key: bytes) -> str | None:
        """Whose key this is (a wire blob), None when nobody's."""
        return await self.store.call(Players.player_of, key)

    async def redeem(self, code: str, key: bytes, address: str) -> str:
        """The invited player, the key now theirs; raises :class:`PlayersError`.

        The code counts as a wrong one from ``address`` until it turns out right, and the
        outcome is logged and counted whatever becomes of the caller: asyncssh cancels a
        check under way when its connection drops or sends another answer, while the
        store goes on to use the code (or not)."""
        counted = self.wrong.add(address)
        future = self.store.submit(Players.redeem, code, key)

        def settled(done: asyncio.Future[str]) -> None:
            if done.cancelled():  # the loop is closing: nothing to count any more
                return
            error = done.exception()
            if error is None:
                self.wrong.forgive(address, counted)
                log(f"door: {done.result()} redeemed an invitation from {address} "
                    f"(key {fingerprint(key)})")  # fmt: skip
            elif isinstance(error, PlayersError):
                log_once("door code", f"door: a wrong invitation code from {address}: {error}")
            else:
                log(f"door: an invitation code from {address} could not be checked: {error!r}")

        future.add_done_callback(settled)
        return await asyncio.shield(future)

    def close(self) -> None:
        self.store.close()


class Visitor(asyncssh.SSHServer):
    """One SSH connection, from its first byte to its end. ``player`` is who it is once
    signed in (set only here, at authentication)."""

    def __init__(
        self, gate: Gate, sessions: Callable[[Visitor], asyncssh.SSHServerSession[bytes] | None]
    ):
        self.gate = gate
        self._sessions = sessions
        self.player: str | None = None
        self.key: bytes | None = None
        """The key the player signed in with (the door checks it stays theirs)."""
        self.address = "?"
        self.conn: asyncssh.SSHServerConnection | None = None
        self._owners: dict[bytes, str | None] = {}
        self._keys_tried = 0
        self._unknown_key: bytes | None = None
        """A key not yet anyone's whose signature was verified: it may redeem a code."""
        self._code_tries = 0
        self.channels = 0
        """Session channels open on this connection."""
        self.sessions: set[DoorSession] = set()
        """Those channels' sessions (told when the connection cannot take more output)."""
        self.congested = False
        """The connection holds as much unsent output as it may: its client reads nothing."""
        self._counted = False
        self._signed_in = False

    # ---------------------------------------------------------------- the connection

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        limits = self.gate.limits
        pending = self.gate.pending
        if pending[self.address] >= limits.pending_per_address or (
            pending.total() >= limits.pending_in_all
        ):
            log_once("door full", f"door: {self.address} refused, too many "
                     "connections signing in")  # fmt: skip
            conn.disconnect(
                asyncssh.DISC_TOO_MANY_CONNECTIONS,
                "too many connections are signing in: try again in a minute",
            )
            return
        pending[self.address] += 1
        self._counted = True
        watch_output(conn, self._output_held, self._output_freed)
        after_signature_check(conn, self._verified)

    def _verified(self, key: bytes) -> bool:
        """A signature by ``key`` was verified (see
        :func:`~table.doors.ssh.internals.after_signature_check`): its owner signs in; a
        key that is nobody's fails here, which opens keyboard-interactive for it."""
        owner = self._owners.get(key)
        if owner is not None:
            self.player, self.key = owner, key
            return True
        self._unknown_key = key
        wait = self.gate.wrong.blocked(self.address)
        if wait:
            assert self.conn is not None
            self.conn.disconnect(
                asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                f"too many wrong invitation codes from {self.address}: "
                f"try again in {int(wait // 60) + 1} minutes",
            )
        return False

    def _output_held(self) -> None:
        """The connection's socket holds as much unsent output as it may (its client reads
        nothing): the door stops reading it (:func:`~table.doors.ssh.internals.watch_output`)
        and its games' output waits."""
        self.congested = True
        for session in list(self.sessions):
            session.output_held()

    def _output_freed(self) -> None:
        self.congested = False
        for session in list(self.sessions):
            session.output_freed()

    def connection_lost(self, exc: Exception | None) -> None:
        self._uncount()
        if self._signed_in:
            self._signed_in = False
            assert self.player is not None
            uncount(self.gate.signed_in, self.player)

    def auth_completed(self) -> None:
        self._uncount()
        assert self.player is not None and self.conn is not None
        limits, signed_in = self.gate.limits, self.gate.signed_in
        held = signed_in[self.player]
        if held >= limits.signed_in_per_player or signed_in.total() >= limits.signed_in_in_all:
            log_once("door busy", f"door: {self.player} refused from {self.address}, "
                     f"{held} connections of theirs and {signed_in.total()} in all")  # fmt: skip
            self.conn.disconnect(
                asyncssh.DISC_TOO_MANY_CONNECTIONS,
                f"you have {held} connections open to this door already: close one first"
                if held >= limits.signed_in_per_player
                else "the door has as many connections as it can take: try again later",
            )
            return
        signed_in[self.player] += 1
        self._signed_in = True
        log(f"door: {self.player} signed in from {self.address}")

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            uncount(self.gate.pending, self.address)

    def begin_auth(self, username: str) -> bool:
        return True  # the user name is ignored: the key says who it is

    # ---------------------------------------------------------------- public keys

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Whether the door will look at a signature by ``key``: a known key, or an
        unknown one that may redeem a code (see :meth:`_verified`)."""
        self._keys_tried += 1
        if self._keys_tried > KEY_CHECKS:
            assert self.conn is not None
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                 "too many keys tried")  # fmt: skip
            return False
        blob = key.public_data
        if blob not in self._owners:
            self._owners[blob] = await self.gate.owner(blob)
        return True

    # ---------------------------------------------------------------- invitations

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return self._unknown_key is not None and self._code_tries < CODE_TRIES

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> Challenge:
        key = self._unknown_key
        which = f" ({fingerprint(key)})" if key is not None else ""
        return _ask(f"This key{which} is not known here yet. Invitation code: ")

    async def validate_kbdint_response(self, username: str, responses: Sequence[str]) -> Challenge:
        """Redeem the typed code for the verified unknown key: signed in, or asked again
        with the reason in the prompt (the one text every client shows)."""
        key = self._unknown_key
        if key is None or len(responses) != 1 or self._code_tries >= CODE_TRIES:
            return False
        self._code_tries += 1
        wait = self.gate.wrong.blocked(self.address)
        if wait:
            return _no_more(f"Too many wrong codes from {self.address}: try again later.")
        try:
            player = await self.gate.redeem(responses[0][:CODE_LENGTH], key, self.address)
        except PlayersError as exc:
            reason = str(exc)[:1].upper() + str(exc)[1:]
            if self._code_tries >= CODE_TRIES:
                return _no_more(f"{reason}. No more tries on this connection.")
            return _ask(f"{reason}. Invitation code: ")
        self.player, self.key = player, key
        return True

    # ---------------------------------------------------------------- what is served

    def session_requested(self) -> asyncssh.SSHServerSession[bytes] | bool:
        """A session channel, at most :data:`CHANNELS` open at once on one connection
        (the bound on sessions counts only those that started something)."""
        if self.channels >= CHANNELS:
            return False
        session = self._sessions(self)
        if session is None:  # the door is stopping
            return False
        self.channels += 1
        return session

    def connection_requested(self, *_: object) -> bool:
        return False  # no -L forwarding

    def server_requested(self, *_: object) -> bool:
        return False  # no -R forwarding

    def unix_connection_requested(self, *_: object) -> bool:
        return False

    def unix_server_requested(self, *_: object) -> bool:
        return False

    def tun_requested(self, *_: object) -> bool:
        return False

    def tap_requested(self, *_: object) -> bool:
        return False


def _ask(prompt: str) -> Challenge:
    return ("Mykerinos invitation", "", "", ((prompt, True),))


def _no_more(words: str) -> Challenge:
    """A last prompt that says why, whose answer is refused whatever it is."""
    return ("Mykerinos invitation", "", "", ((f"{words} (Enter) ", True),))
