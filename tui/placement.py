"""The placements the keys pick, in the game screen's words.

A player builds a placement one cube at a time. Each :class:`Kind` is a core
``ActionKind`` with the key that picks it and the words of its prompt. Where the next cube
may go and why it may not go somewhere are core's answers (``core.next_spaces``,
``core.why_not_next``), read off the one legal-move generator; this module only says which
kinds a key leads to now and builds the finished action.
"""

from __future__ import annotations

import msgspec

import core

Space = int
AK = core.ActionKind


class Kind(msgspec.Struct, frozen=True):
    """A family of placement actions: one action kind (Violet A and Violet B differ)."""

    key: str
    label: str
    kind: core.ActionKind
    cubes: int

    def build(self, spaces: tuple[Space, ...]) -> core.Action:
        """The action placing cubes on ``spaces`` (exactly ``cubes`` of them)."""
        match self.kind:
            case AK.EXCAVATE:
                return core.Excavate(spaces[0])
            case AK.NEUTRAL_A:
                return core.NeutralExcavate(spaces[0])
            case AK.EXTEND:
                return core.Extend(spaces[0], spaces[1])
            case AK.BLACKMORE:
                return core.Blackmore(spaces[0], spaces[1])
            case AK.NEUTRAL_B:
                return core.NeutralExtend(spaces[0], spaces[1])
            case AK.VIOLET_A | AK.VIOLET_B:
                return core.Violet(tuple(spaces))
            case AK.LEMON_A | AK.LEMON_B:
                return core.Lemon(tuple(spaces))
        return core.Tangerine((spaces[0], spaces[1], spaces[2]))


EXCAVATE = Kind("a", "start an excavation", AK.EXCAVATE, 1)
EXTEND = Kind("b", "extend an excavation", AK.EXTEND, 2)
VIOLET_A = Kind("v", "Lady Violet, then start an excavation", AK.VIOLET_A, 1)
VIOLET_B = Kind("v", "Lady Violet, then extend", AK.VIOLET_B, 2)
LEMON_A = Kind("l", "Lord Lemon: a cube on a pyramid", AK.LEMON_A, 1)
LEMON_B = Kind("l", "Lord Lemon: extend, one cube on a pyramid", AK.LEMON_B, 2)
BLACKMORE = Kind("k", "Mrs. Blackmore: any space, then one next to it", AK.BLACKMORE, 2)
TANGERINE = Kind("t", "Colonel Tangerine: a chain of three", AK.TANGERINE, 3)
NEUTRAL_A = Kind("n", "one neutral cube", AK.NEUTRAL_A, 1)
NEUTRAL_B = Kind("m", "two neutral cubes", AK.NEUTRAL_B, 2)

KINDS: tuple[Kind, ...] = (
    EXCAVATE, EXTEND, VIOLET_A, VIOLET_B, LEMON_A, LEMON_B, BLACKMORE, TANGERINE,
    NEUTRAL_A, NEUTRAL_B,
)  # fmt: skip


def legal_kinds(legal: tuple[core.Action, ...]) -> frozenset[core.ActionKind]:
    """The action kinds of the legal actions."""
    return frozenset(core.action_kind(action) for action in legal)


def kinds_for_key(legal: tuple[core.Action, ...], key: str) -> list[Kind]:
    """The placement kinds bound to ``key`` that have at least one legal action now."""
    kinds = legal_kinds(legal)
    return [k for k in KINDS if k.key == key and k.kind in kinds]


def next_spaces(state: core.GameState, kind: Kind, placed: tuple[Space, ...]) -> frozenset[Space]:
    """Where the next cube of ``kind`` may go after ``placed`` (core's answer)."""
    return core.next_spaces(state, kind.kind, placed)


def refusal(state: core.GameState, kind: Kind, placed: tuple[Space, ...], space: Space) -> str:
    """Why the next cube of ``kind`` cannot go on ``space``, in a player's words (core's)."""
    return core.why_not_next(state, kind.kind, placed, space)
