"""The H key says what it does now (issue 26, item 7): "Hand to computer" while the seat
is the player's own, "Take seat back" while a computer plays it (it kept saying "Hand to
computer" before). The shared table is the scripted one of tests/table/test_remote_seat.py."""

from __future__ import annotations

from tests.table.test_remote_seat import FakeTable, start_state
from tests.tui.conftest import app_for, settle
from tests.tui.test_table_seat import show, sit
from tui.screens.dialogs import HandOverScreen
from tui.widgets.keys import KeysBar


def keys_of(app) -> str:
    return app.screen.query_one(KeysBar).render().plain


async def test_h_is_labelled_by_what_it_does_now(store) -> None:
    table = FakeTable(start_state())
    app = app_for(store, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        seat, _ = await sit(table, "ann")
        game = await show(app, pilot, seat)
        assert "Hand to computer" in keys_of(app) and "Take seat back" not in keys_of(app)
        table.hand_over("ann", "normal")  # as the server tells it after ann's H n
        await settle(pilot, lambda: "Take seat back" in keys_of(app))
        assert "Hand to computer" not in keys_of(app)
        await pilot.press("H")
        await settle(pilot, lambda: isinstance(app.screen, HandOverScreen))
        question = app.screen
        assert isinstance(question, HandOverScreen) and question.handed_to == "normal"
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is game)
        table.hand_over("ann", None)
        await settle(pilot, lambda: "Hand to computer" in keys_of(app))
        assert "Take seat back" not in keys_of(app)
