"""The coach's note, between the board and the action bar, the width of the screen: a
few lines saying what is being decided and what to weigh (see :mod:`tui.coach`). It takes
no focus and no key: play goes on under it."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from tui import look


class CoachNote(Static):
    """Hidden while there is nothing to say; :meth:`say` shows a note or hides it."""

    DEFAULT_CSS = """
    CoachNote { height: auto; background: $boost; padding: 0 1; display: none; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", markup=False, **kwargs)
        self.words: str | None = None

    def say(self, words: str | None) -> None:
        """Show ``words`` (plain text, its first word bold; its last line, the key that
        turns coaching off, dim after the rest), or hide the note (None)."""
        if words == self.words:
            return
        self.words = words
        self.display = words is not None
        if words is None:
            return
        body, _, last = words.rpartition("\n")
        text = Text(body)
        text.stylize("bold", 0, len(body.partition(" ")[0]))
        width = max(self.app.size.width - 2, 20)  # the screen's width, less the padding
        end = text.wrap(self.app.console, width)[-1].cell_len
        gap = "  " if end + 2 + len(last) <= width else "\n"  # the key never split
        text.append(gap + last, look.DIM)
        self.update(text)
