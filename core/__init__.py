"""Mykerinos rules engine: a pure package (no I/O, no clock, no global randomness, no UI).

The whole contract is here::

    state = core.new_game(players=3, seed=7)
    actions = core.legal_actions(state)          # stable order, the single source of truth
    state = core.apply_action(state, actions[0])  # a new state; the input is never mutated
    state.current_player                          # seat deciding now, None when the game is over
    core.is_over(state); core.final_scores(state)

Everything a UI or a save needs is exported here (``__all__``): the actions and their
notation, the refusals in words (``why_not_next``, ``why_not_kind``, ``next_spaces``), the
helpers that read a state (``cube_holders``, ``cube_index``). The modules behind it, and
the fast integer-coded path that computer players use, are described in their own
docstrings and in docs/ARCHITECTURE.md.
"""

from core.actions import (
    Action,
    ActionKind,
    Blackmore,
    BookRoom,
    Brown,
    Excavate,
    Extend,
    Lemon,
    NeutralExcavate,
    NeutralExtend,
    NeutralParcel,
    NeutralSkip,
    Pass,
    TakeParcel,
    Tangerine,
    Violet,
    action_kind,
    format_action,
    parse_action,
    placed_spaces,
)
from core.caches import clear_caches
from core.cards import (
    CARDS,
    DEFAULT_CARDS,
    DEFAULT_TEXT,
    Card,
    CardsError,
    Patron,
    cards_in_use,
    parse_cards,
    use_cards,
)
from core.errors import IllegalActionError, MalformedActionError
from core.levels import LEVELS, Level
from core.museum import Room
from core.public import public_start, public_view, replay, unseen_cards
from core.refusals import Choice, next_spaces, open_choices, why_not_kind, why_not_next
from core.rules import (
    Deal,
    Event,
    apply_action,
    apply_action_with_events,
    deal_of,
    is_over,
    legal_actions,
    new_game,
    redetermine,
)
from core.scoring import FinalScores, PlayerScore, final_scores
from core.state import NEUTRAL, Colour, GameState, Phase, PlayerState, cube_holders, cube_index

__all__ = [
    "CARDS",
    "DEFAULT_CARDS",
    "DEFAULT_TEXT",
    "LEVELS",
    "NEUTRAL",
    "Action",
    "ActionKind",
    "Blackmore",
    "BookRoom",
    "Brown",
    "Card",
    "CardsError",
    "Choice",
    "Colour",
    "Deal",
    "Event",
    "Excavate",
    "Extend",
    "FinalScores",
    "GameState",
    "IllegalActionError",
    "Lemon",
    "Level",
    "MalformedActionError",
    "NeutralExcavate",
    "NeutralExtend",
    "NeutralParcel",
    "NeutralSkip",
    "Pass",
    "Patron",
    "Phase",
    "PlayerScore",
    "PlayerState",
    "Room",
    "TakeParcel",
    "Tangerine",
    "Violet",
    "action_kind",
    "apply_action",
    "apply_action_with_events",
    "cards_in_use",
    "clear_caches",
    "cube_holders",
    "cube_index",
    "deal_of",
    "final_scores",
    "format_action",
    "is_over",
    "legal_actions",
    "new_game",
    "next_spaces",
    "open_choices",
    "parse_action",
    "parse_cards",
    "placed_spaces",
    "public_start",
    "public_view",
    "redetermine",
    "replay",
    "unseen_cards",
    "use_cards",
    "why_not_kind",
    "why_not_next",
]
