"""The action bar: what is being decided, by whom, and the options with their keys."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget


class ActionBar(Widget):
    """Set by the game screen: a prompt on one line (cut with an ellipsis if it must be),
    maybe a line of detail the decision rests on (the survey's ranking), and the options
    (or a refusal) below, wrapped onto as many lines as they need so that no option is
    ever hidden; the board above gives up the lines."""

    DEFAULT_CSS = """
    ActionBar { height: auto; min-height: 2; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._prompt = Text()
        self._detail: Text | None = None
        self._options = Text()

    def show(
        self, prompt: Text | str, options: Text | str = "", detail: Text | None = None
    ) -> None:
        prompt = prompt if isinstance(prompt, Text) else Text(prompt)
        options = options if isinstance(options, Text) else Text(options)
        if (prompt, options, detail) != (self._prompt, self._options, self._detail):
            lines = self._lines(self.size.width)
            self._prompt, self._options, self._detail = prompt, options, detail
            # A new layout only when the bar needs another number of lines.
            self.refresh(layout=self._lines(self.size.width) != lines)

    def _lines(self, width: int) -> int:
        width = max(width, 1)
        options = max(1, len(self._options.wrap(self.app.console, width)))
        return 1 + (self._detail is not None) + options

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._lines(width)

    @property
    def text(self) -> str:
        detail = "" if self._detail is None else f"{self._detail.plain}\n"
        return f"{self._prompt.plain}\n{detail}{self._options.plain}"

    def render(self) -> Text:
        width = max(self.size.width, 1)
        head = [self._prompt] if self._detail is None else [self._prompt, self._detail]
        lines = [line.copy() for line in head]
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        return Text("\n").join([*lines, self._options])


class StatusLine(Widget):
    """One line of text that repaints without a layout pass (the season and who decides)."""

    DEFAULT_CSS = """
    StatusLine { height: 1; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._text = Text()

    def show(self, text: Text) -> None:
        if text != self._text:
            self._text = text
            self.refresh()

    def render(self) -> Text:
        return self._text
