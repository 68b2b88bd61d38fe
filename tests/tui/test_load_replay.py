"""Pilot tests of the load screen (resume, replay, delete with confirm, damaged files) and
the replay screen (stepping the board and the log together), at 80×24."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import DataTable, OptionList, Static

import core
import saves
from tests.tui.conftest import toasts
from tui.screens.load import LoadScreen
from tui.screens.replay import ReplayScreen
from tui.widgets.players import PlayersView
from tui.widgets.region import RegionView

SIZE = (80, 24)
SEATS = [
    saves.SeatConfig("Ann", core.Colour.BLUE, "human"),
    saves.SeatConfig("Ben", core.Colour.RED, "computer", "easy"),
    saves.SeatConfig("Cleo", core.Colour.GREEN, "human"),
]


class Ticking:
    """A clock one minute later at each reading: saves are listed in the order written."""

    def __init__(self) -> None:
        self.time = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.time += timedelta(minutes=1)
        return self.time


@pytest.fixture
def store(tmp_path: Path) -> saves.SaveStore:
    return saves.SaveStore(tmp_path / "saves", clock=Ticking())


def _game(store: saves.SaveStore, name: str, actions: int | None, seed: int) -> saves.Session:
    """A saved game of ``actions`` random actions (None: played to the end)."""
    session = saves.Session.new(store, SEATS, seed=seed, name=name)
    rng = random.Random(seed)
    while not session.finished and (actions is None or len(session.actions) < actions):
        session.apply(rng.choice(core.legal_actions(session.state)))
    return session


class Host(App[None]):
    """A bare app showing one screen and keeping what it was dismissed with."""

    def __init__(self, screen_factory) -> None:
        super().__init__()
        self.screen_factory = screen_factory
        self.results: list[object] = []

    def on_mount(self) -> None:
        self.push_screen(self.screen_factory(), self.results.append)


# ---------------------------------------------------------------- load screen


@pytest.fixture
def three_saves(store: saves.SaveStore) -> saves.SaveStore:
    """'finished' (oldest), 'playing' (newest good one), and 'broken' (a damaged file)."""
    _game(store, "finished", None, seed=1)
    _game(store, "playing", 30, seed=2)
    (store.folder / "broken.json").write_text('{"format": "mykerinos-save", "vers')
    return store


def _rows(app: App[None]) -> dict[str, list[str]]:
    """The table's rows as text, by save name."""
    table = app.screen.query_one(DataTable)
    return {
        str(row.key.value): [str(cell) for cell in table.get_row(row.key)]
        for row in table.ordered_rows
    }


async def test_load_screen_lists_saves_with_damaged_ones_marked(
    three_saves: saves.SaveStore,
) -> None:
    """Every save is a row (players, season, leader); the damaged one says so, and its
    error, naming the file, shows when it is highlighted."""
    app = Host(lambda: LoadScreen(three_saves))
    async with app.run_test(size=SIZE) as pilot:
        rows = _rows(app)
        assert set(rows) == {"finished", "playing", "broken"}
        season = three_saves.load("playing").state.season
        assert rows["playing"][1] == "Ann, Ben, Cleo" and rows["playing"][2] == str(season)
        assert rows["finished"][2] == "over"
        assert "damaged" in rows["broken"][1] and rows["broken"][0] == "broken"
        names = [s.name for s in three_saves.list()]
        await pilot.press(*["down"] * names.index("broken"))
        detail = str(app.screen.query_one("#load-detail", Static).render())
        assert "broken.json" in detail and "truncated" in detail


async def test_enter_resumes_the_highlighted_game(three_saves: saves.SaveStore) -> None:
    """Enter on an unfinished game dismisses the screen with its name."""
    app = Host(lambda: LoadScreen(three_saves))
    async with app.run_test(size=SIZE) as pilot:
        names = [s.name for s in three_saves.list()]
        await pilot.press(*["down"] * names.index("playing"), "enter")
        assert app.results == ["playing"]


async def test_home_and_end_go_to_the_first_and_the_last_save(
    three_saves: saves.SaveStore,
) -> None:
    """A row list (tui.widgets.rows): End and Home move the cursor, not the columns."""
    app = Host(lambda: LoadScreen(three_saves))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, LoadScreen)
        names = [s.name for s in three_saves.list()]
        await pilot.press("end")
        assert screen.selected is not None and screen.selected.name == names[-1]
        detail = str(screen.query_one("#load-detail", Static).render())
        assert detail.startswith(screen.selected.title)  # the detail line follows
        await pilot.press("home")
        assert screen.selected is not None and screen.selected.name == names[0]


async def test_a_damaged_file_cannot_be_opened(three_saves: saves.SaveStore) -> None:
    """Enter on a damaged save tells why and stays; the file is untouched."""
    path = three_saves.folder / "broken.json"
    before = path.read_bytes()
    app = Host(lambda: LoadScreen(three_saves))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        names = [s.name for s in three_saves.list()]
        await pilot.press(*["down"] * names.index("broken"), "enter", "r")
        await pilot.pause()
        assert app.results == [] and isinstance(app.screen, LoadScreen)
        assert any("broken.json" in toast for toast in toasts(app))
    assert path.read_bytes() == before


async def test_delete_asks_first(three_saves: saves.SaveStore) -> None:
    """d then n keeps the save; d then y deletes its file and its row."""
    app = Host(lambda: LoadScreen(three_saves))
    async with app.run_test(size=SIZE) as pilot:
        names = [s.name for s in three_saves.list()]
        await pilot.press(*["down"] * names.index("playing"), "d")
        await pilot.press("n")
        assert (three_saves.folder / "playing.json").exists()
        await pilot.press("d")
        await pilot.press("y")
        assert not (three_saves.folder / "playing.json").exists()
        assert set(_rows(app)) == {"finished", "broken"}
        assert isinstance(app.screen, LoadScreen) and app.results == []


async def test_escape_goes_back_with_nothing(three_saves: saves.SaveStore) -> None:
    app = Host(lambda: LoadScreen(three_saves))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape")
        assert app.results == [None]


async def test_empty_folder_says_so(store: saves.SaveStore) -> None:
    """With no saves the screen says where it looked; Enter does nothing."""
    app = Host(lambda: LoadScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "d", "r")
        assert "No saved games" in str(app.screen.query_one("#load-detail", Static).render())
        assert app.results == [] and isinstance(app.screen, LoadScreen)


async def test_r_replays_and_enter_on_a_finished_game_too(three_saves: saves.SaveStore) -> None:
    """r opens the replay of the highlighted save; Enter on a finished game does the same."""
    app = Host(lambda: LoadScreen(three_saves))
    async with app.run_test(size=SIZE) as pilot:
        names = [s.name for s in three_saves.list()]
        await pilot.press(*["down"] * names.index("playing"), "r")
        assert isinstance(app.screen, ReplayScreen) and app.screen.game_title
        assert len(app.screen.actions) == 30
        await pilot.press("escape")
        await pilot.press(*["down"] * (names.index("finished") - names.index("playing")), "enter")
        assert isinstance(app.screen, ReplayScreen)
        assert core.is_over(app.screen.states[-1])
        assert app.results == []


# ---------------------------------------------------------------- replay screen


def _shown_log_line(app: App[None]) -> int | None:
    return app.screen.query_one(OptionList).highlighted


async def test_replay_steps_board_and_log_together(store: saves.SaveStore) -> None:
    """→ plays one action, ← takes it back, End and Home jump: the board shows the state
    after the highlighted log line every time."""
    session = _game(store, "g", 40, seed=3)
    states = session.states()
    app = Host(lambda: ReplayScreen(session))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.state == states[0] and _shown_log_line(app) is None
        await pilot.press("right", "right", "l")
        assert screen.position == 3 and screen.state == states[3] and _shown_log_line(app) == 2
        await pilot.press("left")
        assert screen.state == states[2] and _shown_log_line(app) == 1
        await pilot.press("end")
        assert screen.state == states[40] and _shown_log_line(app) == 39
        await pilot.press("right")
        assert screen.position == 40, "no step past the end"
        await pilot.press("home", "left")
        assert screen.position == 0 and _shown_log_line(app) is None
        status = str(screen.query_one("#replay-status", Static).render())
        assert "action 0/40" in status
        await pilot.press("escape")
        assert app.results == [None]


async def test_replay_board_follows_the_state(store: saves.SaveStore) -> None:
    """The region shown is the state's: after the first action, its cube is on the board."""
    session = _game(store, "g", 5, seed=4)
    app = Host(lambda: ReplayScreen(session, start=-1))
    async with app.run_test(size=SIZE):
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.position == 5
        assert screen.query_one(RegionView).picture.state == session.state
        assert screen.query_one(PlayersView).state == session.state


def test_replay_needs_matching_states_and_actions() -> None:
    """A replay of states and actions that do not match is refused at once."""
    with pytest.raises(ValueError, match="one more state"):
        ReplayScreen(([core.new_game(2, 1)], [core.Pass()]))


def test_last_played_shows_the_year_only_when_not_this_one() -> None:
    """'01 Mar 10:00' this year, '01 Mar 2024' for an older save (local time)."""
    from tui.screens.load import when

    updated = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
    summary = saves.SaveSummary("g", "g", ["Ann"], 1, None, updated, False)
    local = updated.astimezone()
    assert when(summary, now=local) == local.strftime("%d %b %H:%M")
    assert when(summary, now=local.replace(year=2027)) == local.strftime("%d %b %Y")


async def test_in_the_app_load_screen_resumes_the_chosen_game(store: saves.SaveStore) -> None:
    """The real app: at launch, 'o' on the resume offer opens the load screen; Enter on an
    older game opens that game, position and all."""
    from tests.tui.conftest import app_for
    from tui.screens.game import GameScreen

    older = _game(store, "older", 12, seed=5)
    _game(store, "newer", 20, seed=6)
    app = app_for(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("o")
        assert isinstance(app.screen, LoadScreen)
        names = [s.name for s in store.list()]
        await pilot.press(*["down"] * names.index("older"), "enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.session is not None and app.session.name == "older"
        # Ben, a computer, may already have answered: the log starts with the saved one.
        assert app.session.actions[:12] == older.actions
        assert app.session.states()[12] == older.state
