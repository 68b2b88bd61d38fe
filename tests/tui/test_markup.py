"""Text that a user or a file supplies is shown as written, never read as markup: a `[/]`
in a notice, a name or a file's error must not crash the app."""

from __future__ import annotations

from tests.tui.conftest import app_for

HOSTILE = "[/] [bold]x[/bold] [link=file:///etc]y[/link] [red"


async def test_a_notice_quoting_markup_is_shown_as_written(store) -> None:
    app = app_for(store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify(f"Cannot load {HOSTILE}.json: it is broken.", severity="error")
        app.screen.notify(HOSTILE)  # a screen's notice goes through the app's too
        await pilot.pause()
        assert app.is_running
        shown = " ".join(str(toast.render()) for toast in app.screen.query("Toast"))
        assert HOSTILE in shown


NAMES = ["[/]", "[bold]Ann", "Ben[/bold]"]


async def test_names_read_as_markup_are_shown_as_written_everywhere(store) -> None:
    """A whole game by players named like markup: the game screen, the summaries, the
    final scores, the replay, the load list (with its delete question) and the resume
    offer all show the names as typed."""
    import core
    import saves
    from tests.tui.conftest import play_until
    from tests.tui.driver import KeyPlayer
    from tui.screens.dialogs import ConfirmScreen, ResumeScreen
    from tui.screens.load import LoadScreen
    from tui.screens.replay import ReplayScreen
    from tui.screens.summary import FinalScreen

    seats = [saves.SeatConfig(n, c, "human") for n, c in zip(NAMES, core.Colour, strict=False)]
    session = saves.Session.new(store, seats, seed=4, name="marked")
    play_until(session, lambda s, legal: s.season == 4 and s.phase is core.Phase.SURVEY)
    session.close()
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press("o")
        assert isinstance(app.screen, LoadScreen)
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen) and "[/]" in app.screen.question
        await pilot.press("n", "enter")
        driver = KeyPlayer(app, pilot)
        assert "[/]" in str(driver.game.query_one("#players").render())
        while not core.is_over(driver.state):
            await driver.dismiss_summaries()
            await driver.play(core.legal_actions(driver.state)[0])
        await pilot.pause()
        assert isinstance(app.screen, FinalScreen)
        await pilot.press("r")
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("end")
        assert app.is_running
