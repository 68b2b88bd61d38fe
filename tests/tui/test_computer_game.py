"""Three computer seats play a whole game in the app, in worker threads, to the final
scores: the screen hands each move back, shows each season's summary, and ends on the
final table with the game saved as finished."""

from __future__ import annotations

from typing import cast

import core
import saves
from tests.tui.conftest import app_for, session_for, session_of, settle
from tui.draft import Mode
from tui.screens.game import GameScreen
from tui.screens.summary import FinalScreen, SeasonSummaryScreen
from tui.widgets.actionbar import ActionBar

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
        for _ in range(4):
            await settle(pilot, lambda: isinstance(app.screen, FinalScreen | SeasonSummaryScreen))
            if isinstance(app.screen, FinalScreen):
                break
            summaries += 1
            await pilot.press("enter")
        assert isinstance(app.screen, FinalScreen), f"stuck on {app.screen!r}"
        table = " ".join(str(w.render()) for w in app.screen.query("*"))
        assert "wins" in table or "share" in table
    assert summaries == 3  # seasons 1-3; season 4 ends on the final scores
    saved = store.load("bots")
    assert core.is_over(saved.state)
    assert len(saved.actions) > 100


async def _until_human(app, pilot, game) -> None:
    await settle(pilot, lambda: game.mode is not Mode.WAIT)


async def test_the_computers_cubes_stay_marked_until_the_human_decides(store) -> None:
    """After the computers' replies, every cube they placed since the human's last decision
    is drawn {R}; the human's own move clears the marks."""
    seats = [saves.SeatConfig("Ann", core.Colour.BLUE, "human"), *BOTS[1:]]
    session = session_for(store, seats, seed=5, name="marks")
    first = session.state
    app = app_for(store, resume="marks", computer_pause=0.5)
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        await _until_human(app, pilot, game)
        placed = 0
        for old, new in zip(first.cubes, game.state.cubes, strict=True):
            placed |= new & ~old
        assert placed, "the computers placed no cube before Ann's turn (choose another seed)"
        assert game.recent == frozenset(core.region.spaces_of(placed))
        assert "{" in "".join(game.query_one("#region").render_line(y).text for y in range(8))
        await pilot.press("p")  # Ann passes: her decision clears the marks at once
        assert game.recent == frozenset()


async def test_the_hint_key_names_a_legal_move_without_playing_it(store) -> None:
    seats = [saves.SeatConfig("Ann", core.Colour.BLUE, "human"), *BOTS[1:]]
    session_for(store, seats, seed=5, name="hint")
    app = app_for(store, resume="hint")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        await _until_human(app, pilot, game)
        before = list(session_of(game).actions)
        await pilot.press("slash")
        await settle(pilot, lambda: "thinking" not in game.query_one("#actions", ActionBar).text)
        text = game.query_one("#actions", ActionBar).text
        assert "Hint: " in text
        hinted = text.split("Hint: ", 1)[1].strip()
        from core.explain import describe_action

        described = [describe_action(game.state, a) for a in game.legal]
        assert any(d.endswith(hinted) for d in described), hinted
        assert session_of(game).actions == before, "a hint must not play the move"
