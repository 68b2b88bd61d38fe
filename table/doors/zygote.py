"""The server's side of the doors' warm process (issue 29; the process is :mod:`tui.zygote`).

``mykerinos serve`` starts one when it opens a door (:class:`Zygote`), and both doors ask
it for each session's game (:meth:`Zygote.start`): a fork of a process that has imported
the game already, sharing its pages, instead of a new interpreter. What the door gets
back (:class:`Forked`) stands for the game's process as asyncio's ``Process`` would: its
pid, its end (``wait``, ``returncode``), its signals, and for the web door its pipes.

The warm process is started without the server's descriptors (no store, no listening
socket), with an environment of its own, and a Unix socket pair to talk over; it dies
with the server (its parent-death signal, and the end of that socket). When it is not
there (not yet warm, failed to start, gone), the door starts the game as before, a new
interpreter of its own, and the log says so once; so it does for a session the warm
process does not fork in time (a busy machine), which does not end the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
from collections.abc import Mapping, Sequence
from typing import Final, TypeAlias

from table.lifeline import hang_ups_reach_children
from table.server.log import log

ROOM: Final = 2048
"""Bytes of room the warm process is started with, in its command line and in its
environment, for each session to show its own there (see :mod:`tui.fresh`)."""
READY_WITHIN: Final = 20.0
"""Seconds the warm process has to import the game."""
STOP_WITHIN: Final = 2.0
"""Seconds a stopping server waits for its warm process, killed, to be gone."""
ANSWER_WITHIN: Final = 5.0
"""Seconds it has to fork a session; past that, the session starts on its own."""
MESSAGE_SIZE: Final = 4096


GameProcess: TypeAlias = "asyncio.subprocess.Process | Forked"
"""A session's game: forked by the warm process, or started as a new interpreter."""


class Forked:
    """A session's game forked by the warm process, as the doors use an asyncio
    ``Process``: ``pid``, ``returncode`` (``-N`` for signal N), ``wait()``, ``kill()``,
    ``terminate()``, ``send_signal()``, and the pipes a web door's game talks over."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.stdin: asyncio.StreamWriter | None = None
        self.stdout: asyncio.StreamReader | None = None
        self.stderr: asyncio.StreamReader | None = None
        self._pidfd = pidfd
        """The game's pidfd: a signal never reaches another process that took its pid."""
        self._ended = asyncio.Event()

    async def wait(self) -> int:
        await self._ended.wait()
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, number: int) -> None:
        """Raises ``ProcessLookupError`` once the game has left, as asyncio's does."""
        if self.returncode is not None:
            raise ProcessLookupError(self.pid)
        signal.pidfd_send_signal(self._pidfd, number)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def ended(self, code: int) -> None:
        if self.returncode is None:
            self.returncode = code
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            if self.stdin is not None:  # as asyncio closes a subprocess's pipe at its end
                self.stdin.close()
            self._ended.set()

    def orphaned(self) -> None:
        """The warm process is gone, which hangs up its sessions: this one's end is seen
        on its pidfd, its code is that of a hang-up."""
        if self.returncode is not None:
            return
        loop = asyncio.get_running_loop()

        def gone() -> None:
            loop.remove_reader(self._pidfd)
            self.ended(-signal.SIGHUP)

        loop.add_reader(self._pidfd, gone)


class Zygote:
    """The doors' warm process, seen from the server (see the module's docstring)."""

    def __init__(self) -> None:
        self.process: asyncio.subprocess.Process | None = None
        self.pid: int | None = None
        self._channel: socket.socket | None = None
        self._ready = asyncio.Event()
        self._settled = asyncio.Event()
        """Ready, or known not to be."""
        self._waiting: dict[int, asyncio.Future[Forked | None]] = {}
        self._games: dict[int, Forked] = {}
        self._numbers = 0
        self._said_why = False

    async def open(self) -> None:
        """Start the warm process and wait (bounded) until it has imported the game;
        when it cannot, the doors start their games as before (said in the log)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        hang_ups_reach_children()  # its sessions are forked with its signals
        try:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-I", "-m", "tui.zygote", str(theirs.fileno()), *[""] * ROOM,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),), close_fds=True,
                env={"PATH": os.defpath, "LANG": "C.UTF-8", "MYKERINOS_ROOM": " " * ROOM},
            )  # fmt: skip
        except OSError as exc:
            ours.close()
            self._gone(f"it could not start ({exc!r})")
            return
        finally:
            theirs.close()
        self.pid = self.process.pid
        ours.setblocking(False)
        self._channel = ours
        asyncio.get_running_loop().add_reader(ours, self._read)
        try:
            await asyncio.wait_for(self._settled.wait(), READY_WITHIN)
        except TimeoutError:
            self._gone(f"it was not ready within {READY_WITHIN:g} s")

    async def start(
        self,
        program: str,
        args: Sequence[str],
        env: Mapping[str, str],
        cwd: str,
        fds: Sequence[int],
    ) -> Forked | None:
        """``python -m program args`` forked with ``env`` in ``cwd``, ``fds`` its stdin,
        stdout and stderr (the caller closes them); None when the warm process cannot
        (the door then starts the game itself)."""
        fd_list = list(fds)
        channel = self._channel
        if channel is None or not self._ready.is_set():
            return None
        self._numbers += 1
        number = self._numbers
        request = {"id": number, "program": program, "args": list(args), "env": dict(env),
                   "cwd": cwd}  # fmt: skip
        waiting = asyncio.get_running_loop().create_future()
        self._waiting[number] = waiting
        try:
            socket.send_fds(channel, [json.dumps(request).encode()], fd_list)
            return await asyncio.wait_for(waiting, ANSWER_WITHIN)
        except (BlockingIOError, TimeoutError) as exc:
            # Busy (a loaded machine): this session starts on its own; the others it
            # forked go on (a game forked after all is ended as it is announced).
            log(f"doors: the warm process is slow ({exc!r}); this session starts on its own")
            return None
        except OSError as exc:  # its socket is broken: not to be used again
            self._gone(f"a session could not be started ({exc!r})")
            return None
        finally:
            self._waiting.pop(number, None)

    def _read(self) -> None:
        channel = self._channel
        assert channel is not None
        while True:
            try:
                data, fds, _flags, _address = socket.recv_fds(channel, MESSAGE_SIZE, 1)
            except BlockingIOError:
                return
            except OSError as exc:
                self._gone(f"its socket failed ({exc!r})")
                return
            if not data:
                self._gone("it ended")
                return
            self._take(json.loads(data), fds)

    def _take(self, message: dict[str, object], fds: list[int]) -> None:
        if "ready" in message:
            self._ready.set()
            self._settled.set()
        elif "started" in message:
            number, pid = int(str(message["started"])), int(str(message["pid"]))
            game = Forked(pid, fds.pop())
            self._games[pid] = game
            waiting = self._waiting.get(number)
            if waiting is not None and not waiting.done():
                waiting.set_result(game)
            else:  # asked for by a door that gave up meanwhile
                with contextlib.suppress(ProcessLookupError):
                    game.kill()
        elif "failed" in message:
            log(f"doors: the warm process could not fork a session: {message.get('error')!r}")
            waiting = self._waiting.get(int(str(message["failed"])))
            if waiting is not None and not waiting.done():
                waiting.set_result(None)
        elif "ended" in message:
            left = self._games.pop(int(str(message["ended"])), None)
            if left is not None:
                left.ended(int(str(message["code"])))
        for fd in fds:
            os.close(fd)

    def _gone(self, why: str) -> None:
        """Not to be used again: its sessions hang up with it."""
        if not self._said_why:
            self._said_why = True
            log(f"doors: the warm process is not there ({why}); each session starts "
                "its own interpreter")  # fmt: skip
        self.close()

    async def stop(self) -> None:
        """:meth:`close`, then wait (bounded) until the warm process is gone: reaped while
        the event loop still runs, it leaves no asyncio warning in the host's log at exit
        ("Loop ... that handles pid N is closed", seen at every stop before)."""
        self.close()
        if self.process is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), STOP_WITHIN)

    def close(self) -> None:
        """End the warm process (its sessions hang up)."""
        self._settled.set()
        channel, self._channel = self._channel, None
        if channel is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(channel)
            channel.close()
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        for game in list(self._games.values()):
            game.orphaned()
        self._games.clear()
        for waiting in self._waiting.values():
            if not waiting.done():
                waiting.set_result(None)


async def start_piped(
    zygote: Zygote, program: str, args: Sequence[str], env: Mapping[str, str], cwd: str
) -> Forked | None:
    """As :meth:`Zygote.start`, the game talking over pipes as asyncio's subprocesses do
    (``stdin``, ``stdout``; its stderr goes nowhere, ``stderr`` is at its end at once):
    the web door's game (:mod:`tui.web`, which sends its stderr nowhere itself)."""
    keys_out, keys_in = os.pipe()
    screen_out, screen_in = os.pipe()
    nowhere = os.open(os.devnull, os.O_WRONLY)
    try:
        game = await zygote.start(program, args, env, cwd, [keys_out, screen_in, nowhere])
    finally:
        for fd in (keys_out, screen_in, nowhere):
            os.close(fd)
    if game is None:
        os.close(keys_in)
        os.close(screen_out)
        return None
    loop = asyncio.get_running_loop()
    game.stdout = asyncio.StreamReader(limit=2**16)
    reading = asyncio.StreamReaderProtocol(game.stdout)
    await loop.connect_read_pipe(lambda: reading, open(screen_out, "rb", 0))  # noqa: SIM115
    transport, writing = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin,
        open(keys_in, "wb", 0),  # noqa: SIM115 - the transport closes it
    )
    game.stdin = asyncio.StreamWriter(transport, writing, None, loop)
    game.stderr = asyncio.StreamReader()
    game.stderr.feed_eof()
    return game
