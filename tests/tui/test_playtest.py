"""Regressions of the QA playtest (issue 3): each test fails on the behaviour QA reported."""

from __future__ import annotations

import io
import re
from typing import Any, cast

import pytest
from rich.console import Console
from rich.table import Table
from textual.app import App
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Input, Static

import core
import saves
from core.state import SurveyStep
from tests.tui.conftest import HOT_SEAT_3, app_for, play_until, session_for, session_of
from tests.tui.driver import KeyPlayer
from tui import decisions, look
from tui.__main__ import main
from tui.screens.game import GameScreen
from tui.screens.load import short_title
from tui.screens.summary import FinalScreen
from tui.widgets.actionbar import ActionBar
from tui.widgets.keys import KeysBar
from tui.widgets.log import LogView
from tui.widgets.region import RegionPicture, RegionView

LONG_NAMES = [
    saves.SeatConfig("Abcdefghijkl", core.Colour.BLUE, "human"),  # the longest name allowed
    saves.SeatConfig("Bartholomews", core.Colour.RED, "human"),
    saves.SeatConfig("Cleopatra VI", core.Colour.GREEN, "human"),
]
ROOM_CODE = re.compile(r"\b[FTD]\d{1,2}\b")
"""Museum room notation (F1, T4, D51): never shown to players."""


def _table_of(screen: Screen[Any]) -> Table:
    """The table ``screen`` shows (its one Static holding a Rich table)."""
    (table,) = [w.content for w in screen.query(Static) if isinstance(w.content, Table)]
    return table


def step_is(step: SurveyStep, options: int = 0):
    def wanted(state: core.GameState, legal) -> bool:
        return (state.phase is core.Phase.SURVEY and state.survey_steps[0][0] is step
                and len(legal) >= options)  # fmt: skip

    return wanted


@pytest.mark.parametrize(
    ("players", "wanted"),
    [(2, step_is(SurveyStep.PICK_NEUTRAL)), (3, step_is(SurveyStep.CHOOSE, options=3)),
     (3, step_is(SurveyStep.TAKE, options=2))],
    ids=["neutral-pick", "take-or-book", "third-takes"],
)  # fmt: skip
async def test_survey_prompt_and_every_option_show_at_80x24(store, players, wanted) -> None:
    """The prompt and the area's ranking keep to their lines and the options get the lines
    they need, above the keys bar (QA: a wrapped prompt pushed the options line out of the
    two-line bar)."""
    session = session_for(store, LONG_NAMES[:players], seed=1, name="pos")
    play_until(session, wanted, seed=1)
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(ActionBar)
        prompt, ranking, options = bar.text.split("\n", 2)
        assert len(prompt) <= 80 and len(ranking) <= 80, (prompt, ranking)
        assert ranking.startswith("Area ") and "1st" in ranking
        option_lines = bar.render().wrap(app.console, 80)[2:]  # below prompt and ranking
        assert bar.region.height == 2 + len(option_lines)
        assert bar.region.bottom <= app.screen.query_one(KeysBar).region.y
        assert "1 " in options and ("2 " in options or "book" in options)


async def test_keys_bar_keeps_quit_while_placing_neutral_cubes(store) -> None:
    session = session_for(store, LONG_NAMES[:2], seed=5, name="pos")
    # n, m and x all usable: with every entry the keys bar would need 90 columns.
    play_until(
        session,
        lambda s, legal: (
            s.neutral_pending
            and {type(a) for a in legal}
            >= {core.NeutralExcavate, core.NeutralExtend, core.NeutralSkip}
        ),
    )
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keys = app.screen.query_one(KeysBar).render().plain
        assert "Quit" in keys and "Help" in keys and "Undo" in keys
        assert len(keys.rstrip()) <= 80  # all of it shows: nothing cut at the edge
        assert "neutral" in app.screen.query_one(ActionBar).text  # n/m/x still listed there


async def test_escape_from_the_load_list_goes_back_to_the_resume_offer(store) -> None:
    """QA: resume offer → o → Esc landed on the new-game form, where Enter started a game."""
    from tui.screens.dialogs import ResumeScreen
    from tui.screens.load import LoadScreen

    session_for(store, HOT_SEAT_3, seed=7, name="waiting")
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        assert isinstance(app.screen, LoadScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert session_of(cast(GameScreen, app.screen)).name == "waiting"
    assert [s.name for s in store.list()] == ["waiting"]


@pytest.mark.parametrize("key", ["q", "escape"])
async def test_new_game_form_quits_with_q_or_escape(store, key) -> None:
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        assert type(app.screen).__name__ == "NewGameScreen"
        assert "Quit" in app.screen.query_one(KeysBar).render().plain
        await pilot.press(key)
        await pilot.pause()
        assert app.return_code == 0  # App.exit was called: the program is leaving
    assert store.list() == []


async def test_q_in_a_name_field_is_a_letter(store) -> None:
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        name = app.screen.query_one("#name-0", Input)
        name.focus()
        await pilot.press("end", "q")
        assert name.value == "Annq" and app.is_running


async def test_a_seed_that_is_not_a_number_is_refused_and_errors_clear(store) -> None:
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        seed = screen.query_one("#seed", Input)
        seed.focus()
        await pilot.press("a", "b", "c", "enter")
        error = str(screen.query_one("#new-game-error").render())
        assert "seed must be a whole number" in error and app.screen is screen
        await pilot.press("backspace")
        assert str(screen.query_one("#new-game-error").render()).strip() == ""
    assert store.list() == []


async def test_undo_rewinds_the_log(store) -> None:
    session_for(store, HOT_SEAT_3, seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        driver = KeyPlayer(app, pilot)
        await driver.play(core.Pass())
        log = app.screen.query_one(LogView)
        assert any("passes" in line.plain for line in log.lines)
        await pilot.press("u")
        assert not any("passes" in line.plain for line in log.lines)
        await pilot.press("U")
        assert any("passes" in line.plain for line in log.lines)


async def test_the_cursor_goes_on_next_to_the_cube_just_placed_and_back_on_esc(store) -> None:
    """Issue 18 #11 (it stayed on the cube: the next Enter was refused); Esc brings it back."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(session, lambda s, legal: any(isinstance(a, core.Extend) for a in legal))
    extend = next(a for a in core.legal_actions(session.state) if isinstance(a, core.Extend))
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        driver = KeyPlayer(app, pilot)
        region = app.screen.query_one(RegionView)
        await pilot.press("b")
        await driver.move_to(extend.first)
        await pilot.press("enter")
        assert cast(GameScreen, app.screen).draft.placed == (extend.first,)
        assert core.region.NEIGHBOURS[extend.first] >> region.cursor & 1
        await pilot.press("escape")
        assert region.cursor == extend.first


def test_parcel_numbers_on_the_board_and_the_surveyed_area_without_colour(store) -> None:
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(session, step_is(SurveyStep.CHOOSE))
    state = session.state
    view = RegionView(RegionPicture(state))
    height = view.get_content_height(Size(0, 0), Size(0, 0), 0)
    lines = [view.render_line(y) for y in range(height)]
    marked = [seg.text.strip() for line in lines for seg in line
              if seg.style is not None and seg.style.reverse and seg.style.bold]  # fmt: skip
    area = state.survey_area
    present = [p for p in (2 * area, 2 * area + 1) if state.region[p] >= 0]
    assert marked == [f"P{p + 1}" for p in present]
    text = "".join(seg.text for line in lines for seg in line)
    assert all(f"P{p + 1}" in text for p in range(8) if state.region[p] >= 0)


async def test_rooms_in_words_on_the_final_screen(store) -> None:
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(session, lambda s, legal: core.is_over(s), seed=5)
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f")
        await pilot.pause()
        console = Console(width=80, file=io.StringIO(), record=True)
        assert isinstance(app.screen, FinalScreen)
        console.print(_table_of(app.screen))
        table = console.export_text()
        assert "-room" in table and not ROOM_CODE.search(table)


def test_short_room_words() -> None:
    wings = core.new_game(players=3, seed=3).wings
    words = [look.room_short(wings, room) for room in range(15)]
    assert len(set(words)) == 15 and not any(ROOM_CODE.search(w) for w in words)
    first = core.Patron(wings[0]).name.title()
    assert words[0] == f"{first} 5" and words[5] == f"{first} 3"
    assert words[10] == f"{first[:2]}/{core.Patron(wings[1]).name.title()[:2]} 2"


async def test_a_refused_booking_gives_the_reason_alone(store) -> None:
    """Enter on a 5-room nobody may book yet: the action bar gives core's reason, without
    the action's notation."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(session, lambda s, legal: any(isinstance(a, core.BookRoom) for a in legal))
    seat = session.state.current
    assert all(session.state.museum[r] != seat for r in range(15)), "pick another position"
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        options = decisions.survey_options(session.state, core.legal_actions(session.state))
        await pilot.press(str(next(i for i, o in enumerate(options, 1) if o.action is None)))
        await pilot.press("left", "left")  # the wing's 5-room: closed without a room beside
        await pilot.press("enter")
        text = app.screen.query_one("#actions", ActionBar).text
        assert "✗ the " in text and "5-room" in text and "book " not in text
        assert session.actions == store.load("pos").actions  # nothing was played


def test_resume_of_a_missing_save_is_a_command_line_error(store, capsys) -> None:
    assert main(["--save-dir", str(store.folder), "--resume", "nonexistent"]) != 0
    err = capsys.readouterr().err
    assert "nonexistent" in err


def test_load_list_title_leaves_the_names_to_the_players_column(store) -> None:
    session_for(store, HOT_SEAT_3, seed=7, name="pos")
    (summary,) = store.list()
    assert summary.title.startswith("Ann, Ben, Cleo")
    assert short_title(summary) == "02 Jan 2026 03:04"


async def test_season_summary_names_rooms_in_words() -> None:
    import random

    from tui.screens.summary import SeasonSummaryScreen

    state = start = core.new_game(players=3, seed=7)
    rng = random.Random(5)
    while state.season == 1:
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    assert any(room >= 0 for room in state.museum)  # rooms were booked this season
    console = Console(width=76, file=io.StringIO(), record=True)
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(SeasonSummaryScreen([start, state], 1))
        await pilot.pause()
        console.print(_table_of(app.screen))
    table = console.export_text()
    assert not ROOM_CODE.search(table)
    assert any(look.room_short(state.wings, r) in table for r in range(15) if state.museum[r] >= 0)


async def test_save_as_says_which_letters_a_name_may_hold(store) -> None:
    """A refused name keeps the dialog open with the reason, so it can be corrected; an
    empty one too (it used to close the dialog silently)."""
    from tui.screens.dialogs import SaveAsScreen

    session_for(store, HOT_SEAT_3, seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("ctrl+s", "ctrl+a", "ctrl+k", *"Zoë", "enter")
        dialog = app.screen
        assert isinstance(dialog, SaveAsScreen), "a refused name must keep the dialog open"
        assert "ASCII letters" in str(dialog.query_one("#refusal").render())
        await pilot.press("ctrl+a", "ctrl+k", "enter")
        assert app.screen is dialog and "Type a name" in str(dialog.query_one("#refusal").render())
        await pilot.press(*"Zoe", "enter")
        assert not isinstance(app.screen, SaveAsScreen)
        assert session_of(cast(GameScreen, app.screen)).name == "Zoe"
