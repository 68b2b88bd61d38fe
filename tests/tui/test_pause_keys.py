"""`P` at a live shared table (issue 18), through a real table server at 80×24: P pauses,
P again while one's own pause runs resumes it for everyone, and a pause the table would
refuse (the season's already taken, or another player's under way) is refused before the
question, in the action bar, where no notice covers the prompt. A move tried while the
table is paused is refused the same way."""

from __future__ import annotations

import core
from table import protocol as wire
from table.clock import clock
from tests.table_server.bots import Bot
from tests.tui.conftest import app_for, settle, toasts
from tests.tui.driver import KeyPlayer
from tests.tui.test_tables import new_table
from tui.screens.dialogs import ConfirmScreen
from tui.screens.game import GameScreen
from tui.widgets.actionbar import ActionBar
from tui.widgets.log import LogView

LIVE = "live: 2 min away, then a computer"


def question_of(app) -> str:
    screen = app.screen
    assert isinstance(screen, ConfirmScreen), f"no question: {screen!r}"
    return screen.question


def action_bar(app) -> str:
    return app.screen.query_one(ActionBar).text


def log_lines(app) -> list[str]:
    return [line.plain for line in app.screen.query_one(LogView).lines]


async def test_p_pauses_p_again_resumes_and_a_second_pause_is_refused_before_asking(
    store, server
) -> None:
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        seat = await new_table(app, pilot, ["you", "player"], names={1: "ben"}, pace=LIVE)
        await pilot.press("P")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert question_of(app).startswith("Pause the table for everyone for 10 minutes?")
        await pilot.press("y")
        await settle(pilot, lambda: seat.table.info.paused_by == "ann")
        at = clock(seat.table.info.paused_until or 0)
        assert seat.status == f"paused until {at} (ann): P resumes"

        await pilot.press("P")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert question_of(app) == "Resume the table now? Your pause ends for everyone."
        await pilot.press("y")
        await settle(pilot, lambda: seat.table.info.paused_until is None)
        assert seat.status is None and seat.table.info.paused_this_season == ("ann",)
        await settle(pilot, lambda: "ann ended their pause: play on." in log_lines(app))

        await pilot.press("P")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)  # no question: it would be refused
        assert "✗ You have paused this table once this season already." in action_bar(app)
        assert toasts(app) == []


async def test_another_players_pause_refuses_p_and_moves_in_the_action_bar(store, server) -> None:
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        seat = await new_table(app, pilot, ["you", "player"], names={1: "ben"}, pace=LIVE)
        ben = await Bot.join(server.socket, "ben", seat.table.info.id, 2)
        while ben.my_turn():  # until ann decides
            await ben.play_one()
        await settle(pilot, lambda: len(seat.known.actions) == len(ben.actions))
        assert isinstance(await ben.ask(wire.Pause(ben.connection.new_ref(), ben.table, 10)),
                          wire.Told)  # fmt: skip
        await settle(pilot, lambda: seat.table.info.paused_by == "ben")
        at = clock(seat.table.info.paused_until or 0)
        refusal = f"✗ The table is paused until {at} (ben)."

        await pilot.press("P")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and refusal in action_bar(app)

        played = len(seat.known.actions)
        legal = seat.legal_actions()
        action = next((a for a in legal if isinstance(a, core.Pass)), legal[0])
        await KeyPlayer(app, pilot).press_action(action)
        await pilot.pause(0.2)
        assert len(seat.known.actions) == played and refusal in action_bar(app)
        prompt = action_bar(app).splitlines()[0]
        assert "paused" not in prompt and prompt.strip()  # the prompt stays, uncovered
        assert toasts(app) == []
