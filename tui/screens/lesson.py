"""A lesson on the game screen: the game's own board and keys, played through a
:class:`table.lesson.LessonSeat`, with the lesson in a panel where the log would be.

The panel says the lesson's title, the task now (the step's prompt), the ``why`` of the
step just done, and the lesson's idea. A wrong try (refused by the rules, or legal but
missing the task) is said in the action bar in the rules' words, the half-built action is
dropped and the task stays. Once the last step is done the panel says "Lesson done":
Enter opens the next lesson, Esc goes back to the list of lessons. The screen posts
:class:`LessonScreen.Finished` (the app marks the lesson done for the player) and
:class:`LessonScreen.Leave` (the app opens the next lesson or the list).

Reusing :class:`tui.screens.game.GameScreen` keeps every key, prompt and refusal of the
game; only what a lesson has not (saving, undo, hints, summaries, a lobby) is turned off.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget

import core
from table.lesson import LessonSeat
from table.seat import SeatError, Update
from tui import look
from tui.draft import IDLE, Mode
from tui.screens.game import GameScreen
from tui.widgets.actionbar import ActionBar

HALF_BUILT = (Mode.PLACE, Mode.ROOM, Mode.VARIANT)
"""Modes in which Esc steps the half-built action back (else it leaves the lesson)."""

TURNED_OFF = frozenset({"save_as", "hint", "take_over", "undo", "redo", "lobby", "log"})
"""The game screen's keys a lesson has no use for (the log is hidden; Esc leaves)."""

DONE_KEYS = "Enter: next lesson · Esc: the lessons"


CUT = "… i: the whole lesson"
"""The panel's last line when its words do not fit (a small terminal)."""


class LessonPanel(Widget):
    """The lesson's words (plain text: they come from the lessons, never markup). When
    they do not fit, the panel keeps their beginning (the task and what was just done come
    first) and its last line says :data:`CUT`."""

    DEFAULT_CSS = """
    LessonPanel { height: 1fr; min-height: 2; padding: 0 0; }
    """

    def __init__(self, words: Text, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.words = words

    def update(self, words: Text) -> None:
        self.words = words
        self.refresh()

    def render(self) -> Text:
        width, height = self.content_size
        if width <= 0 or height <= 0:
            return self.words
        lines = self.words.wrap(self.app.console, width)
        if len(lines) <= height:
            return self.words
        kept = Text("\n").join(lines[: height - 1])
        return kept + Text("\n" + CUT if height > 1 else CUT, "bold")


class LessonScreen(GameScreen):
    """One lesson (see the module docstring)."""

    DEFAULT_CSS = """
    LessonScreen #log { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "lessons", "Lessons"),
        Binding("i", "idea", "Whole lesson"),  # as the panel says when it is cut
        # Shown once the lesson is done (the game's own Enter, "skip the pause", is hidden).
        Binding("enter", "hurry", "Next lesson"),
    ]

    class Finished(Message):
        """The learner finished the lesson ``key`` (it is to be marked done)."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    class Leave(Message):
        """Leave the lesson ``key``: for the next lesson (``next``) or the list."""

        def __init__(self, key: str, next: bool) -> None:
            super().__init__()
            self.key = key
            self.next = next

    def __init__(self, seat: LessonSeat, number: int = 1, count: int = 1) -> None:
        """``number`` of ``count``: where the lesson is in the teaching order."""
        super().__init__(seat)
        self.lesson_seat = seat
        self.number, self.count = number, count
        self._told_finished = False

    def on_mount(self) -> None:
        left = self.query("#left")
        if left:
            left.first().mount(LessonPanel(self._panel_text(), id="lesson"))

    # ---------------------------------------------------------------- what it shows

    def _panel_text(self) -> Text:
        seat, lesson = self.lesson_seat, self.lesson_seat.lesson
        text = Text(f"Lesson {self.number}/{self.count} · {lesson.title}\n", "bold")
        if seat.words:
            text.append(f"✓ {seat.words}\n", "bold")
        if seat.finished:
            text.append("Lesson done.", "bold reverse")
            text.append(" Enter: next · Esc: the list\n", "bold")
        else:
            steps = len(lesson.steps)
            text.append(f"Task {seat.step + 1}/{steps}: ", "bold")
            text.append(f"{seat.prompt}\n")
        text.append(lesson.idea, look.DIM)
        return text

    def render_state(self) -> None:
        super().render_state()
        if not self._shown():
            return
        for panel in self.query(LessonPanel):
            panel.update(self._panel_text())
        if self.lesson_seat.finished:
            self.query_one(ActionBar).show("Lesson done.", Text(DONE_KEYS))

    def on_seat_update(self, update: Update) -> None:
        super().on_seat_update(update)
        if self.lesson_seat.finished and not self._told_finished:
            self._told_finished = True
            self.post_message(self.Finished(self.lesson_seat.lesson.key))
        self.render_state()

    def show_summary(self, before: core.GameState) -> None:
        """No season summary nor final scores over a lesson: the panel says what matters."""

    # ---------------------------------------------------------------- keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in TURNED_OFF:
            return False
        if action == "lessons":
            return self.mode not in HALF_BUILT
        if action == "hurry":  # Enter once the lesson is done: the next one
            return self.lesson_seat.finished
        return super().check_action(action, parameters)

    def decide(self, action: core.Action) -> None:
        """Try ``action`` for the task: a refusal or a miss is said in the rules' words and
        the half-built action goes (the task stays, from the position as it was)."""
        try:
            self.seat.play(action)
        except core.IllegalActionError as exc:
            self.step(IDLE)
            self.refuse(exc.reason)
        except SeatError as exc:
            self.refuse(str(exc), standing=True)

    def action_hurry(self) -> None:
        if self.lesson_seat.finished:
            self.post_message(self.Leave(self.lesson_seat.lesson.key, next=True))

    def action_lessons(self) -> None:
        self.post_message(self.Leave(self.lesson_seat.lesson.key, next=False))

    def action_idea(self) -> None:
        """The lesson's idea in full, over the board (the panel may cut it short)."""
        from tui.screens.dialogs import InfoScreen

        lesson = self.lesson_seat.lesson
        self.app.push_screen(InfoScreen(f"{lesson.title}\n\n{lesson.idea}"))
