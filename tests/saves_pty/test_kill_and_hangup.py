"""The promise that no completed move is ever lost, tested on a real process in a real
pseudo-terminal: kill -9 at random moments, and a hang-up (SIGHUP) of the terminal.

The process is tests/saves_pty/driver.py, which plays through a `saves.Session` (real
fsync, real os.replace) and prints each completed action count. After the kill, the save
it was writing must load, and hold every action it reported complete.
"""

from __future__ import annotations

import fcntl
import os
import pty
import random
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

import saves

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX ptys and signals")

DRIVER = Path(__file__).with_name("driver.py")


class Driver:
    """The driver running in a new session whose controlling terminal is a fresh pty."""

    def __init__(self, folder: Path, seed: int, delay: float = 0.0) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, str(DRIVER), str(folder), str(seed), str(delay)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            preexec_fn=_take_terminal,
            close_fds=True,
        )
        os.close(slave)
        self.output = b""

    def read(self, timeout: float) -> None:
        """Collect what the driver printed within ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                return
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the driver is gone
                return
            if not chunk:
                return
            self.output += chunk

    def read_until_lines(self, count: int, timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while len(self.lines()) < count and time.monotonic() < end:
            self.read(0.05)
        assert len(self.lines()) >= count, f"the driver printed:\n{self.output.decode()[-2000:]}"

    def lines(self) -> list[tuple[str, int]]:
        """(save name, actions) of each complete line printed so far."""
        text = self.output.decode(errors="replace").replace("\r\n", "\n")
        complete = text[: text.rfind("\n") + 1]
        result = []
        for line in complete.splitlines():
            name, _, count = line.rpartition(" ")
            assert name and count.isdigit(), f"unexpected output from the driver: {line!r}"
            result.append((name, int(count)))
        return result

    def finish(self) -> int:
        """Wait for the driver to end; its exit status (negative: killed by that signal).
        The lines it printed before ending are read first."""
        status = self.process.wait(timeout=20)
        self.read(0.1)
        os.close(self.master)
        return status


def _take_terminal() -> None:
    """In the child: a new session whose controlling terminal is the pty on stdin, so that
    closing the pty's master end hangs it up exactly as a dropped SSH connection does."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _check_save_holds(folder: Path, name: str, reported: int) -> saves.Session:
    """The save ``name`` loads and holds the ``reported`` actions (or one more, completed
    after the last line was printed); every other file in the folder loads too."""
    store = saves.SaveStore(folder)
    session = store.load(name)
    assert reported <= len(session.actions) <= reported + 1
    damaged = [s.error for s in store.list() if s.error is not None]
    assert damaged == []
    return session


@pytest.mark.parametrize(
    "kills", [3, pytest.param(20, marks=pytest.mark.slow)], ids=lambda kills: f"{kills}-kills"
)
def test_kill_9_at_random_moments_never_loses_a_completed_action(
    tmp_path: Path, kills: int
) -> None:
    """kill -9 at 20 random moments (3 in `make test`, the same first three): the autosave
    always loads and holds every action the game reported complete before the kill."""
    rng = random.Random(2026)
    for run in range(kills):
        folder = tmp_path / f"run{run}"
        driver = Driver(folder, seed=run)
        driver.read_until_lines(1)
        driver.read(rng.uniform(0.0, 0.5))
        driver.process.send_signal(signal.SIGKILL)
        assert driver.finish() == -signal.SIGKILL
        name, reported = driver.lines()[-1]
        _check_save_holds(folder, name, reported)


@pytest.mark.parametrize("number", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
def test_signal_saves_and_exits_cleanly(tmp_path: Path, number: signal.Signals) -> None:
    """SIGHUP or SIGTERM: the game saves and exits with status 0; the save holds the last
    action reported."""
    driver = Driver(tmp_path, seed=7, delay=0.002)
    driver.read_until_lines(30)
    driver.process.send_signal(number)
    assert driver.finish() == 0
    name, reported = driver.lines()[-1]
    _check_save_holds(tmp_path, name, reported)


def test_terminal_hang_up_saves_and_exits_cleanly(tmp_path: Path) -> None:
    """The terminal really hangs up (its master end is closed, as when SSH drops): the
    kernel sends SIGHUP, the game saves and exits with status 0, nothing is lost."""
    driver = Driver(tmp_path, seed=8, delay=0.03)
    driver.read_until_lines(10)
    name, reported = driver.lines()[-1]
    os.close(driver.master)  # at once: the driver is pausing after printing that line
    assert driver.process.wait(timeout=20) == 0
    _check_save_holds(tmp_path, name, reported)
