"""The real app in a real pty, where only a terminal shows it: input that ends without a
hang-up, bytes that are not UTF-8, and an unexpected error (one line, a report, the game
kept). Every wait is bounded."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import core
import saves
from tests.tui.ptyapp import AppInPty

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX ptys")

# Started with a seat already saved: "choose an action" is on screen when it is ready.
READY = b"choose an action"


def test_end_of_input_saves_and_leaves_like_a_hang_up(tmp_path: Path) -> None:
    """The terminal goes away without a SIGHUP: the app must not spin for ever but leave
    within 2 s, the game (with the move just played) kept."""
    app = AppInPty(tmp_path)
    app.wait_for(READY)
    app.send(b"p")  # the first player passes: one action saved
    app.wait_saved(1)
    app.hang_up_quietly()
    assert app.finish(timeout=2.0) == 0
    assert saves.SaveStore(app.folder).watch("game").actions == [core.Pass()]


def test_a_byte_that_is_not_utf8_is_ignored_and_the_game_goes_on(tmp_path: Path) -> None:
    """A Latin-1 terminal typing é sends 0xE9: the game keeps answering keys."""
    app = AppInPty(tmp_path)
    app.wait_for(READY)
    app.quiet()  # the first frames are drawn: keys now go to the game
    app.send(b"\xe9")
    app.send(b"p")
    app.wait_saved(1)
    app.send(b"q")
    app.wait_for(b"Quit the game?")
    app.send(b"y")
    assert app.finish(timeout=5.0) == 0
    assert saves.SaveStore(app.folder).watch("game").actions == [core.Pass()]


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
    assert saves.SaveStore(app.folder).watch("game").actions == [core.Pass()]
