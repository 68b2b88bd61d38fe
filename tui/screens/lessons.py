"""The list of lessons: every lesson of :mod:`core.lessons` in teaching order, a mark on
those the player has done, and last "A coached first game against the easy computer".

Enter opens the lesson under the cursor (any lesson, done or not, as often as wanted);
Esc goes back where the list was opened from (the new-game form, or the lobby in a door's
session); q leaves. The screen posts :class:`LessonsScreen.Chosen` (a lesson's index, or
:data:`COACHED`) and :class:`LessonsScreen.Closed`; the app owns the flow.

Also here, what the flow reads of the lessons and their progress: :func:`catalogue`,
:func:`progress`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.widgets.keys import KeysBar

if TYPE_CHECKING:
    from core.lessons import Lesson

COACHED = -1
"""The list's last entry: a coached first game, not a lesson."""

COACHED_TITLE = "A coached first game against the easy computer"
DONE_MARK, TODO_MARK = "✓", "·"


def catalogue() -> tuple[Lesson, ...]:
    """The lessons in teaching order."""
    from core.lessons import LESSONS

    return LESSONS


class LessonsRequested(Message):
    """The player asked for the lessons; ``back``: where Esc on their list goes (``new``,
    the new-game form, or ``lobby``)."""

    def __init__(self, back: str) -> None:
        super().__init__()
        self.back = back


class LessonsScreen(Screen[None]):
    """The list (see the module docstring)."""

    DEFAULT_CSS = """
    LessonsScreen { layout: vertical; }
    LessonsScreen #lessons-title { height: 1; background: $panel; text-style: bold; }
    LessonsScreen #lessons-list { height: 1fr; border: none; }
    LessonsScreen #lessons-note { height: auto; max-height: 4; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open", priority=True),
        Binding("escape", "close", "Back"),
        Binding("q", "quit", "Quit"),
    ]

    class Chosen(Message):
        """Open lesson ``index`` of the catalogue (:data:`COACHED`: the coached game)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Closed(Message):
        """The player left the list (Esc)."""

    def __init__(
        self, lessons: tuple[Lesson, ...], done: set[str], player: str, select: int = 0
    ) -> None:
        """``done``: the keys of the lessons ``player`` has done; ``select``: the entry
        under the cursor at first."""
        super().__init__()
        self.lessons, self.done, self.player, self.select = lessons, done, player, select

    def compose(self) -> ComposeResult:
        count = sum(1 for lesson in self.lessons if lesson.key in self.done)
        title = f"Learn to play · {self.player} · {count} of {len(self.lessons)} lessons done"
        yield Static(title, id="lessons-title", markup=False)
        with Vertical():
            options = [
                Option(self._entry(number, lesson), id=lesson.key)
                for number, lesson in enumerate(self.lessons, 1)
            ]
            options.append(Option(Text(f"   ▶ {COACHED_TITLE}", "bold"), id="coached"))
            yield OptionList(*options, id="lessons-list")
        note = "" if self.lessons else "This build has no lessons yet."
        yield Static(note, id="lessons-note", markup=False)
        yield KeysBar()

    def _entry(self, number: int, lesson: Lesson) -> Text:
        mark = DONE_MARK if lesson.key in self.done else TODO_MARK
        return Text(f"{mark} {number:>2}. {lesson.title}", no_wrap=True, overflow="ellipsis")

    def on_mount(self) -> None:
        listing = self.query_one(OptionList)
        listing.highlighted = min(max(self.select, 0), len(self.lessons))
        listing.focus()
        self.show_note()

    def on_option_list_option_highlighted(self, _event: OptionList.OptionHighlighted) -> None:
        self.show_note()

    def show_note(self) -> None:
        """The idea's first line of the lesson under the cursor."""
        index = self.query_one(OptionList).highlighted
        if index is None or not self.lessons:
            return
        if index >= len(self.lessons):
            words = "A whole game; a short note says what to weigh the first time each thing comes."
        else:
            lesson = self.lessons[index]
            done = " (done: Enter plays it again)" if lesson.key in self.done else ""
            words = lesson.idea.split("\n")[0] + done
        self.query_one("#lessons-note", Static).update(words)

    def action_open(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is None:
            return
        self.post_message(self.Chosen(COACHED if index >= len(self.lessons) else index))

    def action_close(self) -> None:
        self.post_message(self.Closed())

    def action_quit(self) -> None:
        self.app.exit()
