"""The log of recent actions, in words (core's Event texts), each line led by the letter
of the player it concerns."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

import core
from tui import look

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

    def tell(self, state: core.GameState, text: str, seat: int | None = None) -> None:
        """A line about ``seat`` (None: nobody's), led by its letter in its colour."""
        line = Text()
        if seat is not None and seat >= 0:
            line.append(look.seat_letter(state, seat) + " ", look.seat_style(state, seat))
        line.append(text)
        self.add(line)

    def tell_action(
        self,
        before: core.GameState,
        action: core.Action,
        events: Sequence[core.Event] | None = None,
    ) -> None:
        """What ``action`` did when played in ``before``: its ``events`` (core's words,
        automatic steps included; worked out again when not given), else its notation."""
        if events is None:
            events = core.apply_action_with_events(before, action)[1]
        for event in events or [core.Event(core.format_action(action), before.current)]:
            self.tell(before, event.text, event.seat)

    def tell_history(
        self, states: Sequence[core.GameState], actions: Sequence[core.Action], count: int
    ) -> None:
        """The log rebuilt from the last ``count`` actions, worded as when they were played,
        so it always matches the board."""
        self.clear()
        for index in range(max(0, len(actions) - count), len(actions)):
            self.tell_action(states[index], actions[index])

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
