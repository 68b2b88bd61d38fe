"""Three computer seats play a whole game in the app, in worker threads, to the final
scores: the screen hands each move back, shows each season's summary, and ends on the
final table with the game saved as finished."""

from __future__ import annotations

from typing import cast

import core
import saves
from tests.tui.conftest import app_for, session_for, session_of, settle, toasts
from tui.draft import Mode
from tui.screens import summary
from tui.screens.game import GameScreen
from tui.screens.summary import FinalScreen, SeasonSummaryScreen
from tui.widgets.actionbar import ActionBar

BOTS = [
    saves.SeatConfig("Amun", core.Colour.BLUE, "computer", "easy"),
    saves.SeatConfig("Bast", core.Colour.RED, "computer", "easy"),
    saves.SeatConfig("Thot", core.Colour.GREEN, "computer", "easy"),
]


async def test_three_computer_seats_play_to_the_final_scores(store, monkeypatch) -> None:
    """No key at all: the computers play everything, and with nobody to decide here each
    season summary moves on by itself (issue 9 #17; it used to wait for Enter)."""
    monkeypatch.setattr(summary, "AUTO_CONTINUE", 1)
    session_for(store, BOTS, seed=21, name="bots")
    app = app_for(store, resume="bots")
    seen: set[int] = set()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(6000):
            if isinstance(app.screen, FinalScreen):
                break
            if isinstance(app.screen, SeasonSummaryScreen):
                seen.add(app.screen.season)
            await pilot.pause(0.01)
        assert isinstance(app.screen, FinalScreen), f"stuck on {app.screen!r}"
        await settle(pilot, lambda: bool(app.screen.query("#verdict")))
        table = " ".join(str(w.render()) for w in app.screen.query("*"))
        assert "wins" in table or "share" in table
    assert seen == {1, 2, 3}  # each was shown; season 4 ends on the final scores
    saved = store.load("bots")
    assert core.is_over(saved.state)
    assert len(saved.actions) > 100


async def test_any_key_pauses_a_summary_that_would_move_on_by_itself(store, monkeypatch) -> None:
    """The countdown is on screen; a key other than Enter stops it; Enter still closes.
    (A long countdown, so that a loaded machine cannot let it run out before the key:
    what is checked is that the key stops it, not how fast it ticks.)"""
    monkeypatch.setattr(summary, "AUTO_CONTINUE", 60)
    session_for(store, BOTS, seed=21, name="bots")
    app = app_for(store, resume="bots")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, SeasonSummaryScreen))
        shown = app.screen
        assert isinstance(shown, SeasonSummaryScreen)

        def keys() -> str:
            found = shown.query("#summary-keys")  # not there until the screen is composed
            return str(found.first().render()) if found else ""

        await settle(pilot, lambda: "continuing by itself in" in keys())
        assert shown.countdown is not None
        await pilot.press("z")  # a key bound to nothing: it pauses, so it did something
        await settle(pilot, lambda: "by itself" not in keys())
        assert shown.countdown is None and app.screen is shown  # stopped: it waits
        assert toasts(app) == []
        await pilot.press("z")  # paused already: now z does nothing, and is told so
        await settle(pilot, lambda: toasts(app) == ["z does nothing here"])
        await pilot.press("enter")
        await settle(pilot, lambda: app.screen is not shown)


async def test_a_summary_waits_for_a_human_seat(store, monkeypatch) -> None:
    """With a human at the table the summary never closes on its own."""
    monkeypatch.setattr(summary, "AUTO_CONTINUE", 1)
    seats = [saves.SeatConfig("Ann", core.Colour.BLUE, "human"), *BOTS[1:]]
    session = session_for(store, seats, seed=5, name="mixed")
    start = session.state
    app = app_for(store, resume="mixed")
    async with app.run_test(size=(80, 24)) as pilot:
        cast(GameScreen, app.screen).show_summary(start)  # as at a season's end
        await pilot.pause()
        shown = app.screen
        assert isinstance(shown, SeasonSummaryScreen)
        assert "by itself" not in str(shown.query_one("#summary-keys").render())
        await pilot.pause(1.5)
        assert app.screen is shown


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
        marked = game.recent
        await pilot.press("p")  # Ann passes: her decision clears the marks at once
        # Not "== frozenset()": on a loaded machine the next computer may already have
        # moved (0.5 s later), and its cubes are marked in turn; none of the old ones is.
        assert marked and not game.recent & marked


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
        hinted = text.split("Hint: ", 1)[1].split("\n")[0].strip()  # the options follow
        from core.explain import describe_action

        described = [describe_action(game.state, a) for a in game.legal]
        assert any(d.endswith(hinted) for d in described), hinted
        assert session_of(game).actions == before, "a hint must not play the move"
