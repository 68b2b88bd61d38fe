"""Two real `mykerinos` processes on one game, each in its own pty, as the same player
logged in twice: the second is told the game is open, takes it over; the first is refused
at its next move, saying why; neither loses a move the other made."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import core
import saves
from tests.tui.ptyapp import AppInPty

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX ptys and flock")


def test_a_take_over_never_loses_the_other_windows_moves(tmp_path: Path) -> None:
    first = AppInPty(tmp_path)
    second = None
    try:
        first.wait_for(b"choose an action")
        first.send(b"p")  # a pass, played and saved in the first window
        first.wait_saved(1)
        second = AppInPty(tmp_path, new=False)
        second.wait_for(b"open in another window")
        second.send(b"t")  # take it over
        second.wait_for(b"choose an action")
        second.quiet()  # the new screen is drawn whole before keys are typed
        second.send(b"a")  # a start (on the space under the cursor), no neutral cube
        second.wait_for(b"cube 1 of 1")
        second.send(b"\r")
        second.wait_for(b"neutral")
        second.send(b"x")
        second.wait_saved(3)
        first.send(b"p")  # the first window does not know yet: its move is refused
        first.wait_for(b"taken over")
        assert len(saves.SaveStore(first.folder).watch("game").actions) == 3
        first.send(b"q")
        first.wait_for(b"Quit the game?")
        first.send(b"y")
        assert first.finish(timeout=10.0) == 0
        second.send(b"q")
        second.wait_for(b"Quit the game?")
        second.send(b"y")
        assert second.finish(timeout=10.0) == 0
    finally:
        for app in (first, second):
            if app is not None and app.process.poll() is None:
                app.process.kill()
                app.process.wait()
    actions = saves.SaveStore(first.folder).watch("game").actions
    assert actions[0] == core.Pass() and isinstance(actions[1], core.Excavate)
    assert actions[2] == core.NeutralSkip() and len(actions) == 3
