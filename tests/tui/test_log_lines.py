"""Issue 18 #13: the line naming the game is told once, where the game was opened, however
often the log is rebuilt (undo, redo, reconnection); redo keeps the {R} marks of the
computers' cubes. Each undo added "Game '…', season 2." again at the end, and a redo
showed the computers' cubes unmarked."""

from __future__ import annotations

from typing import cast

import core
import saves
from tests.tui.conftest import HOT_SEAT_3, app_for, play_until, session_for, session_of, settle
from tests.tui.driver import KeyPlayer
from tui.draft import Mode
from tui.screens.game import GameScreen
from tui.widgets.log import LogView
from tui.widgets.region import RegionView

OPENING = "Game 'pos', season 1."


def _lines(game: GameScreen) -> list[str]:
    return [line.plain for line in game.query_one(LogView).lines]


async def test_undo_and_redo_keep_the_game_line_once_where_the_game_was_opened(store) -> None:
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(session, lambda s, legal: len(session.actions) >= 3)
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        await pilot.pause()  # the history is told after the first frame
        opened = _lines(game)
        assert opened.count(OPENING) == 1 and opened[-1] == OPENING
        driver = KeyPlayer(app, pilot)
        await driver.play(core.Pass())
        await driver.play(core.Pass())
        played = _lines(game)[len(opened) :]
        assert played and all("passes" in line for line in played)
        for key in ("u", "U", "u", "U"):
            await pilot.press(key)
            lines = _lines(game)
            assert lines.count(OPENING) == 1, (key, lines)
            # The moves told before the opening line stay before it, the later ones after.
            assert lines[: len(opened)] == opened
        assert _lines(game)[len(opened) :][: len(played)] == played


async def test_an_undo_back_before_the_opening_tells_the_game_line_last(store) -> None:
    """Taking back moves played before the game was opened here: the line names the game
    at the end of what is left, once, and returns to its place on redo."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    session.apply(core.Pass())
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        await pilot.pause()  # the history is told after the first frame
        opened = _lines(game)
        assert opened[-1] == OPENING
        await pilot.press("u")  # Ann's pass, made before this opening
        assert len(session_of(game).actions) == 0
        lines = _lines(game)
        assert lines.count(OPENING) == 1 and not any("passes" in line for line in lines)
        await pilot.press("U")
        lines = _lines(game)
        assert lines.count(OPENING) == 1
        assert lines.index(OPENING) == opened.index(OPENING)


BOTS = [
    saves.SeatConfig("Ann", core.Colour.BLUE, "human"),
    saves.SeatConfig("Bast", core.Colour.RED, "computer", "easy"),
    saves.SeatConfig("Thot", core.Colour.GREEN, "computer", "easy"),
]


async def test_redo_keeps_the_marks_of_the_computers_cubes(store) -> None:
    session_for(store, BOTS, seed=5, name="marks")
    app = app_for(store, resume="marks")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        region = game.query_one(RegionView)
        await settle(pilot, lambda: game.mode is Mode.CHOOSE)
        excavate = next(a for a in game.legal if isinstance(a, core.Excavate))
        await KeyPlayer(app, pilot).play(excavate)
        await settle(pilot, lambda: game.mode is Mode.CHOOSE)
        marked = game.recent
        assert marked, "the computers placed no cube after Ann's (choose another seed)"
        await pilot.press("u")
        await settle(pilot, lambda: game.mode is Mode.CHOOSE)
        await pilot.press("U")
        await settle(pilot, lambda: game.mode is Mode.CHOOSE)
        assert game.recent == marked
        assert region.picture.recent == marked
        drawn = "".join(region.render_line(y).text for y in range(12))
        assert drawn.count("{") == len(marked)
