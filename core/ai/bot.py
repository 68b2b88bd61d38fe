"""What every computer player is: its level, and the contract of its one method."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from core.actions import Action
from core.levels import LEVELS, Level
from core.state import GameState

__all__ = ["LEVELS", "Bot", "Level", "Stop"]

Stop = Callable[[], bool]
"""Polled during a long decision: true once the caller wants an answer now (e.g. the player
left the screen); a ``threading.Event().is_set`` will do. Every bot accepts one; only the
hard bot's search is long enough to poll it."""


class Bot(Protocol):
    """A computer player: picks one of ``legal_actions(state)`` for ``state.current``.

    ``stop``, polled during a long decision, cuts it short: the bot then returns the best
    action found so far, at once (the hard bot's search polls it before every simulation).
    """

    level: Level

    def choose(self, state: GameState, stop: Stop | None = None) -> Action: ...
