"""Round-trip: for random games, the save written after every action loads to an equal state."""

from __future__ import annotations

import random

import pytest

import core
import saves
from tests.saves.helpers import COLOURS, human


def _check_every_step(store: saves.SaveStore, players: int, seed: int) -> int:
    """Play a random game; after each action, load its save and compare. Returns the length."""
    rng = random.Random(seed)
    colours = rng.sample(COLOURS, players)
    seats = [human(f"P{seat}", colour) for seat, colour in enumerate(colours)]
    session = saves.Session.new(store, seats, seed=seed, name=f"game {seed}")
    assert store.load(session.name).state == session.state
    while not session.finished:
        session.apply(rng.choice(core.legal_actions(session.state)))
        loaded = store.load(session.name)
        assert loaded.state == session.state
        assert loaded.actions == session.actions and loaded.seats == session.seats
    assert loaded.states() == session.states()
    return len(session.actions)


@pytest.mark.parametrize(("players", "seed"), [(2, 101), (3, 102), (4, 103)])
def test_save_at_every_step_loads_the_same_state(
    store: saves.SaveStore, players: int, seed: int
) -> None:
    """A few complete games, one per player count."""
    assert _check_every_step(store, players, seed) > 50


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(200, 230))
def test_save_at_every_step_many_games(store: saves.SaveStore, seed: int) -> None:
    """Thirty more random games (slow)."""
    assert _check_every_step(store, 2 + seed % 3, seed) > 50
