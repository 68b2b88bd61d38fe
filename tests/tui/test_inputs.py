"""Each input path of the game screen, from a fixed position, through keys only."""

from __future__ import annotations

from typing import cast

import pytest
from textual import events
from textual.geometry import Size

import core
from core.region import WIDTH, space_name
from tests.tui.conftest import HOT_SEAT_2, app_for, play_until, session_for, session_of, settle
from tests.tui.driver import KeyPlayer
from tui.draft import Mode
from tui.screens.game import GameScreen
from tui.widgets.actionbar import ActionBar
from tui.widgets.log import LogView
from tui.widgets.region import RegionView


def first_of(kind):
    """A predicate for play_until: the current player may play an action of ``kind``."""
    return lambda state, legal: any(isinstance(a, kind) for a in legal)


async def play_first(store, seats, seed, wanted, pick, positions_seed=1):
    """Reach a position where ``wanted`` holds, play ``pick(legal)`` by keys, return it and
    the session reloaded from disk."""
    session = session_for(store, seats, seed=seed, name="pos")
    play_until(session, wanted, seed=positions_seed)
    action = pick(core.legal_actions(session.state))
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await KeyPlayer(app, pilot).play(action)
    return action, store.load("pos")


class TestExcavationActions:
    """a, b and p."""

    async def test_a_starts_an_excavation(self, store) -> None:
        """a, the cursor to a highlighted space, Enter: one cube there."""
        action, saved = await play_first(
            store, None or [s for s in _hot3()], 7, first_of(core.Excavate),
            lambda legal: [a for a in legal if isinstance(a, core.Excavate)][-1],
        )  # fmt: skip
        assert saved.actions[-1] == action

    async def test_b_extends_an_excavation(self, store) -> None:
        action, saved = await play_first(
            store, _hot3(), 7, first_of(core.Extend),
            lambda legal: next(a for a in legal if isinstance(a, core.Extend)),
        )  # fmt: skip
        assert isinstance(saved.actions[-1], core.Extend) and saved.actions[-1] == action

    async def test_p_passes(self, store) -> None:
        _action, saved = await play_first(store, _hot3(), 7, first_of(core.Pass),
                                         lambda legal: core.Pass())  # fmt: skip
        assert saved.actions[-1] == core.Pass()


@pytest.mark.parametrize(
    "kind", [core.Violet, core.Lemon, core.Brown, core.Blackmore, core.Tangerine],
    ids=["violet", "lemon", "brown", "blackmore", "tangerine"],
)  # fmt: skip
async def test_each_patron_through_its_key(store, kind) -> None:
    """v, l, s, k, t: the patron's action built with the cursor (the Museum for Sir Brown);
    for Violet and Lemon the two-cube form, picked with b after the patron key."""

    def pick(legal):
        mine = [a for a in legal if isinstance(a, kind)]
        return max(mine, key=lambda a: len(core.placed_spaces(a)))

    action, saved = await play_first(store, _hot3(), 3, first_of(kind), pick, positions_seed=2)
    assert saved.actions[-1] == action


class TestSurvey:
    async def test_survey_parcel_by_digit(self, store) -> None:
        """A digit takes the parcel listed under it."""
        action, saved = await play_first(
            store, _hot3(), 7, first_of(core.TakeParcel),
            lambda legal: [a for a in legal if isinstance(a, core.TakeParcel)][-1],
        )  # fmt: skip
        assert saved.actions[-1] == action

    async def test_survey_museum_booking(self, store) -> None:
        """The booking option, then the room cursor and Enter."""
        action, saved = await play_first(
            store, _hot3(), 7, first_of(core.BookRoom),
            lambda legal: [a for a in legal if isinstance(a, core.BookRoom)][-1],
        )  # fmt: skip
        assert saved.actions[-1] == action


class TestNeutral:
    """2 players: n, m and x after an A or B."""

    @pytest.mark.parametrize("kind", [core.NeutralExcavate, core.NeutralExtend, core.NeutralSkip])
    async def test_neutral_placement(self, store, kind) -> None:
        action, saved = await play_first(
            store, HOT_SEAT_2, 5, first_of(kind),
            lambda legal: next(a for a in legal if isinstance(a, kind)),
        )  # fmt: skip
        assert saved.actions[-1] == action


class TestRefusalsAndBackingOut:
    async def test_a_pyramid_space_is_refused_with_the_reason(self, store) -> None:
        """Enter on a space that is not highlighted says why and applies nothing."""
        session = session_for(store, _hot3(), seed=7, name="pos")
        play_until(session, lambda s, legal: not session.is_computer(s.current_player)
                   and s.phase is core.Phase.EXCAVATION)  # fmt: skip
        pyramid = min(core.region.spaces_of(session.state.pyramids))
        app = app_for(store, resume="pos")
        async with app.run_test(size=(80, 24)) as pilot:
            driver = KeyPlayer(app, pilot)
            await pilot.press("a")
            await driver.move_to(pyramid)
            await pilot.press("enter")
            bar = driver.game.query_one("#actions", ActionBar).text
            assert f"{space_name(pyramid)} holds a pyramid" in bar
            assert len(session_of(driver.game).actions) == len(session.actions)
            assert driver.game.mode is Mode.PLACE

    async def test_extend_far_from_own_cubes_is_refused(self, store) -> None:
        session = session_for(store, _hot3(), seed=7, name="pos")
        play_until(session, first_of(core.Extend))
        state = session.state
        own = state.cubes[state.current]
        far = next(s for s in range(WIDTH * 6) if not core.region.NEIGHBOURS[s] & own
                   and not (state.pyramids >> s & 1)
                   and not any(m >> s & 1 for m in state.cubes))  # fmt: skip
        app = app_for(store, resume="pos")
        async with app.run_test(size=(80, 24)) as pilot:
            driver = KeyPlayer(app, pilot)
            await pilot.press("b")
            await driver.move_to(far)
            await pilot.press("enter")
            bar = driver.game.query_one("#actions", ActionBar).text
            assert f"{space_name(far)} is not next to one of your cubes" in bar

    async def test_escape_backs_out_cube_by_cube(self, store) -> None:
        """Esc takes back the cube placed, then leaves the action; nothing is applied."""
        session = session_for(store, _hot3(), seed=7, name="pos")
        play_until(session, first_of(core.Extend))
        first = next(a for a in core.legal_actions(session.state) if isinstance(a, core.Extend))
        app = app_for(store, resume="pos")
        async with app.run_test(size=(80, 24)) as pilot:
            driver = KeyPlayer(app, pilot)
            await pilot.press("b")
            await driver.move_to(first.first)
            await pilot.press("enter")
            assert driver.game.draft.placed == (first.first,)
            assert driver.game.query_one(RegionView).picture.placed == (first.first,)
            await pilot.press("escape")
            assert driver.game.draft.placed == () and driver.game.mode is Mode.PLACE
            await pilot.press("escape")
            assert driver.game.mode is Mode.CHOOSE
            assert len(session_of(driver.game).actions) == len(session.actions)

    async def test_undo_and_redo(self, store) -> None:
        session = session_for(store, _hot3(), seed=7, name="pos")
        app = app_for(store, resume="pos")
        async with app.run_test(size=(80, 24)) as pilot:
            driver = KeyPlayer(app, pilot)
            await driver.play(core.Pass())
            await pilot.press("u")
            assert session_of(driver.game).actions == []
            await pilot.press("U")
            assert session_of(driver.game).actions == [core.Pass()]
        assert store.load(session.name).actions == [core.Pass()]


async def test_computer_seats_play_in_a_worker_and_hand_back(store) -> None:
    """One human and two computers: after the human's move the computers play (in a
    thread, no pause in tests) and the log tells what they did."""
    import saves

    seats = [*_hot3()[:1], saves.SeatConfig("Bot1", core.Colour.RED, "computer", "easy"),
             saves.SeatConfig("Bot2", core.Colour.GREEN, "computer", "easy")]  # fmt: skip
    session_for(store, seats, seed=4, name="solo")
    app = app_for(store, resume="solo")
    async with app.run_test(size=(80, 24)) as pilot:
        driver = KeyPlayer(app, pilot)
        await settle(pilot, lambda: driver.state.current_player == 0)
        await driver.play(core.Pass())
        await settle(
            pilot,
            lambda: (
                driver.state.current_player == 0
                or core.is_over(driver.state)
                or not isinstance(app.screen, GameScreen)
            ),
        )
        await driver.dismiss_summaries()
        lines = [line.plain for line in driver.game.query_one("#log", LogView).lines]
        assert any("Bot1" in line for line in lines)
        assert any(isinstance(a, core.Pass) for a in session_of(driver.game).actions)


def _hot3():
    from tests.tui.conftest import HOT_SEAT_3

    return HOT_SEAT_3


async def test_hjkl_move_the_cursor_only_while_placing(store) -> None:
    """While a cube is being placed, h/j/k/l move the cursor (l and k are otherwise the
    Lemon and Blackmore keys)."""
    session_for(store, _hot3(), seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        driver = KeyPlayer(app, pilot)
        await pilot.press("a")
        region = driver.game.query_one(RegionView)
        await driver.move_to(WIDTH + 3)
        await pilot.press("l", "j", "h", "h", "k")
        assert region.cursor == WIDTH + 2
        assert driver.game.mode is Mode.PLACE


async def test_too_small_message_comes_and_goes_with_resizes(store) -> None:
    """Shrinking under 80×24 shows the message; enlarging brings the game back intact."""
    from tui.screens.game import GameScreen
    from tui.screens.too_small import TooSmallScreen

    session_for(store, _hot3(), seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        for width, height in [(79, 24), (40, 10), (100, 23), (1, 1)]:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.mode is Mode.PLACE


async def test_a_closed_museum_room_is_refused_with_the_reason(store) -> None:
    """Booking: Enter on a room that is not bracketed says why (core's words)."""
    from tui.widgets.museum import MuseumView

    session = session_for(store, _hot3(), seed=7, name="pos")
    play_until(session, first_of(core.BookRoom))
    legal_rooms = {a.room for a in core.legal_actions(session.state)
                   if isinstance(a, core.BookRoom)}  # fmt: skip
    closed = next(r for r in range(5) if r not in legal_rooms)
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        driver = KeyPlayer(app, pilot)
        options = driver.game.query_one("#actions", ActionBar).text
        number = options.rsplit("book a room", 1)[0].split()[-1]
        await pilot.press(number)
        museum = driver.game.query_one(MuseumView)
        await driver.cursor_keys(["down"] * ((closed - museum.cursor[0]) % 5)
                                 + ["left"] * museum.cursor[1])  # fmt: skip
        assert museum.room == closed
        await pilot.press("enter")
        bar = driver.game.query_one("#actions", ActionBar).text
        assert "5-room" in bar and ("already taken" in bar or "needs one of your cubes" in bar)
        assert len(session_of(driver.game).actions) == len(session.actions)


async def test_final_screen_keys_lead_to_replay_and_a_new_game(store) -> None:
    from tui.screens.new_game import NewGameScreen
    from tui.screens.replay import ReplayScreen
    from tui.screens.summary import FinalScreen

    session = session_for(store, _hot3(), seed=7, name="pos")
    play_until(session, lambda s, legal: core.is_over(s), seed=5)
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f")
        assert isinstance(app.screen, FinalScreen)
        await pilot.press("r")
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, FinalScreen)
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("enter")
        assert session_of(app.screen).name != "pos"


async def test_help_opens_with_question_mark_and_f1_and_shows_the_rulings(store) -> None:
    from tui.screens.help import HelpScreen

    session_for(store, _hot3(), seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("question_mark", "f1"):
            await pilot.press(key)
            assert isinstance(app.screen, HelpScreen)
            assert "Enter/Space" in str(app.screen.query_one("#help-text").render())
            await pilot.press("r")
            assert "Rulings of this game" in str(app.screen.query_one("#help-text").render())
            await pilot.press("escape")
            assert not isinstance(app.screen, HelpScreen)


async def test_save_as_renames_the_game(store) -> None:
    session_for(store, _hot3(), seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+s", "ctrl+a", "ctrl+k", *"sunday", "enter")
        await pilot.pause()
        assert session_of(cast(GameScreen, app.screen)).name == "sunday"
        await KeyPlayer(app, pilot).play(core.Pass())
    assert store.load("sunday").actions == [core.Pass()]


async def test_quit_asks_first_and_the_game_stays_saved(store) -> None:
    session = session_for(store, _hot3(), seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await KeyPlayer(app, pilot).play(core.Pass())
        await pilot.press("q", "n")
        assert app.is_running and session_of(cast(GameScreen, app.screen)) is not None
        await pilot.press("q", "y")
        await pilot.pause()
        assert not app.is_running
    assert store.load(session.name).actions == [core.Pass()]


async def test_tie_break_is_explained(store, monkeypatch) -> None:
    """When the top totals tie, the verdict says the stock decided (or that they share)."""
    session = session_for(store, _hot3(), seed=7, name="pos")
    play_until(session, lambda s, legal: core.is_over(s), seed=5)
    real = core.final_scores(session.state)
    tied = tuple(
        core.PlayerScore(p.seat, 10, (0,) * 5, (1,) * 5, (None,) * 5, 0, 0, stock)
        for p, stock in zip(real.players, (4, 4, 1), strict=True)
    )
    monkeypatch.setattr(core, "final_scores",
                        lambda state: core.FinalScores(tied, (0, 1), True))  # fmt: skip
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f")
        verdict = str(app.screen.query_one("#verdict").render())
        assert "share the win with 10 points" in verdict
        assert "Tie-break: 3 players tied at 10" in verdict and "most cubes in stock" in verdict


async def test_o_opens_another_saved_game(store) -> None:
    from tui.screens.game import GameScreen
    from tui.screens.load import LoadScreen

    session_for(store, _hot3(), seed=7, name="first")
    session_for(store, _hot3(), seed=8, name="second")
    app = app_for(store, resume="first")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        assert isinstance(app.screen, LoadScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen) and session_of(app.screen).name == "first"
        await pilot.press("o")
        names = [s.name for s in store.list()]
        await pilot.press(*["down"] * names.index("second"), "enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and session_of(app.screen).name == "second"


@pytest.mark.parametrize(("key", "screen_name"), [("r", "GameScreen"), ("n", "NewGameScreen"),
                                                   ("o", "LoadScreen")])  # fmt: skip
async def test_launch_offers_to_resume_the_unfinished_game(store, key, screen_name) -> None:
    from tui.screens.dialogs import ResumeScreen

    session_for(store, _hot3(), seed=7, name="waiting")
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press(key)
        await pilot.pause()
        assert type(app.screen).__name__ == screen_name
        if key == "r":
            assert session_of(cast(GameScreen, app.screen)).name == "waiting"


async def test_an_action_key_with_nothing_legal_says_why(store) -> None:
    """b with no cube of one's own on the region: refused with the reason, nothing played."""
    session_for(store, _hot3(), seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        game = KeyPlayer(app, pilot).game
        assert game.state.cubes[game.state.current] == 0
        await pilot.press("b")
        assert "no cube on the region to extend from" in game.query_one("#actions", ActionBar).text
        await pilot.press("v")
        assert "no untilted Lady Violet card" in game.query_one("#actions", ActionBar).text
        assert session_of(game).actions == [] and game.mode is Mode.CHOOSE


async def test_the_steps_of_an_action_repaint_what_changed_not_the_whole_screen(store) -> None:
    """Choosing an action, moving the cursor and backing out repaint the widgets that
    change; a repaint of the whole game screen sent all 80×24 again at each step (7 KB
    over an SSH link for `a`)."""
    session_for(store, _hot3(), seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        await pilot.pause()
        whole: list[str] = []
        refresh = game.refresh

        def watched(*regions, **options):
            if not regions and not options.get("layout"):
                whole.append(game.draft.step or game.mode.name)
            return refresh(*regions, **options)

        game.refresh = watched  # type: ignore[method-assign]
        for key in ("a", "right", "down", "escape", "a", "left"):
            await pilot.press(key)
        assert game.mode is Mode.PLACE
        assert "cube 1 of 1" in game.query_one("#actions", ActionBar).text
        assert whole == []


async def test_a_resize_to_the_size_it_has_lays_nothing_out_and_a_new_size_does(store) -> None:
    """A Resize that brings the size the game screen is laid out at keeps its layout
    (Textual sent three at every start, each a layout of the whole screen); a new size
    lays it out, and going back gives the first layout again."""
    session_for(store, _hot3(), seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        await pilot.pause()
        first = game.query_one(RegionView).region
        sizes: list[Size | None] = []
        relayout = game._refresh_layout

        def watched(size: Size | None = None, scroll: bool = False) -> None:
            sizes.append(size)  # a Resize names its size; a widget's own refresh does not
            relayout(size, scroll)

        game._refresh_layout = watched  # type: ignore[method-assign]
        game.post_message(events.Resize(Size(80, 24), Size(80, 24)))
        await pilot.pause()
        assert Size(80, 24) not in sizes
        await pilot.resize_terminal(100, 30)
        await settle(pilot, lambda: game.size == Size(100, 30))
        assert Size(100, 30) in sizes
        await pilot.resize_terminal(80, 24)
        await settle(pilot, lambda: game.size == Size(80, 24))
        assert game.query_one(RegionView).region == first
