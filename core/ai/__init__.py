"""Computer opponents. They use only ``core``'s public API and never read the undealt deck.

``make_bot(level, seed)`` returns a :class:`Bot`: an object with ``choose(state) -> Action``.
"""

from __future__ import annotations

import random
from typing import Protocol

from core.actions import Action
from core.rules import legal_actions
from core.state import GameState

LEVELS = ("easy", "normal", "hard")


class Bot(Protocol):
    """A computer player: picks one of ``legal_actions(state)`` for ``state.current``."""

    level: str

    def choose(self, state: GameState) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action (a placeholder until the levels exist)."""

    level = "easy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        return self._rng.choice(legal_actions(state))


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A bot of ``level`` (one of :data:`LEVELS`), deterministic for a given ``seed``."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    return RandomBot(seed)
