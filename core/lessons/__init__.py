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
scripts are played too, so ``outcome.state`` is again the learner's turn (after the last
step it is the position as it stands: the lesson is over).

The learner is seat 0; positions are built by :mod:`core.lessons.positions` (checked: the
cubes and cards add up, someone can move) and the lessons live in
:mod:`core.lessons.catalogue`. Every word comes from docs/RULES.md; the tests hold each
lesson to its scripted solution and its refusals.
"""

from __future__ import annotations

from core.actions import Action
from core.errors import IllegalActionError
from core.lessons.catalogue import LESSONS
from core.lessons.steps import Check, Lesson, Outcome, Step
from core.rules import apply_action
from core.state import GameState

_BY_KEY = {chosen.key: chosen for chosen in LESSONS}


def lesson(key: str) -> Lesson:
    """The lesson called ``key`` (``KeyError`` for an unknown key)."""
    return _BY_KEY[key]


def attempt(chosen: Lesson, step: int, state: GameState, action: Action) -> Outcome:
    """Try ``action`` for step ``step`` of ``chosen`` from ``state`` (the learner to move).

    Illegal: the rules' own refusal (the ``IllegalActionError``'s ``reason``, in the words a
    game's screen shows it), ``state`` unchanged. Legal but missing the task: the step's
    check in words, ``state`` unchanged. Done: the state after the action and the scripted
    replies, the step's ``why``; ``finished`` on the last step. ``IndexError`` for a step
    the lesson does not have.
    """
    if not 0 <= step < len(chosen.steps):
        raise IndexError(f"lesson {chosen.key!r} has no step {step}")
    current = chosen.steps[step]
    try:
        after = apply_action(state, action)
    except IllegalActionError as refusal:
        return Outcome(state, refusal.reason, done=False, finished=False)
    miss = current.check(state, action, after)
    if miss is not None:
        return Outcome(state, miss, done=False, finished=False)
    if current.reply is not None:
        after = current.reply(after)
    return Outcome(after, current.why, done=True, finished=step == len(chosen.steps) - 1)


__all__ = ["LESSONS", "Check", "Lesson", "Outcome", "Step", "attempt", "lesson"]
