"""The decision in front of the player, read from `core.legal_actions`, as key-picked options.

Pure helpers (no widgets): the action keys usable now, the numbered survey options, and
the words of the prompt. Nothing here re-implements legality.
"""

from __future__ import annotations

import msgspec

import core
from core.region import AREA_MASK
from core.rules import ranking
from core.state import SurveyStep
from tui import look, placement


class Option(msgspec.Struct, frozen=True):
    """A numbered survey choice: an action, or None for "book a Museum room" (a room cursor
    follows)."""

    label: str
    action: core.Action | None


PATRON_KEYS = {"v": core.Patron.VIOLET, "l": core.Patron.LEMON, "s": core.Patron.BROWN,
               "k": core.Patron.BLACKMORE, "t": core.Patron.TANGERINE}  # fmt: skip
KEY_LABELS = {
    "a": "start excavation", "b": "extend", "p": "pass", "v": "Violet",
    "l": "Lemon", "s": "Brown", "k": "Blackmore", "t": "Tangerine",
    "n": "one neutral cube", "m": "two neutral cubes", "x": "no neutral cube",
}  # fmt: skip
"""Short words for the action bar, which must fit 80 columns with every key usable."""


_last_usable: tuple[tuple[core.Action, ...] | None, list[str]] = (None, [])
"""The answer for the last list of legal actions asked about: the keys bar asks once per
key binding after every move, always about the same list (the seat keeps it per state)."""


def usable_keys(legal: tuple[core.Action, ...]) -> list[str]:
    """The action keys (a, b, p, v, l, s, k, t, n, m, x) that lead to a legal action now."""
    global _last_usable
    if _last_usable[0] is not legal:
        _last_usable = (legal, _usable_keys(legal))
    return _last_usable[1]


KEY_CHOICES = {
    "a": core.Choice.START, "b": core.Choice.EXTEND, "p": core.Choice.PASS,
    "v": core.Choice.VIOLET, "l": core.Choice.LEMON, "s": core.Choice.BROWN,
    "k": core.Choice.BLACKMORE, "t": core.Choice.TANGERINE, "n": core.Choice.NEUTRAL_ONE,
    "m": core.Choice.NEUTRAL_TWO, "x": core.Choice.NO_NEUTRAL,
}  # fmt: skip
"""The choice of core each action key makes."""


def _usable_keys(legal: tuple[core.Action, ...]) -> list[str]:
    kinds = placement.legal_kinds(legal)
    return [key for key in KEY_LABELS if not kinds.isdisjoint(KEY_CHOICES[key].kinds)]


def survey_options(state: core.GameState, legal: tuple[core.Action, ...]) -> list[Option]:
    """The numbered choices of a survey step: parcels first, then booking (one option)."""
    options = []
    for action in legal:
        if isinstance(action, core.TakeParcel | core.NeutralParcel):
            options.append(Option(_parcel_words(state, action), action))
    rooms = rooms_for(legal, core.BookRoom)
    if rooms:
        options.append(Option(f"book a room ({len(rooms)} open)", None))
    return options


def why_no_booking(state: core.GameState, legal: tuple[core.Action, ...]) -> str | None:
    """Why a survey choice that may book a Museum room (1st or 2nd, RULES.md §5) offers
    no booking now, in a sentence: an empty reserve, or no room a cube may go into
    (RULES.md §6). None when booking is offered, or the step never offers it."""
    if state.survey_area < 0 or not state.survey_steps:
        return None
    step, seat = state.survey_steps[0]
    if step is not SurveyStep.CHOOSE or rooms_for(legal, core.BookRoom):
        return None
    if state.players[seat].reserve == 0:
        return "No cube left in your reserve: no Museum room to book."
    return "No open Museum room a cube may go into: nothing to book."


def _parcel_words(state: core.GameState, action: core.TakeParcel | core.NeutralParcel) -> str:
    """``take P3 (Blackmore +3)``: the points are the taker's. The neutral scores nothing,
    so its parcel reads ``discard P3 (Blackmore, worth 3)``."""
    parcel = action.parcel
    card = core.CARDS[state.region[parcel] >> 1]
    who = card.patron.name.title() if card.patron is not None else "no patron"
    if isinstance(action, core.NeutralParcel):
        worth = f", worth {card.value}" if card.value else ""
        return f"discard P{parcel + 1} ({who}{worth})"
    value = f" +{card.value}" if card.value else ""
    return f"take P{parcel + 1} ({who}{value})"


def survey_prompt(state: core.GameState, legal: tuple[core.Action, ...] | None = None) -> str:
    """Who decides what in the survey, in words; short enough for one line of 80 columns
    with a 12-letter name (the options need the action bar's other line). Booking is
    named only when ``legal`` has one (see :func:`why_no_booking`)."""
    step, seat = state.survey_steps[0]
    who = look.seat_name(state, seat)
    area = f"Survey of area {state.survey_area + 1}"
    if step is SurveyStep.PICK_NEUTRAL:
        return f"{area}: {who}, which parcel does the neutral discard?"
    booking = legal is None or any(isinstance(action, core.BookRoom) for action in legal)
    if step is SurveyStep.TAKE or not booking:
        return f"{area}: {who}, take a parcel."
    return f"{area}: {who}, take a parcel or book a Museum room."


def area_ranking(state: core.GameState) -> list[tuple[int, int]]:
    """The players with cubes in the area being surveyed, as core ranks them (most cubes
    first, ties to the lower passing space), each with its number of cubes there; the
    neutral is ``core.NEUTRAL``. Empty outside the survey."""
    if state.survey_area < 0:
        return []
    mask = AREA_MASK[state.survey_area]
    return [
        (seat, (state.cubes[core.cube_index(state, seat)] & mask).bit_count())
        for seat in ranking(state, state.survey_area)
    ]


def rooms_for(legal: tuple[core.Action, ...], action_type: type) -> frozenset[int]:
    """The Museum rooms of the legal Brown or BookRoom actions."""
    rooms = (a for a in legal if type(a) is action_type)
    return frozenset(a.room for a in rooms if isinstance(a, core.Brown | core.BookRoom))


KEY_HINTS = {
    "your stock is empty: you can only pass": " (p)",
    "first place neutral cubes, or choose to place none": " (n or m), or x",
    "you have no cube on the region to extend from: start one first": " (a)",
}
"""The keys to add to some of core's reasons (core names no key)."""


def why_not(state: core.GameState, key: str) -> str:
    """Why the action key ``key`` leads to no legal action now: core's reason, with the key
    to press instead where there is one."""
    if state.phase is core.Phase.SURVEY:
        return "it is the survey: pick an option with its number"
    reason = core.why_not_kind(state, KEY_CHOICES[key]) or "that action is not possible now"
    return reason + KEY_HINTS.get(reason, "")
