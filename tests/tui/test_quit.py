"""Every way out goes through one quit path: q, Ctrl+Q and Ctrl+C ask the same question
in a game (a warning when moves are not saved), and leave at once where nothing can be
lost."""

from __future__ import annotations

import pytest

import core
import saves
from tests.tui.conftest import HOT_SEAT_3, app_for, session_for
from tests.tui.driver import KeyPlayer
from tui.screens.dialogs import ConfirmScreen
from tui.screens.new_game import NewGameScreen


def question(app) -> str:
    assert isinstance(app.screen, ConfirmScreen), f"no question but {app.screen!r}"
    return app.screen.question


@pytest.mark.parametrize("key", ["q", "ctrl+q", "ctrl+c"])
async def test_each_quit_key_asks_in_a_game(store, key: str) -> None:
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await KeyPlayer(app, pilot).play(core.Pass())
        await pilot.press(key)
        assert question(app) == "Quit the game? The game is saved as 'pos'."
        await pilot.press(key)  # pressed again: the question stays, nothing else happens
        assert isinstance(app.screen, ConfirmScreen) and len(app.screen_stack) == 2
        await pilot.press("n")
        assert app.is_running and not isinstance(app.screen, ConfirmScreen)
        await pilot.press(key, "y")
        await pilot.pause()
        assert not app.is_running
    assert store.load(session.name).actions == [core.Pass()]


async def test_moves_not_saved_are_named_before_quitting(store, monkeypatch) -> None:
    session_for(store, HOT_SEAT_3, seed=7, name="pos")
    app = app_for(store, resume="pos")

    def disk_full(path, data, **_options) -> None:
        raise saves.SaveError(f"Cannot save {path}: the disk is full.")

    async with app.run_test(size=(80, 24)) as pilot:
        monkeypatch.setattr("saves.session.write_atomically", disk_full)
        await KeyPlayer(app, pilot).play(core.Pass())
        await pilot.press("ctrl+c")
        assert question(app) == "1 move is not saved: quit anyway?"
        await pilot.press("n")
        assert "NOT SAVED" in str(app.screen.query_one("#status").render())


@pytest.mark.parametrize("key", ["ctrl+q", "ctrl+c"])
async def test_the_new_game_form_leaves_at_once(store, key: str) -> None:
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press(key)
        await pilot.pause()
        assert not app.is_running
