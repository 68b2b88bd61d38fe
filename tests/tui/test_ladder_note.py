"""The ladder says why a game whose people's seats stand-ins mostly played lists only
computers (issue 26): the rule of ``table.ladder.rated_as``, in a line under the list."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from textual.app import App
from textual.widgets import Static

from table.ladder import rated_as
from tui.screens.ladder import LadderScreen


class Directory:
    """A table server's ladder, as ``TableDirectory.ladder`` gives it: a game where the
    stand-ins played the people's seats, rated as a computer."""

    async def ladder(self) -> tuple[Any, ...]:
        return (SimpleNamespace(name="computer (normal)", mu=25.0, sigma=8.0, games=2, wins=1),)


async def test_the_ladder_says_how_a_seat_played_by_stand_ins_is_rated() -> None:
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(LadderScreen(Directory()))  # type: ignore[arg-type]
        await pilot.pause()
        note = str(app.screen.query_one("#ladder-note", Static).render())
        rated = rated_as("ann", ["normal", "normal", None])  # the rule the note tells
        assert rated == "computer (normal)"
        assert "more than half of their decisions" in " ".join(note.split())
        assert f"(e.g. {rated})" in " ".join(note.split())
        assert "their own rating does not move" in " ".join(note.split())
