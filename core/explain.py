"""Actions in words: what an action does, and why an illegal one is refused.

These only explain; legality itself is decided by :mod:`core.moves` alone.
"""

from __future__ import annotations

from itertools import pairwise

from core.actions import (
    BLACKMORE,
    BOOK,
    BROWN,
    EXCAVATE,
    EXTEND,
    KIND_PATRON,
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
    Action,
    code_spaces,
    field,
    format_action,
    kind_of,
    to_code,
)
from core.cards import CARDS
from core.errors import IllegalActionError
from core.moves import free_pyramids, occupied, parcels_left, usable_patrons
from core.museum import WINGS, room_label
from core.region import NEIGHBOURS, board_mask, neighbours, space_name
from core.state import EMPTY, NEUTRAL, GameState, Phase, SurveyStep, cube_index


def describe_code(state: GameState, action_code: int) -> str:
    """The action in words, with ``{}`` standing for the player's name."""
    kind, a = kind_of(action_code), field(action_code, 0)
    where = ", ".join(space_name(s) for s in code_spaces(action_code))
    if kind in (TAKE, NEUTRAL_PARCEL):
        card = CARDS[state.region[a] >> 1] if state.region and state.region[a] != EMPTY else None
        what = f"parcel P{a + 1}" + (f" ({card})" if card else "")
        return f"{{}} takes {what}" if kind == TAKE else f"{{}} gives {what} to the neutral"
    text = {
        EXCAVATE: f"{{}} starts an excavation on {where}",
        EXTEND: f"{{}} extends an excavation onto {where}",
        PASS: "{} passes",
        VIOLET_A: f"{{}} appeals to Lady Violet (+1 cube) and excavates {where}",
        VIOLET_B: f"{{}} appeals to Lady Violet (+1 cube) and extends onto {where}",
        LEMON_A: f"{{}} appeals to Lord Lemon: a cube on the pyramid at {where}",
        LEMON_B: f"{{}} appeals to Lord Lemon and extends onto {where} (one pyramid)",
        BLACKMORE: f"{{}} appeals to Mrs. Blackmore: cubes on {where}",
        TANGERINE: f"{{}} appeals to Colonel Tangerine: cubes on {where}",
        NEUTRAL_A: f"{{}} places a neutral cube on {where}",
        NEUTRAL_B: f"{{}} places neutral cubes on {where}",
        NEUTRAL_SKIP: "{} places no neutral cube",
    }.get(kind)
    if text is not None:
        return text
    room = room_label(state.wings, a)
    if kind == BROWN:
        return f"{{}} appeals to Sir Brown: a cube from stock to the {room}"
    return f"{{}} books the {room} with a cube from reserve"


def describe_action(state: GameState, action: Action) -> str:
    """What ``action`` does when the current player plays it in ``state``, in words."""
    seat = state.current
    name = state.players[seat].name if seat >= 0 else "Nobody"
    return describe_code(state, to_code(action)).format(name)


def explain_illegal(state: GameState, action_code: int, action: Action) -> IllegalActionError:
    """The error refusing ``action`` in ``state``, saying why in a player's words."""
    return IllegalActionError(format_action(action), _reason(state, action_code))


def _reason(state: GameState, action_code: int) -> str:
    kind = kind_of(action_code)
    if state.phase is Phase.OVER:
        return "the game is over"
    survey_kind = kind in (TAKE, BOOK, NEUTRAL_PARCEL)
    if state.phase is Phase.SURVEY:
        if not survey_kind:
            return "it is the survey: take a parcel or book a Museum room"
        return _survey_reason(state, action_code)
    if survey_kind:
        return "that is a survey choice, and the survey has not begun"
    if state.neutral_pending:
        if kind not in (NEUTRAL_A, NEUTRAL_B, NEUTRAL_SKIP):
            return "first place neutral cubes, or choose to place none"
        return _placement_reason(state, action_code)
    if kind in (NEUTRAL_A, NEUTRAL_B, NEUTRAL_SKIP):
        if len(state.players) != 2:
            return "neutral cubes are only used with 2 players"
        return "neutral cubes may only follow a start or extension of your own"
    player = state.players[state.current]
    if player.stock == 0 and kind != PASS:
        return "your stock is empty: you can only pass"
    patron = KIND_PATRON[kind]
    if patron is not None and patron not in usable_patrons(player):
        return f"you have no untilted {patron.title} card"
    if kind == BROWN:
        return _room_reason(state, field(action_code, 0))
    if kind in (VIOLET_A, VIOLET_B) and player.reserve == 0:
        return "Lady Violet needs a cube in your reserve, and it is empty"
    return _placement_reason(state, action_code)


def _placement_reason(state: GameState, action_code: int) -> str:
    kind = kind_of(action_code)
    spaces = code_spaces(action_code)
    player = state.players[state.current]
    neutral = kind in (NEUTRAL_A, NEUTRAL_B)
    held = player.neutral_stock if neutral else player.stock + (kind in (VIOLET_A, VIOLET_B))
    if len(spaces) > held:
        what = "neutral cubes" if neutral else "cubes in stock"
        return f"that needs {len(spaces)} cubes and you have {held} {what}"
    board, taken = board_mask(len(state.region)), occupied(state)
    lemon = kind in (LEMON_A, LEMON_B)
    for s in spaces:
        if not board >> s & 1:
            return f"{space_name(s)} is not on this season's region"
        if taken >> s & 1:
            return f"{space_name(s)} already holds a cube"
        if state.pyramids >> s & 1 and not lemon:
            return f"{space_name(s)} holds a pyramid"
    if len(set(spaces)) != len(spaces):
        return "each cube needs its own space"
    for before, after in pairwise(spaces):
        if not NEIGHBOURS[before] >> after & 1:
            return f"{space_name(after)} is not next to {space_name(before)}"
    own = state.cubes[cube_index(state, NEUTRAL if neutral else state.current)]
    chained = kind in (EXTEND, VIOLET_B, LEMON_B, TANGERINE, NEUTRAL_B)
    if chained and not neighbours(own) >> spaces[0] & 1:
        whose = "a neutral cube" if neutral else "one of your cubes"
        return f"{space_name(spaces[0])} is not next to {whose}"
    if lemon:
        on_pyramids = sum(free_pyramids(state) >> s & 1 for s in spaces)
        if on_pyramids != 1:
            return "with Lord Lemon exactly one cube goes on a pyramid"
    return "that move is not legal now"


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
    if step is SurveyStep.PICK_NEUTRAL and kind != NEUTRAL_PARCEL:
        return "choose which parcel the neutral takes"
    if step is not SurveyStep.PICK_NEUTRAL and kind == NEUTRAL_PARCEL:
        return "the neutral is not taking a parcel now"
    if kind == BOOK:
        if step is SurveyStep.TAKE:
            return "only the 1st and 2nd in an area may book a Museum room"
        if state.players[seat].reserve == 0:
            return "booking takes a cube from your reserve, and it is empty"
        return _room_reason(state, index)
    if index not in parcels_left(state):
        return f"parcel P{index + 1} is not left in the area being surveyed"
    return "that choice is not open now"
