"""Whole games played through key presses only, from the new-game form to the final scores.

Slow (`make test-slow`): each game is thousands of key presses. `make test` presses every
key of a game one by one (tests/tui/test_inputs.py) and plays a whole game of computer
seats in the app to the final scores (tests/tui/test_computer_game.py).
"""

from __future__ import annotations

import pytest

import core
from tests.tui.conftest import HOT_SEAT_2, app_for, session_for, session_of
from tests.tui.driver import KeyPlayer, quick_chooser
from tui.screens.game import GameScreen
from tui.screens.new_game import NewGameScreen
from tui.screens.summary import FinalScreen


@pytest.mark.slow
async def test_three_player_hot_seat_game_from_new_game_form_to_final_scores(store) -> None:
    """The form (three humans), four seasons of placements, patrons and surveys, the
    season summaries and the final scores, all through keys."""
    app = app_for(store, seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, NewGameScreen)
        # Seats 2 and 3 default to the computer: step their kind back to "human".
        await pilot.press("tab", "tab", "tab", "tab", "tab", "tab", "left", "left")
        await pilot.press("tab", "tab", "tab", "left", "left")
        await pilot.press("enter")
        assert isinstance(app.screen, GameScreen)
        session = session_of(app.screen)
        assert [s.kind for s in session.seats] == ["human"] * 3
        assert session.seed == 11
        driver = KeyPlayer(app, pilot)
        played = await driver.play_game(quick_chooser(seed=3, pass_after=2))
        assert played == len(session.actions)
        kinds = {type(a) for a in session.actions}
        assert {core.Excavate, core.Extend, core.Pass, core.TakeParcel} <= kinds
        final = app.screen
        assert isinstance(final, FinalScreen)
        scores = core.final_scores(session.state)
        winner = session.state.players[scores.winners[0]].name
        verdict = str(final.query_one("#verdict").render())
        assert winner in verdict
        # The final save on disk replays to the same finished game.
        assert core.is_over(store.load(session.name).state)


@pytest.mark.slow
async def test_two_player_game_with_neutral_placements(store) -> None:
    """2 players: neutral cubes placed with n and m (and skipped with x) until the end."""
    session = session_for(store, HOT_SEAT_2, seed=5, name="duel")
    app = app_for(store, resume="duel")
    async with app.run_test(size=(80, 24)) as pilot:
        driver = KeyPlayer(app, pilot)
        await driver.play_game(quick_chooser(seed=8, pass_after=2, prefer_neutral=True))
        kinds = {type(a) for a in session_of(driver.game).actions}
        assert {core.NeutralExcavate, core.NeutralExtend} <= kinds
        assert core.is_over(store.load(session.name).state)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
async def test_long_hot_seat_games_through_keys(tmp_path, players: int) -> None:
    """Longer games (up to six actions a season each) at every player count."""
    from datetime import UTC, datetime

    import saves
    from tests.tui.conftest import HOT_SEAT_3

    store = saves.SaveStore(tmp_path, clock=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    seats = [*HOT_SEAT_3, saves.SeatConfig("Dan", core.Colour.WHITE, "human")][:players]
    session_for(store, seats, seed=players, name="long")
    app = app_for(store, resume="long")
    async with app.run_test(size=(120, 40)) as pilot:
        driver = KeyPlayer(app, pilot)
        await driver.play_game(quick_chooser(seed=players, pass_after=6, prefer_neutral=True))
        assert core.is_over(store.load("long").state)
