"""The game's data: a frozen, JSON-ready snapshot of everything on the table.

A ``GameState`` is never mutated: the rules build a new one for every action. Fields are
plain ints and tuples so that copying is cheap and ``msgspec`` encodes a state to JSON and
back unchanged. Sets of region spaces are bitmasks (see :mod:`core.region`).
"""

from __future__ import annotations

import enum

import msgspec

from core.region import Face

Seat = int
"""A player's seat, 0..3, in turn order."""

NEUTRAL: Seat = -2
"""The neutral archaeologist of a 2-player game, wherever a holder of cubes is named: on the
passing scale, in an area's ranking, in the survey steps, in events. It is never an index:
its cubes on the region are ``state.cubes[cube_index(state, NEUTRAL)]``."""
EMPTY = -1
"""An empty Museum room or passing space; a parcel no longer in the region."""

CUBES_PER_COLOUR = 25
SEASONS = 4
PARCELS_PER_SEASON = (8, 8, 8, 12)
"""Parcels dealt in seasons 1, 2, 3 and 4 (RULES.md §4)."""


class Colour(enum.StrEnum):
    """The four archaeologist colours. Each player is also told apart by a letter."""

    BLUE = "blue"
    RED = "red"
    GREEN = "green"
    WHITE = "white"

    @property
    def letter(self) -> str:
        return self.name[0]


class Phase(enum.IntEnum):
    """Where the game is: placing cubes, surveying areas, or over."""

    EXCAVATION = 1
    SURVEY = 2
    OVER = 3


class SurveyStep(enum.IntEnum):
    """A pending step of the survey of an area."""

    CHOOSE = 0
    """1st or 2nd: take a parcel or book a Museum room."""
    TAKE = 1
    """3rd or 4th: take a parcel if one is left."""
    PICK_NEUTRAL = 2
    """2 players: choose which parcel the neutral takes."""

    # The int's own hash, in C (the same value): Enum's is a Python call, and the survey's
    # steps are hashed in the computer players' memo keys, thousands of times a decision.
    __hash__ = int.__hash__


# gc=False on the two structs below: they hold only immutable values made before them, so
# they can never be part of a reference cycle, and the garbage collector need not track
# them. Untracked, each of the several copies the rules make per action is a little
# cheaper to make and to free (callgrind: -0.8% instructions a random game).


class PlayerState(msgspec.Struct, frozen=True, gc=False):
    """One player's belongings. ``score`` counts parcel points taken so far; the
    exhibition and series are added by :func:`core.final_scores` at the end."""

    name: str
    colour: Colour
    score: int = 0
    reserve: int = CUBES_PER_COLOUR
    stock: int = 0
    neutral_stock: int = 0
    cards: tuple[int, ...] = ()
    """Card ids owned, in the order taken."""
    tilted: tuple[int, ...] = ()
    """Cards turned this season (their power is spent until the season ends)."""


class GameState(msgspec.Struct, frozen=True, gc=False):
    """Everything about a game in progress.

    ``deck`` is hidden information: the undealt parcels in dealing order. Computer players
    must not read it (use :func:`core.redetermine` to get a copy with it re-shuffled).
    """

    seed: int
    players: tuple[PlayerState, ...]
    neutral_colour: Colour | None
    wings: tuple[int, ...]
    """The patron of each Museum wing, chosen at setup."""
    deck: tuple[Face, ...]
    season: int
    phase: Phase
    current: Seat
    """The seat deciding now, EMPTY when the game is over; see :attr:`current_player`."""
    first_player: Seat
    region: tuple[Face, ...]
    """The season's parcels by position, EMPTY once taken or discarded."""
    pyramids: int
    """Mask of the pyramid spaces of this season's parcels."""
    cubes: tuple[int, ...]
    """Mask of each holder's cubes on the region: one entry per seat, then one for the
    neutral with 2 players (see :func:`cube_holders`, :func:`cube_index`)."""
    museum: tuple[Seat, ...]
    """The seat holding each of the 15 rooms, or EMPTY."""
    passing: tuple[Seat, ...]
    """The occupant of each passing space (1..4), or EMPTY; NEUTRAL on space 2 with 2 players."""
    neutral_reserve: int = 0
    last_turn: bool = False
    """Exactly one player has not passed: this is their one last action."""
    neutral_pending: bool = False
    """2 players: the current player has done A or B and may now place neutral cubes."""
    survey_area: int = EMPTY
    survey_steps: tuple[tuple[SurveyStep, Seat], ...] = ()
    """The survey of ``survey_area`` still to do; the first step is being decided now."""
    discard: tuple[int, ...] = ()
    """Card ids of discarded parcels."""

    @property
    def current_player(self) -> Seat | None:
        """The seat that must decide now, or None once the game is over."""
        return None if self.current == EMPTY else self.current

    @property
    def player_count(self) -> int:
        return len(self.players)

    def has_passed(self, seat: Seat) -> bool:
        return seat in self.passing


def cube_holders(state: GameState) -> tuple[Seat, ...]:
    """Who holds each entry of ``state.cubes``: the seats in turn order, then
    :data:`NEUTRAL` in a 2-player game."""
    return _HOLDERS[len(state.players)]


_HOLDERS = {2: (0, 1, NEUTRAL), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


def cube_index(state: GameState, holder: Seat) -> int:
    """The index of ``holder``'s mask in ``state.cubes``: a seat's own number; the neutral's
    entry comes after the seats (so there is one only with 2 players)."""
    return len(state.players) if holder == NEUTRAL else holder
