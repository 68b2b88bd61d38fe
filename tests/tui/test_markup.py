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
