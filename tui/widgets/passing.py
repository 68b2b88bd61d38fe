"""The passing scale: who passed onto which space (1 first); N is the neutral."""

from __future__ import annotations

from rich.text import Text

import core
from tui import look
from tui.widgets.stateview import StateView


class PassingView(StateView):
    """One line: ``Passing 1:R 2:N 3:· 4:·``."""

    DEFAULT_CSS = """
    PassingView { height: 1; }
    """

    def shows_change(self, old: core.GameState, new: core.GameState) -> bool:
        return old.passing != new.passing or old.players != new.players

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
