"""The end of a game searched exactly, once nothing hidden remains.

In season 4 every parcel the game will use lies in the region: the rest of the game is a
tree of known positions. When that tree is small (the survey, a last action before it, or
any position whose tree fits :data:`SMALL_NODES`), each legal action's outcome is found by
searching it to the end, every player choosing what maximises their own final margin
(their final score minus the best opponent's; among equals, the first in legal order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from core.moves import legal_codes
from core.rules import apply_code
from core.scoring import final_scores
from core.state import SEASONS, GameState, Phase

SURVEY_NODES: Final = 60_000
"""Positions searched at most for a decision of the last survey (or just before it)."""
SMALL_NODES: Final = 1_500
"""Positions searched at most for any other decision of the last season: enough for the
last few placements, cheap to give up on (tens of milliseconds)."""


class _TooBig(Exception):
    """The tree is larger than the budget: the decision is simulated instead."""


def margins(values: Sequence[float]) -> tuple[float, ...]:
    """Each seat's value minus the best of the others'."""
    return tuple(
        value - max(v for other, v in enumerate(values) if other != seat)
        for seat, value in enumerate(values)
    )


def exact_values(view: GameState) -> dict[int, tuple[float, ...]] | None:
    """Every legal code of ``view`` with each seat's final margin after it, when the rest
    of the game holds nothing hidden and its tree fits the budget; else None."""
    if view.season < SEASONS or view.phase is Phase.OVER:
        return None
    near_end = view.phase is not Phase.EXCAVATION or view.last_turn
    budget = [SURVEY_NODES if near_end else SMALL_NODES]
    memo: dict[GameState, tuple[float, ...]] = {}
    try:
        return {c: _outcome(apply_code(view, c), memo, budget) for c in legal_codes(view)}
    except _TooBig:
        return None


def _outcome(
    state: GameState, memo: dict[GameState, tuple[float, ...]], budget: list[int]
) -> tuple[float, ...]:
    if state.phase is Phase.OVER:
        return margins([float(score.total) for score in final_scores(state).players])
    known = memo.get(state)
    if known is not None:
        return known
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooBig
    seat = state.current
    best: tuple[float, ...] | None = None
    for action_code in legal_codes(state):
        outcome = _outcome(apply_code(state, action_code), memo, budget)
        if best is None or outcome[seat] > best[seat]:
            best = outcome
    assert best is not None  # a game not over always has a legal action
    memo[state] = best
    return best
