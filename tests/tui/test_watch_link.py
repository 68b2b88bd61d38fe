"""A watch link's session (issue 26 #19): the app with ``watching`` set opens straight on
that table, watching (no lobby ever shown, no seat), and asking for the lobby from there
ends the session instead."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from table.client.directory import ServerAddress
from tests.table.test_tickets import DoorServer, serving
from tests.table.test_watch_tickets import _tables
from tests.tui.conftest import settle
from tests.tui.test_door_mode import door_app, screens_seen
from tui.messages import TablesRequested
from tui.screens.dialogs import LinePrompt
from tui.screens.game import GameScreen
from tui.screens.lobby import LobbyScreen


@pytest.fixture
async def door_server() -> AsyncIterator[DoorServer]:
    async with serving() as running:
        yield running


async def test_a_watch_session_opens_on_its_table_and_has_no_lobby(store, door_server) -> None:
    one, _two = await _tables(door_server)
    ticket = door_server.hub.issue_ticket("guest 1a2b", watching=one)
    app = door_app(store, ServerAddress(door_server.socket, None, ticket))
    app.watching = one
    seen = screens_seen(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        seat = app.screen.seat
        assert seat.table is not None and seat.table.info.id == one
        assert not seat.table.seats_here
        app.post_message(TablesRequested())
        await settle(pilot, lambda: not app.is_running)
    assert LobbyScreen not in seen, seen


async def test_a_watch_session_is_not_offered_chat(store, door_server) -> None:
    """The server refuses a watch link's chat ("no seat, no chat, no change"): c used to
    be offered all the same, open the prompt, and lose the line typed at Enter."""
    one, _two = await _tables(door_server)
    ticket = door_server.hub.issue_ticket("guest 1a2b", watching=one)
    app = door_app(store, ServerAddress(door_server.socket, None, ticket))
    app.watching = one
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        screen = app.screen
        assert screen.check_action("chat", ()) is False  # not in the keys bar
        await pilot.press("c")
        assert app.screen is screen and not isinstance(app.screen, LinePrompt)
