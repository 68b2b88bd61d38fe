"""The flow of a game: setup, seasons, turns, the survey, and the effect of each action.

Public entry points: :func:`new_game`, :func:`legal_actions`, :func:`apply_action`,
:func:`is_over`. Automatic steps (dealing, forced passes, single-option survey takings,
discards, cubes going home) happen inside ``apply_action``; :func:`apply_action_with_events`
also reports them in words so a player can follow.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import itemgetter
from typing import TypeVar

import msgspec
from msgspec.structs import replace

from core.actions import _FROM_CODE as _INTERNED
from core.actions import (
    _TO_CODE,
    A_SHIFT,
    BOOK,
    BROWN,
    FIELD_MASK,
    KIND_MASK,
    KIND_PATRON,
    NEUTRAL_PARCEL,
    NEUTRAL_SKIP,
    PASS,
    PLACED_COUNT,
    TANGERINE,
    Action,
    code_spaces,
    from_code,
    kind_of,
    to_code,
)
from core.caches import register
from core.cards import CARDS, PATRON_OF, PATRONS, Patron, on_new_cards
from core.explain import describe_code
from core.moves import can_place_neutral, legal_codes, survey_codes
from core.museum import ROOMS
from core.refusals import explain_illegal
from core.region import AREA_MASK, Face, face_card, pyramid_mask
from core.state import (
    CUBES_PER_COLOUR,
    EMPTY,
    NEUTRAL,
    PARCELS_PER_SEASON,
    SEASONS,
    Colour,
    GameState,
    Phase,
    PlayerState,
    Seat,
    SurveyStep,
    cube_holders,
    cube_index,
)

STOCK_PER_SEASON = {2: 11, 3: 11, 4: 8}
NEUTRAL_PER_SEASON = 4


class Event(msgspec.Struct, frozen=True):
    """Something that happened during an action, told in words (``seat`` None: nobody's)."""

    text: str
    seat: Seat | None = None


Events = list[Event] | None


# ---------------------------------------------------------------- setup


class Deal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What chance decides at setup: the 36 parcels in dealing order (``card * 2 +
    rotation``), the first player and the patron of each Museum wing. ``new_game`` draws
    it from a seed; an exported shared game carries it instead (its seed would deal the
    real order of the parcels not yet dealt)."""

    deck: tuple[Face, ...]
    first: Seat
    wings: tuple[int, ...]


def deal_of(start: GameState) -> Deal:
    """The deal a game began with, from its first position (season 1's parcels are dealt
    there, so they head the deck again)."""
    return Deal(start.region + start.deck, start.first_player, start.wings)


def new_game(
    players: int,
    seed: int,
    names: Sequence[str] | None = None,
    colours: Sequence[Colour] | None = None,
    deal: Deal | None = None,
) -> GameState:
    """A new game for 2..4 players, with the deck, first player and wings drawn from
    ``seed``, or taken from ``deal`` (checked: every card once, a first player at the
    table, each patron's wing once; ``ValueError`` otherwise)."""
    if type(players) is not int or not 2 <= players <= 4:
        raise ValueError(f"Mykerinos is for 2 to 4 players, not {players!r}")
    if names is None and colours is None:
        # The usual table (every simulated game starts here): its players made once.
        seats, colours = _DEFAULT_SEATS[players]
    else:
        colours = list(colours) if colours is not None else list(Colour)[:players]
        names = list(names) if names is not None else [c.value.title() for c in colours]
        if len(names) != players or len(colours) != players or len(set(colours)) != players:
            raise ValueError("give one name and one distinct colour per player")
        seats = tuple(PlayerState(str(n), Colour(c)) for n, c in zip(names, colours, strict=True))
    if deal is None:
        rng = random.Random(seed)
        cards = list(range(len(CARDS)))
        rng.shuffle(cards)
        deck = tuple([card * 2 + rng.getrandbits(1) for card in cards])
        first = rng.randrange(players)
        wings = tuple(rng.sample(range(len(PATRONS)), len(PATRONS)))
    else:
        deck, first, wings = deal.deck, deal.first, deal.wings
        if sorted(face_card(f) for f in deck if 0 <= f < 2 * len(CARDS)) != list(range(len(CARDS))):
            raise ValueError("a deal holds each of the 36 parcels once")
        if not 0 <= first < players or sorted(wings) != list(range(len(PATRONS))):
            raise ValueError("a deal needs a first player at the table and each wing once")
    neutral = next(c for c in Colour if c not in colours) if players == 2 else None
    state = GameState(
        seed=seed,
        players=seats,
        neutral_colour=neutral,
        wings=wings,
        deck=deck,
        season=0,
        phase=Phase.EXCAVATION,
        current=first,
        first_player=first,
        region=(),
        pyramids=0,
        cubes=(0,) * (players + (players == 2)),
        museum=(EMPTY,) * ROOMS,
        passing=(),
        neutral_reserve=CUBES_PER_COLOUR if players == 2 else 0,
    )
    return _start_season(state, first, None)


_DEFAULT_SEATS: dict[int, tuple[tuple[PlayerState, ...], tuple[Colour, ...]]] = {
    count: (
        tuple(PlayerState(c.value.title(), c) for c in list(Colour)[:count]),
        tuple(Colour)[:count],
    )
    for count in (2, 3, 4)
}
"""The players of a new game for each count at a table with the default names and colours,
and those colours (states are immutable: every game may start from the same ones)."""


def redetermine(state: GameState, rng: random.Random) -> GameState:
    """A copy of ``state`` with the undealt parcels re-shuffled and re-oriented by ``rng``.

    Computer players simulate on such copies so they never use the real deck order. The
    result depends only on the undealt cards as a set and on ``rng``: they are put in a
    canonical order (increasing card id) before the shuffle, and every orientation is drawn
    from ``rng``. The copy's ``seed`` is 0, whatever the game's: the seed would deal the
    real deck again (``new_game``), and a copy is a simulation, not a replayable game.
    """
    cards = sorted([face >> 1 for face in state.deck])  # face_card, inlined
    rng.shuffle(cards)
    deck = tuple(card * 2 + rng.getrandbits(1) for card in cards)
    return replace(state, deck=deck, seed=0)


# ---------------------------------------------------------------- the public contract


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of the player deciding now, in a stable order (empty when over)."""
    cached_state, codes = _LAST.pair  # _cached_codes, inlined (a UI's or a player's hot path)
    if cached_state is not state:
        codes = legal_codes(state)
        _LAST.pair = (state, codes)
    try:
        if len(codes) > 1:
            # One C call looks every code up, quicker than tuple(map(...)) by a third.
            actions: tuple[Action, ...] = itemgetter(*codes)(_INTERNED)
            return actions
        return tuple(map(_INTERNED.__getitem__, codes))
    except KeyError:
        return tuple(map(from_code, codes))


_OVER = Phase.OVER  # an Enum member's look-up is a Python call: this is read every decision


def is_over(state: GameState) -> bool:
    return state.phase is _OVER


def apply_action(state: GameState, action: Action) -> GameState:
    """The state after ``action``; ``state`` is unchanged.

    Raises :class:`~core.errors.IllegalActionError` (saying why) for an action that is not
    legal now, and its subclass :class:`~core.errors.MalformedActionError` for one that is
    not even well formed.
    """
    # _apply_checked with its calls inlined, the same steps: every action of a game or a UI.
    try:
        action_code = _TO_CODE[action]  # to_code's look-up (it reports what is malformed)
    except (KeyError, TypeError):
        action_code = to_code(action)
    cached_state, codes = _LAST.pair
    if cached_state is not state:
        codes = _cached_codes(state)
    if action_code not in codes:
        raise explain_illegal(state, action_code, action)
    return apply_code(state, action_code)


def apply_action_with_events(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Like :func:`apply_action`, also returning what happened, in words."""
    events: list[Event] = []
    return _apply_checked(state, action, events), events


class _LastCodes:
    """``legal_codes`` of the last state asked about: a UI or a player usually asks for the
    legal actions and then applies one of them. (One tuple, swapped atomically, so threads
    at worst recompute.)"""

    __slots__ = ("pair",)

    def __init__(self) -> None:
        self.pair: tuple[GameState | None, list[int]] = (None, [])

    def clear(self) -> None:
        self.pair = (None, [])

    def __len__(self) -> int:
        return 0 if self.pair[0] is None else 1


_LAST = register(_LastCodes())


def _cached_codes(state: GameState) -> list[int]:
    cached_state, codes = _LAST.pair
    if cached_state is not state:
        codes = legal_codes(state)
        _LAST.pair = (state, codes)
    return codes


def _apply_checked(state: GameState, action: Action, events: Events) -> GameState:
    action_code = to_code(action)
    if action_code not in _cached_codes(state):
        raise explain_illegal(state, action_code, action)
    return apply_code(state, action_code, events)


# ---------------------------------------------------------------- effects


def apply_code(state: GameState, action_code: int, events: Events = None) -> GameState:
    """Apply a legal action given by its code (not checked: the fast path for simulations)."""
    kind = action_code & KIND_MASK  # kind_of and field inlined: the hottest function
    seat = state.current
    if kind <= TANGERINE:
        if kind == PASS:
            return _pass(state, seat, events)
        if kind == BROWN:
            state = _to_museum(state, seat, action_code >> A_SHIFT & FIELD_MASK, from_stock=True)
            state = _tilt(state, seat, Patron.BROWN)
            if events is not None:
                _tell(events, state, seat, describe_code(state, action_code))
            return _end_turn(state, seat, events)
        return _excavate(state, seat, action_code, events)
    if kind <= NEUTRAL_SKIP:
        if kind != NEUTRAL_SKIP:
            state = _place_neutral(state, action_code, seat)
        if events is not None:
            _tell(events, state, seat, describe_code(state, action_code))
        state = replace(state, neutral_pending=False)
        return _end_turn(state, seat, events)
    return _survey_choice(state, seat, action_code, events)


def _excavate(state: GameState, seat: Seat, action_code: int, events: Events) -> GameState:
    kind = action_code & KIND_MASK
    patron = _KIND_PATRON[kind]  # Brown never comes here: apply_code handles it
    player = state.players[seat]
    stock = player.stock - _PLACED_COUNT[kind]
    if patron is None:
        player = replace(player, stock=stock)
    else:
        tilted = (*player.tilted, _untilted_card(player, patron))
        if patron is _VIOLET:  # she brings a cube from the reserve to the stock
            player = replace(player, stock=stock + 1, reserve=player.reserve - 1, tilted=tilted)
        else:
            player = replace(player, stock=stock, tilted=tilted)
    placed = _PLACED_MASK.get(action_code)
    if placed is None:
        placed = placed_mask(action_code)
    # _with, inlined. A tuple with one entry changed is made as [*t], set, tuple(): in
    # CPython 3.11 that is about twice as quick as (*t[:i], x, *t[i + 1 :]), which copies
    # two slices (and these are made at every action).
    changed_cubes = [*state.cubes]
    changed_cubes[seat] |= placed
    changed_players = [*state.players]
    changed_players[seat] = player
    cubes, players = tuple(changed_cubes), tuple(changed_players)
    if events is None and not state.last_turn and (patron is not None or len(players) > 2):
        # The usual case in one step: play moves on to the next seat, which has not passed
        # and has cubes to place (anything else takes the general path below).
        after = seat + 1
        if after == len(players):
            after = 0
        if after not in state.passing and players[after].stock:
            return replace(state, cubes=cubes, players=players, current=after)
    state = replace(state, cubes=cubes, players=players)
    if events is not None:
        _tell(events, state, seat, describe_code(state, action_code))
    if patron is None and len(players) == 2 and can_place_neutral(state, seat):
        return replace(state, neutral_pending=True)
    return _end_turn(state, seat, events)


# Module globals are read faster than attributes and the enum member (hot path).
_KIND_PATRON, _PLACED_COUNT, _VIOLET = KIND_PATRON, PLACED_COUNT, Patron.VIOLET
# The spaces of each placement code met so far: a bounded set (a few thousand codes).
_PLACED_MASK: dict[int, int] = register({})  # filled by placed_mask


def placed_mask(action_code: int) -> int:
    """The spaces an action puts cubes on (memoised: a few thousand codes)."""
    mask = _PLACED_MASK.get(action_code)
    if mask is None:
        mask = _PLACED_MASK[action_code] = sum(1 << s for s in code_spaces(action_code))
    return mask


def _place_neutral(state: GameState, action_code: int, seat: Seat) -> GameState:
    """Put the action's cubes on the region for the neutral, from ``seat``'s neutral cubes."""
    cubes = list(state.cubes)
    cubes[cube_index(state, NEUTRAL)] |= placed_mask(action_code)
    player = state.players[seat]
    held = player.neutral_stock - PLACED_COUNT[kind_of(action_code)]
    player = replace(player, neutral_stock=held)
    return replace(state, cubes=tuple(cubes), players=_with(state.players, seat, player))


def _untilted_card(player: PlayerState, patron: Patron) -> int:
    """The player's first untilted card of ``patron`` (the one an action turns)."""
    tilted = player.tilted
    for card in player.cards:  # a loop, not next(generator): no frame made per action
        if PATRON_OF[card] is patron and card not in tilted:
            return card
    raise AssertionError("no untilted card of that patron")  # pragma: no cover - checked


def _tilt(state: GameState, seat: Seat, patron: Patron) -> GameState:
    """Turn the player's first untilted card of ``patron``."""
    player = state.players[seat]
    player = replace(player, tilted=(*player.tilted, _untilted_card(player, patron)))
    return replace(state, players=_with(state.players, seat, player))


def _move_cubes(state: GameState, seat: Seat, reserve: int = 0, stock: int = 0) -> GameState:
    player = state.players[seat]
    player = replace(player, reserve=player.reserve + reserve, stock=player.stock + stock)
    return replace(state, players=_with(state.players, seat, player))


def _to_museum(state: GameState, seat: Seat, room: int, from_stock: bool) -> GameState:
    museum = list(state.museum)
    museum[room] = seat
    state = replace(state, museum=tuple(museum))
    if from_stock:
        return _move_cubes(state, seat, stock=-1)
    return _move_cubes(state, seat, reserve=-1)


T = TypeVar("T")


def _with(items: tuple[T, ...], index: int, item: T) -> tuple[T, ...]:
    """``items`` with the entry at ``index`` replaced by ``item``."""
    changed = [*items]  # quicker than joining two slices (see _excavate)
    changed[index] = item
    return tuple(changed)


def _tell(events: Events, state: GameState, seat: Seat | None, text: str) -> None:
    """Record an event; ``{}`` in ``text`` becomes the seat's name."""
    if events is not None:
        name = "The neutral" if seat is None or seat == NEUTRAL else state.players[seat].name
        events.append(Event(text.format(name), seat))


# ---------------------------------------------------------------- turns and passing


def _pass(state: GameState, seat: Seat, events: Events) -> GameState:
    """Put ``seat`` on the lowest free passing space; start the survey once all have."""
    passing = list(state.passing)
    space = passing.index(EMPTY)
    passing[space] = seat
    state = replace(state, passing=tuple(passing), last_turn=False)
    if events is not None:
        _tell(events, state, seat, f"{{}} passes (passing space {space + 1})")
    still_in = [s for s in range(len(state.players)) if s not in passing]
    if not still_in:
        return _start_survey(state, events)
    if len(still_in) == 1:
        state = replace(state, last_turn=True)
    return _give_turn(state, next_seat(state, seat), events)


def _end_turn(state: GameState, seat: Seat, events: Events) -> GameState:
    """After a non-pass action: the last player is placed on the scale, else play moves on."""
    if state.last_turn:
        return _pass(state, seat, events)
    return _give_turn(state, next_seat(state, seat), events)


def next_seat(state: GameState, seat: Seat) -> Seat:
    """The first seat after ``seat`` in turn order that has not passed (``seat`` itself when
    it is the only one left)."""
    count = len(state.players)
    passing = state.passing
    other = (seat + 1) % count
    if other not in passing:  # the usual case, answered without a loop
        return other
    for step in range(2, count + 1):
        other = (seat + step) % count
        if other not in passing:
            return other
    raise AssertionError("no player left to play")  # pragma: no cover - callers check


def _give_turn(state: GameState, seat: Seat, events: Events) -> GameState:
    """Make ``seat`` decide; with an empty stock, passing is all it can do, so it passes."""
    state = replace(state, current=seat)
    if state.players[seat].stock == 0:
        _tell(events, state, seat, "{} has no cube in stock")
        return _pass(state, seat, events)
    return state


# ---------------------------------------------------------------- seasons


def _start_season(state: GameState, first: Seat, events: Events) -> GameState:
    """Phase 1: stock allotments (limited by the reserve), deal the region, first player."""
    season = state.season + 1
    allot = STOCK_PER_SEASON[len(state.players)]
    players = [
        replace(p, reserve=p.reserve - min(allot, p.reserve), stock=p.stock + min(allot, p.reserve))
        for p in state.players
    ]
    neutral_reserve = state.neutral_reserve
    if len(players) == 2:
        # 4 neutral cubes each; if fewer remain, they are shared one by one, first player first.
        for i in range(2 * NEUTRAL_PER_SEASON):
            if neutral_reserve == 0:
                break
            seat = (first + i) % 2
            players[seat] = replace(players[seat], neutral_stock=players[seat].neutral_stock + 1)
            neutral_reserve -= 1
    count = PARCELS_PER_SEASON[season - 1]
    region = state.deck[:count]
    state = replace(
        state,
        season=season,
        phase=Phase.EXCAVATION,
        players=tuple(players),
        neutral_reserve=neutral_reserve,
        deck=state.deck[count:],
        region=region,
        pyramids=pyramid_mask(region),
        cubes=(0,) * len(state.cubes),
        passing=(EMPTY, NEUTRAL, EMPTY, EMPTY) if len(players) == 2 else (EMPTY,) * len(players),
        first_player=first,
        last_turn=False,
        neutral_pending=False,
    )
    if events is not None:
        _tell(events, state, None, f"Season {season} begins: {count} parcels dealt")
    return _give_turn(state, first, events)


def _end_season(state: GameState, events: Events) -> GameState:
    """Clear the scale, untilt every card; the last player placed there starts next season."""
    last = next(seat for seat in reversed(state.passing) if seat not in (EMPTY, NEUTRAL))
    players = tuple(replace(p, tilted=()) for p in state.players)
    state = replace(
        state, players=players, survey_area=EMPTY, survey_steps=(), region=(), pyramids=0
    )
    if state.season == SEASONS:
        _tell(events, state, None, "The game is over: the exhibition is scored")
        return replace(state, phase=Phase.OVER, current=EMPTY, passing=())
    return _start_season(state, last, events)


# ---------------------------------------------------------------- the survey


def _start_survey(state: GameState, events: Events) -> GameState:
    state = replace(state, phase=Phase.SURVEY, last_turn=False, neutral_pending=False)
    _tell(events, state, None, "Everyone has passed: the survey begins")
    return _survey_area(state, 0, events)


def ranking(state: GameState, area: int) -> list[Seat]:
    """Holders of cubes in ``area``, most cubes first, ties to the lower passing space."""
    mask = AREA_MASK[area]
    index = state.passing.index
    # A plain loop (a comprehension is a function call in 3.11), over the masks by index:
    # zip(..., strict=True) costs as much as the loop for its keyword alone.
    holders = cube_holders(state)
    ranked = []
    for i, cubes in enumerate(state.cubes):
        if cubes & mask:
            seat = holders[i]
            ranked.append((-(cubes & mask).bit_count(), index(seat), seat))
    if len(ranked) > 1:
        ranked.sort()
    return [seat for _, _, seat in ranked]


def survey_plan(state: GameState, ranks: list[Seat]) -> tuple[tuple[SurveyStep, Seat], ...]:
    """The steps of an area's survey, from its ranking (RULES.md §4 phase 3 and §8)."""
    key = tuple(ranks)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = _plan(ranks)
    return plan


# The survey plan of each ranking met (a few hundred at most: the orders of up to four
# holders): the same rankings come back in every season of every simulated game.
_PLANS: dict[tuple[Seat, ...], tuple[tuple[SurveyStep, Seat], ...]] = register({})


def _plan(ranks: list[Seat]) -> tuple[tuple[SurveyStep, Seat], ...]:
    choose, take, pick = SurveyStep.CHOOSE, SurveyStep.TAKE, SurveyStep.PICK_NEUTRAL
    if NEUTRAL in ranks[:2]:
        if len(ranks) == 1:
            return ()  # the neutral alone: both parcels are discarded
        if ranks[0] == NEUTRAL:
            picker = 1 - ranks[1]  # the real player not ranked 2nd picks the neutral's parcel
            plan = [(pick, picker), (choose, ranks[1])]
        else:
            plan = [(choose, ranks[0]), (pick, ranks[0])]
        return tuple(plan + [(take, seat) for seat in ranks[2:]])
    plan = [(choose, seat) for seat in ranks[:2]] + [(take, seat) for seat in ranks[2:]]
    return tuple((step, seat) for step, seat in plan if seat != NEUTRAL)


def _survey_area(state: GameState, area: int, events: Events) -> GameState:
    """Begin surveying ``area`` (or end the season after the last one)."""
    if area >= len(state.region) // 2:
        return _end_season(state, events)
    ranks = ranking(state, area)
    state = replace(state, survey_area=area, survey_steps=survey_plan(state, ranks))
    if events is not None:
        names = ", ".join(_holder_name(state, seat) for seat in ranks) or "nobody"
        _tell(events, state, None, f"Survey of area {area + 1}, ranked: {names}")
    return _run_survey(state, events)


def _holder_name(state: GameState, seat: Seat) -> str:
    return "the neutral" if seat == NEUTRAL else state.players[seat].name


def _run_survey(state: GameState, events: Events) -> GameState:
    """Play survey steps that need no decision, and stop at the first one that does."""
    while state.survey_steps:
        step, seat = state.survey_steps[0]
        first = 2 * state.survey_area  # area_parcels, inlined (hot in simulations)
        if state.region[first] >= 0 and state.region[first + 1] >= 0:
            return replace(state, current=seat)  # two parcels left: always a choice
        options = survey_codes(state, step, seat)
        if len(options) >= 2:
            return replace(state, current=seat)
        if options:
            state = _survey_effect(state, seat, options[0], events)
        else:
            if events is not None and step is not SurveyStep.PICK_NEUTRAL:
                _tell(events, state, seat, "{} gets nothing: no parcel left")
            state = replace(state, survey_steps=state.survey_steps[1:])
    return _finish_area(state, events)


def _survey_choice(state: GameState, seat: Seat, action_code: int, events: Events) -> GameState:
    state = _survey_effect(state, seat, action_code, events)
    return _run_survey(state, events)


def _survey_effect(state: GameState, seat: Seat, action_code: int, events: Events) -> GameState:
    """Take a parcel, book a room, or discard the neutral's parcel; the step is done."""
    kind, index = action_code & KIND_MASK, action_code >> A_SHIFT & FIELD_MASK  # hot: inlined
    steps = state.survey_steps[1:]
    if kind == BOOK:
        # _to_museum from the reserve, with the step done, in one copy of the state.
        player = state.players[seat]
        player = replace(player, reserve=player.reserve - 1)
        museum = _with(state.museum, index, seat)
        players = _with(state.players, seat, player)
        state = replace(state, museum=museum, players=players, survey_steps=steps)
        if events is not None:
            _tell(events, state, seat, describe_code(state, action_code))
        return state
    card = face_card(state.region[index])
    region = _with(state.region, index, EMPTY)
    if kind == NEUTRAL_PARCEL:
        state = replace(state, region=region, discard=(*state.discard, card))
        if events is not None:
            text = f"{{}} gives parcel P{index + 1} ({CARDS[card]}) to the neutral: discarded"
            _tell(events, state, seat, text)
    else:
        player = state.players[seat]
        value = _CARD_VALUE[card]
        player = replace(player, score=player.score + value, cards=(*player.cards, card))
        players = _with(state.players, seat, player)
        state = replace(state, region=region, players=players, survey_steps=steps)
        if events is not None:
            text = f"{{}} takes parcel P{index + 1} ({CARDS[card]}, +{value})"
            _tell(events, state, seat, text)
        return state
    return replace(state, survey_steps=steps)


# A card's value by id, without an attribute look-up (refilled when the cards change).
_CARD_VALUE: list[int] = []


@on_new_cards
def _card_values() -> None:
    _CARD_VALUE[:] = [card.value for card in CARDS]


def _finish_area(state: GameState, events: Events) -> GameState:
    """Discard the parcels nobody took; every cube on the area goes back to its reserve."""
    area = state.survey_area
    region = state.region
    discard = state.discard
    for parcel in (2 * area, 2 * area + 1):  # area_parcels, inlined
        if region[parcel] != EMPTY:
            discard = (*discard, face_card(region[parcel]))
            region = _with(region, parcel, EMPTY)
            if events is not None:
                text = f"Nobody takes parcel P{parcel + 1} ({CARDS[discard[-1]]}): discarded"
                _tell(events, state, None, text)
    mask = AREA_MASK[area]
    if events is not None and any(cubes & mask for cubes in state.cubes):
        _tell(events, state, None, f"The cubes on area {area + 1} go back to their reserves")
    # One loop over the masks by index (as in ranking) makes the masks left and gives each
    # holder's cubes back.
    holders = cube_holders(state)
    players = [*state.players]
    neutral_back = 0
    left = []
    for i, cubes in enumerate(state.cubes):
        back = cubes & mask
        left.append(cubes ^ back)
        if back:
            holder = holders[i]
            if holder == NEUTRAL:
                neutral_back = back.bit_count()
            else:
                player = players[holder]
                players[holder] = replace(player, reserve=player.reserve + back.bit_count())
    state = replace(
        state,
        region=region,
        discard=discard,
        players=tuple(players),
        cubes=tuple(left),
        neutral_reserve=state.neutral_reserve + neutral_back,
        survey_steps=(),
    )
    return _survey_area(state, area + 1, events)


__all__ = [
    "Event",
    "apply_action",
    "apply_action_with_events",
    "apply_code",
    "is_over",
    "legal_actions",
    "new_game",
    "ranking",
    "redetermine",
]
