"""The heuristic judgement of a position: how many points each player can expect at the end.

:func:`estimates` turns a position into one number per seat, in final-score points:

- what is already certain: parcel points, the exhibition and series of the cards owned with
  the rooms held now (``core.scoring.player_score``);
- what the future is likely to add: more cards in the seasons to come, each worth the best
  room its player holds for its wing, partial series, patron powers still to be used;
- the region of this season: each area's parcels go to its 1st and 2nd (RULES.md §4), so a
  player's share of an area is what those ranks are worth to them times the chance of
  holding them (certain once everyone has passed, a smooth guess before);
- the cube economy: cubes kept in stock carry over to the next season.

It reads only public facts; the region term is left out when ``state`` is in a later season
than the decision being judged, since its parcels would come from the (hidden) deck.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.actions import (
    BLACKMORE,
    EXCAVATE,
    EXTEND,
    KIND_MASK,
    LEMON_A,
    LEMON_B,
    PLACED_COUNT,
    TANGERINE,
)
from core.caches import register
from core.cards import CARDS, PATRON_OF, PATRONS, on_new_cards
from core.museum import FIVE_ROOM_DOORS, WINGS, open_rooms, room_points, room_wings
from core.region import AREA_MASK, area_parcels, face_card
from core.rules import apply_code, next_seat, placed_mask, ranking
from core.scoring import SERIES_BONUS, final_scores
from core.state import (
    EMPTY,
    NEUTRAL,
    PARCELS_PER_SEASON,
    SEASONS,
    GameState,
    Phase,
    Seat,
    SurveyStep,
    cube_holders,
)

# A dealt parcel's worth, read per face (card and orientation) without unpacking it: the
# heuristic asks for it for every parcel, seat and area of every position it judges.
_FACE_VALUE: list[int] = []
_FACE_PATRON: list[int | None] = []
"""The patron of a face as a plain int (indexing with a Patron costs a conversion)."""


@on_new_cards
def _face_tables() -> None:
    faces = range(2 * len(CARDS))
    _FACE_VALUE[:] = [CARDS[face_card(f)].value for f in faces]
    _FACE_PATRON[:] = [None if (p := PATRON_OF[face_card(f)]) is None else int(p) for f in faces]


_WING_ROOMS: tuple[tuple[int, ...], ...] = tuple(
    (wing, WINGS + wing, *FIVE_ROOM_DOORS[wing][1:]) for wing in range(WINGS)
)
"""The rooms that count for a wing, best first: its 5-room, its 3-room, its two 2-rooms."""


@dataclass(frozen=True, slots=True)
class Weights:
    """The tunable judgement of the heuristic (points per unit). Screened one weight at a
    time and together in ``bench/README.md`` (issue 29): :data:`WEIGHT_SETS` names the
    best set found for the normal player; the product keeps these (see there why)."""

    share_taken: float = 0.8
    """Share of the parcels of a future season that players take (the rest is discarded)."""
    series_progress: float = 0.9
    """Worth of one patron of the next series already owned."""
    power_per_season: float = 0.5
    """Worth of a patron card's power for each season it can still be used."""
    stock_cube: float = 0.5
    """Worth of a cube kept in stock for a later season."""
    last_season_stock: float = 0.02
    """Worth of a cube left in stock in the last season (only the tie-break)."""
    sharpness: float = 1.6
    """How sure an area lead of one cube is while players can still place cubes."""
    third_share: float = 0.25
    """Part of a parcel the 3rd of an area can hope for (when someone books instead)."""
    book_cube_cost: float = 0.4
    """A cube booked in the Museum never comes back."""
    best_other: float = 0.5
    """How much of the advantage is measured against the best opponent (the rest against
    the opponents' mean): winning is what counts, not the score."""


WEIGHTS = Weights()
"""The product's judgement (every bot's by default)."""

WEIGHT_SETS: dict[str, Weights] = {
    "today": WEIGHTS,
    "screened": Weights(share_taken=0.6, sharpness=1.0, power_per_season=0.8),
}
"""Judgements by name, for ``bench/tournament.py``'s ``--hero-weights`` (issue 29):
``today`` is the product's; ``screened`` the best of the normal player's screening
(``bench/README.md``): fewer cards expected in the seasons to come, an area's lead of a
cube less sure while cubes can still be placed, a patron's power worth more."""


@dataclass(frozen=True, slots=True, eq=False)
class _Seat:
    """What one player's cards and rooms are worth, precomputed. Frozen: it is cached and
    shared by every evaluation with the same facts. Compared and hashed by identity
    (``eq=False``): the memos of the region's shares are keyed by the seats' worths, and
    an identity hash is a pointer where a field-by-field one would hash every tuple; two
    equal worths are only ever two entries of the same memo."""

    counts: tuple[int, ...]
    room_values: tuple[int, ...]
    future_cards: float
    card_worth: tuple[float, ...]
    """Marginal worth of one more card of each patron (exhibition, series, power)."""
    book_worth: float
    """Best gain of booking a Museum room now (0 if impossible)."""
    standing: tuple[int, float, float, float, float]
    """The terms of a seat's standing (points already certain plus the likely worth of the
    seasons to come) that depend only on these facts: exhibition, series, future cards,
    powers, and the worth of a cube in stock (:func:`estimates` adds parcel points and
    the stock)."""
    ranks: dict[tuple[int, int], tuple[float, float, float]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """What ranking 1st, 2nd, 3rd of an area is worth, by the area's two faces: filled as
    asked (the same few areas are judged over and over within a season)."""


# Enum members are looked up in Python at each use: the hot paths compare with these.
_OVER, _EXCAVATION = Phase.OVER, Phase.EXCAVATION


def estimates(
    state: GameState, season: int | None = None, weights: Weights = WEIGHTS
) -> list[float]:
    """Expected final points of every seat.

    ``season`` is the season of the decision being judged (default: ``state.season``); when
    ``state`` has moved past it, its region (dealt from the hidden deck) is not looked at.
    A finished game gives the final totals exactly.
    """
    if state.phase is _OVER:
        return [float(s.total) for s in final_scores(state).players]
    if season is None:
        season = state.season
    holdings = _holdings(state, weights)
    # Each seat's standing: parcel points, the terms of its worth, and its stock. Inlined,
    # not a call per seat (a measurable part of a search's time).
    values = [
        player.score + exhibition + series + future + powers + stock * player.stock
        for player, (exhibition, series, future, powers, stock) in zip(
            state.players, holdings.standings, strict=True
        )
    ]
    if state.season == season:
        if state.phase is _EXCAVATION:
            _add_excavation_areas(state, state.cubes, holdings, values, weights)
        else:
            _add_survey_areas(state, holdings, values, weights)
    return values


def advantage(
    state: GameState, seat: Seat, season: int | None = None, weights: Weights = WEIGHTS
) -> float:
    """How far ahead of the others ``seat`` expects to finish: its estimate minus a blend of
    the best and the average opponent (``weights.best_other``)."""
    return _lead(estimates(state, season, weights), seat, weights)


def _lead(values: list[float], seat: Seat, weights: Weights) -> float:
    mine = values[seat]
    others = values[:seat] + values[seat + 1 :]
    best = weights.best_other
    return mine - best * max(others) - (1.0 - best) * sum(others) / len(others)


def advantage_after(
    state: GameState, action_code: int, seat: Seat, weights: Weights = WEIGHTS
) -> float:
    """``advantage(apply_code(state, action_code), seat, state.season, weights)``: the same number,
    to the bit, often without making the new state.

    A plain placement (A, B, Lord Lemon, Mrs. Blackmore, Colonel Tangerine) in the middle
    of a turn changes, for the heuristic, only the mover's cubes and stock, as long as the
    next player still has cubes (no forced pass follows): the estimates are then worked out
    from ``state`` and those two facts. Making the new state was about a third of the cost
    of judging a move in the hard player's simulations, which judge ten moves a decision
    and keep one. Any other action is applied, then judged."""
    kind = action_code & KIND_MASK
    if kind in _PLAIN_PLACEMENTS:
        # What every placement from ``state`` shares, worked out once for its first one
        # (the callers judge all the moves of one position in a row).
        last_state, last_weights, parent = _PARENT.last
        if last_state is not state or last_weights is not weights:
            parent = _parent(state, weights)
            _PARENT.last = (state, weights, parent)
        if parent is not None:
            holdings, values, mover, areas = parent
            values = values.copy()
            # The mover's standing again, with the stock it has after placing.
            exhibition, series, future, powers, stock = holdings.standings[mover]
            player = state.players[mover]
            left = player.stock - PLACED_COUNT[kind]
            values[mover] = player.score + exhibition + series + future + powers + stock * left
            # _add_excavation_areas, from the parent's areas: only the one or two areas the
            # placement touches are judged again (the others' shares are the parent's), and
            # the shares are added area by area, in order, as there: the same sums to the bit.
            placed = placed_mask(action_code)
            memo = holdings.excavation
            passing, region = state.passing, state.region
            for area, (counts, parts) in enumerate(areas):
                mask = AREA_MASK[area]
                if placed & mask:
                    changed = [*counts]
                    changed[mover] += (placed & mask).bit_count()
                    counts = tuple(changed)
                    key = (passing, counts, region[2 * area], region[2 * area + 1])
                    found = memo.get(key)
                    if found is None:
                        found = memo[key] = _area_parts(state, area, counts, holdings, weights)
                    parts = found
                for i, part in parts:
                    values[i] += part
            return _lead(values, seat, weights)
    return advantage(apply_code(state, action_code), seat, state.season, weights)


def _area_parts(
    state: GameState,
    area: int,
    counts: tuple[int, ...],
    holdings: _Holdings,
    weights: Weights,
) -> tuple[tuple[Seat, float], ...]:
    """What ``area``, with ``counts`` cubes of each holder, adds to each seat's estimate, as
    (seat, share) pairs (the seats out of it left out): :func:`_area_shares`, memoised in
    ``holdings.excavation`` by the callers."""
    share = _area_shares(state, area, counts, holdings.seats, weights)
    return tuple([(i, part) for i, part in enumerate(share) if part is not None])


def _parent(state: GameState, weights: Weights) -> _Parent | None:
    """For :func:`advantage_after`: the holdings, the standings, the mover of ``state`` and
    each area's cube counts and shares (as :func:`_add_excavation_areas` adds them) if a
    plain placement there changes nothing else the heuristic reads (no last action of the
    season, no forced pass of the next player); else None."""
    if state.phase is not _EXCAVATION or state.last_turn:
        return None
    mover = state.current
    players = state.players
    if not players[next_seat(state, mover)].stock:
        return None
    holdings = _holdings(state, weights)
    values = [
        player.score + exhibition + series + future + powers + stock * player.stock
        for player, (exhibition, series, future, powers, stock) in zip(
            players, holdings.standings, strict=True
        )
    ]
    memo = holdings.excavation
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    passing, region = state.passing, state.region
    areas = []
    for area in range(len(region) // 2):
        mask = AREA_MASK[area]
        counts = tuple([(cubes & mask).bit_count() for cubes in state.cubes])
        key = (passing, counts, region[2 * area], region[2 * area + 1])
        parts = memo.get(key)
        if parts is None:
            parts = memo[key] = _area_parts(state, area, counts, holdings, weights)
        areas.append((counts, parts))
    return holdings, values, mover, areas


_Parent = tuple[
    "_Holdings",
    list[float],
    Seat,
    list[tuple[tuple[int, ...], tuple[tuple[Seat, float], ...]]],
]
"""What :func:`_parent` works out once for the placements judged from one position."""


class _LastParent:
    """:func:`_parent` of the last state and weights asked about (one tuple, swapped at
    once, so two threads at worst work it out twice)."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: tuple[GameState | None, Weights | None, _Parent | None]
        self.last = (None, None, None)

    def clear(self) -> None:
        self.last = (None, None, None)

    def __len__(self) -> int:
        return 0 if self.last[0] is None else 1


_PARENT = register(_LastParent())


_PLAIN_PLACEMENTS = frozenset({EXCAVATE, EXTEND, LEMON_A, LEMON_B, BLACKMORE, TANGERINE})
"""The kinds that only put cubes from the stock on the region (Lady Violet also moves a
cube from the reserve, which the heuristic reads; Brown and the rest place none)."""


# ---------------------------------------------------------------- cards, rooms and stock


def _future_cards(state: GameState, weights: Weights) -> float:
    """Cards a player may still expect in the seasons after this one."""
    later = sum(PARCELS_PER_SEASON[state.season :])
    takers = len(state.players) + (0.6 if len(state.players) == 2 else 0.0)
    return later * weights.share_taken / takers


def _series_worth(counts: Sequence[int], weights: Weights) -> float:
    low = min(counts)
    return SERIES_BONUS * low + weights.series_progress * sum(1 for c in counts if c > low)


_SEAT_CACHE: dict[tuple[object, ...], _Seat] = register({})
_SEAT_CACHE_SIZE = 20_000

Shares = tuple[float | None, ...]
"""What an area adds to each seat's estimate (None: nothing, the seat is out of it)."""


@dataclass(slots=True, eq=False)
class _Holdings:
    """Every seat's worth for one set of cards, rooms and reserves (:func:`_holdings`), and
    the memos of what the region adds to each seat's estimate in that situation.

    Within a season the holdings change only when a card is taken or a room booked, so
    a search meets the same few again and again; the region's areas, with the same cube
    counts and parcels, come back too (the greedy players of a search judge ten moves of
    one position, which differ in one or two areas), and are read from the memos rather
    than worked out again."""

    seats: list[_Seat]
    standings: list[tuple[int, float, float, float, float]]
    excavation: dict[tuple[object, ...], Any] = field(default_factory=dict)
    """By the passing scale, an area's cube counts and parcels: each seat's :data:`Shares`
    of the area; and by the passing scale, the cubes and the region: the whole region's
    shares as (seat, share) pairs, area by area."""
    survey: dict[tuple[object, ...], tuple[tuple[Seat, float], ...]] = field(default_factory=dict)
    """By an area's survey steps (or cube counts and the passing scale) and parcels: what
    each step adds to its player's estimate."""


_HOLDINGS: dict[tuple[object, ...], _Holdings] = register({})
_HOLDINGS_SIZE = 5_000
_MEMO_SIZE = 20_000
"""Entries of one of a holdings' memos before it is emptied (a bound, rarely reached)."""


def _holdings(state: GameState, weights: Weights) -> _Holdings:
    """The :class:`_Holdings` of ``state`` (remembered: they depend only on the key)."""
    key = (
        state.museum,
        state.wings,
        state.season,
        None if weights is WEIGHTS else weights,  # hashing the dataclass costs ~1.4 us
        *[(player.cards, player.reserve > 0) for player in state.players],
    )
    holdings = _HOLDINGS.get(key)
    if holdings is None:
        if len(_HOLDINGS) >= _HOLDINGS_SIZE:
            _HOLDINGS.clear()
        seats = [_seat_worth(state, seat, weights) for seat in range(len(state.players))]
        holdings = _HOLDINGS[key] = _Holdings(seats, [worth.standing for worth in seats])
    return holdings


def _seat_worth(state: GameState, seat: Seat, weights: Weights) -> _Seat:
    """What a player's cards and rooms are worth; they change rarely within a season, so
    the answer is remembered (it depends only on the facts in the key, never on the deck)."""
    player = state.players[seat]
    key = (
        seat,
        player.cards,
        state.museum,
        state.wings,
        player.reserve > 0,
        state.season,
        len(state.players),
        None if weights is WEIGHTS else weights,  # hashing the dataclass costs ~1.4 us
    )
    worth = _SEAT_CACHE.get(key)
    if worth is None:
        if len(_SEAT_CACHE) >= _SEAT_CACHE_SIZE:
            _SEAT_CACHE.clear()
        worth = _SEAT_CACHE[key] = _compute_seat_worth(state, seat, weights)
    return worth


def _compute_seat_worth(state: GameState, seat: Seat, weights: Weights) -> _Seat:
    counts = [0] * len(PATRONS)
    for card in state.players[seat].cards:
        of = PATRON_OF[card]
        if of is not None:
            counts[of] += 1
    museum = state.museum
    room_values = [1] * len(PATRONS)
    for wing, patron in enumerate(state.wings):
        for room in _WING_ROOMS[wing]:
            if museum[room] == seat:
                room_values[patron] = room_points(room)
                break
    future = _future_cards(state, weights)
    later_seasons = SEASONS - state.season
    series = _series_worth(counts, weights)
    card_worth = []
    for patron in range(len(PATRONS)):
        counts[patron] += 1
        gain = _series_worth(counts, weights) - series
        counts[patron] -= 1
        card_worth.append(room_values[patron] + gain + weights.power_per_season * later_seasons)
    book = 0.0
    if state.players[seat].reserve:
        book = _best_booking(state, seat, counts, room_values, future, weights)
    exhibition = sum(n * v for n, v in zip(counts, room_values, strict=True))
    future_points = future / len(PATRONS) * sum(room_values)
    powers = weights.power_per_season * later_seasons * sum(counts)
    stock = weights.stock_cube if later_seasons else weights.last_season_stock
    standing = (exhibition, series, future_points, powers, stock)
    return _Seat(tuple(counts), tuple(room_values), future, tuple(card_worth), book, standing)


def _best_booking(
    state: GameState,
    seat: Seat,
    counts: list[int],
    room_values: list[int],
    future: float,
    weights: Weights,
) -> float:
    best = 0.0
    for room in open_rooms(state.museum, seat):
        points = room_points(room)
        gain = -weights.book_cube_cost
        for wing in room_wings(room):
            patron = state.wings[wing]
            if points > room_values[patron]:
                gain += (points - room_values[patron]) * (counts[patron] + future / len(PATRONS))
        best = max(best, gain)
    return best


def _parcel_worth(state: GameState, parcel: int, worth: _Seat) -> float:
    face = state.region[parcel]
    patron = _FACE_PATRON[face]
    return _FACE_VALUE[face] + (worth.card_worth[patron] if patron is not None else 0.0)


# ---------------------------------------------------------------- the region


def _rank_values(
    state: GameState, area: int, worth: _Seat, weights: Weights
) -> tuple[float, float, float]:
    """What being 1st, 2nd, 3rd of ``area`` is worth to a player."""
    parcels = sorted(
        (_parcel_worth(state, p, worth) for p in area_parcels(area) if state.region[p] != EMPTY),
        reverse=True,
    )
    if not parcels:
        return (worth.book_worth, worth.book_worth, 0.0)
    first = max(parcels[0], worth.book_worth)
    second = max(parcels[-1] if len(parcels) == 2 else 0.0, worth.book_worth)
    return (first, second, weights.third_share * parcels[-1])


def _add_excavation_areas(
    state: GameState,
    all_cubes: tuple[int, ...],
    holdings: _Holdings,
    values: list[float],
    weights: Weights,
) -> None:
    """Each player's expected share of every area, from smooth chances of its ranks, with
    the cubes ``all_cubes`` on the region (``state.cubes``, or those after a placement:
    nothing here reads ``state.cubes``)."""
    memo = holdings.excavation
    passing = state.passing
    region = state.region
    # First the whole region at once: a search's simulations start from the same few
    # positions, so the first plies of each judge the same moves again.
    whole = memo.get((passing, all_cubes, region))
    if whole is None:
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        parts: list[tuple[Seat, float]] = []
        for area in range(len(region) // 2):
            mask = AREA_MASK[area]
            counts = tuple([(cubes & mask).bit_count() for cubes in all_cubes])
            key = (passing, counts, region[2 * area], region[2 * area + 1])
            area_parts = memo.get(key)
            if area_parts is None:
                area_parts = memo[key] = _area_parts(state, area, counts, holdings, weights)
            parts += area_parts
        memo[(passing, all_cubes, region)] = whole = tuple(parts)
    # Added one area at a time, in order, as without the memos: the same sums to the bit.
    for i, part in whole:
        values[i] += part


def _area_shares(
    state: GameState, area: int, counts: tuple[int, ...], seats: list[_Seat], weights: Weights
) -> Shares:
    """Each seat's expected share of ``area``: its chances of each rank times their worth."""
    holders = cube_holders(state)
    passing = state.passing
    active = tuple(h != NEUTRAL and h not in passing for h in holders)
    # Tie-break: a lower passing space wins; players still in will pass later than those out.
    order = tuple(passing.index(h) if h in passing else 10 for h in holders)
    key = (counts, active, order, len(seats), weights.sharpness)
    chances = _AREA_CHANCES.get(key)
    if chances is None:
        if len(_AREA_CHANCES) >= _AREA_CHANCES_SIZE:
            _AREA_CHANCES.clear()
        chances = _AREA_CHANCES[key] = _rank_chances(
            counts, active, order, len(seats), weights.sharpness
        )
    faces = (state.region[2 * area], state.region[2 * area + 1])
    shares: list[float | None] = []
    for i, chance in enumerate(chances):
        if chance is None:
            shares.append(None)
            continue
        worth = seats[i]
        ranks = worth.ranks.get(faces)
        if ranks is None:
            ranks = worth.ranks[faces] = _rank_values(state, area, worth, weights)
        first, second, third = chance
        v1, v2, v3 = ranks
        shares.append(first * v1 + second * v2 + third * v3)
    return tuple(shares)


_AREA_CHANCES: dict[tuple[object, ...], tuple[tuple[float, float, float] | None, ...]] = register(
    {}
)
"""Each player's chances of ranking 1st, 2nd, 3rd in an area, by the area's cube counts and
who is still in: the same few situations come back in every position judged."""
_AREA_CHANCES_SIZE = 100_000


def _rank_chances(
    counts: tuple[int, ...],
    active: tuple[bool, ...],
    order: tuple[int, ...],
    players: int,
    sharpness: float,
) -> tuple[tuple[float, float, float] | None, ...]:
    """Each seat's chances of ranking 1st, 2nd and 3rd in an area (None: out of it, with
    no cube there). The chance of 1st is the product of the chances of ranking above each
    other holder; of 2nd, the sum over each holder of the chance that it alone is above."""
    chances: list[tuple[float, float, float] | None] = []
    for i in range(players):
        if counts[i] == 0 and not active[i]:
            chances.append(None)
            continue
        beats = [
            _chance_above(
                counts[i],
                counts[j],
                order[i] < order[j],
                active[i] or active[j],
                not active[j],
                sharpness,
            )
            for j in range(len(counts))
            if j != i
        ]
        first = math.prod(beats)
        second = 0.0
        for k, lose in enumerate(beats):
            rest = math.prod(b for m, b in enumerate(beats) if m != k)
            second += (1.0 - lose) * rest
        chances.append((first, second, max(0.0, 1.0 - first - second)))
    return tuple(chances)


def _chance_above(
    mine: int, theirs: int, wins_tie: bool, open_fight: bool, they_are_out: bool, sharpness: float
) -> float:
    """Chance that a player ranks above another in an area (1 if the other is not ranked)."""
    if theirs == 0 and they_are_out:
        return 1.0
    margin = mine - theirs + (0.5 if wins_tie else -0.5)
    if not open_fight:
        return 1.0 if margin > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-sharpness * margin))


def _add_survey_areas(
    state: GameState, holdings: _Holdings, values: list[float], weights: Weights
) -> None:
    """The survey: ranks are known; play each remaining step greedily for its player."""
    memo = holdings.survey
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    seats = holdings.seats
    region = state.region
    area = state.survey_area
    steps = state.survey_steps
    key: tuple[object, ...] = (steps, region[2 * area], region[2 * area + 1])
    gains = memo.get(key)
    if gains is None:
        gains = memo[key] = _share_out(state, area, list(steps), seats)
    for seat, gain in gains:
        values[seat] += gain
    passing = state.passing
    all_cubes = state.cubes
    for later in range(area + 1, len(region) // 2):
        mask = AREA_MASK[later]
        counts = tuple([(cubes & mask).bit_count() for cubes in all_cubes])
        key = (counts, passing, region[2 * later], region[2 * later + 1])
        gains = memo.get(key)
        if gains is None:
            ranks = ranking(state, later)
            plan = [
                (SurveyStep.CHOOSE if r < 2 else SurveyStep.TAKE, seat)
                for r, seat in enumerate(ranks)
            ]
            gains = memo[key] = _share_out(state, later, plan, seats)
        for seat, gain in gains:
            values[seat] += gain


def _share_out(
    state: GameState,
    area: int,
    plan: list[tuple[SurveyStep, Seat]],
    seats: list[_Seat],
) -> tuple[tuple[Seat, float], ...]:
    """Give each step's player the parcel they like best (or a booking, if better): what
    each step adds to its player's estimate, in order. It depends only on the plan, the
    area's two parcels and the seats' worths (the memo's key)."""
    gains: list[tuple[Seat, float]] = []
    left = [p for p in area_parcels(area) if state.region[p] != EMPTY]
    for index, (step, seat) in enumerate(plan):
        if not left:
            break
        if seat == NEUTRAL or step is SurveyStep.PICK_NEUTRAL:
            # The neutral's parcel is discarded: the picker removes the one the next
            # real player wants most; otherwise it simply takes what is left.
            nxt = next((s for _, s in plan[index + 1 :] if s != NEUTRAL), None)
            if nxt is None:
                left.pop()
            else:
                left.remove(max(left, key=lambda p: _parcel_worth(state, p, seats[nxt])))
            continue
        worth = seats[seat]
        best = max(left, key=lambda p: _parcel_worth(state, p, worth))
        gain = _parcel_worth(state, best, worth)
        if step is SurveyStep.CHOOSE and worth.book_worth > gain:
            gains.append((seat, worth.book_worth))
            continue
        gains.append((seat, gain))
        left.remove(best)
    return tuple(gains)
