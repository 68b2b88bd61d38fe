"""The half-built action: what the player deciding now has chosen so far.

A :class:`Draft` is immutable. Each step (:func:`press`, :func:`choose_space`,
:func:`choose_room`, :func:`pick_option`, :func:`back`) returns the next draft, the
finished action to play, or a :class:`Refusal` saying why not; the game screen holds the
draft in a reactive and plays the actions. No Textual here, so every step is unit-tested
alone. Legal spaces, rooms and options are read off the legal actions (core's one
generator), never re-computed.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Literal

import msgspec

import core
from table.seat import GameSeat
from tui import decisions, placement


class Mode(enum.Enum):
    """What the keys do now."""

    CHOOSE = "choose"
    """Pick an action with its key (a, b, p, v, l, s, k, t; n, m, x with 2 players)."""
    VARIANT = "variant"
    """Lady Violet or Lord Lemon with both of its actions legal: a or b."""
    PLACE = "place"
    """Put the cubes of a placement action one by one with the region cursor."""
    ROOM = "room"
    """Choose a Museum room (Sir Brown, or a booking in the survey)."""
    SURVEY = "survey"
    """Pick a numbered survey option."""
    WAIT = "wait"
    """Someone else decides: a computer, or a player at another terminal."""
    OVER = "over"
    """The game is over."""


Step = Literal["idle", "variant", "place", "room"]
RoomAction = type[core.Brown] | type[core.BookRoom]


class Draft(msgspec.Struct, frozen=True):
    """The choices made so far towards one action."""

    step: Step = "idle"
    key: str | None = None
    """The patron key waiting for a or b (``variant``)."""
    kind: placement.Kind | None = None
    """The placement being built (``place``)."""
    placed: tuple[int, ...] = ()
    """Its cubes placed so far, in order."""
    room_action: RoomAction | None = None
    """The action a Museum room is being chosen for (``room``)."""


IDLE = Draft()

KEY_NAMES = {
    "a": "Start", "b": "Extend", "p": "Pass", "v": "Violet", "l": "Lemon", "s": "Brown",
    "k": "Blackmore", "t": "Tangerine", "n": "Neutral 1", "m": "Neutral 2", "x": "No neutral",
}  # fmt: skip
"""The keys that pick an action, with their names in the keys bar."""
ACTION_KEYS = tuple(KEY_NAMES)


class Refusal(msgspec.Struct, frozen=True):
    """A choice that cannot be made, and why, in a player's words; the draft stays."""

    reason: str


Outcome = Draft | core.Action | Refusal


def mode(state: core.GameState, draft: Draft, decides_here: bool) -> Mode:
    """The mode for ``draft`` in ``state``; ``decides_here``: a player at this terminal
    makes the decision now."""
    if core.is_over(state):
        return Mode.OVER
    if not decides_here:
        return Mode.WAIT
    if draft.step == "room":
        return Mode.ROOM
    if draft.step == "place":
        return Mode.PLACE
    if draft.step == "variant":
        return Mode.VARIANT
    return Mode.SURVEY if state.phase is core.Phase.SURVEY else Mode.CHOOSE


def press(draft: Draft, key: str, state: core.GameState, legal: tuple[core.Action, ...]) -> Outcome:
    """An action key; in ``variant``, ``a`` or ``b`` picks the patron's start or extend."""
    if draft.step == "variant" and draft.key is not None:
        kinds = placement.kinds_for_key(legal, draft.key)
        return Draft("place", kind=next(k for k in kinds if (k.cubes == 1) == (key == "a")))
    if key not in decisions.usable_keys(legal):
        return Refusal(decisions.why_not(state, key))
    if key == "p":
        return core.Pass()
    if key == "x":
        return core.NeutralSkip()
    if key == "s":
        return Draft("room", room_action=core.Brown)
    kinds = placement.kinds_for_key(legal, key)
    if len(kinds) > 1:
        return Draft("variant", key=key)
    return Draft("place", kind=kinds[0])


def choose_space(
    draft: Draft, space: int, state: core.GameState, legal: tuple[core.Action, ...]
) -> Outcome:
    """The next cube of the placement on ``space``: the draft with it, or the finished
    action once every cube is placed, or why the cube cannot go there."""
    kind = draft.kind
    if kind is None:
        return draft
    if space not in next_spaces(draft, state):
        return Refusal(placement.refusal(state, kind, draft.placed, space))
    placed = (*draft.placed, space)
    if len(placed) < kind.cubes:
        return msgspec.structs.replace(draft, placed=placed)
    return kind.build(placed)


def choose_room(draft: Draft, room: int) -> Outcome:
    """The room under the Museum cursor: the action (core checks it when played)."""
    return draft if draft.room_action is None else draft.room_action(room)


def pick_option(
    draft: Draft, number: int, state: core.GameState, legal: tuple[core.Action, ...]
) -> Outcome:
    """Survey option ``number`` (from 1): its action, or a room to choose for a booking."""
    options = decisions.survey_options(state, legal)
    if not 1 <= number <= len(options):
        return Refusal(f"there is no option {number}")
    action = options[number - 1].action
    return Draft("room", room_action=core.BookRoom) if action is None else action


def back(draft: Draft) -> Draft:
    """Esc: take back the last cube placed, else leave the half-built action."""
    if draft.placed:
        return msgspec.structs.replace(draft, placed=draft.placed[:-1])
    return IDLE


def next_spaces(draft: Draft, state: core.GameState) -> frozenset[int]:
    """Where the next cube of the placement may go (empty when not placing)."""
    if draft.kind is None:
        return frozenset()
    return placement.next_spaces(state, draft.kind, draft.placed)


def open_rooms(draft: Draft, legal: tuple[core.Action, ...]) -> frozenset[int]:
    """The Museum rooms the room being chosen may be (empty when not choosing a room)."""
    if draft.room_action is None:
        return frozenset()
    return decisions.rooms_for(legal, draft.room_action)


def hint_words(state: core.GameState, stop: Callable[[], bool] | None = None) -> str:
    """What the hard computer player would do now, in words ("Hint: starts an excavation
    on c3"); slow (up to a second): run it in a thread."""
    from core.ai import hint
    from core.explain import describe_action

    action = hint(state, seed=0)
    name = state.players[state.current].name
    return "Hint: " + describe_action(state, action).removeprefix(name + " ")


def allows(action: str, parameter: object, mode: Mode, seat: GameSeat) -> bool:
    """Whether the game screen's key ``action`` (with its first parameter) applies now."""
    match action:
        case "press":
            if mode is Mode.VARIANT:
                return parameter in ("a", "b")
            return mode is Mode.CHOOSE and parameter in decisions.usable_keys(seat.legal_actions())
        case "option":
            if mode is not Mode.SURVEY or not isinstance(parameter, int):
                return False
            return 1 <= parameter <= len(decisions.survey_options(seat.state, seat.legal_actions()))
        case "back":
            return mode in (Mode.PLACE, Mode.ROOM, Mode.VARIANT)
        case "lobby":  # Esc with nothing half-built to take back, at a shared table
            return seat.table is not None and mode not in (Mode.PLACE, Mode.ROOM, Mode.VARIANT)
        case "hurry":
            return mode is Mode.WAIT
        case "hand_over" | "take_back":  # these four only at a shared table
            if seat.table is None or not seat.table.can_hand_over():
                return False
            return (seat.table.handed_to is None) == (action == "hand_over")
        case "chat":
            return seat.table is not None and seat.table.can_say()
        case "pause":
            return seat.table is not None and seat.table.can_pause()
        case "undo":
            # Also while others decide: at a shared table your last action stays yours to
            # take back until the next player acts (a computer's move under way is dropped).
            return seat.can_undo()
        case "redo":
            return mode is not Mode.WAIT and seat.can_redo()
        case "final":
            return mode is Mode.OVER
        case "take_over":  # only a local game open in another window
            return seat.elsewhere is not None and seat.elsewhere.can_take_over()
        case "hint":
            return mode in (Mode.CHOOSE, Mode.SURVEY)
    return True
