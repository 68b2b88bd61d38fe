"""The log of recent actions, in words (core's Event texts and describe_action)."""

from __future__ import annotations

from collections import deque

from rich.text import Text
from textual.widget import Widget

KEEP = 200


class LogView(Widget):
    """The newest lines at the bottom; as many as fit."""

    DEFAULT_CSS = """
    LogView { height: 1fr; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: deque[Text] = deque(maxlen=KEEP)

    def add(self, line: str | Text) -> None:
        self.lines.append(line if isinstance(line, Text) else Text(line))
        self.refresh()

    def clear(self) -> None:
        self.lines.clear()
        self.refresh()

    def render(self) -> Text:
        height = max(self.size.height, 1)
        width = max(self.size.width, 10)
        shown: list[Text] = []
        # Long lines wrap; count rows from the newest line backwards.
        rows = 0
        for line in reversed(self.lines):
            need = max(1, -(-line.cell_len // width))
            if rows + need > height:
                break
            shown.append(line)
            rows += need
        return Text("\n").join(reversed(shown))
