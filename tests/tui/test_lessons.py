"""The lessons in the app (issue 28): the list from ``mykerinos learn`` and from the
new-game form, a lesson played with the game's own keys through a ``LessonSeat`` (a wrong
try is said in the rules' words and the task stays; a done step says why), progress
marked, and everything within 80×24.

The lessons here are small fakes built with ``core.new_game`` and the contract's
dataclasses (the real ones are ``core.lessons.LESSONS``); where this build has no
``core.lessons.attempt`` yet, a fake one keeps the contract."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.widgets import OptionList

import core
import core.lessons
from core.lessons import Lesson, Step
from tests.table.test_tickets import serving
from tests.tui.conftest import app_for, settle
from tui import coached_game, decisions
from tui.screens import lessons as lessons_screen
from tui.screens.lesson import LessonPanel, LessonScreen
from tui.screens.lessons import LessonsScreen
from tui.screens.new_game import NewGameScreen
from tui.widgets.actionbar import ActionBar
from tui.widgets.keys import KeysBar

PASS_WHY = "Passing first takes the best place on the passing scale."
START_WHY = "An excavation is where your cubes start each season."
MISS = "That starts an excavation: the task is to pass (p)."


def _start() -> core.GameState:
    return core.new_game(3, seed=3, names=["You", "Ben", "Cleo"])


def _must(kind: type, words: str):
    def check(before: core.GameState, action: core.Action, after: core.GameState) -> str | None:
        return None if isinstance(action, kind) else words

    return check


PASSING = Lesson(
    key="passing",
    title="Passing",
    idea="Passing ends your season's digging.\nThe first to pass ranks first.",
    start=_start,
    steps=(
        Step("Pass.", _must(core.Pass, MISS), PASS_WHY),
        Step("Now Ben: start an excavation.", _must(core.Excavate, "Start one (a)."), START_WHY),
    ),
)
SECOND = Lesson("second", "Second lesson", "Another idea.", _start,
                (Step("Pass.", _must(core.Pass, MISS), PASS_WHY),))  # fmt: skip


class FakeProgress:
    def __init__(self) -> None:
        self.marked: list[tuple[str, str]] = []
        self.games: dict[tuple[str, str], tuple[str, ...]] = {}

    def done(self, player: str) -> set[str]:
        return {key for who, key in self.marked if who == player}

    def mark_done(self, player: str, key: str) -> None:
        self.marked.append((player, key))

    def coached(self, player: str, game: str) -> tuple[str, ...] | None:
        return self.games.get((player, game))

    def keep_coached(self, player: str, game: str, shown: tuple[str, ...]) -> None:
        self.games[player, game] = shown


@pytest.fixture
def kept(monkeypatch: pytest.MonkeyPatch) -> FakeProgress:
    """The fake lessons in place of the real ones, and progress kept in memory."""
    # The screens' one way to the lessons: patching core.lessons.LESSONS itself would leak
    # into any module that first imports it meanwhile (tui.learn_cli, saves.lessons).
    monkeypatch.setattr(lessons_screen, "catalogue", lambda: (PASSING, SECOND))
    progress = FakeProgress()
    monkeypatch.setattr(coached_game, "progress", lambda folder: progress)
    return progress


@pytest.fixture
async def door():
    """A table server in this process, issuing tickets as the doors do."""
    async with serving() as running:
        yield running


@pytest.fixture
def ann(monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine's player is Ann (not the login name of whoever runs the tests)."""
    monkeypatch.setattr("tui.local_games.LocalGames.learner", lambda self: "Ann")


def _bar(app) -> str:
    return app.screen.query_one(ActionBar).text


def _keys(app) -> str:
    return app.screen.query_one(KeysBar).render().plain


def _panel(app) -> str:
    panel = app.screen.query_one(LessonPanel)
    rendered = panel.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


def _fits(app) -> None:
    """Every part of the screen lies within the terminal."""
    width, height = app.size
    for widget in app.screen.query("*"):
        if widget.display and widget.region.area:
            region = widget.region
            assert region.right <= width and region.bottom <= height, widget


async def test_learn_starts_on_the_list_with_marks_and_the_coached_game(store, kept, ann) -> None:
    kept.mark_done("Ann", "second")
    app = app_for(store, lessons=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LessonsScreen))
        options = app.screen.query_one(OptionList)
        entries = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert entries[0].startswith("· ") and "Passing" in entries[0]
        assert entries[1].startswith("✓ ") and "Second lesson" in entries[1]
        assert "coached first game against the easy computer" in entries[-1]
        assert "1 of 2 lessons done" in str(app.screen.query_one("#lessons-title").render())
        _fits(app)


async def test_the_new_game_form_opens_the_list_and_esc_comes_back(store, kept) -> None:
    app = app_for(store, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("L")
        await settle(pilot, lambda: isinstance(app.screen, LessonsScreen))
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, NewGameScreen))


async def test_a_lesson_played_by_keys_wrong_tries_then_done(store, kept, ann) -> None:
    app = app_for(store, lessons=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LessonsScreen))
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, LessonScreen))
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        seat = screen.lesson_seat
        await settle(pilot, lambda: "Task 1/2: Pass." in _panel(app))
        assert "Lesson 1/2 · Passing" in _panel(app) and "Next lesson" not in _keys(app)
        # A legal try that misses the task: the check's words, the step stays.
        await pilot.press("a", "enter")
        await settle(pilot, lambda: MISS in _bar(app))
        assert seat.step == 0 and seat.state is seat.history()[0][0]
        # A key with nothing legal behind it: the game's own refusal, the step stays.
        why_not = decisions.why_not(seat.state, "v")
        await pilot.press("v")
        await settle(pilot, lambda: why_not in _bar(app))
        assert seat.step == 0 and not kept.marked
        # The task: the step is done, its why shows, the next task is asked.
        await pilot.press("p")
        await settle(pilot, lambda: "Task 2/2" in _panel(app))
        assert PASS_WHY in _panel(app) and seat.step == 1
        await pilot.press("a", "enter")
        await settle(pilot, lambda: "Lesson done" in _panel(app))
        assert START_WHY in _panel(app) and "Lesson done." in _bar(app)
        assert "Next lesson" in _keys(app)  # the keys bar says what Enter does now
        await settle(pilot, lambda: kept.marked == [("Ann", "passing")])
        _fits(app)
        # Enter: the next lesson, from its start.
        await pilot.press("enter")
        await settle(pilot, lambda: "Lesson 2/2 · Second lesson" in _panel(app))


async def test_esc_goes_back_to_the_list_and_a_lesson_done_is_marked(store, kept, ann) -> None:
    app = app_for(store, lessons=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LessonsScreen))
        await pilot.press("down", "enter")
        await settle(pilot, lambda: "Second lesson" in _panel(app))
        await pilot.press("p")
        await settle(pilot, lambda: "Lesson done" in _panel(app))
        await pilot.press("enter")  # the last lesson: the list, on the coached game
        await settle(pilot, lambda: isinstance(app.screen, LessonsScreen))
        assert "1 of 2 lessons done" in str(app.screen.query_one("#lessons-title").render())
        assert app.screen.query_one(OptionList).highlighted == 2
        await pilot.press("up", "enter")  # done lessons can be played again
        await settle(pilot, lambda: isinstance(app.screen, LessonScreen))
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, LessonsScreen))


async def test_the_coached_entry_starts_a_game_against_the_easy_computer(store, kept) -> None:
    from tui.screens.game import GameScreen

    app = app_for(store, lessons=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LessonsScreen))
        await pilot.press("end", "enter")
        await settle(pilot, lambda: type(app.screen) is GameScreen)
        game = app.screen
        assert isinstance(game, GameScreen)
        players = game.seat.players
        assert [p.computer for p in players] == [None, "easy"]


async def test_through_a_door_the_lobby_opens_the_lessons_of_the_door_s_player(
    store, kept, door
) -> None:
    """The door's session is the same app: l in its lobby, the lessons of the ticket's
    player (whatever the hello claims), a lesson played here, Esc back to the lobby."""
    from table.client.directory import ServerAddress
    from tests.tui.test_door_mode import door_app
    from tui.screens.lobby import LobbyScreen

    ticket = door.hub.issue_ticket("ann")
    app = door_app(store, ServerAddress(door.socket, "mallory", ticket))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("l")
        await settle(pilot, lambda: isinstance(app.screen, LessonsScreen))
        assert "Learn to play · ann ·" in str(app.screen.query_one("#lessons-title").render())
        await pilot.press("down", "enter", "p")
        await settle(pilot, lambda: kept.marked == [("ann", "second")])
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, LessonsScreen))
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))


def test_a_lesson_at_80x24(snap_compare, store, kept) -> None:
    """The board, the lesson's panel where the log was (title, task, idea), the keys."""
    app = app_for(store, lessons=True)
    assert snap_compare(app, terminal_size=(80, 24), press=["enter"])
