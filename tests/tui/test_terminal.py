"""The real app in a real pty, where only a terminal shows it: input that ends without a
hang-up, bytes that are not UTF-8, and an unexpected error (one line, a report, the game
kept). Every wait is bounded."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

import core
import saves

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX ptys")

ROOT = Path(__file__).resolve().parents[2]
SEATS = [
    saves.SeatConfig("Ann", core.Colour.BLUE, "human"),
    saves.SeatConfig("Ben", core.Colour.RED, "human"),
]
# Started with a seat already saved: "choose an action" is on screen when it is ready.
READY = b"choose an action"


class AppInPty:
    """``mykerinos --resume game`` on a pty that is NOT its controlling terminal, so that
    closing the pty ends its input without any SIGHUP (as after ``setsid``)."""

    def __init__(self, tmp: Path, code: str = "import sys, tui.__main__ as m; sys.exit(m.main())"):
        self.folder = tmp / "saves"
        saves.Session.new(saves.SaveStore(self.folder), SEATS, seed=3, name="game")
        self.master, slave = pty.openpty()
        env = dict(os.environ, TERM="xterm-256color", XDG_DATA_HOME=str(tmp / "data"))
        env.pop("COLUMNS", None), env.pop("LINES", None)
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, "--save-dir", str(self.folder), "--resume", "game"],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
            start_new_session=True, close_fds=True,
        )  # fmt: skip
        os.close(slave)
        self.screen = b""

    def wait_for(self, text: bytes, timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while text not in self.screen:
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

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def wait_saved(self, actions: int, timeout: float = 10.0) -> None:
        """Until the save holds ``actions`` actions."""
        store, end = saves.SaveStore(self.folder), time.monotonic() + timeout
        while len(store.load("game").actions) < actions:
            assert time.monotonic() < end, "the move was never saved"
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


def test_end_of_input_saves_and_leaves_like_a_hang_up(tmp_path: Path) -> None:
    """The terminal goes away without a SIGHUP: the app must not spin for ever but leave
    within 2 s, the game (with the move just played) kept."""
    app = AppInPty(tmp_path)
    app.wait_for(READY)
    app.send(b"p")  # the first player passes: one action saved
    app.wait_saved(1)
    app.hang_up_quietly()
    assert app.finish(timeout=2.0) == 0
    assert saves.SaveStore(app.folder).load("game").actions == [core.Pass()]


def test_a_byte_that_is_not_utf8_is_ignored_and_the_game_goes_on(tmp_path: Path) -> None:
    """A Latin-1 terminal typing é sends 0xE9: the game keeps answering keys."""
    app = AppInPty(tmp_path)
    app.wait_for(READY)
    app.send(b"\xe9")
    app.send(b"p")
    app.wait_saved(1)
    app.send(b"q")
    app.wait_for(b"Quit the game?")
    app.send(b"y")
    assert app.finish(timeout=5.0) == 0
    assert saves.SaveStore(app.folder).load("game").actions == [core.Pass()]


CRASHING = """
import sys
import tui.__main__ as m
from tui.screens.game import GameScreen

def broken(self):
    secret = "SAVE-BYTES-12345"
    raise RuntimeError("a bug")

GameScreen.action_help = broken
sys.exit(m.main())
"""


def test_an_unexpected_error_shows_one_line_and_writes_a_report(tmp_path: Path) -> None:
    """No traceback (its locals may hold raw save bytes) reaches the player: one line
    names the report, which has the whole traceback; the game played so far is kept."""
    app = AppInPty(tmp_path, CRASHING)
    app.wait_for(READY)
    app.send(b"p")
    app.wait_saved(1)
    app.send(b"?")
    assert app.finish(timeout=10.0) == 1
    shown = app.screen.decode("utf-8", "replace")
    assert "unexpected error" in shown
    assert "Traceback" not in shown and "SAVE-BYTES" not in shown
    (report,) = (tmp_path / "data" / "mykerinos" / "crash-reports").glob("crash-*.txt")
    text = report.read_text()
    assert "RuntimeError: a bug" in text and "SAVE-BYTES-12345" in text  # locals, on file
    assert str(report) in shown.replace("\r\n", "").replace("\n", "")
    assert oct(report.stat().st_mode & 0o777) == "0o600"
    assert saves.SaveStore(app.folder).load("game").actions == [core.Pass()]
