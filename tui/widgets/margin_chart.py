"""The analysis's chart as a widget: every player's expected final margin over the game's
judged decisions (:func:`tui.charts.margin_chart`), as wide as the room it is given and
taller on a taller terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

import core
from tui import charts
from tui.widgets.scores import TALL

if TYPE_CHECKING:
    from core.analysis import Judgement


class MarginChart(Widget):
    """The expected margins of the judgements it is shown, one letter per player."""

    DEFAULT_CSS = """
    MarginChart { height: auto; }
    """

    def __init__(self, state: core.GameState, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._state = state
        self._judgements: list[Judgement] = []
        self._seats: tuple[int, ...] | None = None

    @property
    def rows(self) -> int:
        return 15 if self.app.size.height >= TALL else 9

    def show(self, judgements: Sequence[Judgement], seats: tuple[int, ...] | None) -> None:
        """Draw ``judgements`` (in any order), the letters of ``seats`` only (None: all)."""
        self._judgements, self._seats = list(judgements), seats
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.rows + 1  # and the seasons' line

    def render(self) -> Text:
        width = self.size.width or 80
        return charts.margin_chart(self._state, self._judgements, self.rows, width, self._seats)
