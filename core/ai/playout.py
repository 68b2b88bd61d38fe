"""Quick simulated play for the hard bot's searches: plausible moves, chosen fast.

Placements are sampled straight from the bitmasks (a random free space to start an
excavation, a random frontier space and a free neighbour to extend one) instead of listing
every legal action; passing grows likelier as the stock runs low, so simulated seasons end
the way real ones do. Patron powers are left out. In the survey, players mostly take the
parcel with the highest cartouche. Every code played is one ``legal_codes`` would list.
"""

from __future__ import annotations

import random

from core import actions as K
from core.cards import CARDS
from core.moves import legal_codes
from core.region import NEIGHBOURS, board_mask, neighbours, spaces_of
from core.rules import apply_code
from core.state import GameState, Phase

_BOARDS = {count: board_mask(count) for count in (8, 12)}
_VALUE_OF: tuple[int, ...] = tuple(card.value for card in CARDS)
_EXTEND_CHANCE = 0.6
_GREEDY_SURVEY_CHANCE = 0.85


def _random_space(mask: int, rng: random.Random) -> int:
    spaces = spaces_of(mask)
    return spaces[int(rng.random() * len(spaces))]


def playout_code(state: GameState, rng: random.Random) -> int:
    """A plausible legal action code for ``state`` (which is not over)."""
    if state.phase is Phase.SURVEY:
        return _survey_code(state, rng)
    if state.neutral_pending:
        codes = legal_codes(state)
        return K.NEUTRAL_SKIP if rng.random() < 0.5 else codes[int(rng.random() * len(codes))]
    seat = state.current
    stock = state.players[seat].stock
    if rng.random() < 1.0 / (stock + 1):
        return K.PASS
    taken = 0
    for cubes in state.cubes:
        taken |= cubes
    free = _BOARDS[len(state.region)] & ~state.pyramids & ~taken
    if not free:
        return K.PASS
    if stock >= 2 and rng.random() < _EXTEND_CHANCE:
        firsts = neighbours(state.cubes[seat]) & free & neighbours(free)
        if firsts:
            first = _random_space(firsts, rng)
            second = _random_space(NEIGHBOURS[first] & free, rng)
            return K.EXTEND | first << 4 | second << 11
    return K.EXCAVATE | _random_space(free, rng) << 4


def _survey_code(state: GameState, rng: random.Random) -> int:
    codes = legal_codes(state)
    if rng.random() < _GREEDY_SURVEY_CHANCE:
        takes = [c for c in codes if c & 15 == K.TAKE]
        if takes:
            return max(takes, key=lambda c: _VALUE_OF[state.region[c >> 4 & 127] >> 1])
    return codes[int(rng.random() * len(codes))]


def play_season(state: GameState, rng: random.Random) -> GameState:
    """Play on until the season of ``state`` is over (a new one dealt, or the game ended)."""
    season = state.season
    while state.season == season and state.phase is not Phase.OVER:
        state = apply_code(state, playout_code(state, rng))
    return state
