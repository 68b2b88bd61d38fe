"""The game's log, in words (core's Event texts), each line led by the letter of the player
it concerns: the whole game, read with PgUp/PgDn/Home/End from the game screen.

When a player at this terminal is to decide, the lines since their last decision (what
the others did) are set off by a marker line; if they do not all fit, the log shows them
from the marker down, with how many more lines follow, rather than only the last ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

import core
from table.seat import ChatLine
from tui import look

MARKER = Style(bold=True, reverse=True)


@dataclass(frozen=True, slots=True)
class Entry:
    """One logged line, and the seat whose decision led to it (None: a note)."""

    text: Text
    decider: int | None = None


class LogView(Widget):
    """The newest lines at the bottom, unless the player scrolled up or a player's turn
    starts with more news than fit (see the module docstring)."""

    DEFAULT_CSS = """
    LogView { height: 1fr; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entries: list[Entry] = []
        self.top: int | None = None
        """The first entry shown when scrolled; None follows the newest line."""
        self.since: int | None = None
        """The first entry after the last decision of the player deciding now (marked)."""
        self.since_words = ""
        self._shown = (0, 0)
        """The first and last entries of the last frame."""

    @property
    def lines(self) -> list[Text]:
        return [entry.text for entry in self.entries]

    # ---------------------------------------------------------------- telling

    def add(self, line: str | Text, decider: int | None = None) -> None:
        self.entries.append(Entry(line if isinstance(line, Text) else Text(line), decider))
        self.refresh()

    def clear(self) -> None:
        self.entries.clear()
        self.top = self.since = None
        self.refresh()

    def tell(
        self, state: core.GameState, text: str, seat: int | None = None, decider: int | None = None
    ) -> None:
        """A line about ``seat`` (None: nobody's), led by its letter in its colour."""
        line = Text()
        if seat is not None and seat >= 0:
            line.append(look.seat_letter(state, seat) + " ", look.seat_style(state, seat))
        line.append(text)
        self.add(line, decider)

    def tell_chat(self, line: ChatLine) -> None:
        """A line of the table's chat: plain text (never markup), the sayer in bold, a
        spectator marked as one."""
        text = Text("» ", look.DIM)
        text.append(line.name, "bold")
        if line.spectator:
            text.append(" (watching)", look.DIM)
        text.append(f": {line.text}")
        self.add(text)

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
        decider = before.current_player
        if decider is not None and self.since is not None and decider == self._marked:
            self.since, self.top = None, None  # the player decided: back to the newest
        for event in events or [core.Event(core.format_action(action), before.current)]:
            self.tell(before, event.text, event.seat, decider)

    def tell_history(
        self,
        states: Sequence[core.GameState],
        actions: Sequence[core.Action],
        chat: Sequence[ChatLine] = (),
    ) -> None:
        """The log rebuilt from the whole history, worded as when it was played, so it
        always matches the board (on opening a game, after undo or redo); a shared
        table's ``chat`` follows the moves."""
        self.clear()
        for state, action in zip(states, actions, strict=False):
            self.tell_action(state, action)
        for line in chat:
            self.tell_chat(line)

    # ---------------------------------------------------------------- a player's turn

    @property
    def _marked(self) -> int | None:
        return self.entries[self.since - 1].decider if self.since else None

    def turn_of(self, state: core.GameState) -> None:
        """The player deciding in ``state`` does so at this terminal: mark what happened
        since their last decision, and show it from its start when it does not all fit."""
        seat = state.current
        last = next((i for i in range(len(self.entries) - 1, -1, -1)
                     if self.entries[i].decider == seat), None)  # fmt: skip
        others = last is not None and any(
            e.decider not in (None, seat) for e in self.entries[last + 1 :]
        )
        self.since = last + 1 if last is not None and others else None
        self.since_words = f"since {look.cut(state.players[seat].name, 12)}'s last decision"
        self.top = None
        if self.since is not None and self._rows(self.since, len(self.entries)) >= self.size.height:
            self.top = self.since
        self.refresh()

    # ---------------------------------------------------------------- scrolling

    def scroll_by_key(self, key: str) -> None:
        """``pageup``, ``pagedown``, ``home`` or ``end``."""
        {"pageup": lambda: self.page(-1), "pagedown": lambda: self.page(1),
         "home": self.home, "end": self.end}[key]()  # fmt: skip

    def page(self, pages: int) -> None:
        """Scroll by ``pages`` pages (negative: back to older lines)."""
        step = max(self.size.height - 2, 1)
        if pages < 0:
            self.top = max(0, self._shown[0] + pages * step)
        elif self.top is not None:
            top = self.top + pages * step
            self.top = None if top > len(self.entries) - step else top
        self.refresh()

    def home(self) -> None:
        self.top = 0
        self.refresh()

    def end(self) -> None:
        self.top = None
        self.refresh()

    @property
    def scrolled(self) -> bool:
        return self.top is not None

    # ---------------------------------------------------------------- rendering

    def _wrap(self, index: int) -> list[Text]:
        """The rows of entry ``index`` (the marker row first, if it is marked)."""
        rows = list(self.entries[index].text.wrap(self.app.console, max(self.size.width, 10)))
        if index == self.since:
            rows.insert(0, self._marker())
        return rows

    def _rows(self, start: int, stop: int) -> int:
        return sum(len(self._wrap(i)) for i in range(start, stop))

    def _marker(self) -> Text:
        text = Text(f"── {self.since_words} ──", MARKER)
        text.truncate(max(self.size.width, 10), overflow="ellipsis")
        return text

    def render(self) -> Text:
        height = max(self.size.height, 1)
        if self.top is None or self.top >= len(self.entries):
            rows, first, last = self._from_bottom(height)
        else:
            rows, first, last = self._from_top(height)
        self._shown = (first, last)
        return Text("\n").join(rows)

    def _from_bottom(self, height: int) -> tuple[list[Text], int, int]:
        """The newest rows that fit."""
        shown: list[Text] = []
        first = len(self.entries)
        while first > 0:
            rows = self._wrap(first - 1)
            if len(shown) + len(rows) > height:
                break
            shown[:0] = rows
            first -= 1
        return shown, first, len(self.entries) - 1

    def _from_top(self, height: int) -> tuple[list[Text], int, int]:
        """Rows from entry ``top`` down, the last row saying how many more follow."""
        assert self.top is not None
        shown: list[Text] = []
        index = self.top
        while index < len(self.entries):
            rows = self._wrap(index)
            if len(shown) + len(rows) > height - 1:
                break
            shown += rows
            index += 1
        more = len(self.entries) - index
        if more:
            plural = "line follows" if more == 1 else "lines follow"
            shown.append(Text(f"▼ {more} more {plural}: PgDn, End", MARKER))
        return shown, self.top, index - 1
