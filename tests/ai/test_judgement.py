"""The heuristic and the levels' characters: what each bot is meant to do, checked."""

from __future__ import annotations

import core
from core.actions import TAKE, field, kind_of, to_code
from core.ai import make_bot
from core.ai.evaluate import advantage, estimates
from core.cards import CARDS
from core.region import face_card
from tests.ai.positions import finished_game, random_positions


def test_estimates_of_a_finished_game_are_the_final_totals() -> None:
    """Once the game is over, the judgement is exactly the score."""
    for players in (2, 3, 4):
        state = finished_game(players, seed=players)
        totals = [p.total for p in core.final_scores(state).players]
        assert estimates(state) == [float(t) for t in totals]


def test_advantage_is_zero_sum_between_two_players() -> None:
    """With two players, one's lead is exactly the other's deficit."""
    for state in random_positions(2, seed=3, every=9):
        assert abs(advantage(state, 0) + advantage(state, 1)) < 1e-9


def test_easy_takes_the_parcel_worth_most_points() -> None:
    """Easy is not random in the survey: it takes the parcel with the best cartouche."""
    checked = 0
    for seed in range(6):
        for state in random_positions(3, seed=seed, every=1):
            options = [to_code(a) for a in core.legal_actions(state)]
            takes = [c for c in options if kind_of(c) == TAKE]
            if state.phase is not core.Phase.SURVEY or len(takes) < 2:
                continue
            values = {c: CARDS[face_card(state.region[field(c, 0)])].value for c in takes}
            choice = to_code(make_bot("easy", seed).choose(state))
            assert choice in takes
            assert values[choice] == max(values.values())
            checked += 1
    assert checked >= 5


def test_normal_plays_the_heuristic_best_action() -> None:
    """Normal's choice has the best advantage after it of all legal actions."""
    for state in random_positions(3, seed=8, every=17):
        seat = state.current
        judged = {
            a: advantage(core.apply_action(state, a), seat, state.season)
            for a in core.legal_actions(state)
        }
        choice = make_bot("normal", 1).choose(state)
        assert judged[choice] >= max(judged.values()) - 1e-9


def test_hard_with_a_time_budget_alone_still_plays_legally() -> None:
    """``budget`` without ``iterations`` searches by time (non-deterministic, but legal)."""
    bot = make_bot("hard", 2, budget=0.02)
    for state in random_positions(4, seed=5, every=25):
        assert bot.choose(state) in core.legal_actions(state)
