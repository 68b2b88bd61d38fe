"""Positions for the bots' tests: random legal play from fixed seeds, stopped along the way."""

from __future__ import annotations

import random
from collections.abc import Iterator

import core
from core.moves import legal_codes
from core.rules import apply_code


def random_positions(players: int, seed: int, every: int = 7) -> Iterator[core.GameState]:
    """Every ``every``-th position of a game of random legal moves (a varied sample:
    excavation, neutral placements, survey choices, every season)."""
    rng = random.Random(seed)
    state = core.new_game(players, seed)
    step = 0
    while not core.is_over(state):
        if step % every == 0:
            yield state
        state = apply_code(state, rng.choice(legal_codes(state)))
        step += 1


def finished_game(players: int, seed: int) -> core.GameState:
    """The last position of a game of seeded random legal moves."""
    rng = random.Random(seed)
    state = core.new_game(players, seed)
    while not core.is_over(state):
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    return state
