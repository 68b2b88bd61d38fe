"""What an 80×24 terminal cut off (issue 26, item 9): the status line during a pause, the
season's summary with four players (its keys below the fold) and while someone else
decides at a shared table (it covered the board). Snapshots reviewed by eye, and Pilot
checks of what must be in view. The shared table is the scripted one of
tests/table/test_remote_seat.py."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

import core
import saves
from table import journal
from tests.table.test_remote_seat import FakeTable, start_state
from tests.tui.conftest import HOT_SEAT_3, app_for, play_until, session_for, settle
from tests.tui.test_snapshots import _last_choice_of_season
from tests.tui.test_table_seat import show, sit
from tui.screens.summary import SeasonSummaryScreen
from tui.widgets.actionbar import StatusLine

SIZE = (80, 24)
HOT_SEAT_4 = [*HOT_SEAT_3, saves.SeatConfig("Dan", core.Colour.WHITE, "human")]
UNTIL = 4102445400.0
"""The end of ben's pause: 00:10 UTC on 1 January 2100, always ahead (a pause that ended
is no pause), shown in UTC (see :func:`utc`)."""


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Times shown in UTC, whatever the machine's zone: the snapshots show one."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def played(table: FakeTable, count: int, seed: int = 0) -> FakeTable:
    rng = random.Random(seed)
    for _ in range(count):
        table.play(rng.choice(core.legal_actions(table.state())))
    return table


def paused_by_ben(table: FakeTable) -> None:
    """Ben's pause, at a fixed time (the status line shows its end)."""
    table.paused = (UNTIL, "ben")
    table.tell([journal.Pause(UNTIL - 600, len(table.actions), "ben", UNTIL)])


def to_season_2(table: FakeTable, seed: int = 0) -> None:
    """Season 1 played to its end, the last decision ann's, so that ben decides next."""
    rng = random.Random(seed)
    while table.state().season == 1:
        table.play(rng.choice(core.legal_actions(table.state())))


def in_view(app, selector: str) -> bool:
    """Whether the widget is on the screen, inside the terminal's rows."""
    widget = app.screen.query_one(selector)
    region = widget.region
    return widget.display and region.height > 0 and region.bottom <= SIZE[1]


class TestThePause:
    def test_the_status_line_keeps_who_decides(self, snap_compare, store) -> None:
        """80×24 during a pause: the pause, then who decides, then as much as fits."""
        table = played(FakeTable(start_state()), 9)
        table.pace = "live"

        async def run_before(pilot) -> None:
            seat, _ = await sit(table, "ann")
            await show(pilot.app, pilot, seat)
            paused_by_ben(table)
            await settle(pilot, lambda: "paused" in status_of(pilot.app))

        assert snap_compare(app_for(store, offer_resume=False), terminal_size=SIZE,
                            run_before=run_before)  # fmt: skip

    async def test_who_decides_is_whole(self, store) -> None:
        table = played(FakeTable(start_state()), 9)
        table.pace = "live"
        app = app_for(store, offer_resume=False)
        async with app.run_test(size=SIZE) as pilot:
            seat, _ = await sit(table, "ann")
            await show(app, pilot, seat)
            paused_by_ben(table)
            await settle(pilot, lambda: "paused" in status_of(app))
            line = status_of(app)
            decider = table.state().players[table.state().current].name
            assert f"{decider} (" in line and "…" not in line and len(line) <= SIZE[0]


def status_of(app) -> str:
    return app.screen.query_one(StatusLine).render().plain


class TestTheSeasonSummary:
    def test_four_players_keep_the_keys_in_view(self, snap_compare, store) -> None:
        """80×24, four players: Enter continue is on the box's last line, in view."""
        session = session_for(store, HOT_SEAT_4, seed=7, name="snap")
        play_until(session, _last_choice_of_season(1), seed=5)
        assert snap_compare(app_for(store, resume="snap"), terminal_size=SIZE, press=["1"])

    async def test_four_players_keys_in_view_by_pilot(self, store) -> None:
        session = session_for(store, HOT_SEAT_4, seed=7, name="snap")
        play_until(session, _last_choice_of_season(1), seed=5)
        session.close()
        app = app_for(store, resume="snap")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("1")
            await settle(pilot, lambda: isinstance(app.screen, SeasonSummaryScreen))
            await pilot.pause()
            assert in_view(app, "#summary-keys")

    def test_docked_while_another_player_decides(self, snap_compare, store) -> None:
        """At a shared table, ben to decide: the points in a short box at the bottom,
        the board above it in view."""
        table = FakeTable(start_state())

        async def run_before(pilot) -> None:
            seat, _ = await sit(table, "ann")
            await show(pilot.app, pilot, seat)
            to_season_2(table)
            await settle(pilot, lambda: isinstance(pilot.app.screen, SeasonSummaryScreen))
            await pilot.pause()

        assert snap_compare(app_for(store, offer_resume=False), terminal_size=SIZE,
                            run_before=run_before)  # fmt: skip

    async def test_docked_by_pilot(self, store) -> None:
        table = FakeTable(start_state())
        app = app_for(store, offer_resume=False)
        async with app.run_test(size=SIZE) as pilot:
            seat, _ = await sit(table, "ann")
            await show(app, pilot, seat)
            to_season_2(table)
            await settle(pilot, lambda: isinstance(app.screen, SeasonSummaryScreen))
            await pilot.pause()
            summary = app.screen
            assert isinstance(summary, SeasonSummaryScreen)
            assert table.state().current_player == 1  # ben decides: the box is docked
            assert summary.docked and in_view(app, "#summary-keys")
            box = summary.query_one("#season-summary").region
            assert box.bottom == SIZE[1] and box.y >= 12  # the region's rows stay in view
