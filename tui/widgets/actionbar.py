"""The action bar: what is being decided, by whom, and the options with their keys."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget


class ActionBar(Widget):
    """Set by the game screen: a prompt on one line (cut with an ellipsis if it must be)
    and the options (or a refusal) below it, wrapped onto as many lines as they need so
    that no option is ever hidden; the board above gives up the lines."""

    DEFAULT_CSS = """
    ActionBar { height: auto; min-height: 2; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._prompt = Text()
        self._options = Text()

    def show(self, prompt: Text | str, options: Text | str = "") -> None:
        prompt = prompt if isinstance(prompt, Text) else Text(prompt)
        options = options if isinstance(options, Text) else Text(options)
        if (prompt, options) != (self._prompt, self._options):
            lines = self._option_lines(self.size.width)
            self._prompt, self._options = prompt, options
            # A new layout only when the options need another number of lines.
            self.refresh(layout=self._option_lines(self.size.width) != lines)

    def _option_lines(self, width: int) -> int:
        width = max(width, 1)
        return max(1, len(self._options.wrap(self.app.console, width)))

    def get_content_height(self, container, viewport, width: int) -> int:
        return 1 + self._option_lines(width)

    @property
    def text(self) -> str:
        return f"{self._prompt.plain}\n{self._options.plain}"

    def render(self) -> Text:
        prompt = self._prompt.copy()
        prompt.truncate(max(self.size.width, 1), overflow="ellipsis")
        return Text("\n").join([prompt, self._options])


class StatusLine(Widget):
    """One line of text that repaints without a layout pass (the season and who decides)."""

    DEFAULT_CSS = """
    StatusLine { height: 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._text = Text()

    def show(self, text: Text) -> None:
        if text != self._text:
            self._text = text
            self.refresh()

    def render(self) -> Text:
        return self._text
