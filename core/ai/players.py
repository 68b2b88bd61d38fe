"""The easy and normal computer players: quick, one decision at a time, no look-ahead.

- easy: places cubes at random (and passes now and then), but in the survey it takes the
  parcel worth the most points; it books a Museum room only when no parcel is left.
- normal: tries every legal action and keeps the one after which the heuristic of
  :mod:`core.ai.evaluate` says it is furthest ahead of its opponents.

Both decide on :func:`core.public.public_view` of the state, so the hidden order of the
undealt parcels can never sway them.
"""

from __future__ import annotations

import random

from core.actions import NEUTRAL_PARCEL, NEUTRAL_SKIP, PASS, TAKE, Action, field, from_code, kind_of
from core.ai.bot import Level, Stop
from core.ai.evaluate import WEIGHTS, Weights, advantage_after
from core.cards import CARDS
from core.moves import legal_codes
from core.public import public_view
from core.region import face_card
from core.state import GameState, Phase

_EASY_PASS_CHANCE = 0.1
"""How often the easy player passes while it still has cubes to place."""


class EasyBot:
    """Legal, plausible and beatable: random placements, greedy parcel taking."""

    level: Level = "easy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: GameState, stop: Stop | None = None) -> Action:
        """A legal action; quick, so ``stop`` (for the :class:`~core.ai.Bot` contract) is
        never needed."""
        codes = legal_codes(public_view(state))
        if not codes:
            raise ValueError("the game is over: there is nothing to choose")
        if state.phase is Phase.SURVEY:
            return from_code(self._survey_choice(state, codes))
        placements = [c for c in codes if kind_of(c) not in (PASS, NEUTRAL_SKIP)]
        if not placements or self._rng.random() < _EASY_PASS_CHANCE:
            skip = [c for c in codes if kind_of(c) in (PASS, NEUTRAL_SKIP)]
            return from_code(skip[0] if skip else self._rng.choice(codes))
        return from_code(self._rng.choice(placements))

    def _survey_choice(self, state: GameState, codes: list[int]) -> int:
        takes = [c for c in codes if kind_of(c) in (TAKE, NEUTRAL_PARCEL)]
        if not takes:
            return self._rng.choice(codes)

        def points(action_code: int) -> int:
            return CARDS[face_card(state.region[field(action_code, 0)])].value

        if kind_of(takes[0]) == NEUTRAL_PARCEL:
            # The neutral's parcel is discarded: give it the cheapest one.
            low = min(map(points, takes))
            return self._rng.choice([c for c in takes if points(c) == low])
        best = max(map(points, takes))
        return self._rng.choice([c for c in takes if points(c) == best])


class NormalBot:
    """A fast heuristic player: the legal action with the best :func:`advantage` after it."""

    level: Level = "normal"

    def __init__(self, seed: int | None = None, weights: Weights = WEIGHTS) -> None:
        self._rng = random.Random(seed)
        self.weights = weights

    def choose(self, state: GameState, stop: Stop | None = None) -> Action:
        """The heuristic's best action; one decision deep and quick, so ``stop`` (for the
        :class:`~core.ai.Bot` contract) is never needed."""
        return from_code(self.choose_code(public_view(state), stop))

    def choose_code(self, view: GameState, stop: Stop | None = None) -> int:
        """The code of the choice for a state already seen through ``public_view``."""
        ranked = rank_codes(view, self.weights)
        if not ranked:
            raise ValueError("the game is over: there is nothing to choose")
        best = ranked[0][0]
        # Equal judgements are broken at random (seeded), not by the order of the list.
        return self._rng.choice([c for v, c in ranked if v >= best - 1e-9])


def rank_codes(view: GameState, weights: Weights = WEIGHTS) -> list[tuple[float, int]]:
    """Every legal code of ``view`` with the heuristic advantage after it (judged with
    ``weights``), best first."""
    seat = view.current
    scored = [(advantage_after(view, c, seat, weights), c) for c in legal_codes(view)]
    scored.sort(key=lambda pair: -pair[0])
    return scored
