"""The table as the game screen shows it: the region and the log on the left; the players,
the passing scale and the Museum on the right. It renders what it is handed."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

import core
from tui.widgets.log import LogView
from tui.widgets.museum import MuseumView
from tui.widgets.passing import PassingView
from tui.widgets.players import PlayersView
from tui.widgets.region import RegionPicture, RegionView

ROOMY_WIDTH = 110
"""From this terminal width on, the region uses wider cells."""


class Board(Horizontal):
    """Every widget of the table; :meth:`show` hands each its part."""

    def __init__(self, state: core.GameState, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._state = state

    def compose(self) -> ComposeResult:
        state = self._state
        with Vertical(id="left"):
            yield RegionView(RegionPicture(state), id="region")
            yield LogView(id="log")
        with Vertical(id="right"):
            yield PlayersView(state, id="players")
            yield PassingView(state, id="passing")
            yield MuseumView(state, id="museum")

    def on_mount(self) -> None:
        self.on_resize()

    def on_resize(self) -> None:
        # query, not query_one: a game screen closed as it opened (the app quitting at
        # that moment) mounts its board with its children already gone.
        for region in self.query(RegionView):
            region.set_roomy(self.app.size.width >= ROOMY_WIDTH)

    def aim(self, room: bool) -> None:
        """Give the keys to what the decision needs: the Museum while a room is chosen,
        else the region. The other one cannot take focus, so Tab never moves it where the
        decision is not (it once left the board for an invisible Museum cursor)."""
        region, museum = self.query_one(RegionView), self.query_one(MuseumView)
        region.can_focus, museum.can_focus = not room, room
        (museum if room else region).focus()

    def show(self, picture: RegionPicture, rooms: frozenset[int] = frozenset()) -> None:
        """The position of ``picture`` everywhere; ``rooms``: the Museum rooms open to the
        room being chosen (bracketed), if one is."""
        state = picture.state
        self.query_one(RegionView).picture = picture
        self.query_one(MuseumView).show(state, rooms)
        self.query_one(PlayersView).state = state
        self.query_one(PassingView).state = state
