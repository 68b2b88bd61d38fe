"""The ladder of a table server: its players' ratings from their finished games (OpenSkill,
see ``table/ladder.py``), best first. Esc goes back to the lobby."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from table.ladder import computer_name
from tui.widgets.keys import KeysBar
from tui.widgets.rows import RowTable

if TYPE_CHECKING:
    from table.client.directory import TableDirectory

COLUMNS = (("#", 3), ("Player", 20), ("Rating", 7), ("μ ± σ", 12), ("Games", 5), ("Wins", 5))

HOW_RATED = (
    "Ratings by OpenSkill (Plackett-Luce), one update per finished game of 2-4 players; "
    "computers are rated as their level."
)
STANDINS_RATED = (
    "A player whose seat computers played for more than half of their decisions is rated "
    f"for that game as the computer that made most of them (e.g. {computer_name('normal')}); "
    "their own rating does not move."
)
"""Why a game where stand-ins played the people's seats lists only computers: the rule of
:func:`table.ladder.rated_as`, in words."""


class LadderScreen(Screen[None]):
    """Rank, player, rating (μ − 3σ: what they have shown with confidence), μ ± σ, games
    finished and won."""

    DEFAULT_CSS = """
    LadderScreen { layout: vertical; }
    LadderScreen #ladder-title { height: 1; background: $panel; text-style: bold; }
    LadderScreen #ladder { height: 1fr; }
    LadderScreen #ladder-note { height: auto; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Back")]

    def __init__(self, directory: TableDirectory) -> None:
        super().__init__()
        self.directory = directory

    def compose(self) -> ComposeResult:
        yield Static("The ladder: ratings from finished games", id="ladder-title")
        grid: RowTable = RowTable(id="ladder")
        for label, width in COLUMNS:
            grid.add_column(label, width=width)
        yield grid
        yield Static(
            f"{HOW_RATED} {STANDINS_RATED}",
            id="ladder-note",
            markup=False,  # it may show the server's refusal, which may hold a "[/]"
        )
        yield KeysBar()

    def on_mount(self) -> None:
        self.query_one(RowTable).focus()
        self._load()

    @work(exclusive=True)
    async def _load(self) -> None:
        from table.client.directory import TableUnavailable
        from table.seat import SeatError

        try:
            rows = await self.directory.ladder()
        except (TableUnavailable, SeatError) as exc:
            self.query_one("#ladder-note", Static).update(str(exc))
            return
        grid: RowTable = self.query_one(RowTable)
        for rank, row in enumerate(rows, 1):
            grid.add_row(
                Text(str(rank)),
                Text(row.name, no_wrap=True, overflow="ellipsis"),
                Text(f"{row.mu - 3 * row.sigma:5.1f}", "bold"),
                Text(f"{row.mu:4.1f} ± {row.sigma:3.1f}"),
                Text(str(row.games)),
                Text(str(row.wins)),
            )
        if not rows:
            self.query_one("#ladder-note", Static).update("No finished game yet.")

    def action_close(self) -> None:
        self.app.pop_screen()
