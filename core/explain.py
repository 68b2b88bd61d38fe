"""Actions in words: what an action does, told to the players (events, the log, hints).

Why an action is refused is :mod:`core.refusals`; legality itself is :mod:`core.moves`.
"""

from __future__ import annotations

from core.actions import Action, ActionKind, code_spaces, field, kind_of, to_code
from core.cards import CARDS
from core.museum import room_label
from core.region import face_card, space_name
from core.state import EMPTY, GameState

_PLACEMENT_WORDS: dict[int, str] = {
    ActionKind.EXCAVATE: "{{}} starts an excavation on {where}",
    ActionKind.EXTEND: "{{}} extends an excavation onto {where}",
    ActionKind.PASS: "{{}} passes",
    ActionKind.VIOLET_A: "{{}} appeals to Lady Violet (+1 cube) and excavates {where}",
    ActionKind.VIOLET_B: "{{}} appeals to Lady Violet (+1 cube) and extends onto {where}",
    ActionKind.LEMON_A: "{{}} appeals to Lord Lemon: a cube on the pyramid at {where}",
    ActionKind.LEMON_B: "{{}} appeals to Lord Lemon and extends onto {where} (one pyramid)",
    ActionKind.BLACKMORE: "{{}} appeals to Mrs. Blackmore: cubes on {where}",
    ActionKind.TANGERINE: "{{}} appeals to Colonel Tangerine: cubes on {where}",
    ActionKind.NEUTRAL_A: "{{}} places a neutral cube on {where}",
    ActionKind.NEUTRAL_B: "{{}} places neutral cubes on {where}",
    ActionKind.NEUTRAL_SKIP: "{{}} places no neutral cube",
}
"""The words of the excavation-phase kinds; ``{where}`` is filled in, ``{}`` stays for the
player's name."""
_TAKE, _BROWN = ActionKind.TAKE, ActionKind.BROWN
_PARCEL_KINDS = (ActionKind.TAKE, ActionKind.NEUTRAL_PARCEL)


def describe_code(state: GameState, action_code: int) -> str:
    """The action in words, with ``{}`` standing for the player's name."""
    kind, index = kind_of(action_code), field(action_code, 0)
    if kind in _PARCEL_KINDS:
        face = state.region[index] if state.region else EMPTY
        card = CARDS[face_card(face)] if face != EMPTY else None
        what = f"parcel P{index + 1}" + (f" ({card})" if card else "")
        return f"{{}} takes {what}" if kind == _TAKE else f"{{}} gives {what} to the neutral"
    words = _PLACEMENT_WORDS.get(kind)
    if words is not None:
        return words.format(where=", ".join(map(space_name, code_spaces(action_code))))
    room = room_label(state.wings, index)
    if kind == _BROWN:
        return f"{{}} appeals to Sir Brown: a cube from stock to the {room}"
    return f"{{}} books the {room} with a cube from reserve"


def describe_action(state: GameState, action: Action) -> str:
    """What ``action`` does when the current player plays it in ``state``, in words."""
    seat = state.current
    name = state.players[seat].name if seat >= 0 else "Nobody"
    return describe_code(state, to_code(action)).format(name)
