"""Drive a terminal program in a real pty, as a player's terminal over SSH would.

The instrument of bench_tui.py: how long until a text is on the screen, and how many bytes
the program writes after each key (what would cross an SSH link). Standard library only,
so it runs wherever the benchmarks do.

    with Terminal([".venv/bin/mykerinos"], cols=80, rows=24) as term:
        start = term.wait("new game")     # seconds since the program started
        term.key("down")
        move = term.quiet(0.15)            # until the screen has settled after the key

Times are measured from the moment the program was started, or the last key was sent;
bytes are those written since that moment. Like a real terminal, the probe answers the
program's cursor-position and device-attribute queries.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import termios
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType

KEYS = {
    "enter": "\r", "up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
    "tab": "\t", "escape": "\x1b", "space": " ", "backspace": "\x7f", "ctrl-c": "\x03",
    "ctrl-q": "\x11", "ctrl-s": "\x13", "ctrl-z": "\x1a", "ctrl-p": "\x10",
}  # fmt: skip
"""Key names and the bytes a terminal sends for them; any other key is sent as typed."""

ANSI = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]"
    rb"|\x1b[=>78MDEc]"
)
"""Escape sequences (cursor moves, colours, titles): stripped before looking for text."""

CURSOR_QUERY, CURSOR_REPLY = b"\x1b[6n", b"\x1b[1;1R"
DEVICE_QUERY, DEVICE_REPLY = b"\x1b[c", b"\x1b[?62;c"
SETTLE = 0.15
"""Seconds a found text is given to finish its frame, whose bytes count too."""


class ProbeError(Exception):
    """The program never showed the text, or never wrote anything, within the timeout."""


@dataclass(frozen=True)
class Step:
    """What one wait measured: ``seconds`` since the program started or the last key."""

    key: str | None
    seconds: float
    bytes: int
    cpu: float = 0.0
    """CPU seconds the program had used, all its threads, when the step ended (``wait``
    only: a figure a loaded machine barely changes, unlike ``seconds``)."""


class Terminal:
    """A program running in a pty of ``cols`` × ``rows`` with ``TERM=xterm-256color``."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        cols: int = 100,
        rows: int = 32,
        env: Mapping[str, str] | None = None,
        timeout: float = 20.0,
    ) -> None:
        environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        environ["TERM"] = "xterm-256color"
        environ.update(env or {})
        self.timeout = timeout
        self.output = bytearray()
        self.last_key: str | None = None
        self.mark = 0
        self.pid, self.fd = pty.fork()
        self.since = time.monotonic()  # in the parent (the child never gets here)
        if self.pid == 0:  # the child: size its terminal, then become the program
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                os.execvpe(command[0], list(command), environ)
            finally:
                os._exit(127)  # only if exec failed: never run the parent's code here

    # ------------------------------------------------------------------ steps

    def key(self, name: str) -> None:
        """Send a key; later steps measure from this moment."""
        os.write(self.fd, KEYS.get(name, name).encode())
        self.last_key, self.mark, self.since = name, len(self.output), time.monotonic()

    def wait(self, text: str) -> Step:
        """Until ``text`` is on screen, among what was written since the last key."""
        deadline = time.monotonic() + self.timeout
        while text not in self.screen_text():
            if time.monotonic() >= deadline or self._pump(deadline) is False:
                raise ProbeError(f"{text!r} did not appear: {self.screen_text()[-300:]!r}")
        seconds, cpu = time.monotonic() - self.since, self.cpu_seconds()
        settle = time.monotonic() + SETTLE
        while self._pump(settle):
            pass
        return Step(self.last_key, seconds, len(self.output) - self.mark, cpu)

    def quiet(self, gap: float) -> Step:
        """Until the program has written something, then nothing for ``gap`` seconds;
        ``seconds`` is when it last wrote."""
        deadline = time.monotonic() + self.timeout
        last, written = time.monotonic(), len(self.output)
        while time.monotonic() < deadline:
            wrote = self._pump(min(deadline, time.monotonic() + 0.02))
            if wrote is False:
                break
            if wrote:
                last = time.monotonic()
            elif time.monotonic() - last >= gap and len(self.output) > written:
                break
        if len(self.output) == written:
            raise ProbeError(f"nothing was written after {self.last_key!r}")
        return Step(self.last_key, last - self.since, len(self.output) - self.mark)

    def ended(self) -> bool:
        """Until the program has ended by itself (answering its queries meanwhile);
        False if it was still running at the timeout."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self._pump(deadline) is False:
                return True
        return False

    def cpu_seconds(self) -> float:
        """CPU time of the program's live threads so far (Linux's ``schedstat``, in
        nanoseconds); 0.0 where there is none to read."""
        total = 0
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{self.pid}/task"):
                path = f"/proc/{self.pid}/task/{task}/schedstat"
                with contextlib.suppress(OSError, ValueError, IndexError), open(path) as stat:
                    total += int(stat.read().split()[0])
        return total / 1e9

    def screen_text(self) -> str:
        """What was written since the last key, escape sequences removed."""
        return ANSI.sub(b"", bytes(self.output[self.mark :])).decode("utf-8", "replace")

    # ------------------------------------------------------------------ plumbing

    def _pump(self, deadline: float) -> bool | None:
        """Read what the program wrote: True if it wrote, None if the deadline came
        first, False if it has gone."""
        wait = max(0.0, min(0.05, deadline - time.monotonic()))
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return None
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the program ended
            return False
        if not data:
            return False
        self.output.extend(data)
        if CURSOR_QUERY in data:
            os.write(self.fd, CURSOR_REPLY)
        if DEVICE_QUERY in data:
            os.write(self.fd, DEVICE_REPLY)
        return True

    def close(self) -> None:
        """SIGTERM the program (SIGKILL if it lingers), reap it, close the pty."""
        for number, grace in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, number)
            end = time.monotonic() + grace
            while time.monotonic() < end and not _reaped(self.pid):
                # Keep reading: a program blocked on a full pty never gets to exit.
                if self._pump(time.monotonic() + 0.02) is False:
                    time.sleep(0.01)
            if _reaped(self.pid):
                break
        os.close(self.fd)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def _reaped(pid: int) -> bool:
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return done == pid
