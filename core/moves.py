"""Legal moves: the one generator of every legal action, as integer codes.

``legal_codes(state)`` is the single source of truth: the public ``legal_actions``, the
validation in ``apply_action`` and the computer players all go through it. Placements are
computed on bitmasks: ``free`` spaces hold neither a cube nor a pyramid.
"""

from __future__ import annotations

from operator import getitem

from core.actions import (
    BLACKMORE,
    BOOK,
    BROWN,
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
from core.museum import FIVE_ROOM_DOORS, ROOMS, WINGS
from core.region import (
    AREA_MASK,
    COL_A,
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
    are made once per space: making them per byte would cost thousands of calls). Built by
    doubling, as :data:`core.region.ROW_SPACES` is: the bytes below ``2**i``, then each of
    them with the codes of the row's space ``i`` added (this runs during a game's start)."""
    table: list[tuple[tuple[int, ...], ...]] = []
    for row in range(len(ROW_SPACES)):
        by_byte: list[tuple[int, ...]] = [()]
        for space in range(row * WIDTH, (row + 1) * WIDTH):
            by_byte += [listed + codes[space] for listed in by_byte]
        table.append(tuple(by_byte))
    return tuple(table)


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
    ``seconds`` next to it (``firsts`` is a frontier: a handful of spaces, so it is read
    bit by bit, which beats row by row for so few)."""
    tails = _PAIR_TABLES.get(kind) or _pair_table(kind)
    while firsts:
        low = firsts & -firsts
        a = low.bit_length() - 1
        out += tails[a][NEIGHBOURS[a] & seconds]
        firsts ^= low


# _PAIR_TABLES[kind][a][near]: the codes of ``kind`` from ``a`` to each space of ``near``,
# for every set ``near`` of ``a``'s neighbours (at most 16 a space), all made at first use
# so that a look-up never misses.
_PAIR_TABLES: dict[int, tuple[dict[int, tuple[int, ...]], ...]] = register({})


def _pair_table(kind: int) -> tuple[dict[int, tuple[int, ...]], ...]:
    table = tuple(_tails(kind, a, around) for a, around in enumerate(NEIGHBOURS))
    _PAIR_TABLES[kind] = table  # stored in one step: another thread may be listing moves
    return table


def _tails(kind: int, a: int, around: int) -> dict[int, tuple[int, ...]]:
    """``{near: codes}`` for every subset ``near`` of ``around``: the codes of ``kind`` from
    ``a`` to each space of ``near``, in increasing order. Built by doubling (each space of
    ``around`` in turn added to every subset made so far), one code made per neighbour."""
    tails: dict[int, tuple[int, ...]] = {0: ()}
    for b in spaces_of(around):
        pair = (code(kind, a, b),)
        tails.update([(near | 1 << b, codes + pair) for near, codes in tails.items()])
    return tails


def _subsets(mask: int) -> list[int]:
    """Every subset of ``mask``, itself and 0 included."""
    out = []
    subset = mask
    while True:
        out.append(subset)
        if not subset:
            return out
        subset = (subset - 1) & mask


def _lemon_pairs(firsts: int, free: int, pyramids: int, out: list[int]) -> None:
    """Lord Lemon's B: exactly one of the two cubes on a free pyramid."""
    _pairs(LEMON_B, firsts & free, pyramids, out)
    _pairs(LEMON_B, firsts & pyramids, free, out)


def _chains(firsts: int, free: int, out: list[int]) -> None:
    """Colonel Tangerine: three free spaces in a chain, the first in ``firsts``."""
    steps_from = _CHAIN_TABLES.get(TANGERINE) or _chain_table()
    while firsts:  # a frontier: bit by bit, as in _pairs
        low = firsts & -firsts
        a = low.bit_length() - 1
        firsts ^= low
        for reach, ends in steps_from[a][NEIGHBOURS[a] & free]:
            out += ends[reach & free]


# Colonel Tangerine's chains, made at first use so that a look-up never misses:
# _CHAIN_TABLES[TANGERINE][a][near], for every set ``near`` of ``a``'s neighbours (the free
# ones), holds for each second space ``b`` of ``near`` where a third may go (``b``'s
# neighbours but ``a``) and the codes a, b, c by the set of the free ones ``c`` is in.
_ChainTable = tuple[dict[int, tuple[tuple[int, dict[int, tuple[int, ...]]], ...]], ...]
_CHAIN_TABLES: dict[int, _ChainTable] = register({})


def _chain_table() -> _ChainTable:
    ends: dict[tuple[int, int], tuple[int, dict[int, tuple[int, ...]]]] = {}
    for a, around in enumerate(NEIGHBOURS):
        for b in spaces_of(around):
            reach = NEIGHBOURS[b] & ~(1 << a)
            thirds = {
                near: tuple(code(TANGERINE, a, b, c) for c in spaces_of(near))
                for near in _subsets(reach)
            }
            ends[a, b] = (reach, thirds)
    table = tuple(
        {near: tuple(ends[a, b] for b in spaces_of(near)) for near in _subsets(around)}
        for a, around in enumerate(NEIGHBOURS)
    )
    _CHAIN_TABLES[TANGERINE] = table  # in one step: another thread may be listing moves
    return table


_NOT_COL_A, _NOT_COL_H = ~COL_A, ~COL_H
# Enum members are looked up in Python at each use: the hot paths compare with these.
_EXCAVATION, _SURVEY = Phase.EXCAVATION, Phase.SURVEY
_CHOOSE, _PICK_NEUTRAL = SurveyStep.CHOOSE, SurveyStep.PICK_NEUTRAL


def legal_codes(state: GameState) -> list[int]:
    """Every legal action for ``state.current`` as codes, in a stable order."""
    phase = state.phase
    if phase is not _EXCAVATION:
        if phase is _SURVEY:
            return survey_codes(state, *state.survey_steps[0])
        return []
    if state.neutral_pending:
        return _neutral_codes(state)
    # The excavation's actions, in this body rather than a function of their own: they are
    # most decisions of a game, and a call costs as much as a few of the steps below.
    seat = state.current
    player = state.players[seat]
    stock = player.stock
    if not stock:
        return [PASS]  # an empty stock can only pass
    # Holders' masks never overlap (a cube only goes on a free space): their sum, added in
    # C, is their union.
    taken = sum(state.cubes)
    board, rows = _BOARD_ROWS[len(state.region)]
    free = board & ~(state.pyramids | taken)
    mine = state.cubes[seat]  # neighbours(), inlined (as the calls below: every decision)
    near = (mine << 1) & _NOT_COL_A | (mine >> 1) & _NOT_COL_H | mine << WIDTH | mine >> WIDTH
    frontier = near & free
    out: list[int] = []
    for codes in map(
        getitem, _SINGLES.get(EXCAVATE) or _single_table(EXCAVATE), free.to_bytes(rows, "little")
    ):
        out += codes
    if stock >= 2:
        tails = _PAIR_TABLES.get(EXTEND) or _pair_table(EXTEND)
        firsts = frontier
        while firsts:
            low = firsts & -firsts
            a = low.bit_length() - 1
            out += tails[a][NEIGHBOURS[a] & free]
            firsts ^= low
    out.append(PASS)
    if not player.cards:
        return out
    patrons = _USABLE.get((player.cards, player.tilted))  # _usable_bits' look-up, inlined
    if patrons is None:
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
    first = 2 * state.survey_area  # parcels_left, through a table: hot
    region = state.region
    left = (region[first] != EMPTY) | (region[first + 1] != EMPTY) << 1
    out = list(_TAKES[step is _PICK_NEUTRAL][first][left])
    if step is _CHOOSE and state.players[seat].reserve:
        out += _room_codes(BOOK, state.museum, seat)
    return out


# _TAKES[neutral's?][first][left]: the codes taking the parcels still there of the area
# whose first parcel is ``first`` (bit 0 of ``left``: that one, bit 1: the next).
_TAKES = tuple(
    tuple(
        tuple(
            tuple(code(kind, p) for p in (first, first + 1) if left >> (p - first) & 1)
            for left in range(4)
        )
        for first in range(12)
    )
    for kind in (TAKE, NEUTRAL_PARCEL)
)


# The Museum as masks, per Museum met (it changes a few times a season, so most look-ups
# hit; cleared when it grows large): its empty rooms (bit ``r``: room ``r``) and each
# seat's rooms. Codes are then read from tables rather than worked out per seat and kind.
_MUSEUM_MASKS: dict[tuple[Seat, ...], tuple[int, tuple[int, ...]]] = register({})


def _room_codes(kind: int, museum: tuple[Seat, ...], seat: Seat) -> tuple[int, ...]:
    """``kind``'s codes on the rooms :func:`~core.museum.open_rooms` lists for ``seat``."""
    masks = _MUSEUM_MASKS.get(museum)
    if masks is None:
        masks = _museum_masks(museum)
    empty, held = masks
    fives, small, wings_opened = _ROOM_TABLES.get(kind) or _room_tables(kind)
    return fives[empty & wings_opened[held[seat] >> WINGS]] + small[empty >> WINGS]


def _museum_masks(museum: tuple[Seat, ...]) -> tuple[int, tuple[int, ...]]:
    if len(_MUSEUM_MASKS) >= _CACHE_LIMIT:
        _MUSEUM_MASKS.clear()
    # sum(map(...)) adds up each room's bit picked by its holder, the loop in C.
    empty = sum(map(getitem, _EMPTY_BIT, museum))
    held = tuple([sum(map(getitem, bits, museum)) for bits in _HELD_BIT])
    masks = _MUSEUM_MASKS[museum] = (empty, held)
    return masks


# _EMPTY_BIT[room][holder]: the room's bit if ``holder`` leaves it empty (negative, as
# open_rooms reads it), else 0; _HELD_BIT[seat][room][holder]: the room's bit if ``holder``
# is ``seat``. Indexed by the holder itself: NEUTRAL (-2) and EMPTY (-1) count from the end.
_HOLDER_AT = (0, 1, 2, 3, NEUTRAL, EMPTY)
_EMPTY_BIT = tuple(
    tuple(1 << room if holder < 0 else 0 for holder in _HOLDER_AT) for room in range(ROOMS)
)
_HELD_BIT = tuple(
    tuple(
        tuple(1 << room if holder == seat else 0 for holder in _HOLDER_AT) for room in range(ROOMS)
    )
    for seat in range(4)
)


# _ROOM_TABLES[kind]: the codes of ``kind`` on the 5-rooms of each set of wings, on each
# set of small rooms (3- and 2-rooms, bit ``r - WINGS`` for room ``r``), and the wings
# whose 5-room opens onto a room of each set of small rooms: open_rooms' rule as tables.
_ROOM_TABLES: dict[
    int, tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...]]
] = register({})


def _room_tables(
    kind: int,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    small_rooms = ROOMS - WINGS
    fives = tuple(
        tuple(code(kind, w) for w in range(WINGS) if wings >> w & 1) for wings in range(1 << WINGS)
    )
    small = tuple(
        tuple(code(kind, WINGS + i) for i in range(small_rooms) if rooms >> i & 1)
        for rooms in range(1 << small_rooms)
    )
    wings_opened = tuple(
        sum(
            1 << w
            for w, doors in enumerate(FIVE_ROOM_DOORS)
            if any(held >> (door - WINGS) & 1 for door in doors)
        )
        for held in range(1 << small_rooms)
    )
    tables = _ROOM_TABLES[kind] = (fives, small, wings_opened)
    return tables


def area_counts(state: GameState, area: int) -> list[int]:
    """Cubes each holder (seats, then the neutral) has in ``area``."""
    mask = AREA_MASK[area]
    return [(cubes & mask).bit_count() for cubes in state.cubes]
