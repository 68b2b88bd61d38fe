"""A key that means nothing says so and changes nothing (it was silently dropped): on the
game screen in the action bar, on the new-game form in its error line, elsewhere in a
notice. Every key that does something still does it, without that message."""

from __future__ import annotations

from textual.widgets import Input, Static

import saves
from tests.tui.conftest import HOT_SEAT_2, app_for, session_for, session_of, toasts
from tui.draft import Mode
from tui.screens.dialogs import ConfirmScreen
from tui.screens.game import GameScreen
from tui.screens.load import LoadScreen
from tui.screens.new_game import NewGameScreen
from tui.widgets.actionbar import ActionBar
from tui.widgets.region import RegionView

NOTHING = "does nothing here: ? lists the keys"


def action_bar(app) -> str:
    return str(app.screen.query_one(ActionBar).render())


async def test_a_key_that_means_nothing_says_so_and_changes_nothing(
    store: saves.SaveStore,
) -> None:
    session_for(store, HOT_SEAT_2, seed=7, name="pos")
    app = app_for(store, resume="pos")
    bells: list[None] = []
    app.bell = lambda: bells.append(None)  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        before = session_of(screen).state
        keys = (("z", "z"), ("Z", "Z"), ("1", "1"), ("space", "Space"), ("enter", "Enter"))
        for key, shown in keys:
            await pilot.press(key)
            await pilot.pause()
            assert f"✗ {shown} {NOTHING}" in action_bar(app), key
            assert screen.mode is Mode.CHOOSE and session_of(screen).state == before
        assert bells == []  # a slip of the finger, not a refused move: no bell

        await pilot.press("a")  # an action key: it starts the action and clears the line
        await pilot.pause()
        assert screen.mode is Mode.PLACE and NOTHING not in action_bar(app)
        region = screen.query_one(RegionView)
        start = region.cursor
        for key in ("l", "j", "h", "k"):  # the cursor keys of placing: bound, so no message
            await pilot.press(key)
            await pilot.pause()
            assert NOTHING not in action_bar(app), key
        await pilot.press("j")
        await pilot.pause()
        assert region.cursor != start  # the keys did move the cursor
        await pilot.press("x")  # an action's key means nothing while a cube is placed
        await pilot.pause()
        assert f"✗ x {NOTHING}" in action_bar(app)
        assert screen.mode is Mode.PLACE and region.cursor != start  # the action kept
        await pilot.press("question_mark")  # named "?" by its character, bound by its name
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"


async def test_the_new_game_form_says_so_too_and_its_fields_still_take_letters(
    store: saves.SaveStore,
) -> None:
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        error = screen.query_one("#new-game-error", Static)
        await pilot.press("z")  # the focus on the players' count: z means nothing there
        assert f"✗ z {NOTHING}" in str(error.render())
        await pilot.press("right")  # a change to the form clears what was said of it
        assert str(error.render()).strip() == ""
        name = screen.query_one("#name-0", Input)
        name.focus()
        await pilot.press("end", "z")  # typed into a name: a letter, nothing said
        assert name.value == "Annz" and str(error.render()).strip() == ""
    assert store.list() == []


async def test_on_other_screens_a_notice_says_so_and_the_last_replaces_the_one_before(
    store: saves.SaveStore,
) -> None:
    """The saved-games list has no line of its own for it: a notice, one however many
    keys were wrong, naming the last; no "?" offered where ? opens no help."""
    session_for(store, HOT_SEAT_2, seed=7, name="pos")
    app = app_for(store, offer_resume=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        for key in "zxy":
            await pilot.press(key)
            await pilot.pause()
        assert toasts(app) == ["y does nothing here"]
        await pilot.press("d")  # bound (delete): its question, no notice of nothing
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert not any(toast.startswith("d does") for toast in toasts(app))
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen) and store.list()  # nothing deleted
