"""The hard bot's search plans (issue 29): each plays legally, is fixed by its seed alone,
ignores the hidden deck order and obeys ``stop``; the paired plans judge every candidate of
a round on one world with one playout seed."""

from __future__ import annotations

import dataclasses
import random

import pytest

import core
from core.actions import PASS, to_code
from core.ai import search
from core.ai.evaluate import WEIGHTS, Weights, advantage
from core.ai.players import rank_codes
from core.ai.playout import play_ahead
from core.ai.search import PLANS, HardBot
from core.public import public_view
from core.rules import apply_code as core_apply_code
from tests.ai.positions import random_positions
from tests.ai.test_bots import shuffled_deck

PAIRED = sorted(name for name, plan in PLANS.items() if plan.paired)


def _searched_position() -> core.GameState:
    """A position with many legal actions, so the search has all its candidates."""
    return next(s for s in random_positions(3, seed=4, every=3) if len(core.legal_actions(s)) > 20)


@pytest.mark.parametrize("plan", sorted(PLANS))
def test_every_plan_is_fixed_by_its_seed_and_blind_to_the_deck_order(plan: str) -> None:
    for state in list(random_positions(3, seed=7, every=9))[:4]:
        if core.is_over(state):
            continue
        choice = HardBot(3, iterations=24, budget=float("inf"), plan=plan).choose(state)
        assert choice in core.legal_actions(state)
        again = HardBot(3, iterations=24, budget=float("inf"), plan=plan)
        assert again.choose(shuffled_deck(state, 5)) == choice


@pytest.mark.parametrize("plan", sorted(PLANS))
def test_every_plan_polls_stop_before_every_simulation(plan: str, monkeypatch) -> None:
    """A stop firing at its 6th poll lets exactly 5 simulations run; at its 1st, none, and
    the heuristic's best candidate is played."""
    played: list[int] = []
    real = play_ahead

    def counted(state, rng, plies, samples, weights):
        played.append(1)
        return real(state, rng, plies, samples, weights)

    monkeypatch.setattr(search, "play_ahead", counted)
    state = _searched_position()
    for after, simulations in ((5, 5), (0, 0)):
        played.clear()
        polls = 0

        def stop() -> bool:
            nonlocal polls
            polls += 1
            return polls > after  # noqa: B023 (read at once, in this loop)

        choice = HardBot(1, iterations=400, plan=plan).choose(state, stop)
        assert (len(played), polls) == (simulations, after + 1)
        assert choice in core.legal_actions(state)
    assert to_code(choice) == rank_codes(public_view(state))[0][1]


@pytest.mark.parametrize("plan", PAIRED)
def test_a_paired_round_judges_every_candidate_on_one_world_and_one_playout(
    plan: str, monkeypatch
) -> None:
    """Common random numbers: within a round, the candidates differ only in their action."""
    worlds: list[core.GameState] = []
    seen: list[tuple[int, int, object]] = []  # (world, action, playout rng state)
    real_redetermine, real_apply = core.redetermine, core_apply_code

    def redetermine(view, rng):
        worlds.append(real_redetermine(view, rng))
        return worlds[-1]

    def apply_code(state, code):
        seen.append((len(worlds) - 1, code, None))
        return real_apply(state, code)

    def play_ahead(state, rng, plies, samples, weights):
        world, code, _ = seen[-1]
        seen[-1] = (world, code, rng.getstate())
        return state

    monkeypatch.setattr(search, "redetermine", redetermine)
    monkeypatch.setattr(search, "apply_code", apply_code)
    monkeypatch.setattr(search, "play_ahead", play_ahead)
    HardBot(1, iterations=60, budget=float("inf"), plan=plan).choose(_searched_position())
    assert len(seen) == 60, "exactly the simulations asked for"
    rounds = [[(code, rng) for w, code, rng in seen if w == world] for world in range(len(worlds))]
    for i, one in enumerate(rounds):
        codes = [code for code, _ in one]
        assert len(codes) == len(set(codes)), "each candidate at most once a round"
        assert i == len(rounds) - 1 or len(codes) >= 2, "only the last round is cut short"
        assert len({repr(rng) for _, rng in one}) == 1, "one playout seed a round"
    first, second_last = [c for c, _ in rounds[0]], [c for c, _ in rounds[-2]]
    if PLANS[plan].halving:
        assert len(second_last) < len(first), "the worse candidates dropped out"
    else:
        assert second_last == first


def test_halving_takes_its_phases_down_to_one_candidate() -> None:
    assert [search._phases(n) for n in (1, 2, 3, 5, 9, 13)] == [0, 1, 2, 3, 4, 4]


@pytest.mark.parametrize(
    ("plan", "plies", "samples"),
    [("ucb1", 2 * 3, search.SAMPLES), ("season", search.SEASON_END * 3, search.SAMPLES),
     ("samples5", 2 * 3, 5), ("samples20", 2 * 3, 20)],
)  # fmt: skip
def test_a_plans_playout_depth_and_samples_reach_every_simulation(
    plan: str, plies: int, samples: int, monkeypatch
) -> None:
    """The screened judgements differ from ``ucb1`` in what they pass to the playout."""
    asked: list[tuple[int, int, Weights]] = []
    real = play_ahead

    def recorded(state, rng, plies, samples, weights):
        asked.append((plies, samples, weights))
        return real(state, rng, plies, samples, weights)

    monkeypatch.setattr(search, "play_ahead", recorded)
    HardBot(2, iterations=12, budget=float("inf"), plan=plan).choose(_searched_position())
    assert asked == [(plies, samples, WEIGHTS)] * 12


def record_judgements(monkeypatch) -> list[tuple[str, Weights]]:
    """Which judgement each of the search's three uses of the heuristic is given, in order:
    ``("rank", w)`` for its candidates, ``("play", w)`` for a playout, ``("leaf", w)``."""
    seen: list[tuple[str, Weights]] = []
    real_rank, real_play, real_advantage = rank_codes, play_ahead, advantage

    def ranked(view, weights):
        seen.append(("rank", weights))
        return real_rank(view, weights)

    def played(state, rng, plies, samples, weights):
        seen.append(("play", weights))
        return real_play(state, rng, plies, samples, weights)

    def judged(state, seat, season, weights):
        seen.append(("leaf", weights))
        return real_advantage(state, seat, season, weights)

    monkeypatch.setattr(search, "rank_codes", ranked)
    monkeypatch.setattr(search, "play_ahead", played)
    monkeypatch.setattr(search, "advantage", judged)
    return seen


def test_the_hard_players_weights_reach_its_candidates_playouts_and_leaves(monkeypatch) -> None:
    """Another judgement (``bench/tournament.py --hero-weights``) is the one the search
    ranks its candidates with, simulates every player with and scores its leaves with."""
    other = dataclasses.replace(WEIGHTS, sharpness=2.5)
    seen = record_judgements(monkeypatch)
    HardBot(2, iterations=6, budget=float("inf"), weights=other).choose(_searched_position())
    assert seen == [("rank", other)] + [("play", other), ("leaf", other)] * 6


def test_a_season_playout_ends_with_the_season_scored() -> None:
    """Played to the season's end, a simulation's leaf is past the season's survey."""
    state = public_view(_searched_position())
    played = play_ahead(state, random.Random(1), search.SEASON_END * 3, search.SAMPLES)
    assert played.season == state.season + 1 or core.is_over(played)


@pytest.mark.parametrize(("plan", "wide"), [("narrow", 5), ("wide", 12), ("ucb1", 8)])
def test_a_plans_candidates_are_the_heuristics_best_and_passing(
    plan: str, wide: int, monkeypatch
) -> None:
    """Only the heuristic's ``wide`` best (and passing, always) are ever simulated."""
    state = _searched_position()
    ranked = [c for _, c in rank_codes(public_view(state))]
    allowed = set(ranked[:wide]) | ({PASS} & set(ranked))
    tried: set[int] = set()
    real = core_apply_code

    def applied(world, code):
        tried.add(code)
        return real(world, code)

    monkeypatch.setattr(search, "apply_code", applied)
    HardBot(2, iterations=60, budget=float("inf"), plan=plan).choose(state)
    assert tried <= allowed
    assert len(tried) > min(wide, 5) - 1, "the prior alone must not settle every visit"
