"""The "terminal too small" screen says how to leave, and q, Ctrl+C and Ctrl+Q leave from
it with the game saved (issue 18 #16: q was ignored there and the words did not say)."""

from __future__ import annotations

import pytest

import core
import saves
from tests.tui.conftest import HOT_SEAT_3, app_for, session_for
from tests.tui.driver import KeyPlayer
from tui.screens.dialogs import ConfirmScreen
from tui.screens.too_small import TooSmallScreen

TINY = (30, 8)


def _message(app) -> str:
    assert isinstance(app.screen, TooSmallScreen), f"not too small: {app.screen!r}"
    return str(app.screen.query_one("#too-small-message").render())


@pytest.mark.parametrize("key", ["q", "ctrl+c", "ctrl+q"])
async def test_each_quit_key_leaves_a_game_saved(store, key: str) -> None:
    """A move played at full size, the window shrunk: the screen says how to quit, the
    key leaves at once (no question it has no room for) and the save holds the move."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="small")
    app = app_for(store, resume="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await KeyPlayer(app, pilot).play(core.Pass())
        await pilot.resize_terminal(*TINY)
        await pilot.pause()
        assert "q or Ctrl+C: quit (saved)." in _message(app)
        await pilot.press(key)
        await pilot.pause()
        assert not app.is_running
        assert not isinstance(app.screen, ConfirmScreen)
    assert store.load(session.name).actions == [core.Pass()]


async def test_the_message_fits_the_tiny_window(store) -> None:
    """Every line of the message shows whole at 30×8: the size, the need, how to quit."""
    session_for(store, HOT_SEAT_3, seed=7, name="small")
    app = app_for(store, resume="small")
    async with app.run_test(size=TINY) as pilot:
        await pilot.pause()
        lines = _message(app).splitlines()
        assert lines[0] == "Terminal too small: 30×8."
        assert lines[-1] == "q or Ctrl+C: quit (saved)."
        assert len(lines) <= TINY[1] and all(len(line) <= TINY[0] for line in lines)


async def test_moves_not_saved_are_named_and_a_second_q_leaves(store, monkeypatch) -> None:
    """The disk is full: q tries to save, cannot, and says so with the quit question's
    words; the game stays until q is pressed again."""
    session_for(store, HOT_SEAT_3, seed=7, name="small")
    app = app_for(store, resume="small")

    def disk_full(path, data, **_options) -> None:
        raise saves.SaveError(f"Cannot save {path}: the disk is full.")

    async with app.run_test(size=(80, 24)) as pilot:
        monkeypatch.setattr("saves.session.write_atomically", disk_full)
        await KeyPlayer(app, pilot).play(core.Pass())
        await pilot.resize_terminal(*TINY)
        await pilot.pause()
        await pilot.press("q")
        assert app.is_running
        message = _message(app)
        assert "1 move is not saved: quit anyway?" in message and "q: quit anyway." in message
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_the_new_game_form_leaves_without_a_save_to_speak_of(store) -> None:
    """With no game open the words promise no save, and q leaves."""
    app = app_for(store)
    async with app.run_test(size=TINY) as pilot:
        await pilot.pause()
        assert _message(app).splitlines()[-1] == "q or Ctrl+C: quit."
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_growing_back_returns_to_the_game(store) -> None:
    """q is the too-small screen's only while it shows: back at full size, q asks the
    game's quit question again."""
    session_for(store, HOT_SEAT_3, seed=7, name="small")
    app = app_for(store, resume="small")
    async with app.run_test(size=TINY) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)


async def test_in_a_browser_the_message_says_to_zoom_out(store, monkeypatch) -> None:
    """Through the web door (Textual's web driver: ``app.is_web``) the window may be as
    large as it gets while the cells are too big: the message says to zoom out too, and
    still fits the tiny window; in a terminal it does not."""
    session_for(store, HOT_SEAT_3, seed=7, name="small")
    app = app_for(store, resume="small")
    monkeypatch.setattr(type(app), "is_web", property(lambda _app: True))
    async with app.run_test(size=TINY) as pilot:
        await pilot.pause()
        message = _message(app)
        assert "zoom out (Ctrl+-)" in message, message
        lines = message.splitlines()
        assert len(lines) <= TINY[1] and all(len(line) <= TINY[0] for line in lines)
    monkeypatch.undo()
    app = app_for(store, resume="small")
    async with app.run_test(size=TINY) as pilot:
        await pilot.pause()
        assert "zoom" not in _message(app)
