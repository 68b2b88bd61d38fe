"""Legal moves: the one generator of every legal action, as integer codes.

``legal_codes(state)`` is the single source of truth: the public ``legal_actions``, the
validation in ``apply_action`` and the computer players all go through it. Placements are
computed on bitmasks: ``free`` spaces hold neither a cube nor a pyramid.
"""

from __future__ import annotations

from core import actions as K
from core.actions import code
from core.cards import CARDS, Patron
from core.museum import open_rooms
from core.region import (
    AREA_MASK,
    MAX_ROWS,
    NEIGHBOURS,
    SPACES,
    WIDTH,
    area_parcels,
    board_mask,
    neighbours,
)
from core.state import EMPTY, GameState, Phase, PlayerState, Seat, SurveyStep

# Cached per card: its patron (None for the patronless card), for the untilted-card checks.
_PATRON_OF = tuple(card.patron for card in CARDS)


def occupied(state: GameState) -> int:
    """Mask of every space holding a cube."""
    mask = 0
    for cubes in state.cubes:
        mask |= cubes
    return mask


def free_spaces(state: GameState) -> int:
    """Mask of the spaces with no cube and no pyramid."""
    return board_mask(len(state.region)) & ~state.pyramids & ~occupied(state)


def free_pyramids(state: GameState) -> int:
    """Mask of the pyramid spaces with no cube (for Lord Lemon)."""
    return state.pyramids & ~occupied(state)


def usable_patrons(player: PlayerState) -> set[Patron]:
    """Patrons of which the player has an untilted card."""
    tilted = player.tilted
    return {
        patron
        for card in player.cards
        if (patron := _PATRON_OF[card]) is not None and card not in tilted
    }


# Each row of the region is one byte of a mask (WIDTH == 8), so a mask is turned into
# spaces or action codes a row at a time through tables instead of bit by bit.
_ROWS = range(MAX_ROWS)
_ROW_SPACES = [
    [tuple(r * WIDTH + i for i in range(8) if v >> i & 1) for v in range(256)] for r in _ROWS
]


def _bits(mask: int) -> list[int]:
    """The spaces of ``mask`` in increasing order."""
    out: list[int] = []
    row = 0
    while mask:
        if mask & 255:
            out += _ROW_SPACES[row][mask & 255]
        mask >>= 8
        row += 1
    return out


_SINGLE_CODES: dict[int, list[list[tuple[int, ...]]]] = {
    kind: [[tuple(kind | s << 4 for s in spaces) for spaces in row] for row in _ROW_SPACES]
    for kind in (K.EXCAVATE, K.VIOLET_A, K.LEMON_A, K.NEUTRAL_A)
}


def _singles(kind: int, mask: int, out: list[int]) -> None:
    table = _SINGLE_CODES[kind]
    row = 0
    while mask:
        if mask & 255:
            out += table[row][mask & 255]
        mask >>= 8
        row += 1


# _PAIR_CODES[kind][first][seconds]: the codes of ``kind`` from ``first`` to each space of
# the mask ``seconds`` (a subset of its neighbours), filled in as positions need them.
_PAIR_CODES: dict[int, list[dict[int, tuple[int, ...]]]] = {
    kind: [{} for _ in range(SPACES)]
    for kind in (K.EXTEND, K.VIOLET_B, K.LEMON_B, K.BLACKMORE, K.NEUTRAL_B)
}


def _pair_codes(kind: int, first: int, seconds: int) -> tuple[int, ...]:
    table = _PAIR_CODES[kind][first]
    codes = table.get(seconds)
    if codes is None:
        head = kind | first << 4
        codes = table[seconds] = tuple(head | b << 11 for b in _bits(seconds))
    return codes


def _pairs(kind: int, firsts: int, free: int, out: list[int]) -> None:
    """``first`` in ``firsts``, ``second`` a free space next to it."""
    for a in _bits(firsts):
        seconds = NEIGHBOURS[a] & free
        if seconds:
            out += _pair_codes(kind, a, seconds)


def _lemon_pairs(firsts: int, free: int, pyramids: int, out: list[int]) -> None:
    """Lord Lemon's B: exactly one of the two cubes on a free pyramid."""
    for a in _bits(firsts & (free | pyramids)):
        seconds = NEIGHBOURS[a] & (free if pyramids >> a & 1 else pyramids)
        if seconds:
            out += _pair_codes(K.LEMON_B, a, seconds)


def _chains(firsts: int, free: int, out: list[int]) -> None:
    """Colonel Tangerine: three free spaces in a chain, the first in ``firsts``."""
    for a in _bits(firsts):
        for b in _bits(NEIGHBOURS[a] & free):
            head = K.TANGERINE | a << 4 | b << 11
            out.extend(head | c << 18 for c in _bits(NEIGHBOURS[b] & free & ~(1 << a)))


def legal_codes(state: GameState) -> list[int]:
    """Every legal action for ``state.current`` as codes, in a stable order."""
    if state.phase is Phase.EXCAVATION:
        if state.neutral_pending:
            return _neutral_codes(state)
        return _excavation_codes(state)
    if state.phase is Phase.SURVEY:
        return survey_codes(state, *state.survey_steps[0])
    return []


def _excavation_codes(state: GameState) -> list[int]:
    seat = state.current
    player = state.players[seat]
    stock = player.stock
    out: list[int] = []
    if stock:
        taken = occupied(state)
        free = board_mask(len(state.region)) & ~state.pyramids & ~taken
        frontier = neighbours(state.cubes[seat]) & free
        _singles(K.EXCAVATE, free, out)
        if stock >= 2:
            _pairs(K.EXTEND, frontier, free, out)
    out.append(K.PASS)
    if stock:
        _patron_codes(state, seat, player, out)
    return out


def _patron_codes(state: GameState, seat: Seat, player: PlayerState, out: list[int]) -> None:
    patrons = usable_patrons(player)
    if not patrons:
        return
    stock = player.stock
    taken = occupied(state)
    free = board_mask(len(state.region)) & ~state.pyramids & ~taken
    near = neighbours(state.cubes[seat])
    frontier = near & free
    if Patron.VIOLET in patrons and player.reserve:
        _singles(K.VIOLET_A, free, out)
        _pairs(K.VIOLET_B, frontier, free, out)
    if Patron.LEMON in patrons:
        pyramids = state.pyramids & ~taken
        _singles(K.LEMON_A, pyramids, out)
        if stock >= 2:
            _lemon_pairs(near, free, pyramids, out)
    if Patron.BROWN in patrons:
        out.extend(code(K.BROWN, room) for room in open_rooms(state.museum, seat))
    if Patron.BLACKMORE in patrons and stock >= 2:
        _pairs(K.BLACKMORE, free, free, out)
    if Patron.TANGERINE in patrons and stock >= 3:
        _chains(frontier, free, out)


def _neutral_codes(state: GameState) -> list[int]:
    held = state.players[state.current].neutral_stock
    free = free_spaces(state)
    out: list[int] = []
    _singles(K.NEUTRAL_A, free, out)
    if held >= 2:
        _pairs(K.NEUTRAL_B, neighbours(state.cubes[-1]) & free, free, out)
    out.append(K.NEUTRAL_SKIP)
    return out


def can_place_neutral(state: GameState, seat: Seat) -> bool:
    """2 players: may ``seat`` follow its A or B with neutral cubes?"""
    return state.players[seat].neutral_stock > 0 and free_spaces(state) != 0


def parcels_left(state: GameState) -> list[int]:
    """Parcels of the area being surveyed that nobody has taken yet."""
    return [p for p in area_parcels(state.survey_area) if state.region[p] != EMPTY]


def survey_codes(state: GameState, step: SurveyStep, seat: Seat) -> list[int]:
    """The options of one survey step (possibly none: the player then gets nothing)."""
    parcels = parcels_left(state)
    if step is SurveyStep.PICK_NEUTRAL:
        return [code(K.NEUTRAL_PARCEL, p) for p in parcels]
    out = [code(K.TAKE, p) for p in parcels]
    if step is SurveyStep.CHOOSE and state.players[seat].reserve:
        out.extend(code(K.BOOK, room) for room in open_rooms(state.museum, seat))
    return out


def area_counts(state: GameState, area: int) -> list[int]:
    """Cubes each holder (seats, then the neutral) has in ``area``."""
    mask = AREA_MASK[area]
    return [(cubes & mask).bit_count() for cubes in state.cubes]
