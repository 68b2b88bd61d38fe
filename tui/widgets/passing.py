"""The passing scale: who passed onto which space (1 first); N is the neutral."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widget import Widget

import core
from tui import look


class PassingView(Widget):
    """One line: ``Passing 1:R 2:N 3:· 4:·``."""

    DEFAULT_CSS = """
    PassingView { height: 1; }
    """

    def __init__(self, state: core.GameState, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._state = state

    @property
    def state(self) -> core.GameState:
        return self._state

    @state.setter
    def state(self, state: core.GameState) -> None:
        if state.passing != self._state.passing or state.players != self._state.players:
            self._state = state
            self.refresh()
        self._state = state

    def render(self) -> Text:
        text = Text("Passing ", look.DIM, no_wrap=True)
        for number, seat in enumerate(self._state.passing, start=1):
            text.append(f"{number}:")
            if seat == -1:
                text.append(look.EMPTY + " ", look.DIM)
            else:
                text.append(look.seat_letter(self._state, seat), look.seat_style(self._state, seat))
                text.append(" ")
        return text
