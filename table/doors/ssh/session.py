"""One SSH session through the door: the game in a pty, ``status``, or a refusal.

A session that asks for a terminal gets the game (:mod:`tui.door`) in a process
of its own, on a pty of the client's size (a resize sets the pty's size, and the kernel
sends the game SIGWINCH), with an environment the door builds from nothing: the
client's ``TERM``, ``LANG``/``LC_*`` and ``NO_COLOR`` when they are well-formed, the
ticket that names the player, and Python in isolated mode, as in the documented
``ForceCommand`` setup. ``status`` and ``export TABLE`` as commands print the player's
status line or write a table's save to the client (:mod:`table.doors.ssh.commands`). Anything
else (another command, a shell without a terminal, a subsystem such as sftp) is refused,
in one line where SSH lets the server say one.

When the connection ends (closed, dropped, the client killed) the pty is hung up, the
game gets SIGHUP and leaves; one still there after :data:`END_WITHIN` seconds is killed,
even when the connection ended while the game was still starting.

What a client can make the door hold is bounded: the game's output is read from the pty
only while the channel and the connection both take it (a client that stops reading
leaves the game waiting on its terminal, not the door's memory growing); keys wait in
the SSH window while the pty is full; of the ``env`` requests only the variables the game
may get are kept (:data:`LOCALES_KEPT` ``LC_*`` at most).

The pty is plumbed here rather than by asyncssh's public ``SSHServerProcess.redirect``,
which would set and forward the terminal's size for it: redirect stops reading the pty
only when the channel's window is full, so a client that opens a 4 GB window and then
reads nothing had the door hold every frame (20 MB after 3 s, growing, measured with
asyncssh 2.24.1), and it gives the pty whatever size the client names (30000×30000
taken as is, where :func:`set_size` bounds it to 1000).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import signal
import struct
import termios
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

import asyncssh

from table.doors.admissions import DoorFull
from table.doors.ssh.commands import run_command
from table.doors.ssh.internals import keep_environment
from table.server.log import log

if TYPE_CHECKING:
    from table.doors.ssh.gate import Visitor
    from table.doors.ssh.server import Door
    from table.doors.zygote import GameProcess

END_WITHIN: Final = 1.5
"""Seconds a game has to leave after its connection ended, before it is killed."""
STATUS_WITHIN: Final = 10.0
READ_SIZE: Final = 65536
DEFAULT_TERM: Final = "xterm-256color"
TERM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
LOCALE_NAME = re.compile(r"LANG|LC_[A-Z]{1,20}")
LOCALE_VALUE = re.compile(r"[A-Za-z0-9_.@-]{1,64}")
LOCALES_KEPT: Final = 16
"""``LC_*`` variables a session keeps of those its client sends, besides ``LANG`` and
``NO_COLOR`` (asyncssh itself keeps every variable, without limit)."""
WANTED_ENV = re.compile(rb"LANG|LC_[A-Z]{1,20}|NO_COLOR")
ESCDELAY_MS: Final = "400"
"""Over SSH an Esc and the bytes of an arrow key can arrive apart (see tui.__main__)."""


def environment(
    term: str | None, sent: Mapping[str, str], ticket: str, home: str
) -> dict[str, str]:
    """The game's whole environment: nothing from outside but the well-formed ``TERM``,
    ``LANG``/``LC_*`` and ``NO_COLOR`` the client sent (``sent``)."""
    env = {
        "PATH": os.defpath,
        "HOME": home,
        "TERM": term if term and TERM_NAME.fullmatch(term) else DEFAULT_TERM,
        "LANG": "C.UTF-8",
        "ESCDELAY": ESCDELAY_MS,
        "MYKERINOS_TICKET": ticket,
    }
    for name, value in sent.items():
        if LOCALE_NAME.fullmatch(name) and LOCALE_VALUE.fullmatch(value):
            env[name] = value
    if sent.get("NO_COLOR"):
        env["NO_COLOR"] = "1"
    return env


def set_size(fd: int, columns: int, rows: int) -> None:
    """The pty's size (TIOCSWINSZ); the kernel tells the game with SIGWINCH."""
    columns, rows = max(1, min(columns, 1000)), max(1, min(rows, 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class DoorSession(asyncssh.SSHServerSession[bytes]):
    """One session channel of a signed-in :class:`~table.doors.ssh.gate.Visitor`."""

    def __init__(self, door: Door, visitor: Visitor) -> None:
        self.door = door
        self.visitor = visitor
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size: tuple[int, int] | None = None
        """The client's terminal (columns, rows): None when it asked for none."""
        self.command: str | None = None
        self.master: int | None = None
        self.process: GameProcess | None = None
        self.task: asyncio.Task[None] | None = None
        self.goodbye = ""
        """Why the door itself ended the session (said once the game has left)."""
        self._typed = bytearray()
        """Keys not yet written to the pty (it was full)."""
        self._reading = False
        """The pty's master is watched for the game's output."""
        self._waiting_room = False
        """The pty's master is watched for room for :attr:`_typed`."""
        self._channel_full = False
        """The channel holds as much unsent output as it may (pause_writing)."""
        self._hanging_up: asyncio.Task[None] | None = None
        """Kills the game if it is still there :data:`END_WITHIN` seconds after the end."""
        self.lost = False
        """The channel is closed (the client left, or its connection dropped)."""

    # ---------------------------------------------------------------- asyncssh's calls

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan
        self.visitor.sessions.add(self)
        keep_environment(chan, wanted_environment)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Mapping[int, int]) -> bool:  # fmt: skip
        self.term = term_type
        self.size = (term_size[0] or 80, term_size[1] or 24)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no sftp, no other subsystem (the protocol has no room for words)

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        pass  # the game is left by its own keys

    def session_started(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())
        self.door.sessions.add(self)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self.master is None:
            return
        self._typed += data
        self._write_keys()

    def eof_received(self) -> bool:
        return True  # half-open: the client's stdin ended (ssh host status < /dev/null),
        # which must not close the channel before the answer is sent

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width or 80, height or 24)
        if self.master is not None:
            with contextlib.suppress(OSError):
                set_size(self.master, *self.size)

    def pause_writing(self) -> None:
        self._channel_full = True
        self._stop_reading()  # the client is slow: let the game wait, not the memory grow

    def resume_writing(self) -> None:
        self._channel_full = False
        self._start_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self.visitor.channels -= 1
        self.visitor.sessions.discard(self)
        self.end()

    def output_held(self) -> None:
        """The connection's own buffer is full (its client reads nothing): the game waits."""
        self._stop_reading()

    def output_freed(self) -> None:
        self._start_reading()

    # ---------------------------------------------------------------- the session

    async def _run(self) -> None:
        chan = self.chan
        player = self.visitor.player
        assert chan is not None and player is not None
        code = 2
        try:
            refused = await self.door.key_refused(self.visitor) or self.goodbye
            if self.lost:
                pass  # gone while its key was looked at: nothing to start, nobody to tell
            elif refused:  # removed, or the door stopping
                self._refuse(f"mykerinos: {refused}")
                code = 1
            elif self.command is not None:
                code = await self._command(player, self.command)
            elif self.size is None:
                self._refuse("mykerinos: the game needs a terminal: connect with `ssh -t` (not -T)")
            else:
                code = await self._play(player)
                if self.goodbye:
                    self._refuse(f"mykerinos: {self.goodbye}")
        except DoorFull as exc:
            self._refuse(f"mykerinos: {exc}")
            code = 1
        except Exception as exc:  # one session's fault never reaches the others
            log(f"door: {player}'s session failed: {exc!r}")
            self._refuse("mykerinos: the door failed to start the game; try again")
            code = 1
        finally:
            self.door.sessions.discard(self)
        with contextlib.suppress(OSError, asyncssh.Error, BrokenPipeError):
            chan.exit(code)

    async def _command(self, player: str, command: str) -> int:
        return await run_command(self.door, player, command, self._out, self._err, self._started)

    def _started(self, process: asyncio.subprocess.Process) -> None:
        """``status`` runs: ended with the session like a game."""
        self.process = process
        if self.lost:
            self.end()

    async def _play(self, player: str) -> int:
        assert self.size is not None
        with self.door.admitted(player) as ticket:
            master, slave = os.openpty()
            self.master = master
            try:
                try:
                    set_size(slave, *self.size)
                    home = self.door.home(player)
                    env = environment(self.term, self._sent(), ticket, str(home))
                    self.process = await self.door.start_game(home, env, slave)
                finally:
                    os.close(slave)
                if self.lost:
                    # The connection ended while the game was starting: the pty is closed
                    # (its number may be another's already), and the game must go too.
                    self.end()
                    return await self.process.wait()
                os.set_blocking(master, False)
                self._start_reading()
                self._write_keys()
                if self.goodbye:  # the door ended the session while the game was starting
                    self.end(self.goodbye)
                code = await self.process.wait()
                self._drain()
                return code
            finally:
                self.end()  # the pty closed, the game gone whatever happened

    def _sent(self) -> Mapping[str, str]:
        assert self.chan is not None
        try:
            return self.chan.get_environment()
        except (UnicodeError, ValueError):
            return {}

    def end(self, goodbye: str = "") -> None:
        """End the game, and make sure it left within :data:`END_WITHIN` seconds.

        The connection is gone (no ``goodbye``): hang up the pty, which the game gets as
        SIGHUP (it leaves at once: nobody is there). The door ends the session
        (``goodbye`` says why): SIGTERM, the pty kept, so the game's last bytes (the
        terminal put back as it was) reach the client before the reason."""
        self.goodbye = self.goodbye or goodbye
        if not goodbye:
            self._close_pty()
        process = self.process
        if process is not None and process.returncode is None:
            # os.kill, not send_signal: that polls, and a poll of a game that just left
            # reaps it behind asyncio's watcher ("Unknown child process" in the log).
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGTERM if goodbye else signal.SIGHUP)
            if self._hanging_up is None:
                self._hanging_up = asyncio.get_running_loop().create_task(_kill_late(process))

    def _close_pty(self) -> None:
        """Close the pty's master, first taking it out of the event loop (a closed number
        left registered breaks whatever is opened next with that number)."""
        self._stop_reading()
        self._stop_waiting_room()
        master, self.master = self.master, None
        if master is not None:
            with contextlib.suppress(OSError):
                os.close(master)

    # ---------------------------------------------------------------- the pty

    def _start_reading(self) -> None:
        """Read the game's output, unless the channel or the connection is full."""
        held = self._channel_full or self.visitor.congested
        if self.master is not None and not self._reading and not held:
            asyncio.get_running_loop().add_reader(self.master, self._read_screen)
            self._reading = True

    def _stop_reading(self) -> None:
        if self.master is not None and self._reading:
            asyncio.get_running_loop().remove_reader(self.master)
        self._reading = False

    def _read_screen(self) -> None:
        """What the game drew, on to the client."""
        assert self.master is not None
        try:
            data = os.read(self.master, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:  # EIO: the game closed the pty (it left)
            self._stop_reading()
            return
        if not data:
            self._stop_reading()
            return
        self._out(data)

    def _drain(self) -> None:
        """The game's last frame, after it left."""
        while self.master is not None:
            try:
                data = os.read(self.master, READ_SIZE)
            except OSError:
                break
            if not data:
                break
            self._out(data)
        self._stop_reading()

    def _write_keys(self) -> None:
        """The keys typed, on to the game; what the pty cannot take now waits (and the
        client is asked to wait while some does)."""
        if self.master is None or self.chan is None:
            return
        loop = asyncio.get_running_loop()
        try:
            written = os.write(self.master, self._typed) if self._typed else 0
        except BlockingIOError:
            written = 0
        except OSError:
            self._typed.clear()
            return
        del self._typed[:written]
        if self._typed and not self._waiting_room:
            self.chan.pause_reading()
            loop.add_writer(self.master, self._keys_room)
            self._waiting_room = True

    def _stop_waiting_room(self) -> None:
        if self.master is not None and self._waiting_room:
            asyncio.get_running_loop().remove_writer(self.master)
        self._waiting_room = False

    def _keys_room(self) -> None:
        assert self.chan is not None
        self._stop_waiting_room()
        self._write_keys()
        if not self._typed:
            self.chan.resume_reading()

    def _out(self, data: bytes) -> None:
        if self.chan is not None:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.write(data)

    def _err(self, data: bytes) -> None:
        if self.chan is not None:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.write_stderr(data)

    def _refuse(self, line: str) -> None:
        self._err(f"{line}\r\n".encode())


def wanted_environment(kept: Mapping[bytes, bytes], name: bytes, value: bytes) -> bool:
    """Whether a session keeps the ``env`` request ``name=value``, having ``kept`` those
    before: only what :func:`environment` may use, and at most :data:`LOCALES_KEPT`
    ``LC_*`` names (asyncssh itself keeps every variable, for as long as the channel is
    open: see :func:`table.doors.ssh.internals.keep_environment`)."""
    if not WANTED_ENV.fullmatch(name) or len(value) > 64:
        return False
    locales = sum(1 for known in kept if known.startswith(b"LC_"))
    return not (name.startswith(b"LC_") and name not in kept and locales >= LOCALES_KEPT)


async def _kill_late(process: GameProcess) -> None:
    try:
        await asyncio.wait_for(process.wait(), END_WITHIN)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
