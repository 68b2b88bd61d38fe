"""The end of a game searched exactly, once nothing hidden remains.

In season 4 every parcel the game will use lies in the region: the rest of the game is a
tree of known positions. When that tree is small (the survey, a last action before it, or
any position whose tree fits :data:`SMALL_NODES`), each legal action's outcome is found by
searching it to the end, every player choosing what maximises their own final margin
(their final score minus the best opponent's; among equals, the first in legal order).

A search that would not fit its budget is not even begun when a cheap estimate of the
tree's size (:func:`tree_estimate`) says it is hopeless: a failed search costs its whole
budget (seconds, for a season-4 survey with rooms to book) and gives nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from core.moves import legal_codes
from core.rules import apply_code
from core.scoring import player_score
from core.state import SEASONS, GameState, Phase

SURVEY_NODES: Final = 60_000
"""Positions searched at most for a decision of the last survey (or just before it)."""
SMALL_NODES: Final = 1_500
"""Positions searched at most for any other decision of the last season: enough for the
last few placements, cheap to give up on (tens of milliseconds)."""
ESTIMATE_PATHS: Final = 5
"""Random paths to the end of the game whose branching estimates the size of the tree."""
ESTIMATE_SLACK: Final = 2
"""A search is tried when the estimated tree is at most this many times its budget: the
estimate counts a tree, the search a graph (the same rooms booked in another order meet
again), so it overestimates. Measured on the last season of six games of normal players, the
largest estimate of a search that fitted 60,000 positions was 93,000; those over 110,000
did not fit."""


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
    limit = ESTIMATE_SLACK * budget[0]
    if tree_estimate(view, limit) > limit:
        return None
    memo: dict[GameState, tuple[float, ...]] = {}
    search = _Search(memo, {}, budget)
    try:
        return {c: search.outcome(apply_code(view, c)) for c in legal_codes(view)}
    except _TooBig:
        return None


def tree_estimate(view: GameState, limit: int) -> int:
    """Knuth's estimate of the number of positions from ``view`` to the end of the game:
    along a random path, 1 + b1 + b1·b2 + ... for the branching b met; the median of
    :data:`ESTIMATE_PATHS` paths (seeded: deterministic). A path stops once over
    ``limit`` (only whether the estimate is over it matters)."""
    rng = random.Random(0)
    sizes = []
    for _ in range(ESTIMATE_PATHS):
        size, width, state = 1, 1, view
        while state.phase is not Phase.OVER and size <= limit:
            codes = legal_codes(state)
            width *= len(codes)
            size += width
            state = apply_code(state, codes[int(rng.random() * len(codes))])
        sizes.append(size)
    return sorted(sizes)[len(sizes) // 2]


class _Search:
    """One exact search: the outcome of every position met (transpositions are common: the
    same rooms booked in another order), and each player's exhibition and series by the
    cards and rooms they end with (the same few endings come back at most of the leaves)."""

    def __init__(
        self,
        memo: dict[GameState, tuple[float, ...]],
        endings: dict[tuple[int, tuple[int, ...], tuple[int, ...]], int],
        budget: list[int],
    ) -> None:
        self.memo = memo
        self.endings = endings
        self.budget = budget

    def outcome(self, state: GameState) -> tuple[float, ...]:
        """Every seat's final margin once each player maximises their own from ``state``."""
        if state.phase is Phase.OVER:
            return margins([float(self.total(state, seat)) for seat in range(len(state.players))])
        known = self.memo.get(state)
        if known is not None:
            return known
        self.budget[0] -= 1
        if self.budget[0] < 0:
            raise _TooBig
        seat = state.current
        best: tuple[float, ...] | None = None
        for action_code in legal_codes(state):
            outcome = self.outcome(apply_code(state, action_code))
            if best is None or outcome[seat] > best[seat]:
                best = outcome
        assert best is not None  # a game not over always has a legal action
        self.memo[state] = best
        return best

    def total(self, state: GameState, seat: int) -> int:
        """``seat``'s final total (:func:`core.scoring.final_scores`), its exhibition and
        series remembered by the cards and rooms that make them."""
        player = state.players[seat]
        key = (seat, player.cards, state.museum)
        extra = self.endings.get(key)
        if extra is None:
            extra = self.endings[key] = player_score(state, seat).total - player.score
        return player.score + extra
