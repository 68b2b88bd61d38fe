"""The lesson seat: a lesson of :mod:`core.lessons` played through the game screen.

A :class:`table.seat.GameSeat` whose every move goes through ``core.lessons.attempt``, so
the learner plays a lesson with the game's own keys and board:

- an illegal try is refused with the rules' own words, a legal try that misses the task is
  refused with the check's words; either way nothing changes and the step stays (``play``
  raises ``core.IllegalActionError``, which the game screen says in its action bar);
- a done step moves the position on (the lesson's scripted replies included) and its
  ``why`` line is :attr:`LessonSeat.words`, told with the ``played`` update as its note;
- once the last step is done the lesson is :attr:`LessonSeat.finished`: nobody decides
  here any more.

The history is the learner's moves only: the state after each one includes the other
players' scripted replies (a step's ``reply`` is a function of the position, not a list of
actions). A lesson is never saved, has no undo (a miss changes nothing) and no computer
to run: :meth:`LessonSeat.run` only waits.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import core
from core.lessons import Lesson, Outcome
from table.seat import LegalActions, Listener, Player, SeatError, Update

Attempt = Callable[[Lesson, int, core.GameState, core.Action], Outcome]
"""``core.lessons.attempt``'s shape: (lesson, step, state, action) -> outcome."""

NOT_SAVED = "A lesson is not saved; the lessons you finish are remembered."


def rules_attempt() -> Attempt:
    """``core.lessons.attempt``, looked up when a lesson starts (a RuntimeError saying so
    if this build has no lessons yet)."""
    from core import lessons

    found: Attempt | None = getattr(lessons, "attempt", None)
    if found is None:
        raise RuntimeError("core.lessons.attempt is missing: this build has no lessons")
    return found


class LessonSeat:
    """A :class:`table.seat.GameSeat` over one lesson (see the module docstring)."""

    def __init__(self, lesson: Lesson, *, attempt: Attempt | None = None) -> None:
        """``attempt``: how a try is judged (default ``core.lessons.attempt``)."""
        self.lesson = lesson
        self._attempt = attempt if attempt is not None else rules_attempt()
        self.step = 0
        """The step to do now (``len(lesson.steps)`` once finished)."""
        self.words: str | None = None
        """The ``why`` of the step last done, None before the first."""
        self._states: list[core.GameState] = [lesson.start()]
        self._actions: list[core.Action] = []
        self._listeners: list[Listener] = []
        self._legal = LegalActions()

    # ---------------------------------------------------------------- the lesson

    @property
    def finished(self) -> bool:
        return self.step >= len(self.lesson.steps)

    @property
    def prompt(self) -> str | None:
        """What to do now, in words (None once the lesson is finished)."""
        return None if self.finished else self.lesson.steps[self.step].prompt

    # ---------------------------------------------------------------- what it shows

    @property
    def name(self) -> str:
        return f"lesson {self.lesson.key}"

    @property
    def title(self) -> str:
        return f"Lesson: {self.lesson.title}"

    @property
    def state(self) -> core.GameState:
        return self._states[-1]

    @property
    def players(self) -> Sequence[Player]:
        return tuple(Player(p.name, p.colour) for p in self.state.players)

    status: None = None
    unsaved = 0
    saved_note = NOT_SAVED
    table: None = None
    elsewhere: None = None

    def history(self) -> tuple[Sequence[core.GameState], Sequence[core.Action]]:
        return list(self._states), list(self._actions)

    # ---------------------------------------------------------------- playing

    def decides_here(self, seat: int | None) -> bool:
        """The learner makes every decision of the lesson, until it is finished."""
        return not self.finished and seat is not None and seat == self.state.current_player

    def legal_actions(self) -> tuple[core.Action, ...]:
        return self._legal.of(self.state)

    def play(self, action: core.Action) -> None:
        """Try ``action`` for the step now: raises ``core.IllegalActionError`` with the
        rules' refusal or the check's words (nothing changes), or moves on."""
        if self.finished:
            raise SeatError("The lesson is done: Enter for the next one, Esc for the list.")
        before = self.state
        outcome = self._attempt(self.lesson, self.step, before, action)
        if not outcome.done:
            raise core.IllegalActionError(core.format_action(action), outcome.words)
        events = core.apply_action_with_events(before, action)[1]
        self.step = len(self.lesson.steps) if outcome.finished else self.step + 1
        self.words = outcome.words
        self._states.append(outcome.state)
        self._actions.append(action)
        update = Update("played", outcome.state, before, action, tuple(events), note=outcome.words)
        for listener in self._listeners:
            listener(update)

    def can_undo(self) -> bool:
        return False

    def undo(self) -> None:
        raise SeatError("A lesson has no undo: a try that misses changes nothing.")

    def can_redo(self) -> bool:
        return False

    def redo(self) -> None:
        raise SeatError("There is nothing to redo.")

    def save_as(self, name: str) -> str:
        raise SeatError(NOT_SAVED)

    def flush(self) -> None:
        """Nothing to keep: a lesson is not saved."""

    # ---------------------------------------------------------------- the stream

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def run(self) -> None:
        """No computer plays in a lesson (the replies are scripted): wait until cancelled."""
        await asyncio.Event().wait()

    def hurry(self) -> None:
        """Nothing to hurry."""

    def hold(self, held: bool) -> None:
        """Nothing runs to be held."""

    def close(self) -> None:
        self._listeners.clear()
