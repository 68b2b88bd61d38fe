"""Issue 18 #5: a seat a computer plays says so in the player panel, in a word (``AI``),
not by colour alone: a computer player, or a player's seat handed to a computer."""

from __future__ import annotations

from typing import cast

import core
import saves
from tests.tui.conftest import app_for, session_for, settle
from tests.tui.test_tables import new_table
from tui.screens.dialogs import HandOverScreen
from tui.screens.game import GameScreen
from tui.widgets.players import COMPUTER_MARK, PlayersView

SEATS = [
    saves.SeatConfig("Ann", core.Colour.BLUE, "human"),
    saves.SeatConfig("Ben", core.Colour.RED, "computer", "normal"),
    saves.SeatConfig("Cleo", core.Colour.GREEN, "human"),
]


def marked(panel: PlayersView) -> list[bool]:
    """Per seat, whether its second line carries the computer's mark."""
    lines = panel.render().plain.split("\n")
    return [line.startswith(COMPUTER_MARK.strip()) for line in lines[1::2]]


async def test_a_computer_seat_is_marked_at_80_columns(store) -> None:
    session_for(store, SEATS, seed=7, name="marks")
    app = app_for(store, resume="marks")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        panel = app.screen.query_one(PlayersView)
        assert marked(panel) == [False, True, False]
        assert panel.region.right <= 80


async def test_a_seat_handed_to_a_computer_is_marked_until_taken_back(store, server) -> None:
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        seat = await new_table(app, pilot, ["you", "player"], names={1: "ben"})
        panel = cast(GameScreen, app.screen).query_one(PlayersView)
        assert marked(panel) == [False, False]
        await pilot.press("H")
        await settle(pilot, lambda: isinstance(app.screen, HandOverScreen))
        await pilot.press("n")
        await settle(pilot, lambda: seat.table.handed_to == "normal")
        await settle(pilot, lambda: marked(panel) == [True, False])
        await pilot.press("H")
        await settle(pilot, lambda: isinstance(app.screen, HandOverScreen))
        await pilot.press("t")
        await settle(pilot, lambda: seat.table.handed_to is None)
        await settle(pilot, lambda: marked(panel) == [False, False])
