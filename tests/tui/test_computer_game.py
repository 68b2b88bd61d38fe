"""Three computer seats play a whole game in the app, in worker threads, to the final
scores: the screen hands each move back, shows each season's summary, and ends on the
final table with the game saved as finished."""

from __future__ import annotations

import core
import saves
from tests.tui.conftest import app_for, session_for
from tui.screens.summary import FinalScreen, SeasonSummaryScreen

BOTS = [
    saves.SeatConfig("Amun", core.Colour.BLUE, "computer", "easy"),
    saves.SeatConfig("Bast", core.Colour.RED, "computer", "easy"),
    saves.SeatConfig("Thot", core.Colour.GREEN, "computer", "easy"),
]


async def test_three_computer_seats_play_to_the_final_scores(store) -> None:
    """No key but Enter on each season summary: the computers play everything."""
    session_for(store, BOTS, seed=21, name="bots")
    app = app_for(store, resume="bots")
    summaries = 0
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3000):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if isinstance(app.screen, FinalScreen):
                break
            if isinstance(app.screen, SeasonSummaryScreen):
                summaries += 1
                await pilot.press("enter")
        assert isinstance(app.screen, FinalScreen), f"stuck on {app.screen!r}"
        table = " ".join(str(w.render()) for w in app.screen.query("*"))
        assert "wins" in table or "share" in table
    assert summaries == 3  # seasons 1-3; season 4 ends on the final scores
    saved = store.load("bots")
    assert core.is_over(saved.state)
    assert len(saved.actions) > 100
