"""Half-built actions: the choice of an action kind and the cubes placed so far.

A player builds a placement action one cube at a time. The legal next spaces are never
computed here: they are read off `core.legal_actions` by matching the cubes placed so far
against the prefix of every legal action of the chosen kind (DESIGN.md: one source of truth).
This module also words why a space that is not highlighted cannot take the next cube.
"""

from __future__ import annotations

from dataclasses import dataclass

import core
from core.region import NEIGHBOURS, board_mask, space_name

Space = int


@dataclass(frozen=True, slots=True)
class Kind:
    """A family of placement actions: a type and its number of cubes (Violet A vs Violet B)."""

    key: str
    label: str
    action_type: type
    cubes: int

    def matches(self, action: core.Action) -> bool:
        return isinstance(action, self.action_type) and len(spaces_of(action)) == self.cubes

    def build(self, spaces: tuple[Space, ...]) -> core.Action:
        """The action placing cubes on ``spaces`` (exactly ``cubes`` of them)."""
        t = self.action_type
        if t in (core.Excavate, core.NeutralExcavate):
            return t(spaces[0])
        if t in (core.Extend, core.Blackmore, core.NeutralExtend):
            return t(spaces[0], spaces[1])
        return t(tuple(spaces))


EXCAVATE = Kind("a", "start an excavation", core.Excavate, 1)
EXTEND = Kind("b", "extend an excavation", core.Extend, 2)
VIOLET_A = Kind("v", "Lady Violet, then start an excavation", core.Violet, 1)
VIOLET_B = Kind("v", "Lady Violet, then extend", core.Violet, 2)
LEMON_A = Kind("l", "Lord Lemon: a cube on a pyramid", core.Lemon, 1)
LEMON_B = Kind("l", "Lord Lemon: extend, one cube on a pyramid", core.Lemon, 2)
BLACKMORE = Kind("k", "Mrs. Blackmore: any space, then one next to it", core.Blackmore, 2)
TANGERINE = Kind("t", "Colonel Tangerine: a chain of three", core.Tangerine, 3)
NEUTRAL_A = Kind("n", "one neutral cube", core.NeutralExcavate, 1)
NEUTRAL_B = Kind("m", "two neutral cubes", core.NeutralExtend, 2)

KINDS: tuple[Kind, ...] = (
    EXCAVATE, EXTEND, VIOLET_A, VIOLET_B, LEMON_A, LEMON_B, BLACKMORE, TANGERINE,
    NEUTRAL_A, NEUTRAL_B,
)  # fmt: skip


def is_chained(kind: Kind) -> bool:
    """Whether the first cube must go next to one of the placer's cubes (B-like actions)."""
    if kind.action_type in (core.Violet, core.Lemon):
        return kind.cubes == 2
    return kind.action_type in (core.Extend, core.Tangerine, core.NeutralExtend)


def spaces_of(action: core.Action) -> tuple[Space, ...]:
    """The spaces an action places cubes on, in order (empty for non-placements)."""
    match action:
        case core.Excavate(space=s) | core.NeutralExcavate(space=s):
            return (s,)
        case (
            core.Extend(first=a, second=b)
            | core.Blackmore(first=a, second=b)
            | core.NeutralExtend(first=a, second=b)
        ):
            return (a, b)
        case core.Violet(spaces=ss) | core.Lemon(spaces=ss) | core.Tangerine(spaces=ss):
            return tuple(ss)
    return ()


def kinds_for_key(legal: tuple[core.Action, ...], key: str) -> list[Kind]:
    """The placement kinds bound to ``key`` that have at least one legal action now."""
    return [k for k in KINDS if k.key == key and any(k.matches(a) for a in legal)]


def next_spaces(
    legal: tuple[core.Action, ...], kind: Kind, placed: tuple[Space, ...]
) -> set[Space]:
    """Where the next cube of ``kind`` may go after ``placed``: the next space of every legal
    action of that kind whose first spaces are ``placed``."""
    n = len(placed)
    out: set[Space] = set()
    for action in legal:
        if kind.matches(action):
            spaces = spaces_of(action)
            if spaces[:n] == placed and len(spaces) > n:
                out.add(spaces[n])
    return out


def refusal(state: core.GameState, kind: Kind, placed: tuple[Space, ...], space: Space) -> str:
    """Why the next cube of ``kind`` cannot go on ``space``, in a player's words.

    Asks core first with a candidate action when this cube would complete it; otherwise
    gives a short local reason (the space's content, adjacency), and a general one last.
    """
    name = space_name(space)
    if len(placed) + 1 == kind.cubes:
        try:
            core.apply_action(state, kind.build((*placed, space)))
        except core.IllegalActionError as exc:
            return exc.reason
    lemon = kind.action_type is core.Lemon
    taken = 0
    for mask in state.cubes:
        taken |= mask
    if not board_mask(len(state.region)) >> space & 1:
        return f"{name} is not on this season's region"
    if taken >> space & 1:
        return f"{name} already holds a cube"
    if state.pyramids >> space & 1 and not lemon:
        return f"{name} holds a pyramid"
    if placed and not NEIGHBOURS[placed[-1]] >> space & 1:
        return f"{name} is not next to {space_name(placed[-1])}"
    if not placed and is_chained(kind):
        neutral = kind.action_type is core.NeutralExtend
        own = state.cubes[-1] if neutral else state.cubes[state.current]
        if not NEIGHBOURS[space] & own:
            whose = "a neutral cube" if neutral else "one of your cubes"
            return f"{name} is not next to {whose}"
    if lemon:
        return "with Lord Lemon exactly one cube goes on a pyramid, and the action must fit"
    return f"from {name} there is no way to finish this action"
