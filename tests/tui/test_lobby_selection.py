"""The lobby's selection follows the player (issue 26): a table just created is selected,
not the one that happened to be under the cursor, and a refresh that reorders the list
keeps the selected table selected. A real table server process, the app with Pilot."""

from __future__ import annotations

from msgspec.structs import replace

from table.protocol import SeatSpec
from tests.table_server.bots import create
from tests.tui.conftest import app_for, settle
from tests.tui.test_tables import create_table, lobby_of
from tui.screens.lobby import LobbyScreen

WAITING = [SeatSpec("player", "ann"), SeatSpec("open")]
"""A table of ann's waiting for a player: it stays in the lobby once created."""


async def test_a_table_just_created_is_selected(store, server) -> None:
    """Two older tables, the cursor on the second; the new table is listed first and the
    cursor goes to it (it stayed on the old one: Home then Enter opened that)."""
    old = [await create(server.socket, "ann", WAITING) for _ in range(2)]
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = lobby_of(app)
        await settle(pilot, lambda: len(lobby.tables) == 2)
        await pilot.press("down")
        assert lobby.selected is not None and lobby.selected.id == old[0]
        await create_table(app, pilot, ["you", "open"])
        await settle(pilot, lambda: app.screen is lobby and len(lobby.tables) == 3)
        await settle(pilot, lambda: lobby.selected is not None and lobby.selected.id not in old)


async def test_a_refresh_that_reorders_keeps_the_selected_table(store, server) -> None:
    tables = [await create(server.socket, "ann", WAITING) for _ in range(3)]
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = lobby_of(app)
        await settle(pilot, lambda: len(lobby.tables) == 3)
        await pilot.press("down")
        chosen = lobby.selected
        assert chosen is not None and chosen.id in tables
        # The chosen table active just now: it moves to the top of its group.
        moved = tuple(replace(t, updated=t.updated + 1000) if t is chosen else t
                      for t in lobby.tables)  # fmt: skip
        lobby.show_tables(moved)
        await pilot.pause()
        assert lobby.tables[0].id == chosen.id
        assert lobby.selected is not None and lobby.selected.id == chosen.id
