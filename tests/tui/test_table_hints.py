"""Hints at a shared table (issue 26, item 6): a setting of the table chosen on the
new-table form (the server's rule by default: off where two or more people play), shown on
everyone's status line; `/` at a table without hints says so instead of hinting."""

from __future__ import annotations

from msgspec.structs import replace

from tests.table.test_remote_seat import FakeTable, start_state
from tests.tui.conftest import app_for, settle
from tests.tui.test_table_seat import action_bar, show, sit
from tests.tui.test_tables import create_table, seat_of
from tui.screens.create_table import HINTS
from tui.screens.game import GameScreen
from tui.screens.lobby import LobbyScreen
from tui.widgets.actionbar import StatusLine
from tui.widgets.cycler import Cycler


def status_of(app) -> str:
    return app.screen.query_one(StatusLine).render().plain


def table_with(hints: bool) -> FakeTable:
    table = FakeTable(start_state())
    table.info = lambda: replace(FakeTable.info(table), hints=hints)  # type: ignore[method-assign]
    return table


class TestAtTheTable:
    async def test_slash_at_a_table_without_hints_says_why_and_hints_nothing(self, store):
        app = app_for(store, offer_resume=False)
        async with app.run_test(size=(80, 24)) as pilot:
            seat, _ = await sit(table_with(False), "ann")
            await show(app, pilot, seat)
            assert "hints off" in status_of(app)
            await pilot.press("slash")
            await pilot.pause(0.3)
            bar = action_bar(app)
            assert "Hints are off at this table (set when it was created)." in bar
            assert "Hint:" not in bar

    async def test_slash_at_a_table_with_hints_thinks(self, store):
        app = app_for(store, offer_resume=False)
        async with app.run_test(size=(80, 24)) as pilot:
            seat, _ = await sit(table_with(True), "ann")
            await show(app, pilot, seat)
            assert "hints on" in status_of(app)
            await pilot.press("slash")
            assert "Hints are off" not in action_bar(app)
            await settle(pilot, lambda: "Hint: thinking" not in action_bar(app))
            assert "Hint: " in action_bar(app)


class TestTheForm:
    async def test_with_a_friend_the_usual_setting_is_off(self, store, server):
        app = app_for(store, server=server.address("ann"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await create_table(app, pilot, ["you", "player"], names={1: "ben"})
            await settle(pilot, lambda: isinstance(app.screen, GameScreen))
            assert seat_of(app).table.info.hints is False
            assert "hints off" in status_of(app)

    async def test_alone_with_a_computer_the_usual_setting_is_on(self, store, server):
        app = app_for(store, server=server.address("ann"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await create_table(app, pilot, ["you", "computer easy"])
            await settle(pilot, lambda: isinstance(app.screen, GameScreen))
            assert seat_of(app).table.info.hints is True

    async def test_the_creator_may_turn_them_on_for_a_table_of_people(self, store, server):
        app = app_for(store, server=server.address("ann"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("c")
            await settle(pilot, lambda: app.screen.query("#hints"))
            on = next(words for words, value in HINTS.items() if value is True)
            app.screen.query_one("#hints", Cycler).value = on
            await create_table_from_open_form(app, pilot)
            await settle(pilot, lambda: isinstance(app.screen, GameScreen))
            assert seat_of(app).table.info.hints is True
            assert "hints on" in status_of(app)


async def create_table_from_open_form(app, pilot) -> None:
    """The open form's seats made you and ben, then Enter."""
    form = app.screen
    form.query_one("#count").value = "2"
    form.query_one("#kind-1").value = "player"
    form.query_one("#name-1").value = "ben"
    form._show_seats()
    await pilot.press("enter")
