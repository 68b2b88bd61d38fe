"""A game open in another window (the same player logged in twice): the app says so, and
offers to watch it read-only or to take it over; the resume offer and the load screen
show it; the other window is a real process holding the real lock
(tests/saves_pty/window.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import cast

import pytest
from textual.widgets import DataTable

import core
import saves
from tests.saves_pty.test_two_windows import Window
from tests.tui.conftest import FIXED_TIME, app_for, settle
from tui.draft import Mode
from tui.screens.dialogs import ConfirmScreen, ElsewhereScreen, ResumeScreen
from tui.screens.game import GameScreen
from tui.screens.load import LoadScreen

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs flock")


@pytest.fixture
def other_window(tmp_path: Path):
    """Another process playing game "g" in the test's save folder."""
    window = Window(tmp_path / "saves", seed=3)
    assert window.ask("new g")["ok"]
    yield window
    window.quit()


def store_of(tmp_path: Path) -> saves.SaveStore:
    return saves.SaveStore(tmp_path / "saves", clock=lambda: FIXED_TIME)


def status(app) -> str:
    return str(app.screen.query_one("#status").render())


async def test_watching_follows_the_other_windows_moves(tmp_path, other_window) -> None:
    app = app_for(store_of(tmp_path), resume="g")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ElsewhereScreen)
        assert f"pid {other_window.pid}" in app.screen.message
        await pilot.press("w")
        game = app.screen
        assert isinstance(game, GameScreen) and "WATCHING" in status(app)
        assert game.mode is Mode.WAIT  # nobody decides here
        await pilot.press("p")
        assert game.seat.history()[1] == []  # the key does nothing: no pass was played
        played = other_window.play(2)
        assert [a["ack"] for a in played] == [0, 1]
        await settle(pilot, lambda: len(game.seat.history()[1]) == 2)
        log = " ".join(line.plain for line in game.query_one("#log").lines)
        assert log.count("passes") + log.count("excavation") >= 2
    assert other_window.play(1)[0]["ack"] == 2  # watching never took anything from it


async def test_taking_over_plays_here_and_refuses_the_other_window(tmp_path, other_window):
    other_window.play(1)
    store = store_of(tmp_path)
    app = app_for(store, resume="g")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        game = app.screen
        assert isinstance(game, GameScreen) and "WATCHING" not in status(app)
        assert game.mode in (Mode.CHOOSE, Mode.SURVEY)
        refused = other_window.play(1)
        assert refused[0]["refused"] == "TakenOver" and "taken over" in refused[0]["message"]
        await pilot.press("p")
        assert len(game.seat.history()[1]) == 2
    assert store.watch("g").actions[1] == core.Pass()


async def test_watching_a_game_then_taking_it_over_with_T(tmp_path, other_window) -> None:
    app = app_for(store_of(tmp_path), resume="g")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        keys = str(app.screen.query_one("KeysBar").render())
        assert "Take over" in keys
        await pilot.press("T")
        assert "WATCHING" not in status(app) and cast(GameScreen, app.screen).mode is Mode.CHOOSE
        assert other_window.play(1)[0]["refused"] == "TakenOver"


async def test_the_resume_offer_and_the_load_list_say_open_elsewhere(tmp_path, other_window):
    store = store_of(tmp_path)
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        elsewhere = str(app.screen.query_one("#elsewhere").render())
        assert "another window" in elsewhere and f"pid {other_window.pid}" in elsewhere
        await pilot.press("o")
        assert isinstance(app.screen, LoadScreen)
        row = app.screen.query_one(DataTable).get_row_at(0)
        assert "open" in row[2].plain
        assert "another window" in str(app.screen.query_one("#load-detail").render())
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen) and "Delete it anyway" in app.screen.question
        await pilot.press("y")
        await pilot.pause()
    assert "g" not in store.names()
    refused = other_window.play(1)[0]
    assert refused["refused"] == "TakenOver" and "deleted" in refused["message"]
