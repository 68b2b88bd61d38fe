"""``mykerinos learn``: ``--list`` hands the player and the progress folder to
``tui.learn_cli.print_lessons`` (a plain message, status 1, in a build without it); without
``--list`` it is the app on the list of lessons, which needs a terminal."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from tui.__main__ import NO_LESSONS_LIST, NO_TERMINAL, main


def test_list_prints_the_lessons_of_the_player(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, Path]] = []
    cli = types.ModuleType("tui.learn_cli")
    cli.print_lessons = lambda player, folder: asked.append((player, folder)) or 0  # type: ignore[attr-defined]
    kept = types.ModuleType("saves.lessons")
    kept.default_folder = lambda: Path("/progress")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tui.learn_cli", cli)
    monkeypatch.setitem(sys.modules, "saves.lessons", kept)
    assert main(["learn", "--list", "--player", "ann"]) == 0
    assert asked == [("ann", Path("/progress"))]


def test_list_in_a_build_without_the_lessons_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "tui.learn_cli", None)  # importing it fails
    assert main(["learn", "--list"]) == 1
    assert capsys.readouterr().err.strip() == NO_LESSONS_LIST


def test_learn_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn"]) == 2  # pytest's stdin is not a terminal
    assert capsys.readouterr().err.strip() == NO_TERMINAL
