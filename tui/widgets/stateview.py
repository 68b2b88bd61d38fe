"""The base of the widgets that draw from the game state the screen hands them."""

from __future__ import annotations

from typing import Any

from textual.widget import Widget

import core


class StateView(Widget):
    """A widget drawn from ``state`` (attributes down): setting it repaints only when what
    the widget shows changed (:meth:`shows_change`), with a new layout only when its size
    may have changed (:meth:`resizes`)."""

    def __init__(self, state: core.GameState, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._state = state

    @property
    def state(self) -> core.GameState:
        return self._state

    @state.setter
    def state(self, state: core.GameState) -> None:
        old, self._state = self._state, state
        if self.shows_change(old, state):
            self.refresh(layout=self.resizes(old, state))

    def shows_change(self, old: core.GameState, new: core.GameState) -> bool:
        return old != new

    def resizes(self, old: core.GameState, new: core.GameState) -> bool:
        return False
