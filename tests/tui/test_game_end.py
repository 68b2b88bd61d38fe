"""Issue 18 #8: nothing of a game in progress outlives its end.

At a finished shared table ``u Undo`` was offered (the server refuses the game's last
action: it is over and rated); and a season summary covered by a newer summary or by the
final scores came back, "continuing by itself in 1 s", once the final scores closed: its
countdown cannot close it while it is covered, and nothing else did."""

from __future__ import annotations

import random
from typing import cast

import pytest

import core
from table.client.seat import RemoteSeat
from tests.table.test_remote_seat import FakeLink, snapshot, start_state
from tests.tui.conftest import HOT_SEAT_3, app_for, play_until, session_for, settle
from tui.screens.dialogs import ConfirmScreen
from tui.screens.game import GameScreen
from tui.screens.summary import FinalScreen, SeasonSummaryScreen


def _game_to_the_end(start: core.GameState) -> list[core.Action]:
    rng = random.Random(3)
    actions, state = [], start
    while not core.is_over(state):
        actions.append(rng.choice(core.legal_actions(state)))
        state = core.apply_action(state, actions[-1])
    return actions


async def test_a_finished_shared_table_offers_no_undo_of_its_last_action() -> None:
    start = start_state()
    actions = _game_to_the_end(start)
    last_mover = core.replay(start, actions)[-2].current_player
    assert last_mover is not None
    link = FakeLink(lambda message: pytest.fail("nothing may be sent"))

    async def dial() -> FakeLink:
        return link

    seats_here = (last_mover,)
    seat = RemoteSeat(link, dial, snapshot(start, actions, seats_here), watch=False, where="t")
    assert core.is_over(seat.state) and not seat.can_undo()
    assert not seat.table.can_hand_over()  # nothing left to decide
    # One action earlier, the same player's own last action may be taken back.
    earlier = RemoteSeat(
        link, dial, snapshot(start, actions[:-1], seats_here), watch=False, where="t"
    )
    before, after = earlier.known.states[-2], earlier.known.states[-1]
    if before.current_player == last_mover and before.season == after.season:
        assert earlier.can_undo()
    assert earlier.table.can_hand_over()


def _finished_game(store) -> None:
    session = session_for(store, HOT_SEAT_3, seed=7, name="end")
    play_until(session, lambda state, legal: core.is_over(state))


async def test_closing_the_final_scores_brings_back_no_old_season_summary(store) -> None:
    _finished_game(store)
    app = app_for(store, resume="end")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        states = game.seat.history()[0]
        season_2 = next(i for i, s in enumerate(states) if s.season == 3)
        # Nobody here had to answer it: it counts down, then the game ends over it.
        app.push_screen(SeasonSummaryScreen(states[: season_2 + 1], 2, auto_continue=True))
        await pilot.pause()
        game.show_summary(states[-2])
        await settle(pilot, lambda: isinstance(app.screen, FinalScreen))
        assert not any(isinstance(s, SeasonSummaryScreen) for s in app.screen_stack)
        shown = {b.binding.action: b.binding.description for b in app.active_bindings.values()}
        assert shown.get("new_game") == "New game" and "tables" not in shown  # a local game
        await pilot.press("escape")
        await pilot.pause(1.2)  # past the old summary's next tick
        assert app.screen is game


async def test_a_summary_covered_by_a_dialog_closes_once_uncovered(store) -> None:
    _finished_game(store)
    app = app_for(store, resume="end")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        states = game.seat.history()[0]
        season_2 = next(i for i, s in enumerate(states) if s.season == 3)
        old = SeasonSummaryScreen(states[: season_2 + 1], 2)  # no countdown to close it
        app.push_screen(old)
        app.push_screen(ConfirmScreen("Quit the game?"))  # Ctrl+C over the summary
        await pilot.pause()
        game.show_summary(states[-2])
        await settle(pilot, lambda: isinstance(app.screen, FinalScreen))
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await pilot.pause(0.2)
        assert app.screen is game and old not in app.screen_stack
