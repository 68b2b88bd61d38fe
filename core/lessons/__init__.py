"""Lessons: each one idea of the rules on a small position built for it, with a task the
rules engine checks (issue 28). Pure: no I/O, no UI; the words come from docs/RULES.md.

The contract (the screens, ``mykerinos learn`` and the tests use only this)::

    from core.lessons import LESSONS, lesson, attempt

    chosen = lesson("extend")            # by key; LESSONS in teaching order
    state = chosen.start()               # the position built for it (the learner to move)
    outcome = attempt(chosen, 0, state, action)
    outcome.words    # a refusal in the rules' own words, why a legal try misses the task,
                     # or (done) one line of why the step matters
    outcome.done     # the step is done: go on with step + 1 from outcome.state
    outcome.finished # the lesson is done

An illegal try is refused with the words the game already has (``core.refusals``); a legal
try that misses the task is undone (``outcome.state`` is the position before it) and says
why; either way the step stays. When a step is done, the other players' replies the lesson
scripts are played too, so ``outcome.state`` is again the learner's turn (or the end).
"""

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


@dataclass(frozen=True, slots=True)
class Outcome:
    state: GameState
    words: str
    done: bool
    finished: bool
