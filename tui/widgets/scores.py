"""The score pictures of `tui.charts` as widgets, sized from the room they are given:
taller bars on a taller terminal, wider ones on a wider one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

import core
from tui import charts
from tui.widgets.stateview import StateView

TALL = 36
"""From this terminal height on, the season chart's bars are twice as tall."""


class SeasonChart(Widget):
    """Each player's points after each season (and at the end), as grouped bars."""

    DEFAULT_CSS = """
    SeasonChart { height: auto; }
    """

    def __init__(
        self, state: core.GameState, columns: Sequence[charts.Column], **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self._state = state
        self._columns = list(columns)

    @property
    def bar_rows(self) -> int:
        return 10 if self.app.size.height >= TALL else 5

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.bar_rows + 3

    def render(self) -> Text:
        return charts.season_bars(self._state, self._columns, self.bar_rows, self.size.width)


class SourceBars(StateView):
    """Where each player's final points came from, one bar per player."""

    DEFAULT_CSS = """
    SourceBars { height: auto; }
    """

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._state.player_count

    def render(self) -> Text:
        return charts.source_bars(self._state, self.size.width)
