"""Legal moves: the one generator of every legal action, as integer codes.

``legal_codes(state)`` is the single source of truth: the public ``legal_actions``, the
validation in ``apply_action`` and the computer players all go through it. Placements are
computed on bitmasks: ``free`` spaces hold neither a cube nor a pyramid.
"""

from __future__ import annotations

from core import actions as K
from core.cards import CARDS, Patron
from core.museum import open_rooms
from core.region import (
    AREA_MASK,
    COL_A,
    COL_H,
    MAX_ROWS,
    NEIGHBOURS,
    ROW_SPACES,
    WIDTH,
    area_parcels,
    board_mask,
    neighbours,
    spaces_of,
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
    bits = _usable_bits(player.cards, player.tilted)
    return {patron for patron in Patron if bits >> patron & 1}


# Bit ``p`` set: an untilted card of patron ``p``; per (cards, tilted), which change only
# in the survey and when a card is turned. (Enum members hash in Python: bits are quicker.)
_USABLE: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
_VIOLET, _LEMON, _BROWN, _BLACKMORE, _TANGERINE = (1 << patron for patron in Patron)


def _usable_bits(cards: tuple[int, ...], tilted: tuple[int, ...]) -> int:
    key = (cards, tilted)
    bits = _USABLE.get(key)
    if bits is None:
        if len(_USABLE) >= 100_000:
            _USABLE.clear()
        bits = 0
        for card in cards:
            patron = _PATRON_OF[card]
            if patron is not None and card not in tilted:
                bits |= 1 << patron
        _USABLE[key] = bits
    return bits


_BOARD = {count: board_mask(count) for count in (0, 8, 12)}


# _SINGLE_CODES[kind][row * 256 + byte]: the codes of ``kind`` on the spaces of one row,
# built lazily (tables computed at import would slow the game's start).
_SINGLE_CODES: dict[int, list[tuple[int, ...] | None]] = {
    kind: [None] * (MAX_ROWS * 256) for kind in (K.EXCAVATE, K.VIOLET_A, K.LEMON_A, K.NEUTRAL_A)
}


def _singles(kind: int, mask: int, out: list[int]) -> None:
    table = _SINGLE_CODES[kind]
    index = 0
    while mask:
        byte = mask & 255
        if byte:
            codes = table[index | byte]
            if codes is None:
                spaces = ROW_SPACES[index >> 8][byte]
                codes = table[index | byte] = tuple(kind | s << 4 for s in spaces)
            out += codes
        mask >>= 8
        index += 256


# Ordered pairs of adjacent spaces are found a direction at a time: the firsts whose
# neighbour in that direction is allowed are one mask, read a row (one byte) at a time
# through tables of ready-made codes, built lazily: _PAIR_TABLES[kind][direction][row*256+byte].
_OFFSETS = (1, -1, WIDTH, -WIDTH)  # east, west, south, north
_PAIR_TABLES: dict[int, list[list[tuple[int, ...] | None]]] = {
    kind: [[None] * (MAX_ROWS * 256) for _ in _OFFSETS]
    for kind in (K.EXTEND, K.VIOLET_B, K.LEMON_B, K.BLACKMORE, K.NEUTRAL_B)
}


def _pairs(kind: int, firsts: int, seconds: int, out: list[int]) -> None:
    """Append the codes of ``kind`` for every ``first`` in ``firsts`` and ``second`` in
    ``seconds`` next to it."""
    if firsts.bit_count() <= 12:  # few firsts: one neighbour lookup each is quicker
        row_spaces = iter(ROW_SPACES)
        while firsts:
            spaces = next(row_spaces)[firsts & 255]
            firsts >>= 8
            for a in spaces:
                near = NEIGHBOURS[a] & seconds
                if near:
                    head = kind | a << 4
                    try:
                        out += _TAILS[head][near]
                    except KeyError:
                        out += _tails(head, 11, near)
        return
    tables = _PAIR_TABLES[kind]
    starts_by_direction = (
        firsts & (seconds >> 1) & ~COL_H,
        firsts & (seconds << 1) & ~COL_A,
        firsts & (seconds >> WIDTH),
        firsts & (seconds << WIDTH),
    )
    for direction, starts in enumerate(starts_by_direction):
        table = tables[direction]
        index = 0
        while starts:
            byte = starts & 255
            if byte:
                codes = table[index | byte]
                if codes is None:
                    codes = table[index | byte] = _pair_codes(kind, direction, index >> 8, byte)
                out += codes
            starts >>= 8
            index += 256


def _pair_codes(kind: int, direction: int, row: int, byte: int) -> tuple[int, ...]:
    offset = _OFFSETS[direction]
    return tuple(kind | a << 4 | (a + offset) << 11 for a in ROW_SPACES[row][byte])


def _lemon_pairs(firsts: int, free: int, pyramids: int, out: list[int]) -> None:
    """Lord Lemon's B: exactly one of the two cubes on a free pyramid."""
    _pairs(K.LEMON_B, firsts & free, pyramids, out)
    _pairs(K.LEMON_B, firsts & pyramids, free, out)


def _chains(firsts: int, free: int, out: list[int]) -> None:
    """Colonel Tangerine: three free spaces in a chain, the first in ``firsts``."""
    for a in spaces_of(firsts):
        head = K.TANGERINE | a << 4
        rest = free & ~(1 << a)
        for b in spaces_of(NEIGHBOURS[a] & free):
            near = NEIGHBOURS[b] & rest
            if near:
                head_b = head | b << 11
                try:
                    out += _TAILS[head_b][near]
                except KeyError:
                    out += _tails(head_b, 18, near)


# _TAILS[head][mask]: the codes ``head | s << shift`` for each space ``s`` of ``mask``,
# where ``head`` already holds the kind and the earlier spaces. Filled in as needed.
_TAILS: dict[int, dict[int, tuple[int, ...]]] = {}


def _tails(head: int, shift: int, mask: int) -> tuple[int, ...]:
    codes = tuple(head | s << shift for s in spaces_of(mask))
    _TAILS.setdefault(head, {})[mask] = codes
    return codes


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
    if not stock:
        return [K.PASS]  # an empty stock can only pass
    taken = 0
    for cubes in state.cubes:
        taken |= cubes
    free = _BOARD[len(state.region)] & ~state.pyramids & ~taken
    near = neighbours(state.cubes[seat])
    frontier = near & free
    out: list[int] = []
    _singles(K.EXCAVATE, free, out)
    if stock >= 2:
        _pairs(K.EXTEND, frontier, free, out)
    placements = len(out)
    out.append(K.PASS)
    if not player.cards:
        return out
    patrons = _usable_bits(player.cards, player.tilted)
    if patrons & _VIOLET and player.reserve:
        # Lady Violet, then A or B: the placements of A and B (B too with 1 cube in stock,
        # since she brings one), as Violet codes.
        violet = out[:placements]
        if stock < 2:
            _pairs(K.EXTEND, frontier, free, violet)
        out += map(_TO_VIOLET.__add__, violet)
    if patrons & _LEMON:
        pyramids = state.pyramids & ~taken
        _singles(K.LEMON_A, pyramids, out)
        if stock >= 2:
            _lemon_pairs(near, free, pyramids, out)
    if patrons & _BROWN:
        out += _room_codes(K.BROWN, state.museum, seat)
    if patrons & _BLACKMORE and stock >= 2:
        _pairs(K.BLACKMORE, free, free, out)
    if patrons & _TANGERINE and stock >= 3:
        _chains(frontier, free, out)
    return out


_TO_VIOLET = K.VIOLET_A - K.EXCAVATE
assert K.VIOLET_B - K.EXTEND == _TO_VIOLET, "the code layout relies on it"


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
    first = 2 * state.survey_area
    region = state.region
    kind = K.NEUTRAL_PARCEL if step is SurveyStep.PICK_NEUTRAL else K.TAKE
    out = [kind | p << 4 for p in (first, first + 1) if region[p] >= 0]
    if step is SurveyStep.CHOOSE and state.players[seat].reserve:
        out += _room_codes(K.BOOK, state.museum, seat)
    return out


# The codes of Brown's and the survey's Museum bookings, per (kind, museum, seat): the
# Museum changes a few times a season, so most look-ups hit. Cleared when it grows large.
_ROOM_CODES: dict[tuple[int, tuple[Seat, ...], Seat], tuple[int, ...]] = {}


def _room_codes(kind: int, museum: tuple[Seat, ...], seat: Seat) -> tuple[int, ...]:
    key = (kind, museum, seat)
    codes = _ROOM_CODES.get(key)
    if codes is None:
        if len(_ROOM_CODES) >= 100_000:
            _ROOM_CODES.clear()
        codes = _ROOM_CODES[key] = tuple(kind | room << 4 for room in open_rooms(museum, seat))
    return codes


def area_counts(state: GameState, area: int) -> list[int]:
    """Cubes each holder (seats, then the neutral) has in ``area``."""
    mask = AREA_MASK[area]
    return [(cubes & mask).bit_count() for cubes in state.cubes]
