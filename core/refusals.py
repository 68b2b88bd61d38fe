"""Why not: every refusal of the rules in a player's words, and the choices it refuses.

Legality is decided by :func:`core.moves.legal_codes` alone; this module only explains a
"no" after the fact, at three sizes:

- a whole action (:func:`explain_illegal`, raised by ``apply_action``);
- the next cube of a half-built placement (:func:`why_not_next`), beside the spaces that
  cube may take (:func:`next_spaces`, read off the legal actions);
- a whole choice such as "extend" or "Lady Violet" (:func:`why_not_kind`), beside the
  choices open now (:func:`open_choices`).

The words never name a key: core knows none. A UI may add its own hints.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from itertools import pairwise

from core.actions import (
    KIND_PATRON,
    PLACED_COUNT,
    Action,
    ActionKind,
    code,
    code_spaces,
    field,
    format_action,
    kind_of,
)
from core.cards import Patron
from core.errors import IllegalActionError
from core.moves import (
    free_pyramids,
    free_spaces,
    legal_codes,
    occupied,
    parcels_left,
    usable_patrons,
)
from core.museum import WINGS, room_label
from core.region import NEIGHBOURS, board_mask, neighbours, space_name
from core.state import EMPTY, NEUTRAL, GameState, Phase, SurveyStep, cube_index

_SURVEY_KINDS = frozenset({ActionKind.TAKE, ActionKind.BOOK, ActionKind.NEUTRAL_PARCEL})
_NEUTRAL_KINDS = frozenset({ActionKind.NEUTRAL_A, ActionKind.NEUTRAL_B, ActionKind.NEUTRAL_SKIP})
_VIOLET = Patron.VIOLET
_CHAINED = frozenset(
    {
        ActionKind.EXTEND,
        ActionKind.VIOLET_B,
        ActionKind.LEMON_B,
        ActionKind.TANGERINE,
        ActionKind.NEUTRAL_B,
    }
)
"""Kinds whose first cube goes next to one of the placer's cubes (a neutral one for nB)."""


class Choice(enum.Enum):
    """What a player picks first on an excavation turn, before any space: an action kind,
    or a patron (whose power places one cube or two: both are the one choice)."""

    START = "start"
    EXTEND = "extend"
    PASS = "pass"
    VIOLET = "violet"
    LEMON = "lemon"
    BROWN = "brown"
    BLACKMORE = "blackmore"
    TANGERINE = "tangerine"
    NEUTRAL_ONE = "neutral one"
    NEUTRAL_TWO = "neutral two"
    NO_NEUTRAL = "no neutral"

    @property
    def kinds(self) -> frozenset[ActionKind]:
        """The action kinds this choice leads to."""
        return _CHOICE_KINDS[self]

    @classmethod
    def of(cls, kind: ActionKind) -> Choice:
        """The choice an excavation-phase kind belongs to (``ValueError`` for the survey's)."""
        for choice, kinds in _CHOICE_KINDS.items():
            if kind in kinds:
                return choice
        raise ValueError(f"{ActionKind(kind).name} is a survey choice, not an excavation one")


_CHOICE_KINDS: dict[Choice, frozenset[ActionKind]] = {
    Choice.START: frozenset({ActionKind.EXCAVATE}),
    Choice.EXTEND: frozenset({ActionKind.EXTEND}),
    Choice.PASS: frozenset({ActionKind.PASS}),
    Choice.VIOLET: frozenset({ActionKind.VIOLET_A, ActionKind.VIOLET_B}),
    Choice.LEMON: frozenset({ActionKind.LEMON_A, ActionKind.LEMON_B}),
    Choice.BROWN: frozenset({ActionKind.BROWN}),
    Choice.BLACKMORE: frozenset({ActionKind.BLACKMORE}),
    Choice.TANGERINE: frozenset({ActionKind.TANGERINE}),
    Choice.NEUTRAL_ONE: frozenset({ActionKind.NEUTRAL_A}),
    Choice.NEUTRAL_TWO: frozenset({ActionKind.NEUTRAL_B}),
    Choice.NO_NEUTRAL: frozenset({ActionKind.NEUTRAL_SKIP}),
}


# ---------------------------------------------------------------- the public questions


def open_choices(state: GameState) -> frozenset[Choice]:
    """The choices that lead to at least one legal action now (none outside the
    excavation phase)."""
    kinds = {kind_of(c) for c in legal_codes(state)}
    return frozenset(choice for choice in Choice if not kinds.isdisjoint(choice.kinds))


def next_spaces(state: GameState, kind: ActionKind, placed: Sequence[int]) -> frozenset[int]:
    """Where the next cube of a placement of ``kind`` may go, with cubes already on
    ``placed`` (in order): the next space of every legal action of ``kind`` that starts
    with ``placed``. Empty when there is none (or ``placed`` is not the start of one)."""
    placed = tuple(placed)
    n = len(placed)
    out: set[int] = set()
    for action_code in legal_codes(state):
        if kind_of(action_code) == kind:
            spaces = code_spaces(action_code)
            if len(spaces) > n and spaces[:n] == placed:
                out.add(spaces[n])
    return frozenset(out)


def why_not_next(state: GameState, kind: ActionKind, placed: Sequence[int], space: int) -> str:
    """Why the next cube of a half-built placement of ``kind`` (EXCAVATE, EXTEND, VIOLET_A/B,
    LEMON_A/B, BLACKMORE, TANGERINE, NEUTRAL_A/B), with cubes already on ``placed``, cannot
    go on ``space``, in a player's words. The empty string if it can (``space`` is one of
    :func:`next_spaces`).

    ``ValueError`` if ``kind`` places no cube, ``placed`` already holds all its cubes, or
    ``space`` is off the grid.
    """
    placed = tuple(placed)
    count = PLACED_COUNT[kind]
    if len(placed) >= count:
        raise ValueError(f"{ActionKind(kind).name} places {count} cubes, not {len(placed) + 1}")
    name = space_name(space)
    if space in next_spaces(state, kind, placed):
        return ""
    why = _turn_reason(state, kind) or _stock_reason(state, kind)
    if why:
        return why
    if space in placed:
        return "each cube needs its own space"
    spaces = (*placed, space)
    if len(spaces) == count:
        return _placement_reason(state, code(kind, *spaces))
    lemon = kind in (ActionKind.LEMON_A, ActionKind.LEMON_B)
    why = _space_reason(state, space, lemon) or _link_reason(state, kind, spaces)
    if why:
        return why
    if lemon:
        return "with Lord Lemon exactly one cube goes on a pyramid, and the action must fit"
    return f"from {name} there is no way to finish this action"


def why_not_kind(state: GameState, which: Choice | ActionKind) -> str:
    """Why ``which`` (a :class:`Choice`, or an excavation-phase kind standing for its
    choice: VIOLET_A and VIOLET_B both mean Lady Violet) has no legal action now, in a
    player's words. The empty string if it has one (it is in :func:`open_choices`).

    ``ValueError`` for a survey kind (TAKE, BOOK, NEUTRAL_PARCEL).
    """
    choice = which if isinstance(which, Choice) else Choice.of(which)
    if choice in open_choices(state):
        return ""
    kind = min(choice.kinds, key=PLACED_COUNT.__getitem__)  # fewest cubes: the first to fit
    why = _turn_reason(state, kind) or _stock_reason(state, kind)
    if why:
        return why
    if choice is Choice.NEUTRAL_TWO:
        return _extension_reason(state, NEUTRAL)
    patron = KIND_PATRON[kind]
    if patron is not None:
        return f"{patron.title}'s power has no legal use now"
    if choice is Choice.EXTEND:
        return _extension_reason(state, state.current)
    return "there is no free space on the region"  # START: the only choice left


def explain_illegal(state: GameState, action_code: int, action: Action) -> IllegalActionError:
    """The error refusing ``action`` (of code ``action_code``) in ``state``, saying why."""
    return IllegalActionError(format_action(action), _reason(state, action_code))


# ---------------------------------------------------------------- reasons


def _reason(state: GameState, action_code: int) -> str:
    """Why a whole action is not legal in ``state``."""
    kind = kind_of(action_code)
    why = _turn_reason(state, kind)
    if why:
        return why
    if state.phase is Phase.SURVEY:
        return _survey_reason(state, action_code)
    if kind == ActionKind.BROWN:
        return _room_reason(state, field(action_code, 0))
    return _placement_reason(state, action_code)


def _turn_reason(state: GameState, kind: int) -> str:
    """Why no action of ``kind`` can be played on this turn, whatever its spaces or room
    (the empty string if the turn allows that kind)."""
    if state.phase is Phase.OVER:
        return "the game is over"
    survey_kind = kind in _SURVEY_KINDS
    if state.phase is Phase.SURVEY:
        return "" if survey_kind else "it is the survey: take a parcel or book a Museum room"
    if survey_kind:
        return "that is a survey choice, and the survey has not begun"
    neutral = kind in _NEUTRAL_KINDS
    if state.neutral_pending:
        return "" if neutral else "first place neutral cubes, or choose to place none"
    if neutral:
        if len(state.players) != 2:
            return "neutral cubes are only used with 2 players"
        return "neutral cubes may only follow a start or extension of your own"
    player = state.players[state.current]
    if player.stock == 0 and kind != ActionKind.PASS:
        return "your stock is empty: you can only pass"
    patron = KIND_PATRON[kind]
    if patron is not None and patron not in usable_patrons(player):
        return f"you have no untilted {patron.title} card"
    if patron is _VIOLET and player.reserve == 0:
        return "Lady Violet needs a cube in your reserve, and it is empty"
    return ""


def _stock_reason(state: GameState, kind: int) -> str:
    """Why the placer holds too few cubes for ``kind`` (the empty string if enough)."""
    need = PLACED_COUNT[kind]
    player = state.players[state.current]
    neutral = kind in _NEUTRAL_KINDS
    # Lady Violet brings one cube from the reserve before the placement.
    held = player.neutral_stock if neutral else player.stock + (KIND_PATRON[kind] is _VIOLET)
    if need <= held:
        return ""
    s = "" if held == 1 else "s"
    have = f"{held} neutral cube{s}" if neutral else f"{held} cube{s} in stock"
    return f"that needs {need} cubes and you have {have}"


def _placement_reason(state: GameState, action_code: int) -> str:
    """Why a placement whose turn and stock allow it is not legal: its spaces."""
    kind = kind_of(action_code)
    spaces = code_spaces(action_code)
    lemon = kind in (ActionKind.LEMON_A, ActionKind.LEMON_B)
    for why in (_stock_reason(state, kind), *(_space_reason(state, s, lemon) for s in spaces)):
        if why:
            return why
    if len(set(spaces)) != len(spaces):
        return "each cube needs its own space"
    why = _link_reason(state, kind, spaces)
    if why:
        return why
    if lemon and sum(free_pyramids(state) >> s & 1 for s in spaces) != 1:
        return "with Lord Lemon exactly one cube goes on a pyramid"
    return "that move is not legal now"  # defensive: the checks above cover every rule


def _space_reason(state: GameState, space: int, lemon: bool) -> str:
    """Why ``space`` cannot take a cube at all (the empty string if it is free; a free
    pyramid counts as free for Lord Lemon)."""
    name = space_name(space)
    if not board_mask(len(state.region)) >> space & 1:
        return f"{name} is not on this season's region"
    if occupied(state) >> space & 1:
        return f"{name} already holds a cube"
    if state.pyramids >> space & 1 and not lemon:
        return f"{name} holds a pyramid"
    return ""


def _link_reason(state: GameState, kind: int, spaces: Sequence[int]) -> str:
    """Why cubes on ``spaces`` (in order) do not form a chain of ``kind``: each next to the
    one before, and for B-like kinds the first next to the placer's cubes."""
    for before, after in pairwise(spaces):
        if not NEIGHBOURS[before] >> after & 1:
            return f"{space_name(after)} is not next to {space_name(before)}"
    if kind not in _CHAINED:
        return ""
    holder = NEUTRAL if kind == ActionKind.NEUTRAL_B else state.current
    if not neighbours(state.cubes[cube_index(state, holder)]) >> spaces[0] & 1:
        whose = "a neutral cube" if holder == NEUTRAL else "one of your cubes"
        return f"{space_name(spaces[0])} is not next to {whose}"
    return ""


def _extension_reason(state: GameState, holder: int) -> str:
    """Why no pair of cubes can extend from ``holder``'s cubes (a seat, or the neutral)."""
    own = state.cubes[cube_index(state, holder)]
    whose = "a neutral cube" if holder == NEUTRAL else "your cubes"
    if not own:
        if holder == NEUTRAL:
            return "there is no neutral cube on the region to extend from"
        return "you have no cube on the region to extend from: start one first"
    free = free_spaces(state)
    if not neighbours(own) & free:
        return f"there is no free space next to {whose}"
    return f"no free space next to {whose} has a free space beside it for the second cube"


def _room_reason(state: GameState, room: int) -> str:
    label = room_label(state.wings, room)
    if state.museum[room] != EMPTY:
        return f"the {label} is already taken"
    if room < WINGS:
        return f"the {label} needs one of your cubes in a room opening onto it first"
    return f"the {label} cannot be used now"


def _survey_reason(state: GameState, action_code: int) -> str:
    kind, index = kind_of(action_code), field(action_code, 0)
    step, seat = state.survey_steps[0]
    if step is SurveyStep.PICK_NEUTRAL and kind != ActionKind.NEUTRAL_PARCEL:
        return "choose which parcel the neutral takes"
    if step is not SurveyStep.PICK_NEUTRAL and kind == ActionKind.NEUTRAL_PARCEL:
        return "the neutral is not taking a parcel now"
    if kind == ActionKind.BOOK:
        if step is SurveyStep.TAKE:
            return "only the 1st and 2nd in an area may book a Museum room"
        if state.players[seat].reserve == 0:
            return "booking takes a cube from your reserve, and it is empty"
        return _room_reason(state, index)
    if index not in parcels_left(state):
        return f"parcel P{index + 1} is not left in the area being surveyed"
    return "that choice is not open now"
