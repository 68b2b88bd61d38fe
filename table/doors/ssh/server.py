"""The door's listener, its bounds on sessions, and its start and stop.

:class:`Door` lives in the table server's process, beside the hub: it asks the hub for a
ticket for each session's player (:meth:`table.server.hub.Hub.issue_ticket`) and hands it
to the game it starts, which says it in its hello; the ticket ends with the session.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

import asyncssh

from table.doors.admissions import Admissions, player_home
from table.doors.options import PORT_FILE, DoorLimits
from table.doors.ssh.gate import LOGIN_TIMEOUT, Gate, GateLimits, Visitor
from table.doors.ssh.hostkey import fingerprint, host_key
from table.doors.ssh.internals import check_asyncssh
from table.doors.ssh.session import STATUS_WITHIN, DoorSession
from table.doors.zygote import GameProcess, Zygote
from table.lifeline import hang_ups_reach_children
from table.server.log import log

if TYPE_CHECKING:
    from table.server.hub import Hub

KEYS_CHECKED_EVERY: Final = 10.0
"""Seconds between checks that each session's key is still its player's: a host's
``mykerinos players remove`` ends that player's sessions within this time."""
KEEPALIVE: Final = 30.0
"""Seconds between keepalives: a client that vanished without a word (a cut cable), or
that reads nothing of what it is sent, is found within three of them."""
WINDOW: Final = 128 * 1024
"""Bytes a client may send on a channel before the door takes them (asyncssh's 2 MiB is
for file transfers; keys are few): what a channel can make the door hold."""


class Door:
    """The SSH door of one table server (see the package docstring)."""

    def __init__(
        self,
        hub: Hub,
        socket: Path,
        db: Path,
        limits: DoorLimits | None = None,
        admissions: Admissions | None = None,
        zygote: Zygote | None = None,
    ) -> None:
        """``admissions``: the bounds on sessions this door shares with the server's other
        doors (its own, of ``limits``, when None); ``zygote``: the warm process that forks
        the games (None: each game is a new interpreter)."""
        self.hub = hub
        self.socket = socket
        self.folder = db.parent
        self.db = db
        self.admissions = admissions or Admissions(hub, limits)
        self.zygote = zygote
        self.limits = self.admissions.limits
        self.sessions: set[DoorSession] = set()
        self.port = 0
        self.fingerprint = ""
        self._server: asyncssh.SSHAcceptor | None = None
        self._gate: Gate | None = None
        self._stopped = False
        self._watching: asyncio.Task[None] | None = None

    async def start(self, host: str | None, port: int) -> None:
        """Listen on ``host``:``port`` (raises ``OSError`` if it cannot, or
        :class:`~table.doors.ssh.hostkey.HostKeyError`, or
        :class:`~table.doors.internals.LibraryChanged` when asyncssh lacks what the door's
        patches rely on)."""
        check_asyncssh()
        _quiet_library_log()
        key = host_key(self.folder)
        self.fingerprint = fingerprint(key)
        self._gate = gate = Gate(
            self.db,
            GateLimits(
                signed_in_per_player=2 * self.limits.sessions_per_player + 2,
                signed_in_in_all=2 * self.limits.sessions,
            ),
        )
        self._server = await asyncssh.create_server(
            lambda: Visitor(gate, self._session), host, port,
            server_host_keys=[key], server_version="Mykerinos",
            public_key_auth=True, kbdint_auth=True, password_auth=False,
            gss_host=None, host_based_auth=False,
            x11_forwarding=False, agent_forwarding=False, allow_scp=False,
            allow_pty=True, line_editor=False, encoding=None, window=WINDOW,
            login_timeout=LOGIN_TIMEOUT, keepalive_interval=KEEPALIVE, keepalive_count_max=3,
        )  # fmt: skip
        self.port = self._server.sockets[0].getsockname()[1] if self._server.sockets else port
        self._watching = asyncio.get_running_loop().create_task(self._watch_keys(gate))
        where = f"{host or '*'}:{self.port}"
        with contextlib.suppress(OSError):  # only a hint for `mykerinos invite`
            (self.folder / PORT_FILE).write_text(f"{self.port}\n", encoding="ascii")
        log(f"ssh door on {where}, host key {self.fingerprint} (ssh-ed25519); "
            f"players: ssh -p {self.port} HOST")  # fmt: skip

    async def stop(self) -> None:
        """Stop listening, end every session (their games get SIGHUP), wait ≤ 2 s; a
        second call does nothing."""
        if self._stopped:
            return
        self._stopped = True
        if self._watching is not None:
            self._watching.cancel()
        if self._server is not None:
            self._server.close()
        for session in list(self.sessions):
            session.end("the table server is stopping; connect again in a moment")
        tasks = [s.task for s in self.sessions if s.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=2)
        if self._server is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), 1)
        if self._gate is not None:
            self._gate.close()

    async def _watch_keys(self, gate: Gate) -> None:
        """End the sessions whose key is no longer their player's (see
        :data:`KEYS_CHECKED_EVERY`)."""
        while True:
            await asyncio.sleep(KEYS_CHECKED_EVERY)
            keys = {(s.visitor.key, s.visitor.player) for s in self.sessions}
            for key, player in keys:
                if key is None:
                    continue
                try:
                    owner = await gate.owner(key)
                except Exception as exc:  # a busy or failing store: look again later
                    log(f"door: cannot check the players' keys: {exc!r}")
                    break
                if owner == player:
                    continue
                log(f"door: {player}'s key was removed: their sessions end")
                for session in list(self.sessions):
                    if session.visitor.key == key:
                        session.end("your key was removed from this server")

    def _session(self, visitor: Visitor) -> DoorSession | None:
        return None if self._stopped else DoorSession(self, visitor)

    async def key_refused(self, visitor: Visitor) -> str | None:
        """Why ``visitor`` may start nothing more (None: it may): its key is no longer
        its player's (a connection signed in before ``mykerinos players remove`` must not
        go on opening sessions)."""
        if visitor.key is None or self._gate is None:
            return "the door cannot tell who you are"
        try:
            owner = await self._gate.owner(visitor.key)
        except Exception as exc:
            log(f"door: cannot check {visitor.player}'s key: {exc!r}")
            return "the door cannot check your key just now: try again in a moment"
        return None if owner == visitor.player else "your key was removed from this server"

    # ---------------------------------------------------------------- sessions

    def admitted(self, player: str) -> contextlib.AbstractContextManager[str]:
        """A session of ``player`` within the doors' bounds, and its ticket for the hub
        (see :meth:`table.doors.admissions.Admissions.admitted`)."""
        return self.admissions.admitted(player)

    def home(self, player: str) -> Path:
        """The player's own folder on the host (:func:`table.doors.admissions.player_home`)."""
        return player_home(self.folder, player)

    def game_args(self, home: Path) -> list[str]:
        """The game's arguments: on this server's socket, saving in ``home``; it is told
        the door's port, for the command that exports a table to the guest."""
        return [
            "--socket", str(self.socket), "--save-dir", str(home / "saves"),
            "--door", f"ssh:{self.port}",
        ]  # fmt: skip

    async def start_game(self, home: Path, env: dict[str, str], terminal: int) -> GameProcess:
        """The game (:mod:`tui.door`) on the pty's ``terminal``: forked by the warm
        process, else a new interpreter in isolated mode (the caller closes
        ``terminal``)."""
        hang_ups_reach_children()
        args = self.game_args(home)
        if self.zygote is not None:
            forked = await self.zygote.start("tui.door", args, env, str(home), [terminal] * 3)
            if forked is not None:
                return forked
        return await asyncio.create_subprocess_exec(
            *self.game_command(home),
            stdin=terminal, stdout=terminal, stderr=terminal, env=env, cwd=home, close_fds=True,
        )  # fmt: skip

    def game_command(self, home: Path) -> list[str]:
        """The game's command line when no warm process forks it: a new interpreter in
        isolated mode."""
        return [sys.executable, "-I", "-m", "tui.door", *self.game_args(home)]

    async def status(
        self,
        ticket: str,
        out: Callable[[bytes], None],
        err: Callable[[bytes], None],
        started: Callable[[asyncio.subprocess.Process], None],
    ) -> int:
        """``mykerinos status`` as the ticket's player: its lines, then its exit code;
        ``started`` is given its process (the session ends it if the client goes)."""
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-I", "-m", "tui", "status", "--socket", str(self.socket),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, close_fds=True,
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MYKERINOS_TICKET": ticket},
        )  # fmt: skip
        started(process)
        try:
            output, errors = await asyncio.wait_for(process.communicate(), STATUS_WITHIN)
        except TimeoutError:
            process.kill()
            await process.wait()
            err(b"mykerinos: the status check took too long\r\n")
            return 2
        out(output)
        err(errors)
        return 2 if process.returncode is None else process.returncode


def _quiet_library_log() -> None:
    """asyncssh's own log stays out of the server's: its lines quote what peers sent
    (versions, names) unescaped, and the door logs what matters itself."""
    logger = logging.getLogger("asyncssh")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False
    logger.setLevel(logging.CRITICAL)
