"""Legal moves: the one generator of every legal action, as integer codes.

``legal_codes(state)`` is the single source of truth: the public ``legal_actions``, the
validation in ``apply_action`` and the computer players all go through it. Placements are
computed on bitmasks: ``free`` spaces hold neither a cube nor a pyramid.
"""

from __future__ import annotations

from operator import getitem

from core.actions import (
    A_SHIFT,
    BLACKMORE,
    BOOK,
    BROWN,
    C_SHIFT,
    EXCAVATE,
    EXTEND,
    LEMON_A,
    LEMON_B,
    NEUTRAL_A,
    NEUTRAL_B,
    NEUTRAL_PARCEL,
    NEUTRAL_SKIP,
    PASS,
    TAKE,
    TANGERINE,
    VIOLET_A,
    VIOLET_B,
    code,
)
from core.caches import register
from core.cards import PATRON_OF, Patron
from core.museum import open_rooms
from core.region import (
    AREA_MASK,
    COL_H,
    NEIGHBOURS,
    ROW_SPACES,
    SPACES,
    WIDTH,
    area_parcels,
    board_mask,
    neighbours,
    spaces_of,
)
from core.state import EMPTY, NEUTRAL, GameState, Phase, PlayerState, Seat, SurveyStep, cube_index


def occupied(state: GameState) -> int:
    """Mask of every space holding a cube."""
    mask = 0
    for cubes in state.cubes:
        mask |= cubes
    return mask


def free_spaces(state: GameState) -> int:
    """Mask of the spaces with no cube and no pyramid."""
    return _BOARD_ROWS[len(state.region)][0] & ~state.pyramids & ~occupied(state)


def free_pyramids(state: GameState) -> int:
    """Mask of the pyramid spaces with no cube (for Lord Lemon)."""
    return state.pyramids & ~occupied(state)


def usable_patrons(player: PlayerState) -> set[Patron]:
    """Patrons of which the player has an untilted card."""
    bits = _usable_bits(player.cards, player.tilted)
    return {patron for patron in Patron if bits >> patron & 1}


_CACHE_LIMIT = 20_000
"""Entries kept in a cache keyed by game facts before it is emptied (a long session of
computer play meets many Museums and hands; this bounds the memory they take)."""

# Bit ``p`` set: an untilted card of patron ``p``; per (cards, tilted), which change only
# in the survey and when a card is turned. (Enum members hash in Python: bits are quicker.)
_USABLE: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = register({})
_VIOLET, _LEMON, _BROWN, _BLACKMORE, _TANGERINE = (1 << patron for patron in Patron)


def _usable_bits(cards: tuple[int, ...], tilted: tuple[int, ...]) -> int:
    key = (cards, tilted)
    bits = _USABLE.get(key)
    if bits is None:
        if len(_USABLE) >= _CACHE_LIMIT:
            _USABLE.clear()
        bits = 0
        for card in cards:
            patron = PATRON_OF[card]
            if patron is not None and card not in tilted:
                bits |= 1 << patron
        _USABLE[key] = bits
    return bits


RowTable = tuple[tuple[tuple[int, ...], ...], ...]
"""``table[row][byte]``: ready-made codes for the spaces ``byte`` of ``row`` (a row of the
region is one byte of a mask, WIDTH == 8). A mask is read as bytes and mapped through
the table, so the loop over rows runs in C rather than in Python."""

# By the number of parcels dealt: the mask of the region's spaces, and its rows (how many
# bytes of a mask to read).
_BOARD_ROWS = {count: (board_mask(count), count * 3 // 4) for count in (0, 8, 12)}

# The codes of single placements, a table per kind, built at first use (computing the
# tables at import would slow the game's start).
_SINGLES: dict[int, RowTable] = register({})


def _singles(kind: int, mask: int, rows: int, out: list[int]) -> None:
    """Append the codes of ``kind`` on each space of ``mask`` (in a region of ``rows``)."""
    table = _SINGLES.get(kind) or _single_table(kind)
    for codes in map(getitem, table, mask.to_bytes(rows, "little")):
        out += codes


def _single_table(kind: int) -> RowTable:
    table = _SINGLES[kind] = _row_table([(code(kind, s),) for s in range(SPACES)])
    return table


def _row_table(codes: list[tuple[int, ...]]) -> RowTable:
    """The :data:`RowTable` listing ``codes[s]`` for each space ``s`` of a byte (the codes
    are made once per space: making them per byte would cost thousands of calls)."""
    return tuple(
        tuple(tuple(c for s in spaces for c in codes[s]) for spaces in row) for row in ROW_SPACES
    )


# Blackmore's pairs: any two free spaces side by side, in either order. Bit ``a`` of
# ``free & free >> 1`` (east) or ``free & free >> WIDTH`` (south) stands for the two
# ordered pairs of ``a`` and its neighbour, ready-made in these tables.
_BLACKMORE_TABLES: dict[int, tuple[RowTable, RowTable]] = register({})


def _blackmore_pairs(free: int, rows: int, out: list[int]) -> None:
    east, south = _BLACKMORE_TABLES.get(BLACKMORE) or _blackmore_tables()
    for codes in map(getitem, east, (free & free >> 1 & ~COL_H).to_bytes(rows, "little")):
        out += codes
    for codes in map(getitem, south, (free & free >> WIDTH).to_bytes(rows, "little")):
        out += codes


def _blackmore_tables() -> tuple[RowTable, RowTable]:
    def table(offset: int) -> RowTable:
        return _row_table(
            [
                (code(BLACKMORE, a, a + offset), code(BLACKMORE, a + offset, a))
                for a in range(SPACES)
            ]
        )

    # Stored in one step: a computer player's thread may be listing moves too.
    tables = _BLACKMORE_TABLES[BLACKMORE] = (table(1), table(WIDTH))
    return tables


def _pairs(kind: int, firsts: int, seconds: int, out: list[int]) -> None:
    """Append the codes of ``kind`` for every ``first`` in ``firsts`` and ``second`` in
    ``seconds`` next to it (``firsts`` is a frontier: a handful of spaces)."""
    tails = _PAIR_TAILS[kind]
    for row_spaces in ROW_SPACES:
        if not firsts:
            break
        spaces = row_spaces[firsts & 255]
        firsts >>= 8
        for a in spaces:
            near = NEIGHBOURS[a] & seconds
            if near:
                try:
                    out += tails[a][near]
                except KeyError:
                    out += _pair_tail(kind, a, near)


# _PAIR_TAILS[kind][a][near]: the codes of ``kind`` from ``a`` to each space of ``near``.
_PAIR_TAILS: dict[int, tuple[dict[int, tuple[int, ...]], ...]] = {
    kind: tuple(register({}) for _ in NEIGHBOURS) for kind in (EXTEND, VIOLET_B, LEMON_B, NEUTRAL_B)
}


def _pair_tail(kind: int, a: int, near: int) -> tuple[int, ...]:
    codes = tuple(code(kind, a, b) for b in spaces_of(near))
    _PAIR_TAILS[kind][a][near] = codes
    return codes


def _lemon_pairs(firsts: int, free: int, pyramids: int, out: list[int]) -> None:
    """Lord Lemon's B: exactly one of the two cubes on a free pyramid."""
    _pairs(LEMON_B, firsts & free, pyramids, out)
    _pairs(LEMON_B, firsts & pyramids, free, out)


def _chains(firsts: int, free: int, out: list[int]) -> None:
    """Colonel Tangerine: three free spaces in a chain, the first in ``firsts``."""
    for a in spaces_of(firsts):
        near_a = NEIGHBOURS[a] & free
        try:
            steps = _CHAIN_STEPS[a][near_a]
        except KeyError:
            steps = _chain_steps(a, near_a)
        for head, reach in steps:
            near = reach & free
            if near:
                try:
                    out += _CHAIN_ENDS[head][near]
                except KeyError:
                    out += _chain_ends(head, near)


# _CHAIN_STEPS[a][near]: for each second space ``b`` of ``near`` (free neighbours of ``a``),
# the code so far and the spaces a third may take (``b``'s neighbours but ``a``).
_CHAIN_STEPS: tuple[dict[int, tuple[tuple[int, int], ...]], ...] = tuple(
    register({}) for _ in NEIGHBOURS
)


def _chain_steps(a: int, near: int) -> tuple[tuple[int, int], ...]:
    steps = tuple((code(TANGERINE, a, b), NEIGHBOURS[b] & ~(1 << a)) for b in spaces_of(near))
    _CHAIN_STEPS[a][near] = steps
    return steps


# _CHAIN_ENDS[head][near]: the codes ``head`` with third space ``c`` for each ``c`` of
# ``near``, where ``head`` holds the kind and the first two spaces. Filled in as needed.
_CHAIN_ENDS: dict[int, dict[int, tuple[int, ...]]] = register({})


def _chain_ends(head: int, near: int) -> tuple[int, ...]:
    codes = tuple(head | c << C_SHIFT for c in spaces_of(near))  # field c of code()
    _CHAIN_ENDS.setdefault(head, {})[near] = codes
    return codes


# Enum members are looked up in Python at each use: the hot paths compare with these.
_EXCAVATION, _SURVEY = Phase.EXCAVATION, Phase.SURVEY
_CHOOSE, _PICK_NEUTRAL = SurveyStep.CHOOSE, SurveyStep.PICK_NEUTRAL


def legal_codes(state: GameState) -> list[int]:
    """Every legal action for ``state.current`` as codes, in a stable order."""
    phase = state.phase
    if phase is _EXCAVATION:
        if state.neutral_pending:
            return _neutral_codes(state)
        return _excavation_codes(state)
    if phase is _SURVEY:
        return survey_codes(state, *state.survey_steps[0])
    return []


def _excavation_codes(state: GameState) -> list[int]:
    seat = state.current
    player = state.players[seat]
    stock = player.stock
    if not stock:
        return [PASS]  # an empty stock can only pass
    taken = 0
    for cubes in state.cubes:
        taken |= cubes
    board, rows = _BOARD_ROWS[len(state.region)]
    free = board & ~state.pyramids & ~taken
    near = neighbours(state.cubes[seat])
    frontier = near & free
    out: list[int] = []
    _singles(EXCAVATE, free, rows, out)
    if stock >= 2:
        _pairs(EXTEND, frontier, free, out)
    out.append(PASS)
    if not player.cards:
        return out
    patrons = _usable_bits(player.cards, player.tilted)
    if patrons & _VIOLET and player.reserve:
        # Lady Violet, then A or B (B too with 1 cube in stock, since she brings one).
        _singles(VIOLET_A, free, rows, out)
        _pairs(VIOLET_B, frontier, free, out)
    if patrons & _LEMON:
        pyramids = state.pyramids & ~taken
        _singles(LEMON_A, pyramids, rows, out)
        if stock >= 2:
            _lemon_pairs(near, free, pyramids, out)
    if patrons & _BROWN:
        out += _room_codes(BROWN, state.museum, seat)
    if patrons & _BLACKMORE and stock >= 2:
        _blackmore_pairs(free, rows, out)
    if patrons & _TANGERINE and stock >= 3:
        _chains(frontier, free, out)
    return out


def _neutral_codes(state: GameState) -> list[int]:
    held = state.players[state.current].neutral_stock
    free = free_spaces(state)
    out: list[int] = []
    rows = _BOARD_ROWS[len(state.region)][1]
    _singles(NEUTRAL_A, free, rows, out)
    if held >= 2:
        neutral_cubes = state.cubes[cube_index(state, NEUTRAL)]
        _pairs(NEUTRAL_B, neighbours(neutral_cubes) & free, free, out)
    out.append(NEUTRAL_SKIP)
    return out


def can_place_neutral(state: GameState, seat: Seat) -> bool:
    """2 players: may ``seat`` follow its A or B with neutral cubes?"""
    return state.players[seat].neutral_stock > 0 and free_spaces(state) != 0


def parcels_left(state: GameState) -> list[int]:
    """Parcels of the area being surveyed that nobody has taken yet."""
    return [p for p in area_parcels(state.survey_area) if state.region[p] != EMPTY]


def survey_codes(state: GameState, step: SurveyStep, seat: Seat) -> list[int]:
    """The options of one survey step (possibly none: the player then gets nothing)."""
    kind = NEUTRAL_PARCEL if step is _PICK_NEUTRAL else TAKE
    out = [kind | p << A_SHIFT for p in parcels_left(state)]  # code(kind, p), inlined: hot
    if step is _CHOOSE and state.players[seat].reserve:
        out += _room_codes(BOOK, state.museum, seat)
    return out


# The codes of Brown's and the survey's Museum bookings, per (kind, museum, seat): the
# Museum changes a few times a season, so most look-ups hit. Cleared when it grows large.
_ROOM_CODES: dict[tuple[int, tuple[Seat, ...], Seat], tuple[int, ...]] = register({})


def _room_codes(kind: int, museum: tuple[Seat, ...], seat: Seat) -> tuple[int, ...]:
    key = (kind, museum, seat)
    codes = _ROOM_CODES.get(key)
    if codes is None:
        if len(_ROOM_CODES) >= _CACHE_LIMIT:
            _ROOM_CODES.clear()
        codes = _ROOM_CODES[key] = tuple(code(kind, room) for room in open_rooms(museum, seat))
    return codes


def area_counts(state: GameState, area: int) -> list[int]:
    """Cubes each holder (seats, then the neutral) has in ``area``."""
    mask = AREA_MASK[area]
    return [(cubes & mask).bit_count() for cubes in state.cubes]
