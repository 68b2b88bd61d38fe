"""Every memo table of core is registered, so ``core.clear_caches()`` empties them all.

The tables are found by what they do, not by their names: every module-level container of
``core`` and ``core.ai`` (and the containers nested in them) is measured before and after a
varied workload; one that changed must be registered. No module global may be rebound
while playing either (a cache kept by rebinding a global would escape the registry).
"""

from __future__ import annotations

import importlib
import pkgutil
import random
import types
from collections.abc import Iterator, Sized

import core
from core.ai import make_bot
from core.caches import registered
from core.rollout import random_playout
from tests.ai.positions import random_positions

_CONTAINERS = (dict, list, set, tuple)
_DEPTH = 3


def _modules() -> list[types.ModuleType]:
    names = [info.name for info in pkgutil.walk_packages(core.__path__, "core.")]
    return [importlib.import_module(name) for name in ["core", *names]]


def _globals() -> Iterator[tuple[str, object]]:
    """Module-level values of core that are data (not modules, classes or functions)."""
    for module in _modules():
        for name, value in vars(module).items():
            if name.startswith("__") or callable(value) or isinstance(value, types.ModuleType):
                continue
            yield f"{module.__name__}.{name}", value


def _tables(path: str, value: object, depth: int = 0) -> Iterator[tuple[str, object]]:
    """``value`` and the containers nested in it, by path; a registered table is not
    entered (what it holds is its own business)."""
    yield path, value
    if depth == _DEPTH or not isinstance(value, _CONTAINERS):
        return
    if any(value is table for table in registered()):
        return
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, child in items:
        if isinstance(child, _CONTAINERS) or hasattr(child, "clear"):
            yield from _tables(f"{path}[{key!r}]", child, depth + 1)


def _snapshot() -> dict[str, tuple[int, int]]:
    """Identity and size of every module-level table (and nested container) of core."""
    out = {}
    for name, value in _globals():
        for path, table in _tables(name, value):
            size = len(table) if isinstance(table, Sized) else -1
            out[path] = (id(table), size)
    return out


def _workload() -> None:
    """Play in every way core offers: all player counts, the public and fast paths, words,
    refusals, the three bots."""
    for players in (2, 3, 4):
        rng = random.Random(players)
        state = core.new_game(players, 60 + players)
        while not core.is_over(state):
            actions = core.legal_actions(state)
            action = rng.choice(actions)
            core.format_action(action)
            core.open_choices(state)
            for choice in core.Choice:
                core.why_not_kind(state, choice)
            state = core.apply_action_with_events(state, action)[0]
        random_playout(core.new_game(players, players), random.Random(players))
        for state in random_positions(players, seed=players, every=40):
            for level in ("easy", "normal", "hard"):
                make_bot(level, 1, iterations=3).choose(state)
            core.redetermine(state, random.Random(1))


def test_every_table_that_fills_while_playing_is_registered() -> None:
    """Anything core stores as it plays is a registered cache; nothing is rebound."""
    core.clear_caches()
    before = _snapshot()
    _workload()
    after = _snapshot()
    tables = {id(table) for table in registered()}
    grown = [path for path, (ident, size) in after.items() if before.get(path) != (ident, size)]
    rebound = [p for p in grown if p in before and before[p][0] != after[p][0]]
    assert not rebound, f"module globals rebound while playing: {rebound}"
    unregistered = [p for p in grown if after[p][0] not in tables]
    assert not unregistered, f"tables filled while playing, not registered: {unregistered}"
    assert sum(1 for p in grown if after[p][0] in tables) >= 10, "the workload filled no cache"


def test_clear_caches_empties_every_registered_table() -> None:
    """After a game, the tables hold entries; after ``clear_caches`` none does."""
    _workload()
    assert any(len(table) for table in registered())  # type: ignore[arg-type]
    core.clear_caches()
    assert [t for t in registered() if len(t)] == []  # type: ignore[arg-type]


def test_the_registry_covers_the_tables_named_in_the_issue() -> None:
    """The tables the old test forgot are registered: the AI's seat cache, the ready-made
    single and Blackmore codes, and the action intern tables."""
    from core import actions, moves
    from core.ai import evaluate

    tables = {id(t) for t in registered()}
    for table in (
        evaluate._SEAT_CACHE,
        moves._SINGLES,
        moves._BLACKMORE_TABLES,
        actions._FROM_CODE,
        actions._TO_CODE,
    ):
        assert id(table) in tables
