"""The real `mykerinos` in a real pty, for the tests only a terminal can show.

`AppInPty` starts it on a pty that is not its controlling terminal (so closing the pty
ends its input without a SIGHUP), reads what it draws, types keys, and waits, every wait
bounded.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import core
import saves

ROOT = Path(__file__).resolve().parents[2]
SEATS = [
    saves.SeatConfig("Ann", core.Colour.BLUE, "human"),
    saves.SeatConfig("Ben", core.Colour.RED, "human"),
]
MAIN = "import sys, tui.__main__ as m; sys.exit(m.main())"


class AppInPty:
    """``mykerinos --resume game`` on a pty that is NOT its controlling terminal, so that
    closing the pty ends its input without any SIGHUP (as after ``setsid``)."""

    def __init__(self, tmp: Path, code: str = MAIN, *, new: bool = True) -> None:
        """Resume game "game" of ``tmp / "saves"`` (made first unless ``new`` is False)."""
        self.folder = tmp / "saves"
        if new:
            saves.Session.new(saves.SaveStore(self.folder), SEATS, seed=3, name="game").close()
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", XDG_DATA_HOME=str(tmp / "data"))
        env.pop("COLUMNS", None), env.pop("LINES", None)
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, "--save-dir", str(self.folder), "--resume", "game"],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
            start_new_session=True, close_fds=True,
        )  # fmt: skip
        os.close(slave)
        self.screen = b""
        self._since = 0

    def wait_for(self, text: bytes, timeout: float = 20.0) -> None:
        """Until ``text`` is drawn after the last key sent (or since the start)."""
        end = time.monotonic() + timeout
        while text not in self.screen[self._since :]:
            assert time.monotonic() < end, f"{text!r} never appeared"
            assert self.process.poll() is None, f"the app ended: {self.screen[-300:]!r}"
            self.drain(0.05)

    def drain(self, wait: float) -> None:
        if self.master < 0:
            time.sleep(wait)
            return
        ready, _, _ = select.select([self.master], [], [], wait)
        if ready:
            with contextlib.suppress(OSError):
                self.screen += os.read(self.master, 65536)

    def hang_up_quietly(self) -> None:
        """Close the terminal's side of the pty: the app's input ends, no signal sent."""
        os.close(self.master)
        self.master = -1

    def quiet(self, pause: float = 0.2, timeout: float = 10.0) -> None:
        """Until the app has drawn nothing for ``pause`` seconds (a frame is complete)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            before = len(self.screen)
            self.drain(pause)
            if len(self.screen) == before:
                return

    def send(self, data: bytes) -> None:
        self._since = len(self.screen)
        os.write(self.master, data)

    def wait_saved(self, actions: int, timeout: float = 30.0) -> None:
        """Until the save holds ``actions`` actions (``timeout``: a bound against a hang on
        a loaded machine, where each save is fsynced, not a timing)."""
        store, end = saves.SaveStore(self.folder), time.monotonic() + timeout
        while len(store.watch("game").actions) < actions:
            tail = self.screen[-400:].decode("utf-8", "replace")
            assert time.monotonic() < end, f"the move was never saved; the screen ends: {tail!r}"
            self.drain(0.05)

    def finish(self, timeout: float) -> int:
        """The exit status, draining output meanwhile; fails after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while self.process.poll() is None:
            if time.monotonic() > end:
                self.process.kill()
                self.process.wait()
                raise AssertionError(f"the app was still running after {timeout} s")
            self.drain(0.05)
        self.drain(0.1)
        return self.process.returncode
