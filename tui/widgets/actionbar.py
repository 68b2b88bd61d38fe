"""The action bar: what is being decided, by whom, and the options with their keys."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget


class ActionBar(Widget):
    """Two lines set by the game screen: a prompt and the options (or a refusal)."""

    DEFAULT_CSS = """
    ActionBar { height: 2; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._prompt = Text()
        self._options = Text()

    def show(self, prompt: Text | str, options: Text | str = "") -> None:
        prompt = prompt if isinstance(prompt, Text) else Text(prompt)
        options = options if isinstance(options, Text) else Text(options)
        if (prompt, options) != (self._prompt, self._options):
            self._prompt, self._options = prompt, options
            self.refresh()

    @property
    def text(self) -> str:
        return f"{self._prompt.plain}\n{self._options.plain}"

    def render(self) -> Text:
        return Text("\n").join([self._prompt, self._options])


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
