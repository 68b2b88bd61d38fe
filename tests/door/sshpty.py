"""A command in a pseudo-terminal of a given size, read through a terminal emulator.

:class:`PtyProcess` runs a command (the real ``ssh`` client, or the game itself) in a new
session whose controlling terminal is a fresh pty, and feeds everything it writes to a
``pyte`` screen of the pty's size, so that a test reads what a person would see:
:meth:`PtyProcess.wait_for` a text, :meth:`PtyProcess.send` keys, :meth:`PtyProcess.resize`
the window (the pty's size is set, SIGWINCH follows, and the emulator's screen changes
with it). The screen and the waits on it are :mod:`tests.screen`'s, as the web door's. A
reader thread drains the pty at all times, so the command never blocks on a full
terminal. Every wait is bounded, and :meth:`PtyProcess.close` (also the end of a ``with``
block) kills the command's whole process group and joins the reader: nothing is left
behind, whatever the test did.
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
import subprocess
import termios
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType

from tests.screen import DEFAULT_TIMEOUT, Screen, Watched

POLL = 0.02
"""Seconds between two looks at the screen."""


ESCAPES = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[@-_=>])"
)
"""Escape sequences (CSI, OSC, character set choices, two-byte ones) in output."""


def plain(output: str) -> str:
    """``output`` without escape sequences and carriage returns."""
    return ESCAPES.sub("", output).replace("\r", "")


def _take_terminal() -> None:
    """In the child, after ``setsid``: the pty on stdin becomes its controlling terminal,
    so that ssh reads passwords and codes from it and a hang-up reaches it."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _set_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class PtyProcess(Watched):
    """``argv`` running in a ``cols``×``rows`` pty, its output on a ``pyte`` screen."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cols: int = 80,
        rows: int = 24,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
    ) -> None:
        self.argv = list(argv)
        self.term = Screen(cols, rows)
        """The screen, and the output (:attr:`Screen.received`, the last
        :data:`tests.screen.KEEP_OUTPUT` bytes; :attr:`Screen.total`, all of them)."""
        self._lock = threading.Lock()
        self._ended = threading.Event()
        self.master, slave = pty.openpty()
        try:
            _set_size(slave, cols, rows)
            environ = dict(os.environ if env is None else env)
            environ.setdefault("TERM", "xterm-256color")
            self.process = subprocess.Popen(
                self.argv,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                cwd=cwd,
                env=environ,
                start_new_session=True,
                preexec_fn=_take_terminal,
                close_fds=True,
            )
        except BaseException:
            os.close(self.master)
            raise
        finally:
            os.close(slave)
        self.pid = self.process.pid
        self._reader = threading.Thread(target=self._read, name=f"pty-{self.pid}", daemon=True)
        self._reader.start()

    # ---------------------------------------------------------------- output

    def _read(self) -> None:
        """Drain the pty into the emulator until it ends (EIO once the last process
        holding the terminal is gone) or the master is closed."""
        while True:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.1)
                if not ready:
                    if self._ended.is_set():
                        return
                    continue
                chunk = os.read(self.master, 65536)
            except (OSError, ValueError):  # EIO: the terminal hung up; EBADF: closed
                break
            if not chunk:
                break
            with self._lock:
                fault = self.term.feed(chunk)
                if fault:
                    self.term.received += f"\n{fault}\n".encode()
        self._ended.set()

    @property
    def output(self) -> str:
        """Every byte written to the terminal so far (the last
        :data:`tests.screen.KEEP_OUTPUT`),
        decoded, escape sequences and all."""
        with self._lock:
            return self.term.received.decode("utf-8", errors="replace")

    def text(self, start: int = 0) -> str:
        """What was written to the terminal from character ``start`` of :attr:`output` on, as
        plain text: escape sequences and carriage returns taken out, so that a sentence
        the terminal wrapped reads whole (as the ssh client's prompts are written)."""
        return plain(self.output[start:])

    def wait_output(
        self, check: Callable[[str], bool], timeout: float = DEFAULT_TIMEOUT, *, what: str
    ) -> str:
        """Wait until ``check`` holds of :meth:`text` (everything written so far, plain);
        that text. On timeout, an ``AssertionError`` as :meth:`wait_for`'s."""
        return self.watch(self.text, check, timeout, f"never saw {what}")

    # The waits on the screen (wait_for, wait_gone, wait_quiet) are Watched's.

    def lines(self) -> list[str]:
        """The screen's rows, as shown."""
        with self._lock:
            return self.term.lines()

    def pump(self) -> None:
        time.sleep(POLL)  # the reader thread draws meanwhile

    def arrived(self) -> int:
        return self.term.total

    def report(self, problem: str, timeout: float) -> str:
        """``problem``, whether the command ended and its status, and the screen."""
        status = self.process.poll()
        ended = "still running" if status is None else f"ended with status {status}"
        return (
            f"{problem} within {timeout:g} s ({' '.join(self.argv[:3])}… {ended}); "
            + self.framed(*self.term.size)
        )

    # ---------------------------------------------------------------- input

    def send(self, keys: bytes | str) -> None:
        """Type ``keys`` (a string is sent as UTF-8)."""
        data = keys.encode() if isinstance(keys, str) else keys
        end = time.monotonic() + DEFAULT_TIMEOUT
        while data:
            try:
                written = os.write(self.master, data)
            except BlockingIOError:
                written = 0
            except OSError as exc:
                raise AssertionError(self.report(f"could not type ({exc})", 0)) from None
            data = data[written:]
            if data:
                assert time.monotonic() < end, self.report("no input taken", DEFAULT_TIMEOUT)
                time.sleep(POLL)

    def resize(self, cols: int, rows: int) -> None:
        """The window becomes ``cols``×``rows``: the pty's size (the kernel sends SIGWINCH
        to the command), and the emulator's screen."""
        with self._lock:
            self.term.resize(cols, rows)
        _set_size(self.master, cols, rows)

    # ---------------------------------------------------------------- the end

    def wait(self, timeout: float = DEFAULT_TIMEOUT) -> int:
        """The command's exit status once it ends (negative: killed by that signal), after
        its last output is read; an ``AssertionError`` if it runs past ``timeout``."""
        try:
            status = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(self.report("the command did not end", timeout)) from None
        self._ended.wait(2.0)  # the output written before it ended
        return status

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def kill(self, number: int = signal.SIGKILL) -> None:
        """Send ``number`` to the command alone (not its process group)."""
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(number)

    def close(self) -> None:
        """Kill the command's process group, reap it, close the terminal; idempotent."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(10)
        self._ended.set()
        self._reader.join(5)
        with contextlib.suppress(OSError):
            os.close(self.master)

    def __enter__(self) -> PtyProcess:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


# ---------------------------------------------------------------- processes


def children(pid: int) -> list[int]:
    """The direct children of ``pid`` (those of each of its threads), [] once it is gone."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            text = Path(f"/proc/{pid}/task/{task}/children").read_text()
        except OSError:
            continue
        found.extend(int(word) for word in text.split())
    return found


def descendants(pid: int) -> set[int]:
    """Every process below ``pid``."""
    seen: set[int] = set()
    todo = children(pid)
    while todo:
        child = todo.pop()
        if child not in seen:
            seen.add(child)
            todo.extend(children(child))
    return seen


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    state = stat.rpartition(")")[2].split()[0]
    return state not in ("Z", "X")


def command_line(pid: int) -> str:
    """``pid``'s command line, words joined by spaces ("" once it is gone)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def environment(pid: int) -> dict[str, str] | None:
    """``pid``'s environment as it started (None if it cannot be read)."""
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return None
    pairs = (entry.partition(b"=") for entry in raw.split(b"\0") if entry)
    return {key.decode(errors="replace"): value.decode(errors="replace") for key, _, value in pairs}


def wait_until(check: Callable[[], bool], timeout: float, message: str | Callable[[], str]) -> None:
    """Poll ``check`` until it holds; ``AssertionError(message)`` after ``timeout``."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError(message() if callable(message) else message)
        time.sleep(POLL)
