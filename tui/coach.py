"""The coached first game (issue 28): which situation a position is for the player at this
terminal, and the short note that says what is being decided and what to weigh.

Pure (no widgets): :class:`Coach` remembers which notes a game has shown (each once) and
whether coaching is on; the game screen asks it, at every render, which note to show now
and docks that note beside the board. A note never blocks play: it stays while the
decision it is about is being made, and goes once the position changes.

How a coached game is started, and given its coach again when reopened:
:mod:`tui.coached_game`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

import core
from core.state import EMPTY
from tui import decisions

OFF_KEY = "f2"
"""The key that turns coaching off for the rest of the game (free on the game screen)."""
OFF_WORDS = "F2: coaching off"
"""The note's last line: how to turn coaching off."""


class Situation(enum.Enum):
    """A moment of the game the first game explains once, in the order notes are shown
    when several are new at one decision."""

    PLACEMENT = "placement"
    NEUTRAL = "neutral"
    MUSEUM = "museum"
    SURVEY = "survey"
    FINAL = "final scoring"
    PATRON = "patron"
    SEASON_END = "season end"
    PASS = "pass"


PATRON_POWERS = {
    core.Patron.VIOLET: "Violet adds a reserve cube to your stock, then a or b",
    core.Patron.LEMON: "Lemon lets a or b put one cube on a pyramid",
    core.Patron.BROWN: "Brown moves a stock cube into a Museum room",
    core.Patron.BLACKMORE: "Blackmore places 2 cubes anywhere, side by side",
    core.Patron.TANGERINE: "Tangerine places 3 cubes in a chain from yours",
}
"""What each patron's power does (RULES.md §4, D); its key is the game's own
(``decisions.PATRON_KEYS``), put before it in a note."""


def situations(
    state: core.GameState,
    seat: int | None,
    legal: tuple[core.Action, ...],
    *,
    room: bool = False,
) -> list[Situation]:
    """The situations ``state`` is for ``seat`` (the player at this terminal deciding now;
    None when nobody here decides), in the order their notes would be shown. ``legal``:
    the legal actions of ``state``; ``room``: that player is choosing a Museum room."""
    if seat is None or state.current_player != seat or core.is_over(state):
        return []
    found: list[Situation] = []
    keys = decisions.usable_keys(legal)
    excavating = state.phase is core.Phase.EXCAVATION and not state.neutral_pending
    if excavating and "a" in keys:
        found.append(Situation.PLACEMENT)
    if state.neutral_pending:
        found.append(Situation.NEUTRAL)
    if room:
        found.append(Situation.MUSEUM)
    if state.phase is core.Phase.SURVEY:
        found.append(Situation.SURVEY)
    if state.season == 4:  # first in the last season: what all its decisions are for
        found.append(Situation.FINAL)
    if excavating and any(key in decisions.PATRON_KEYS for key in keys):
        found.append(Situation.PATRON)  # before the season's end: it is decided now
    if state.season >= 2:
        found.append(Situation.SEASON_END)
    if excavating and _passing_matters(state, seat):
        found.append(Situation.PASS)
    return found


def _passing_matters(state: core.GameState, seat: int) -> bool:
    """Passing is worth weighing now: another player has passed, the stock cannot pay
    for an extension, or this is the season's last action."""
    others_passed = any(s >= 0 and s != seat for s in state.passing)
    return others_passed or state.players[seat].stock < 2 or state.last_turn


def note(situation: Situation, state: core.GameState, legal: tuple[core.Action, ...]) -> str:
    """The note's words for ``situation`` in ``state`` (RULES.md's rules, the game's keys),
    its last line saying how to turn coaching off."""
    match situation:
        case Situation.PASS:
            words = _pass(state)
        case Situation.SEASON_END:
            words = _season_end(state)
        case Situation.PATRON:
            words = _patron(legal)
        case _:
            words = _WORDS[situation]
    return f"Coach: {words}\n{OFF_WORDS}"


_WORDS = {
    Situation.PLACEMENT: (
        "a starts an excavation: 1 cube on any free space (arrows, Enter). b extends: 2 "
        "cubes next to yours. Each 2 parcels side by side are an area: most cubes there at "
        "the survey picks first."
    ),
    Situation.NEUTRAL: (
        "now the neutral cubes you hold (N): n puts one on any free space, m two (from a "
        "neutral cube, in a chain), x none. The neutral ranks in areas like a player; the "
        "parcels it takes are discarded."
    ),
    Situation.SURVEY: (
        "area by area, most cubes ranks 1st (a tie: the lower passing space). 1st and 2nd "
        "take a parcel (points now, its power next season) or book a Museum room with a "
        "reserve cube: press the option's number."
    ),
    Situation.MUSEUM: (
        "each wing has a 3-room opening onto a 5-room; a 2-room sits between two wings. A "
        "5-room needs your cube next to it first. At the end each card scores your best "
        "room of its wing (5, 3, 2, else 1)."
    ),
    Situation.FINAL: (
        "last season. At the end each card scores the best room you hold in its wing (5, "
        "3, 2, else 1); 5 more per set of all five patrons; the patronless card scores "
        "nothing more."
    ),
}
"""The notes that say the same in every position."""


def _pass(state: core.GameState) -> str:
    free = next((i + 1 for i, s in enumerate(state.passing) if s == EMPTY), None)
    space = f" (space {free} now)" if free is not None else ""
    return (
        f"p passes: you take the lowest free passing space{space}. The last to pass starts "
        "next season; lower spaces win survey ties. Cubes left in your stock carry over."
    )


def _season_end(state: core.GameState) -> str:
    return (
        f"season {state.season - 1} is scored: parcels gave their value at once. Cubes on "
        "the region went back to reserves; stocks, cards and Museum rooms carry over. New "
        "cubes came to your stock."
    )


def _patron(legal: tuple[core.Action, ...]) -> str:
    keys = decisions.usable_keys(legal)
    powers = "; ".join(
        f"{key} {PATRON_POWERS[patron]}"
        for key, patron in decisions.PATRON_KEYS.items()
        if key in keys
    )
    return (
        f"each card's power, once a season: {powers}. Worth it when it wins an area or a "
        "room you could not reach otherwise."
    )


OFF = "off"
"""In what a coach has shown (:meth:`Coach.record`): its coaching was turned off."""


class Coach:
    """One game's coaching: on until turned off; each situation's note shown once.

    ``record`` (what :meth:`record` returned for this game before, e.g. when it was last
    open) goes on from there: the notes it has shown are not shown again, and coaching
    turned off stays off. ``keep`` is called with the new record whenever it changes (a
    note shown, coaching turned off), so the game's owner can remember it."""

    def __init__(
        self,
        record: tuple[str, ...] = (),
        keep: Callable[[tuple[str, ...]], None] | None = None,
    ) -> None:
        known = {situation.value: situation for situation in Situation}
        self.on = OFF not in record
        self.shown: set[Situation] = {known[value] for value in record if value in known}
        """The situations whose note this game has shown."""
        self.showing: Situation | None = None
        self._at: core.GameState | None = None
        self._words = ""
        self._keep = keep

    def record(self) -> tuple[str, ...]:
        """What this coach has shown, and whether it was turned off, as plain words (the
        situations' values, in their order, then :data:`OFF`)."""
        shown = tuple(s.value for s in Situation if s in self.shown)
        return shown if self.on else (*shown, OFF)

    def turn_off(self) -> None:
        """No note from now on (the one in view goes)."""
        self.on, self.showing = False, None
        self._kept()

    def _kept(self) -> None:
        if self._keep is not None:
            self._keep(self.record())

    def words(
        self,
        state: core.GameState,
        seat: int | None,
        legal: tuple[core.Action, ...],
        *,
        room: bool = False,
    ) -> str | None:
        """The note to show now, or None. The note in view stays while the position is
        the one it came at (only the Museum's, when a room is being chosen, takes its
        place); at a new position the first situation not yet explained (see
        :func:`situations`) gets its note, once."""
        if not self.on:
            return None
        if self.showing is not None and state != self._at:
            self.showing = None
        new = [s for s in situations(state, seat, legal, room=room) if s not in self.shown]
        if self.showing is not None:  # the decision's note stays while it is made (others
            # wait for the next decision), but for the Museum's, opened mid-decision
            new = [s for s in new if s is Situation.MUSEUM]
        if new:
            self.showing, self._at = new[0], state
            self.shown.add(new[0])
            self._words = note(new[0], state, legal)
            self._kept()
        return self._words if self.showing is not None else None
