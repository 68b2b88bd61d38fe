"""The limit prototype: the rules of a 3-player game written for speed alone (issue 29).

``bench/bench_core.py`` plays random games with it beside ``core``, in the same run, to say
how far the engine is from what plain pure Python can do with the same rules: every legal
action enumerated at every decision, one picked at random. It is a yardstick, not a second
engine: no validation, no events, no 2- or 4-player rules (the neutral), no immutability
(one mutable :class:`Game` changed in place), nothing a UI or a save needs.

It plays the *same* game as ``core``: the deal is drawn from the seed exactly as
``core.new_game`` draws it, the actions are ``core``'s integer codes in ``core``'s order
(``core.moves.legal_codes``), and the automatic steps (forced passes, single-option survey
takings) are the same; ``tests/core/test_limit_engine.py`` plays games with both from the
same seeds and the same choices and checks every list of codes and the final scores, so the
reference cannot be quick by playing a simpler game. Card faces and the code layout are read
from ``core`` (they are data, not rules); every rule is written again here.

How it is quick (what pure Python allows, readability second): what the legal codes need
is kept up to date as cubes go down instead of worked out at each decision (free spaces,
free pyramids, each seat's neighbouring spaces, the sorted codes of Excavate, Violet's A
and Lemon's A, each seat's untilted cards per patron, the Museum as masks); the pairs and
chains from a space are ready-made for every set of free neighbours (a look-up, never a
miss); masks are read row by row (``to_bytes`` through tables) or, when they hold a few
spaces, bit by bit; the survey runs area after area in one loop; the hot methods bind what
they read to locals.
"""

from __future__ import annotations

import random
from bisect import bisect_left

from core.cards import CARDS

PLAYERS = 3
STOCK_PER_SEASON = 11
PARCELS = (8, 8, 8, 12)
EMPTY = -1

# Action codes: kind | a << 4 | b << 11 | c << 18 (core.actions' layout).
EXCAVATE, EXTEND, PASS, VIOLET_A, VIOLET_B, LEMON_A, LEMON_B, BROWN, BLACKMORE, TANGERINE = range(
    10
)
TAKE, BOOK = 13, 14
VIOLET, LEMON, BROWN_P, BLACKMORE_P, TANGERINE_P = range(5)  # patrons
PATRON_OF_KIND = {VIOLET_A: VIOLET, VIOLET_B: VIOLET, LEMON_A: LEMON, LEMON_B: LEMON,
                  BROWN: BROWN_P, BLACKMORE: BLACKMORE_P, TANGERINE: TANGERINE_P}  # fmt: skip
VIOLET_BIT, LEMON_BIT, BROWN_BIT, BLACKMORE_BIT, TANGERINE_BIT = (1 << p for p in range(5))
PLACED = {EXCAVATE: 1, EXTEND: 2, VIOLET_A: 1, VIOLET_B: 2, LEMON_A: 1, LEMON_B: 2,
          BLACKMORE: 2, TANGERINE: 3}  # fmt: skip

# ---------------------------------------------------------------- the region (8 wide)

SPACES = 72
COL_A = sum(1 << (8 * r) for r in range(9))
COL_H = COL_A << 7
NEIGHBOURS = [0] * SPACES
for _s in range(SPACES):
    _r, _c = divmod(_s, 8)
    for _rr, _cc in ((_r - 1, _c), (_r + 1, _c), (_r, _c - 1), (_r, _c + 1)):
        if 0 <= _rr < 9 and 0 <= _cc < 8:
            NEIGHBOURS[_s] |= 1 << (_rr * 8 + _cc)
BITS = [[i for i in range(8) if v >> i & 1] for v in range(256)]
ROW_SPACES = [[[8 * r + i for i in BITS[v]] for v in range(256)] for r in range(9)]
"""``ROW_SPACES[row][byte]``: the spaces of a row's byte, so a mask is read 8 at a time."""


def spaces(mask: int) -> list[int]:
    out: list[int] = []
    for row_spaces in map(list.__getitem__, ROW_SPACES, mask.to_bytes(9, "little")):
        out += row_spaces
    return out


def row_table(codes: list[list[int]]) -> list[list[list[int]]]:
    """``table[row][byte]``: the codes ``codes[s]`` of the spaces ``s`` of a row's byte. A
    mask is turned into codes a row at a time (``mask.to_bytes``), the loop in C."""
    return [[[c for i in BITS[v] for c in codes[8 * r + i]] for v in range(256)] for r in range(9)]


def singles(table: list[list[list[int]]], mask: int, rows: int, out: list[int]) -> None:
    for codes in map(list.__getitem__, table, mask.to_bytes(rows, "little")):
        out += codes


SINGLE = {kind: row_table([[kind | s << 4] for s in range(SPACES)]) for kind in (0, 3, 5)}
EAST = row_table([[8 | s << 4 | (s + 1) << 11, 8 | (s + 1) << 4 | s << 11] for s in range(SPACES)])
SOUTH = row_table([[8 | s << 4 | (s + 8) << 11, 8 | (s + 8) << 4 | s << 11] for s in range(SPACES)])


def subsets(mask: int) -> list[int]:
    out = []
    sub = mask
    while True:
        out.append(sub)
        if not sub:
            return out
        sub = (sub - 1) & mask


TAILS = {
    kind: [
        {near: [kind | a << 4 | b << 11 for b in spaces(near)] for near in subsets(NEIGHBOURS[a])}
        for a in range(SPACES)
    ]
    for kind in (EXTEND, VIOLET_B, LEMON_B)
}
"""``TAILS[kind][a][near]``: the codes of ``kind`` from ``a`` to each space of ``near``, for
every set ``near`` of ``a``'s neighbours (at most 16 per space), so no look-up misses."""
EXTEND_TAILS, VIOLET_TAILS, LEMON_TAILS = TAILS[EXTEND], TAILS[VIOLET_B], TAILS[LEMON_B]


def pairs(tails: list[dict[int, list[int]]], firsts: int, free: int, out: list[int]) -> None:
    """The codes of ``tails`` from ``a`` in ``firsts`` to a space of ``free`` next to it."""
    while firsts:  # a few spaces: bit by bit beats row by row
        low = firsts & -firsts
        a = low.bit_length() - 1
        out += tails[a][NEIGHBOURS[a] & free]
        firsts ^= low


CHAINS = [
    {
        near: [
            (
                NEIGHBOURS[b] & ~(1 << a),
                {
                    ends: [TANGERINE | a << 4 | b << 11 | c << 18 for c in spaces(ends)]
                    for ends in subsets(NEIGHBOURS[b] & ~(1 << a))
                },
            )
            for b in spaces(near)
        ]
        for near in subsets(NEIGHBOURS[a])
    }
    for a in range(SPACES)
]
"""``CHAINS[a][near]``: for each second space ``b`` of ``near`` (``a``'s free neighbours),
where the third may go (``b``'s neighbours but ``a``) and Tangerine's codes from ``a`` to
``b`` to each third space ``c``, by the set of free ones ``c`` is in: a chain is a look-up."""


def parcel_space(parcel: int, cell: int, rotated: int) -> int:
    if rotated:
        cell = 5 - cell
    line, slot = divmod(parcel, 4)
    return (3 * line + cell // 2) * 8 + 2 * slot + cell % 2


AREA = [0] * 6
for _p in range(12):
    for _cell in range(6):
        AREA[_p // 2] |= 1 << parcel_space(_p, _cell, 0)
CARD_PATRON = [-1 if c.patron is None else int(c.patron) for c in CARDS]
CARD_VALUE = [c.value for c in CARDS]
FACE_PYRAMIDS = [
    [sum(1 << parcel_space(p, cell, f & 1) for cell in CARDS[f >> 1].pyramids) for f in range(72)]
    for p in range(12)
]
KIND_PATRON = [-1] * 16
for _kind, _patron in PATRON_OF_KIND.items():
    KIND_PATRON[_kind] = _patron
PLACED_SPACES: dict[int, tuple[int, ...]] = {}
"""The spaces a placement code puts cubes on, filled in as codes are met."""

# ---------------------------------------------------------------- the Museum

# Rooms 0..4: 5-rooms; 5..9: 3-rooms; 10..14: 2-rooms (10 + i between wings i and i+1).
DOORS = [(5 + w, 10 + (w - 1) % 5, 10 + w) for w in range(5)]
WING_ROOMS = [(w, 5 + w, 10 + (w - 1) % 5, 10 + w) for w in range(5)]
ROOM_POINTS = [5] * 5 + [3] * 5 + [2] * 5


WINGS_OPENED = [
    sum(1 << w for w in range(5) if any(held >> (door - 5) & 1 for door in DOORS[w]))
    for held in range(1 << 10)
]
"""``WINGS_OPENED[held]``: the wings whose 5-room opens onto a small room (3- or 2-room) of
``held`` (bit ``r - 5`` for room ``r``)."""
ROOM_CODES = {
    kind: ([[kind | w << 4 for w in range(5) if fives >> w & 1] for fives in range(1 << 5)],
           [[kind | r << 4 for r in range(5, 15) if small >> (r - 5) & 1]
            for small in range(1 << 10)])
    for kind in (BROWN, BOOK)
}  # fmt: skip
"""``ROOM_CODES[kind]``: the codes of ``kind`` for the 5-rooms of a set of wings, and for
a set of small rooms; a seat may place on an empty small room, or on an empty 5-room that
opens onto one of its own (the rooms in increasing order, as core lists them)."""


def room_codes(kind: int, empty: int, held: int) -> list[int]:
    """``kind``'s codes, the Museum's empty rooms ``empty`` and the seat's ``held`` (bit
    ``r`` for room ``r``)."""
    fives, small = ROOM_CODES[kind]
    return fives[empty & WINGS_OPENED[held >> 5]] + small[empty >> 5]


TAKES = [
    [[TAKE | p << 4 for p in (first, first + 1) if left >> (p - first) & 1] for left in range(4)]
    if first % 2 == 0 else [] for first in range(12)
]  # fmt: skip
"""``TAKES[first][left]``: the codes taking the parcels of an area (its first ``first``)
still there (bit 0: the first, bit 1: the second)."""

NEXT_SEAT = [
    [next((s + step) % PLAYERS for step in (1, 2, 3) if not passed >> (s + step) % PLAYERS & 1)
     if passed != 7 else EMPTY for s in range(PLAYERS)]
    for passed in range(8)
]  # fmt: skip
"""``NEXT_SEAT[passed][seat]``: the first seat after ``seat`` not in the bits ``passed``."""

# ---------------------------------------------------------------- the game


class Game:
    """A 3-player game, changed in place by :meth:`play`.

    Speed-only: what the legal codes need is kept up to date as cubes are placed rather
    than worked out at every decision (the free spaces, each seat's neighbouring spaces,
    the sorted codes of the single placements), and the hot methods bind what they read
    to locals.
    """

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)  # the draws of core.new_game, in its order
        cards = list(range(len(CARDS)))
        rng.shuffle(cards)
        self.deck = [card * 2 + rng.getrandbits(1) for card in cards]
        first = rng.randrange(PLAYERS)
        self.wings = rng.sample(range(5), 5)
        self.season = 0
        self.score = [0] * PLAYERS
        self.reserve = [25] * PLAYERS
        self.stock = [0] * PLAYERS
        self.cards: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.untilted = [[0] * 5 for _ in range(PLAYERS)]
        """Each seat's untilted cards of each patron."""
        self.owned = [[0] * 5 for _ in range(PLAYERS)]
        """Each seat's cards of each patron."""
        self.usable = [0] * PLAYERS
        """Bit ``p``: the seat has an untilted card of patron ``p`` (kept up to date)."""
        self.museum = [EMPTY] * 15
        self.empty_rooms = (1 << 15) - 1
        self.held = [0] * PLAYERS
        """The Museum as masks: its empty rooms, each seat's rooms (bit ``r``: room ``r``)."""
        self.over = False
        self.current = first
        self.survey: list[tuple[bool, int]] = []  # (choose?, seat): the area's steps
        self.area = EMPTY
        self.start_season(first)

    # ------------------------------------------------------------ seasons and turns

    def start_season(self, first: int) -> None:
        self.season += 1
        for seat in range(PLAYERS):
            moved = min(STOCK_PER_SEASON, self.reserve[seat])
            self.reserve[seat] -= moved
            self.stock[seat] += moved
        count = PARCELS[self.season - 1]
        self.region = self.deck[:count]
        del self.deck[:count]
        self.pyramids = 0
        for parcel, face in enumerate(self.region):
            self.pyramids |= FACE_PYRAMIDS[parcel][face]
        self.rows = 3 * count // 4
        self.board = (1 << (8 * self.rows)) - 1
        self.cubes = [0] * PLAYERS
        self.near = [0] * PLAYERS
        """Spaces next to each seat's cubes (kept up to date)."""
        self.free = self.board & ~self.pyramids
        """Spaces with no cube and no pyramid, kept up to date as cubes are placed."""
        self.free_pyramids = self.pyramids
        self.excavations: list[int] = []
        singles(SINGLE[EXCAVATE], self.free, self.rows, self.excavations)
        """The sorted codes of Excavate on every free space: a cube placed deletes its code
        (a space never frees up in a season, so the list stays sorted)."""
        self.violets: list[int] = []
        singles(SINGLE[VIOLET_A], self.free, self.rows, self.violets)
        """The same for Violet's A, index for index."""
        self.lemons: list[int] = []
        singles(SINGLE[LEMON_A], self.pyramids, self.rows, self.lemons)
        """The same for Lemon's A, on the free pyramids."""
        self.passing: list[int] = []
        self.passed = 0
        """Bit ``s``: seat ``s`` has passed."""
        self.last_turn = False
        self.in_survey = False
        self.give_turn(first)

    def give_turn(self, seat: int) -> None:
        self.current = seat
        if not self.stock[seat]:
            self.do_pass(seat)

    def do_pass(self, seat: int) -> None:
        self.passing.append(seat)
        self.passed |= 1 << seat
        self.last_turn = False
        left = PLAYERS - len(self.passing)
        if not left:
            self.start_survey()
            return
        if left == 1:
            self.last_turn = True
        self.give_turn(NEXT_SEAT[self.passed][seat])

    def tilt(self, seat: int, patron: int) -> None:
        untilted = self.untilted[seat]
        untilted[patron] -= 1
        if not untilted[patron]:
            self.usable[seat] ^= 1 << patron

    def book(self, seat: int, room: int) -> None:
        self.museum[room] = seat
        self.empty_rooms ^= 1 << room
        self.held[seat] |= 1 << room

    # ------------------------------------------------------------ the survey

    def start_survey(self) -> None:
        self.in_survey = True
        self.area = -1
        self.survey = []
        self.run_survey()

    def run_survey(self) -> None:
        """Play the steps that need no decision, area after area (its cubes back to their
        reserves once done, and its parcels left discarded); stop at the first step that
        needs one, or end the season after the last area."""
        region, survey, cubes, reserve = self.region, self.survey, self.cubes, self.reserve
        area = self.area
        while True:
            first = 2 * area
            while survey:
                choose, seat = survey[0]
                if region[first] >= 0 and region[first + 1] >= 0:
                    self.current = seat
                    return
                options = self.survey_codes(choose, seat)
                if len(options) >= 2:
                    self.current = seat
                    return
                if options:
                    self.survey_effect(seat, options[0])
                else:
                    del survey[0]
            if area >= 0:
                mask = AREA[area]
                for seat in range(PLAYERS):
                    back = cubes[seat] & mask
                    if back:
                        reserve[seat] += back.bit_count()
                        cubes[seat] ^= back
                region[first] = region[first + 1] = EMPTY
            area += 1
            if area >= len(region) // 2:
                self.end_season()
                return
            self.area = area
            mask = AREA[area]
            ranked = sorted(
                [(-(cubes[s] & mask).bit_count(), self.passing.index(s), s)
                 for s in range(PLAYERS) if cubes[s] & mask]
            )  # fmt: skip
            survey[:] = [(rank < 2, seat) for rank, (_, _, seat) in enumerate(ranked)]

    def survey_codes(self, choose: bool, seat: int) -> list[int]:
        first = 2 * self.area
        region = self.region
        out = TAKES[first][(region[first] >= 0) | (region[first + 1] >= 0) << 1][:]
        if choose and self.reserve[seat]:
            out += room_codes(BOOK, self.empty_rooms, self.held[seat])
        return out

    def survey_effect(self, seat: int, code: int) -> None:
        index = code >> 4 & 127
        if code & 15 == BOOK:
            self.book(seat, index)
            self.reserve[seat] -= 1
        else:
            card = self.region[index] >> 1
            self.region[index] = EMPTY
            self.score[seat] += CARD_VALUE[card]
            self.cards[seat].append(card)
            patron = CARD_PATRON[card]
            if patron >= 0:
                self.owned[seat][patron] += 1  # usable from next season (end_season)
        del self.survey[0]

    def end_season(self) -> None:
        last = self.passing[-1]
        for seat, owned in enumerate(self.owned):  # every card untilted
            self.untilted[seat] = owned[:]
            self.usable[seat] = sum(1 << p for p in range(5) if owned[p])
        if self.season == 4:
            self.over = True
            self.current = EMPTY
            return
        self.start_season(last)

    # ------------------------------------------------------------ legal actions

    def legal(self) -> list[int]:
        """Every legal code of the player deciding, in core's order."""
        if self.in_survey:
            return self.survey_codes(*self.survey[0])
        seat = self.current
        stock = self.stock[seat]
        out = self.excavations[:]
        free = self.free
        near = self.near[seat]
        frontier = near & free
        if stock >= 2:
            rest = frontier
            while rest:  # pairs(), inlined: most decisions list these (a few spaces)
                low = rest & -rest
                a = low.bit_length() - 1
                out += EXTEND_TAILS[a][NEIGHBOURS[a] & free]
                rest ^= low
        out.append(PASS)
        usable = self.usable[seat]
        if not usable:
            return out
        if usable & VIOLET_BIT and self.reserve[seat]:
            out += self.violets
            pairs(VIOLET_TAILS, frontier, free, out)
        if usable & LEMON_BIT:
            out += self.lemons
            if stock >= 2 and near:
                pyramids = self.free_pyramids
                pairs(LEMON_TAILS, frontier, pyramids, out)
                pairs(LEMON_TAILS, near & pyramids, free, out)
        if usable & BROWN_BIT:
            out += room_codes(BROWN, self.empty_rooms, self.held[seat])
        if usable & BLACKMORE_BIT and stock >= 2:
            rows = self.rows
            singles(EAST, free & free >> 1 & ~COL_H, rows, out)
            singles(SOUTH, free & free >> 8, rows, out)
        if usable & TANGERINE_BIT and stock >= 3 and frontier:
            for a in spaces(frontier):
                near_a = NEIGHBOURS[a] & free
                for reach, ends in CHAINS[a][near_a]:
                    out += ends[reach & free]
        return out

    # ------------------------------------------------------------ playing a code

    def play(self, code: int) -> None:
        """Apply a legal code (not checked)."""
        kind = code & 15
        seat = self.current
        stock = self.stock
        if kind == EXCAVATE:  # the commonest code, in a few steps
            space = code >> 4
            bit = 1 << space
            stock[seat] -= 1
            self.cubes[seat] |= bit
            self.near[seat] |= NEIGHBOURS[space]
            self.free ^= bit
            excavations = self.excavations
            index = bisect_left(excavations, code)
            del excavations[index]
            del self.violets[index]
        elif kind == PASS:
            self.do_pass(seat)
            return
        elif kind >= TAKE:
            self.survey_effect(seat, code)
            self.run_survey()
            return
        elif kind == BROWN:
            self.book(seat, code >> 4 & 127)
            stock[seat] -= 1
            self.tilt(seat, BROWN_P)
        else:
            placed = PLACED_SPACES.get(code)
            if placed is None:
                placed = PLACED_SPACES[code] = tuple(
                    code >> shift & 127 for shift in (4, 11, 18)[: PLACED[kind]]
                )
            stock[seat] -= len(placed)
            patron = KIND_PATRON[kind]
            if patron >= 0:
                self.tilt(seat, patron)
                if patron == VIOLET:
                    stock[seat] += 1
                    self.reserve[seat] -= 1
            free = self.free
            near = self.near[seat]
            excavations = self.excavations
            cubes = self.cubes[seat]
            for space in placed:
                bit = 1 << space
                near |= NEIGHBOURS[space]
                cubes |= bit
                if free & bit:
                    free ^= bit
                    index = bisect_left(excavations, EXCAVATE | space << 4)
                    del excavations[index]
                    del self.violets[index]
                else:  # a pyramid (Lord Lemon)
                    self.free_pyramids ^= bit
                    lemons = self.lemons
                    del lemons[bisect_left(lemons, LEMON_A | space << 4)]
            self.cubes[seat] = cubes
            self.free = free
            self.near[seat] = near
        if self.last_turn:  # end_turn, inlined
            self.do_pass(seat)
            return
        after = NEXT_SEAT[self.passed][seat]
        self.current = after
        if not stock[after]:
            self.do_pass(after)

    # ------------------------------------------------------------ the end

    def totals(self) -> list[int]:
        """Final totals: parcels, exhibition (best room per wing), series."""
        out = []
        for seat in range(PLAYERS):
            counts = [0] * 5
            for card in self.cards[seat]:
                if CARD_PATRON[card] >= 0:
                    counts[CARD_PATRON[card]] += 1
            total = self.score[seat] + 5 * min(counts)
            for wing, patron in enumerate(self.wings):
                value = next(
                    (ROOM_POINTS[r] for r in WING_ROOMS[wing] if self.museum[r] == seat), 1
                )
                total += counts[patron] * value
            out.append(total)
        return out


def play_random(seed: int, rng: random.Random) -> int:
    """A random game from ``seed``'s deal: every legal code enumerated at each decision and
    one picked with ``rng`` as ``bench_core.play_enumerated`` picks; returns the decisions."""
    game = Game(seed)
    legal, play, pick = game.legal, game.play, rng.random
    decisions = 0
    while not game.over:
        codes = legal()
        play(codes[int(pick() * len(codes))])
        decisions += 1
    return decisions
