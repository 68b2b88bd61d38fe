"""The same promises on the real `mykerinos` app in a real pty: a game of computer
players plays itself; we hang up its terminal, send SIGTERM, or kill -9 it, and the save
must load and hold at least every action we saw saved before."""

from __future__ import annotations

import fcntl
import os
import pty
import random
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

import core
import saves

# Slow: the app paces computer moves for people to follow; tests/tui/test_cli.py hangs up
# and terminates the real app in a pty in `make test`.
pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX ptys and signals"),
    pytest.mark.slow,
]

ROOT = Path(__file__).resolve().parents[2]
BOTS = [
    saves.SeatConfig(name, colour, "computer", "easy")
    for name, colour in zip(("Ann", "Ben", "Cleo"), list(core.Colour), strict=False)
]


def _command(folder: Path) -> list[str]:
    """The installed `mykerinos` script when there is one, else the same entry point."""
    script = Path(sys.executable).with_name("mykerinos")
    start = [str(script)] if script.exists() else [sys.executable, "-m", "tui"]
    return [*start, "--save-dir", str(folder), "--resume", "bots"]


class RunningApp:
    """The app on an 80×24 pty that is its controlling terminal, resuming game "bots"."""

    def __init__(self, folder: Path, seed: int) -> None:
        self.store = saves.SaveStore(folder)
        saves.Session.new(self.store, BOTS, seed=seed, name="bots").close()
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = subprocess.Popen(
            _command(folder),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=ROOT,
            env=dict(os.environ, TERM="xterm-256color"),
            preexec_fn=_take_terminal,
            close_fds=True,
        )
        os.close(slave)
        self.seen = 0
        """The most actions seen in the save file so far."""

    def watch(self, until_actions: int, timeout: float = 30.0) -> None:
        """Drain the screen output and watch the save until it holds ``until_actions``."""
        end = time.monotonic() + timeout
        while self.seen < until_actions:
            assert time.monotonic() < end, f"the app saved only {self.seen} actions"
            assert self.process.poll() is None, "the app ended early"
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                os.read(self.master, 65536)
            self.seen = max(self.seen, len(self.store.read("bots")[0].actions))

    def close_terminal(self) -> None:
        os.close(self.master)

    def saved_game(self) -> saves.Session:
        """The save after the app ended: it loads and lost nothing seen before."""
        session = self.store.watch("bots")
        assert len(session.actions) >= self.seen
        return session


def _take_terminal() -> None:
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def test_real_app_terminal_hang_up_saves_and_exits_cleanly(tmp_path: Path) -> None:
    """Closing the app's terminal (SSH dropped): exit status 0, the save holds everything."""
    app = RunningApp(tmp_path, seed=5)
    app.watch(until_actions=3)
    app.close_terminal()
    try:
        status = app.process.wait(timeout=8)
    finally:
        if app.process.poll() is None:
            app.process.kill()
            app.process.wait()
        app.saved_game()  # whatever the exit, nothing seen saved is lost
    assert status == 0


def test_real_app_sigterm_saves_and_exits_cleanly(tmp_path: Path) -> None:
    """SIGTERM: exit status 0, the save holds everything."""
    app = RunningApp(tmp_path, seed=6)
    app.watch(until_actions=3)
    app.process.send_signal(signal.SIGTERM)
    assert app.process.wait(timeout=20) == 0
    app.close_terminal()
    app.saved_game()


def test_real_app_kill_9_at_random_moments(tmp_path: Path) -> None:
    """kill -9 of the real app at 10 random moments: the save always loads, nothing seen
    saved is lost (slow: the app paces computer moves for people to follow)."""
    rng = random.Random(7)
    for run in range(10):
        app = RunningApp(tmp_path / f"run{run}", seed=run)
        app.watch(until_actions=rng.randrange(1, 8))
        time.sleep(rng.uniform(0.0, 0.4))
        app.process.send_signal(signal.SIGKILL)
        assert app.process.wait(timeout=20) == -signal.SIGKILL
        app.close_terminal()
        app.saved_game()
