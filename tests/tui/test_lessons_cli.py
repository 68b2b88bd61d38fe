"""``mykerinos learn``: ``--list`` prints the lessons of a player with a mark on those done
(their progress beside the save folder, as the app keeps it); without ``--list`` it is the
app on the list of lessons, which needs a terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.lessons import LESSONS
from saves.lessons import LessonProgress, default_folder
from tui.__main__ import NO_TERMINAL, main


def test_list_marks_the_lessons_the_player_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saves_dir = tmp_path / "saves"
    LessonProgress(default_folder(str(saves_dir))).mark_done("ann", LESSONS[1].key)
    assert main(["learn", "--list", "--player", "ann", "--save-dir", str(saves_dir)]) == 0
    out = capsys.readouterr().out
    assert f"1 of {len(LESSONS)}" in out
    done = [line for line in out.splitlines() if LESSONS[1].title in line]
    todo = [line for line in out.splitlines() if LESSONS[0].title in line]
    assert done and todo and done[0] != todo[0].replace(LESSONS[0].title, LESSONS[1].title)
    assert main(["learn", "--list", "--player", "ben", "--save-dir", str(saves_dir)]) == 0
    assert f"0 of {len(LESSONS)}" in capsys.readouterr().out


def test_learn_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn"]) == 2  # pytest's stdin is not a terminal
    assert capsys.readouterr().err.strip() == NO_TERMINAL
