"""The contract's values: a lesson, its steps and the outcome of a try (see
:mod:`core.lessons`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.actions import Action
from core.state import GameState

Check = Callable[[GameState, Action, GameState], "str | None"]
"""A step's task: ``check(before, action, after)`` is None when the legal ``action`` does
the task, else the sentence saying why it does not."""


@dataclass(frozen=True, slots=True)
class Step:
    prompt: str
    """What to do, in words (the keys are the screen's to say)."""
    check: Check
    why: str
    """One line shown on success: why it matters."""
    reply: Callable[[GameState], GameState] | None = None
    """The other players' scripted actions after the step (None: none)."""


@dataclass(frozen=True, slots=True)
class Lesson:
    key: str
    title: str
    idea: str
    """The idea, a few lines, true to docs/RULES.md and this project's rulings."""
    start: Callable[[], GameState]
    steps: tuple[Step, ...]
    learner: int = 0
    """The learner's seat in ``start()`` (the other seats' moves are scripted)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    state: GameState
    words: str
    done: bool
    finished: bool
