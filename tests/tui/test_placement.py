"""The placements the keys pick: each is core's action kind, its next spaces and refusals
are core's answers, and the action it builds is of its kind."""

from __future__ import annotations

import random

import core
from core.region import NEIGHBOURS, space_name
from tui import placement


def _position(seed: int, wanted) -> core.GameState:
    rng = random.Random(seed)
    state = core.new_game(3, seed)
    for _ in range(2000):
        legal = core.legal_actions(state)
        if wanted(state, legal):
            return state
        state = core.apply_action(state, rng.choice(legal))
    raise AssertionError("position not reached")


def test_next_spaces_are_exactly_the_prefixes_of_legal_actions() -> None:
    """Every space offered after a prefix completes to a legal action, and every legal
    action is reachable one offered space at a time."""
    state = _position(3, lambda s, legal: any(isinstance(a, core.Tangerine) for a in legal))
    legal = core.legal_actions(state)
    kind = placement.TANGERINE
    wanted = {core.placed_spaces(a) for a in legal if core.action_kind(a) == kind.kind}
    built: set[tuple[int, ...]] = set()
    frontier: list[tuple[int, ...]] = [()]
    while frontier:
        prefix = frontier.pop()
        if len(prefix) == kind.cubes:
            built.add(prefix)
            continue
        frontier.extend((*prefix, s) for s in placement.next_spaces(state, kind, prefix))
    assert built == wanted and wanted


def test_kinds_for_a_patron_key_list_only_its_usable_forms() -> None:
    state = _position(3, lambda s, legal: any(isinstance(a, core.Violet) for a in legal))
    kinds = placement.kinds_for_key(core.legal_actions(state), "v")
    assert kinds and all(isinstance(k.build((0, 1)[: k.cubes]), core.Violet) for k in kinds)
    assert placement.kinds_for_key(core.legal_actions(state), "z") == []


def test_refusals_name_the_space_and_the_reason() -> None:
    state = _position(7, lambda s, legal: any(isinstance(a, core.Extend) for a in legal))
    pyramid = core.region.spaces_of(state.pyramids)[0]
    assert placement.refusal(state, placement.EXCAVATE, (), pyramid) == (
        f"{space_name(pyramid)} holds a pyramid"
    )
    own = state.cubes[state.current]
    taken = core.region.spaces_of(own)[0]
    assert "already holds a cube" in placement.refusal(state, placement.EXTEND, (), taken)
    first = next(a.first for a in core.legal_actions(state) if isinstance(a, core.Extend))
    far = next(
        s
        for s in range(48)
        if not NEIGHBOURS[first] >> s & 1
        and s != first
        and not state.pyramids >> s & 1
        and not any(m >> s & 1 for m in state.cubes)
    )
    assert placement.refusal(state, placement.EXTEND, (first,), far).endswith(
        f"is not next to {space_name(first)}"
    )


def test_each_kind_builds_an_action_of_its_kind_with_its_cubes() -> None:
    spaces = (9, 10, 11)
    for kind in placement.KINDS:
        action = kind.build(spaces[: kind.cubes])
        assert core.action_kind(action) == kind.kind, kind
        assert core.placed_spaces(action) == spaces[: kind.cubes]
