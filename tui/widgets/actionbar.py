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
