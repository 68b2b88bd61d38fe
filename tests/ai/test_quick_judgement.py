"""The heuristic's short cuts judge exactly as the long way round (issue 29): the hard
player's speed must not change a single choice, so every number must be the same, to the
bit, not merely close."""

from __future__ import annotations

import dataclasses
import random

import core
from core.ai.evaluate import WEIGHTS, Weights, advantage, advantage_after
from core.moves import legal_codes
from core.rules import apply_code


def test_advantage_after_a_move_is_that_of_the_state_it_makes() -> None:
    """For every legal code of positions of 2-, 3- and 4-player games, from every seat's
    point of view: the judgement without the new state equals the one with it."""
    checked = shortcut = 0
    for players in (2, 3, 4):
        for seed in range(2):
            state = core.new_game(players, seed)
            rng = random.Random(seed)
            while state.current >= 0:
                codes = legal_codes(state)
                for action_code in codes:
                    after = apply_code(state, action_code)
                    for seat in range(players):
                        expected = advantage(after, seat, state.season)
                        assert advantage_after(state, action_code, seat) == expected
                        checked += 1
                    shortcut += after.passing == state.passing and after.phase is state.phase
                state = apply_code(state, codes[int(rng.random() * len(codes))])
    assert checked > 5_000 and shortcut > 500


def test_advantage_after_with_other_weights_is_that_of_the_state_it_makes() -> None:
    """Another judgement (every weight moved) goes through the same short cut and memos as
    the product's: asked in turn with both, each gives its own number, never the other's
    (the last position's areas are remembered per judgement)."""
    other = Weights(*(1.3 * getattr(WEIGHTS, f.name) for f in dataclasses.fields(Weights)))
    differ = 0
    for players in (2, 3):
        state = core.new_game(players, 7)
        rng = random.Random(7)
        while state.current >= 0:
            codes = legal_codes(state)
            for action_code in codes:
                after = apply_code(state, action_code)
                for seat in range(players):
                    for weights in (WEIGHTS, other):
                        expected = advantage(after, seat, state.season, weights)
                        assert advantage_after(state, action_code, seat, weights) == expected
                    differ += advantage(after, seat, state.season, other) != advantage(
                        after, seat, state.season
                    )
            state = apply_code(state, codes[int(rng.random() * len(codes))])
    assert differ > 1_000
