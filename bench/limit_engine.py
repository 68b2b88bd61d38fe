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
"""

from __future__ import annotations

import random

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
    row = 0
    while mask:
        if mask & 255:
            out += ROW_SPACES[row][mask & 255]
        mask >>= 8
        row += 1
    return out


def row_table(codes: list[list[int]]) -> list[list[list[int]]]:
    """``table[row][byte]``: the codes ``codes[s]`` of the spaces ``s`` of a row's byte. A
    mask is turned into codes a row at a time (``mask.to_bytes``), the loop in C."""
    return [[[c for i in BITS[v] for c in codes[8 * r + i]] for v in range(256)] for r in range(9)]


def singles(table: list[list[list[int]]], mask: int, rows: int, out: list[int]) -> None:
    for codes in map(list.__getitem__, table, mask.to_bytes(rows, "little")):
        out += codes


SINGLE = {kind: row_table([[kind | s << 4] for s in range(SPACES)]) for kind in (0, 3, 5)}
SINGLE_EXCAVATE = SINGLE[EXCAVATE]
EAST = row_table([[8 | s << 4 | (s + 1) << 11, 8 | (s + 1) << 4 | s << 11] for s in range(SPACES)])
SOUTH = row_table([[8 | s << 4 | (s + 8) << 11, 8 | (s + 8) << 4 | s << 11] for s in range(SPACES)])
PAIRS: dict[int, list[dict[int, list[int]]]] = {
    kind: [{} for _ in range(SPACES)] for kind in (EXTEND, VIOLET_B, LEMON_B)
}
"""``PAIRS[kind][a][near]``: the codes of ``kind`` from ``a`` to each space of ``near``."""


def pairs(kind: int, firsts: int, free: int, out: list[int]) -> None:
    """The codes of ``kind`` from ``a`` in ``firsts`` to a space of ``free`` next to it."""
    tails = PAIRS[kind]
    for row_spaces in ROW_SPACES:  # spaces(firsts) inlined: no list is built
        if not firsts:
            return
        for a in row_spaces[firsts & 255]:
            near = NEIGHBOURS[a] & free
            if near:
                tail = tails[a].get(near)
                if tail is None:
                    tail = tails[a][near] = [kind | a << 4 | b << 11 for b in spaces(near)]
                out += tail
        firsts >>= 8


def grow(mask: int) -> int:
    """Spaces next to any space of ``mask``."""
    return ((mask << 1) & ~COL_A | (mask >> 1) & ~COL_H | mask << 8 | mask >> 8) & (
        (1 << SPACES) - 1
    )


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

# ---------------------------------------------------------------- the Museum

# Rooms 0..4: 5-rooms; 5..9: 3-rooms; 10..14: 2-rooms (10 + i between wings i and i+1).
DOORS = [(5 + w, 10 + (w - 1) % 5, 10 + w) for w in range(5)]
WING_ROOMS = [(w, 5 + w, 10 + (w - 1) % 5, 10 + w) for w in range(5)]
ROOM_POINTS = [5] * 5 + [3] * 5 + [2] * 5


def open_rooms(museum: list[int], seat: int) -> list[int]:
    rooms = [
        w
        for w in range(5)
        if museum[w] < 0 and seat in (museum[DOORS[w][0]], museum[DOORS[w][1]], museum[DOORS[w][2]])
    ]
    return rooms + [r for r in range(5, 15) if museum[r] < 0]


# ---------------------------------------------------------------- the game


class Game:
    """A 3-player game, changed in place by :meth:`play`."""

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
        self.tilted: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.usable = [0] * PLAYERS
        """Bit ``p``: the seat has an untilted card of patron ``p`` (kept up to date)."""
        self.museum = [EMPTY] * 15
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
        self.free = self.board & ~self.pyramids
        """Spaces with no cube and no pyramid, kept up to date as cubes are placed."""
        self.free_pyramids = self.pyramids
        self.passing: list[int] = []
        self.last_turn = False
        self.in_survey = False
        self.give_turn(first)

    def give_turn(self, seat: int) -> None:
        self.current = seat
        if not self.stock[seat]:
            self.do_pass(seat)

    def next_seat(self, seat: int) -> int:
        for step in (1, 2, 3):
            other = (seat + step) % PLAYERS
            if other not in self.passing:
                return other
        raise AssertionError("nobody left")

    def do_pass(self, seat: int) -> None:
        self.passing.append(seat)
        self.last_turn = False
        left = PLAYERS - len(self.passing)
        if not left:
            self.start_survey()
            return
        if left == 1:
            self.last_turn = True
        self.give_turn(self.next_seat(seat))

    def end_turn(self, seat: int) -> None:
        if self.last_turn:
            self.do_pass(seat)
        else:
            self.give_turn(self.next_seat(seat))

    def tilt(self, seat: int, patron: int) -> None:
        tilted = self.tilted[seat]
        for card in self.cards[seat]:
            if CARD_PATRON[card] == patron and card not in tilted:
                tilted.append(card)
                break
        self.usable[seat] = self.untilted(seat)

    def untilted(self, seat: int) -> int:
        bits = 0
        tilted = self.tilted[seat]
        for card in self.cards[seat]:
            if CARD_PATRON[card] >= 0 and card not in tilted:
                bits |= 1 << CARD_PATRON[card]
        return bits

    # ------------------------------------------------------------ the survey

    def start_survey(self) -> None:
        self.in_survey = True
        self.survey_area(0)

    def survey_area(self, area: int) -> None:
        if area >= len(self.region) // 2:
            self.end_season()
            return
        self.area = area
        mask = AREA[area]
        ranked = sorted(
            (-(self.cubes[s] & mask).bit_count(), self.passing.index(s), s)
            for s in range(PLAYERS)
            if self.cubes[s] & mask
        )
        self.survey = [(rank < 2, seat) for rank, (_, _, seat) in enumerate(ranked)]
        self.run_survey()

    def run_survey(self) -> None:
        """Play the steps that need no decision; stop at the first that does."""
        region, first = self.region, 2 * self.area
        while self.survey:
            choose, seat = self.survey[0]
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
                del self.survey[0]
        self.finish_area()

    def survey_codes(self, choose: bool, seat: int) -> list[int]:
        first = 2 * self.area
        out = [TAKE | p << 4 for p in (first, first + 1) if self.region[p] >= 0]
        if choose and self.reserve[seat]:
            out += [BOOK | room << 4 for room in open_rooms(self.museum, seat)]
        return out

    def survey_effect(self, seat: int, code: int) -> None:
        index = code >> 4 & 127
        if code & 15 == BOOK:
            self.museum[index] = seat
            self.reserve[seat] -= 1
        else:
            card = self.region[index] >> 1
            self.region[index] = EMPTY
            self.score[seat] += CARD_VALUE[card]
            self.cards[seat].append(card)
        del self.survey[0]

    def finish_area(self) -> None:
        mask = AREA[self.area]
        for seat in range(PLAYERS):
            back = self.cubes[seat] & mask
            if back:
                self.reserve[seat] += back.bit_count()
                self.cubes[seat] &= ~mask
        first = 2 * self.area
        self.region[first] = self.region[first + 1] = EMPTY
        self.survey_area(self.area + 1)

    def end_season(self) -> None:
        last = self.passing[-1]
        for seat, tilted in enumerate(self.tilted):
            tilted.clear()
            self.usable[seat] = self.untilted(seat)
        if self.season == 4:
            self.over = True
            self.current = EMPTY
            return
        self.start_season(last)

    # ------------------------------------------------------------ legal actions

    def legal(self) -> list[int]:
        """Every legal code of the player deciding, in core's order."""
        seat = self.current
        if self.in_survey:
            return self.survey_codes(*self.survey[0])
        stock = self.stock[seat]
        if not stock:
            return [PASS]
        free = self.free
        rows = self.rows
        near = grow(self.cubes[seat])
        frontier = near & free
        out: list[int] = []
        for codes in map(list.__getitem__, SINGLE_EXCAVATE, free.to_bytes(rows, "little")):
            out += codes  # singles() inlined: every decision lists these
        if stock >= 2:
            pairs(EXTEND, frontier, free, out)
        out.append(PASS)
        usable = self.usable[seat]
        if not usable:
            return out
        if usable & 1 << VIOLET and self.reserve[seat]:
            singles(SINGLE[VIOLET_A], free, rows, out)
            pairs(VIOLET_B, frontier, free, out)
        if usable & 1 << LEMON:
            pyramids = self.free_pyramids
            singles(SINGLE[LEMON_A], pyramids, rows, out)
            if stock >= 2:
                pairs(LEMON_B, near & free, pyramids, out)
                pairs(LEMON_B, near & pyramids, free, out)
        if usable & 1 << BROWN_P:
            out += [BROWN | room << 4 for room in open_rooms(self.museum, seat)]
        if usable & 1 << BLACKMORE_P and stock >= 2:
            singles(EAST, free & free >> 1 & ~COL_H, rows, out)
            singles(SOUTH, free & free >> 8, rows, out)
        if usable & 1 << TANGERINE_P and stock >= 3:
            for a in spaces(frontier):
                for b in spaces(NEIGHBOURS[a] & free):
                    head = TANGERINE | a << 4 | b << 11
                    out += [head | c << 18 for c in spaces(NEIGHBOURS[b] & free & ~(1 << a))]
        return out

    # ------------------------------------------------------------ playing a code

    def play(self, code: int) -> None:
        """Apply a legal code (not checked)."""
        kind = code & 15
        seat = self.current
        if kind == PASS:
            self.do_pass(seat)
        elif kind >= TAKE:
            self.survey_effect(seat, code)
            self.run_survey()
        elif kind == BROWN:
            self.museum[code >> 4 & 127] = seat
            self.stock[seat] -= 1
            self.tilt(seat, BROWN_P)
            self.end_turn(seat)
        else:
            placed = PLACED[kind]
            self.stock[seat] -= placed
            patron = PATRON_OF_KIND.get(kind)
            if patron is not None:
                self.tilt(seat, patron)
                if patron == VIOLET:
                    self.stock[seat] += 1
                    self.reserve[seat] -= 1
            mask = 1 << (code >> 4 & 127)
            if placed > 1:
                mask |= 1 << (code >> 11 & 127)
                if placed > 2:
                    mask |= 1 << (code >> 18 & 127)
            self.cubes[seat] |= mask
            self.free &= ~mask
            self.free_pyramids &= ~mask
            self.end_turn(seat)

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
    decisions = 0
    while not game.over:
        codes = game.legal()
        game.play(codes[int(rng.random() * len(codes))])
        decisions += 1
    return decisions
