"""Simulated play for the hard bot's searches: every player answers like a quick normal bot.

A simulated decision samples a few legal actions (all of them when there are few; passing
is always among them) and keeps the one the heuristic of :mod:`core.ai.evaluate` likes best
for the player deciding. This models opponents far better than random moves (a search over
random replies was measured weaker than the heuristic alone), at a cost of about a
millisecond per decision, so simulations look a couple of rounds ahead, not to the end.
"""

from __future__ import annotations

import math
import random

from core.actions import PASS
from core.ai.evaluate import WEIGHTS, Weights, advantage_after
from core.moves import legal_codes
from core.rules import apply_code
from core.state import GameState, Phase


def sampled(codes: list[int], rng: random.Random, samples: int) -> list[int]:
    """``codes`` when there are at most ``samples``, else ``samples`` of them at random and
    passing, if it is among them (a simulated player may always stop)."""
    if len(codes) <= samples:
        return codes
    keep = rng.sample(codes, samples)
    if PASS in codes and PASS not in keep:
        keep.append(PASS)
    return keep


def greedy_code(
    state: GameState, rng: random.Random, samples: int, weights: Weights = WEIGHTS
) -> int:
    """The best of ``samples`` random legal codes of ``state`` (not over) by the heuristic
    with ``weights``."""
    codes = sampled(legal_codes(state), rng, samples)
    seat = state.current
    best_code, best_value = codes[0], -math.inf
    for action_code in codes:
        value = advantage_after(state, action_code, seat, weights)
        if value > best_value:
            best_code, best_value = action_code, value
    return best_code


def play_ahead(
    state: GameState, rng: random.Random, plies: int, samples: int, weights: Weights = WEIGHTS
) -> GameState:
    """Play up to ``plies`` decisions with :func:`greedy_code` (judging with ``weights``),
    stopping at the end of the season (the next region would come from a re-shuffled deck)
    or of the game."""
    season = state.season
    for _ in range(plies):
        if state.season != season or state.phase is Phase.OVER:
            break
        state = apply_code(state, greedy_code(state, rng, samples, weights))
    return state
