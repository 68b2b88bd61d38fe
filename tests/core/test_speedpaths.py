"""The fast paths agree with the public contract: int codes, the sampled rollout, and the
re-shuffled deck used by computer players."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

import core
from core.actions import from_code, to_code
from core.moves import legal_codes
from core.region import face_card
from core.rollout import rollout_code
from core.rules import apply_code


def test_legal_codes_are_the_legal_actions() -> None:
    for players in (2, 3, 4):
        state = core.new_game(players, 3)
        rng = random.Random(3)
        while not core.is_over(state):
            codes = legal_codes(state)
            actions = core.legal_actions(state)
            assert [from_code(c) for c in codes] == list(actions)
            assert len(set(codes)) == len(codes), "an action listed twice"
            action = rng.choice(actions)
            assert apply_code(state, to_code(action)) == core.apply_action(state, action)
            state = core.apply_action(state, action)


def test_rollout_plays_only_legal_actions_to_the_end() -> None:
    for players in (2, 3, 4):
        for seed in range(30):
            state = core.new_game(players, seed)
            rng = random.Random(seed)
            while not core.is_over(state):
                code = rollout_code(state, rng)
                assert code in legal_codes(state), core.format_action(from_code(code))
                state = apply_code(state, code)


def test_redetermine_reshuffles_only_the_undealt_cards() -> None:
    state = core.new_game(3, 8)
    shuffled = core.redetermine(state, random.Random(1))
    assert shuffled.deck != state.deck
    assert sorted(map(face_card, shuffled.deck)) == sorted(map(face_card, state.deck))
    assert replace(shuffled, deck=state.deck, seed=state.seed) == state


def test_redetermine_ignores_the_real_order_and_orientation_of_the_deck() -> None:
    """Two states differing only in the order (and orientation) of the undealt parcels give
    the same copy for the same rng: nothing of the real order leaks into a simulation."""
    for players in (2, 3, 4):
        state = core.new_game(players, 20 + players)
        other = list(state.deck)
        random.Random(players).shuffle(other)
        other_state = replace(state, deck=tuple(face ^ 1 for face in other))
        assert other_state.deck != state.deck
        for rng_seed in range(5):
            ours = core.redetermine(state, random.Random(rng_seed))
            theirs = core.redetermine(other_state, random.Random(rng_seed))
            assert ours == theirs


def test_redetermine_draws_every_orientation_from_the_rng() -> None:
    """Both orientations turn up: rotations come from the rng, not from the real deck."""
    state = core.new_game(3, 8)
    rotations = {face & 1 for face in core.redetermine(state, random.Random(2)).deck}
    assert rotations == {0, 1}
    upright = replace(state, deck=tuple(face & ~1 for face in state.deck))
    assert core.redetermine(upright, random.Random(2)) == core.redetermine(state, random.Random(2))


def test_a_redetermined_copy_does_not_carry_the_seed_that_deals_the_real_deck() -> None:
    """``new_game`` with the copy's seed does not deal the real deck again."""
    state = core.new_game(3, seed=12345)
    copy = core.redetermine(state, random.Random(1))
    assert copy.seed != state.seed
    redealt = core.new_game(3, seed=copy.seed)
    assert redealt.deck != state.deck and redealt.region != state.region


def test_every_action_text_round_trips() -> None:
    state = core.new_game(4, 12)
    rng = random.Random(12)
    seen = 0
    while not core.is_over(state):
        for action in core.legal_actions(state):
            assert core.parse_action(core.format_action(action)) == action
            seen += 1
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    assert seen > 1000


@pytest.mark.parametrize(
    "games", [3, pytest.param(12, marks=pytest.mark.slow)], ids=["3-games", "12-games"]
)
def test_memoised_moves_match_moves_worked_out_cold(games: int) -> None:
    """Tables filled over earlier games (other hands, Museums, regions) never leak a stale
    entry: every decision lists the same moves as with all memos emptied first (emptying
    every memo is slow: the fast suite plays each number of players once)."""
    rng = random.Random(5)
    for game in range(games):
        state = core.new_game(2 + game % 3, 100 + game)
        while not core.is_over(state):
            warm = legal_codes(state)
            core.clear_caches()
            assert legal_codes(state) == warm
            code = warm[int(rng.random() * len(warm))]
            after = apply_code(state, code)
            core.clear_caches()  # effects memoise too (the spaces of a placement)
            assert apply_code(state, code) == after
            state = after


@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_action_and_the_events_path_reach_the_same_state(players: int) -> None:
    """``apply_action`` takes shortcuts (an excavation handing the turn on in one step) that
    the events path does not: for every legal action of positions from many random games,
    both give the same state."""
    rng = random.Random(players)
    compared = 0
    for game in range(5):
        state = core.new_game(players, 500 + 10 * players + game)
        step = 0
        while not core.is_over(state):
            actions = core.legal_actions(state)
            if step % 7 == game % 7:
                for action in actions:
                    quiet = core.apply_action(state, action)
                    told, _ = core.apply_action_with_events(state, action)
                    assert quiet == told, core.format_action(action)
                    compared += 1
            state = core.apply_action(state, rng.choice(actions))
            step += 1
    assert compared > 2000
