"""The lobby: the tables of the table server, to play at, join, watch or create.

Your tables come first (those where it is your turn before the others), then tables with
a seat free for you, then the games you can watch. The list refreshes itself every
:data:`REFRESH` seconds. Enter sits you at the table under the cursor (or watches it when
there is no seat for you), ``w`` watches, ``c`` creates a table, ``n`` chooses how a turn
at another table is told (here, and away from the terminal by e-mail or a push service),
``l`` opens the lessons, Esc goes back to the game on this
machine (a door's session has none: there Esc does nothing, and q leaves after a
question).
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from tui.lobby_words import age, detail_words, free_seat, order, players_cell, status_words
from tui.turns import is_my_turn, my_seat
from tui.widgets.keys import KeysBar
from tui.widgets.rows import RowTable

if TYPE_CHECKING:
    from pathlib import Path

    from table.client.directory import TableDirectory
    from table.protocol import TableInfo
    from table.seat import GameSeat

REFRESH = 2.0
"""Seconds between two looks at the server's tables."""

NOTICE_LOOKS = 30
"""Looks at the tables between two at the player's notices (whether one fails)."""

COLUMNS = (("", 1), ("Table", 16), ("Players", 28), ("Status", 15), ("Seen", 4))
"""Column labels and widths: they fit in 80 columns with the cell padding."""


class LobbyScreen(Screen[None]):
    """The server's tables (see the module docstring)."""

    DEFAULT_CSS = """
    LobbyScreen { layout: vertical; }
    LobbyScreen #lobby-title { height: 1; background: $panel; text-style: bold; }
    LobbyScreen #tables { height: 1fr; }
    LobbyScreen #lobby-detail { height: auto; max-height: 3; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "sit", "Play", priority=True),
        Binding("w", "watch", "Watch"),
        Binding("c", "create", "New"),
        Binding("r", "refresh", "Refresh", show=False),
        Binding("n", "notices", "Notices"),
        Binding("L", "ladder", "Ladder", key_display="L"),
        Binding("l", "learn", "Learn"),
        # Esc goes back to the game on this machine; a door's session has none, and Esc
        # (pressed once too often after a replay or a form) must not end it: check_action
        # disables "close" there, and the keys bar offers no Esc. Leaving is q's.
        Binding("escape", "close", "Back"),
        Binding("q", "quit", "Quit"),
    ]

    class Opened(Message):
        """A table was opened here, to play at or to watch: show it."""

        def __init__(self, seat: GameSeat) -> None:
            super().__init__()
            self.seat = seat

    class Closed(Message):
        """The player left the lobby (Esc): back to the game on this machine."""

    def __init__(
        self,
        directory: TableDirectory,
        back: bool = True,
        reopen: int | None = None,
        form_memory: Path | None = None,
    ) -> None:
        """``back``: there is a game on this machine for Esc to go back to (False in a
        door's session: Esc does nothing); ``reopen``: the table to sit at again at once,
        if the player still has a seat there and its game is not over (a door's session
        coming back after a reload or a dropped link); ``form_memory``: where the new-table
        form keeps its last settings."""
        super().__init__()
        self.directory = directory
        self.form_memory = form_memory
        self.back = back
        self.reopen = reopen
        self.tables: list[TableInfo] = []
        self._rows: list[tuple[str, Text, Text, Text, Text, Text]] = []
        """The rows shown, as shown (see :meth:`show_tables`)."""
        self._said = ""
        self._looks = 0
        self._select: int | None = None
        """A table to select once the list shows it (one just created)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "close":
            return self.back
        return True

    def compose(self) -> ComposeResult:
        title = f"Tables on the server · you play as {self.directory.player}"
        yield Static(title, id="lobby-title", markup=False)
        table: RowTable = RowTable(id="tables")
        for label, width in COLUMNS:
            table.add_column(label, width=width)
        yield table
        yield Static(id="lobby-detail", markup=False)
        yield KeysBar()

    def on_mount(self) -> None:
        self.query_one(RowTable).focus()
        self.action_refresh()
        self.set_interval(REFRESH, self.action_refresh)

    # ---------------------------------------------------------------- the list

    @work(exclusive=True, group="lobby-list")
    async def action_refresh(self) -> None:
        from table.client.directory import TableUnavailable

        try:
            tables = await self.directory.tables()
        except TableUnavailable as exc:
            self._say(f"{exc} Retrying…")
            return
        self.show_tables(tables)
        self._looks += 1
        if self._looks % NOTICE_LOOKS == 1:
            self._check_notices()
        reopen, self.reopen = self.reopen, None  # once, at the first answer
        for info in self.tables:
            mine = my_seat(info, self.directory.player) is not None
            if info.id == reopen and mine and info.status == "playing":
                self._open(info.id, watch=False)

    def show_tables(self, tables: tuple[TableInfo, ...]) -> None:
        """Show ``tables`` in lobby order, keeping the cursor on the same table (by id, or
        on a table just created once it is listed). Rows
        that read the same as those shown are left alone: the list is asked for every
        :data:`REFRESH` seconds, and redrawing it unchanged cost an idle terminal 3.3 KB
        each time (over SSH, on every idle player's link)."""
        grid: RowTable = self.query_one(RowTable)
        keep = self.selected.id if self.selected is not None else None
        self.tables = order(tables, self.directory.player)
        ids = [info.id for info in self.tables]
        if self._select in ids:
            keep, self._select = self._select, None
        now = time.time()
        player = self.directory.player
        rows = [
            (
                str(info.id),
                Text("▶" if is_my_turn(info, player) else "", "bold"),
                Text(info.title, no_wrap=True, overflow="ellipsis"),
                players_cell(info),
                Text(status_words(info, player), "bold" if is_my_turn(info, player) else ""),
                Text(age(info.updated, now)),
            )
            for info in self.tables
        ]
        if rows != self._rows:
            self._rows = rows
            grid.clear()
            for key, *cells in rows:
                grid.add_row(*cells, key=key)
        if keep in ids and grid.cursor_row != ids.index(keep):  # the same table, by id
            grid.move_cursor(row=ids.index(keep))
        self.show_detail()

    @property
    def selected(self) -> TableInfo | None:
        grid: RowTable = self.query_one(RowTable)
        if not self.tables or grid.cursor_row < 0:
            return None
        return self.tables[min(grid.cursor_row, len(self.tables) - 1)]

    @on(RowTable.RowHighlighted)
    def show_detail(self) -> None:
        self._say(detail_words(self.selected, self.directory.player))

    @work(exclusive=True, group="lobby-notices")
    async def _check_notices(self) -> None:
        """The title says when the player's notices away from the terminal fail (an
        older server, or none set up: nothing to say)."""
        from table.client.directory import TableUnavailable
        from table.protocol_notices import NoticesShow
        from table.seat import SeatError
        from tui.screens.far_notices import failing_words

        try:
            state = await self.directory.notices(NoticesShow(0))
        except (TableUnavailable, SeatError):
            return
        failing = [c for c in state.channels if c.confirmed and c.failing_since is not None]
        title = f"Tables on the server · you play as {self.directory.player}"
        if failing:
            title = f"✗ {failing_words(failing[0])} (n)"
        titles = self.query("#lobby-title")  # none once the lobby has gone meanwhile
        if titles and str(titles.first(Static).render()) != title:  # repainted on a change
            titles.first(Static).update(title)

    def _say(self, words: str) -> None:
        if words != self._said:  # said again every 2 s: a repaint only when it changes
            self._said = words
            self.query_one("#lobby-detail", Static).update(words)

    # ---------------------------------------------------------------- actions

    def action_sit(self) -> None:
        info = self.selected
        if info is None:
            return
        if info.status in ("over", "damaged"):
            self._replay(info.id)
            return
        seated = my_seat(info, self.directory.player) is not None or free_seat(info) is not None
        self._open(info.id, watch=not seated)

    def action_watch(self) -> None:
        info = self.selected
        if info is not None:
            self._open(info.id, watch=True)

    @work(exclusive=True, group="lobby-open")
    async def _open(self, table: int, *, watch: bool) -> None:
        from table.client.directory import TableUnavailable
        from table.seat import SeatError

        self._say("Opening the table…")
        try:
            if watch:
                seat = await self.directory.watch(table)
            else:
                seat = await self.directory.sit(table)
        except (TableUnavailable, SeatError) as exc:
            self._say(str(exc))
            self.app.bell()
            return
        self.post_message(self.Opened(seat))

    @work(exclusive=True, group="lobby-open")
    async def _replay(self, table: int) -> None:
        """A finished game, in the replay screen, with its journal's lines where they were
        said and the stand-ins' moves marked."""
        from table import journal
        from table.client.directory import TableUnavailable
        from table.seat import SeatError
        from tui.screens.replay import ReplayScreen

        try:
            seat = await self.directory.watch(table)
        except (TableUnavailable, SeatError) as exc:
            self._say(str(exc))
            return
        states, actions = seat.history()
        told = seat.table.journal
        lines, standins = journal.told_lines(told), journal.standins(told, len(actions))
        title = seat.title
        seat.close()
        analysis = None  # the server's, what it keeps shown at once
        with contextlib.suppress(TableUnavailable, SeatError):
            analysis = await self.directory.analysis(table)
        me = self.directory.player
        viewer = next((i for i, p in enumerate(states[0].players) if p.name == me), None)
        replay = ReplayScreen(
            (states, actions), title=title, start=-1, lines=lines, standins=standins,
            analysis=analysis, viewer=viewer,
        )  # fmt: skip
        self.app.push_screen(replay)

    def action_create(self) -> None:
        from tui.screens.create_table import CreateTableScreen, start_words

        def created(table: TableInfo | None) -> None:
            if table is None:
                return
            self._select = table.id  # not the table that happened to be under the cursor
            self.action_refresh()
            if table.status == "playing":
                self._open(table.id, watch=False)
            else:
                kinds = ["open" if seat.name is None else "taken" for seat in table.seats]
                self._say(f"Table {table.title!r} created. {start_words(kinds, [])}")

        self.app.push_screen(CreateTableScreen(self.directory, self.form_memory), created)

    def action_ladder(self) -> None:
        from tui.screens.ladder import LadderScreen

        self.app.push_screen(LadderScreen(self.directory))

    def action_learn(self) -> None:
        """The lessons (played here, never at the server); Esc there comes back here."""
        from tui.screens.lessons import LessonsRequested

        self.post_message(LessonsRequested("lobby"))

    def action_notices(self) -> None:
        """How a turn elsewhere is told: here, and away from the terminal."""
        from tui.screens.far_notices import FarNoticesScreen

        self.app.push_screen(FarNoticesScreen(self.directory))

    def action_close(self) -> None:
        self.post_message(self.Closed())

    def action_quit(self) -> None:
        """Leave the app: at once on this machine (nothing is lost); in a door's session,
        where leaving closes the player's connection, after a question."""
        from tui.screens.dialogs import ConfirmScreen

        if self.back:
            self.app.exit()
            return

        def leave(yes: bool | None) -> None:
            if yes:
                self.app.exit()

        question = "Leave Mykerinos? The connection closes; your tables wait for you."
        self.app.push_screen(ConfirmScreen(question), leave)
