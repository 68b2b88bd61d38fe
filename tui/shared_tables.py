"""The app's flow at a table server: reaching it, its lobby, the tables opened from it,
the player's turn at the tables not on show, the games exported from it, and in a door's
session the table the player comes back to.

A part of :class:`tui.app.MykerinosApp` (which also plays the games of this machine,
:mod:`tui.local_games`), kept apart so that each reads in one sitting. Everything the
server says is read through :mod:`tui.server_text`.
"""

from __future__ import annotations

import contextlib
import socket
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App

from tui.messages import TablePlayed, TablesRequested

if TYPE_CHECKING:
    from pathlib import Path

    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    import saves
    from table.client.directory import ServerAddress, TableDirectory
    from tui.screens.lobby import LobbyScreen
    from tui.turns import Turns

TURNS_EVERY = 3.0
"""Seconds between two looks at the tables where it may have become the player's turn."""

FORM_MEMORY = "new-table.json"
"""The file keeping the new-table form's last settings (see :meth:`SharedTables.form_memory`)."""

LAST_TABLE = "last-table"
"""The file in a door's player's own folder naming the table they last sat at."""


class SharedTables(App[None]):
    """The table server's side of the app (see the module docstring)."""

    store: saves.SaveStore
    server: ServerAddress | None
    server_only: bool
    door: str | None
    """Which door started a door's session (``ssh:PORT`` or ``web``): where its exports go."""
    directory: TableDirectory | None
    """The table server's tables, once it answered."""
    farewell: str | None
    turns: Turns | None
    """The player's turns at the server's tables, once it answered."""
    turn_notices: dict[int, int]
    """The notices of a turn on screen now (their numbers, see ``notice``), by table."""
    watching: int | None = None
    """A watch link's session (the web door's ``--watch TABLE``): the one table it shows,
    watched, instead of the lobby; leaving it ends the session."""

    if TYPE_CHECKING:  # the app's own, see tui.app.MykerinosApp

        def show_main(self, screen: Screen[Any]) -> None: ...

        def start_local(self) -> None: ...

        def notice(
            self,
            message: str,
            *,
            title: str = "",
            severity: SeverityLevel = "information",
            timeout: float | None = None,
        ) -> int: ...

        def withdraw(self, notice: int) -> None: ...

    @work(exclusive=True, group="tables")
    async def _find_tables(self) -> None:
        """Reach the table server; its lobby when it answers, the local game otherwise."""
        from table.client.directory import TableUnavailable
        from tui.server_text import shown_server

        assert self.server is not None
        try:
            self.directory = await shown_server(self.server).directory(self.keep_export)
        except TableUnavailable as exc:
            if self.server_only:
                self.no_table_server(str(exc))
                return
            self.notify(str(exc), title="Playing on this machine", timeout=6)
            self.start_local()
            return
        self.watch_turns(self.directory.player)
        self.open_lobby()

    def no_table_server(self, reason: str) -> None:
        """A door's session whose table server does not answer: it ends, status 1, its
        :attr:`farewell` saying so in one line, as :func:`saves.printable` makes it (the
        server's words in ``reason`` went through :mod:`tui.server_text` already; the
        socket's path may hold anything)."""
        import saves

        reason = saves.printable(" ".join(reason.split())).rstrip(".")
        self.farewell = f"The table server does not answer: {reason}, try again in a moment."
        self.exit(return_code=1)

    # ---------------------------------------------------------------- your turn elsewhere

    def watch_turns(self, player: str) -> None:
        """Look at the server's tables every :data:`TURNS_EVERY` seconds, to tell the player
        when it becomes their turn at a table they are not looking at, and to take the
        notice down once that turn has been played."""
        from tui.turns import Turns

        self.turns = Turns(player)
        self.set_interval(TURNS_EVERY, self._check_turns)

    @work(exclusive=True, group="turns")
    async def _check_turns(self) -> None:
        from table.client.directory import TableUnavailable

        if self.directory is None or self.turns is None:
            return
        try:
            tables = await self.directory.tables()
        except TableUnavailable:
            return
        news, played = self.turns.look(tables, self.tables_on_show())
        for table in played:
            self.turn_played(table)
        for info in news:
            self.tell_turn(info.id, info.title)

    def tables_on_show(self) -> set[int]:
        """The shared tables whose game is on show (under a dialog or a summary too)."""
        from tui.screens.game import GameScreen

        return {
            screen.seat.table.info.id
            for screen in self.screen_stack
            if isinstance(screen, GameScreen) and screen.seat.table is not None
        }

    def tell_turn(self, table: int, title: str) -> None:
        """It is the player's turn at ``table``, titled ``title``: tell it the ways they
        chose (its notice stays until that turn is played)."""
        from tui import notices

        settings = notices.load()
        words = f"It is your turn at the table “{title}”."  # shown already: no repr
        if settings.line:
            self.turn_played(table)  # an older notice of it says the same
            self.turn_notices[table] = self.notice(words, title="Your turn", timeout=15)
        if settings.bell:
            self.bell()
        if settings.desktop:
            self.write_escapes(notices.desktop_escapes("Mykerinos", words))

    def turn_played(self, table: int) -> None:
        """The turn at ``table`` that a notice told of has been played: the notice goes."""
        notice = self.turn_notices.pop(table, None)
        if notice is not None:
            self.withdraw(notice)

    def on_table_played(self, message: TablePlayed) -> None:
        """An action at a table on show here: no turn told there before it still holds."""
        self.turn_played(message.table)

    def write_escapes(self, escapes: str) -> None:
        """Send terminal escapes as they are (a desktop notice), as Textual's ``bell``
        does; nothing when no terminal is attached (headless tests)."""
        if not self.is_headless and self._driver is not None:
            self._driver.write(escapes)

    # ---------------------------------------------------------------- the lobby

    def keep_export(self, name: str, data: bytes) -> str:
        """A shared table's exported game, saved here as ``name`` (to replay or resume);
        through the web door, downloaded by the guest's browser as ``name.json`` instead
        (the host's folder is out of a guest's reach)."""
        import saves
        from table.seat import SeatError

        try:
            if self.door == "web":
                return self._download(f"{saves.check_name(name)}.json", data)
            saves.Session.adopt(self.store, data, name).close()
        except saves.SaveError as exc:
            raise SeatError(str(exc)) from None
        if self.server_only:
            return f"Exported: the game is saved here as {name!r} (o: replay it)."
        return f"Exported: the game is saved here as {name!r} (o: load or replay it)."

    def _download(self, file_name: str, data: bytes) -> str:
        """``data`` delivered to the browser as the file ``file_name`` (the web driver
        sends it through the door's downloads)."""
        import io

        self.deliver_binary(io.BytesIO(data), save_filename=file_name, mime_type="application/json")
        return f"Exported: your browser downloads the game as {file_name!r}."

    def export_over_ssh(self, table: int) -> str | None:
        """In a session through the SSH door, the command that writes table ``table``'s
        game to a file on the guest's own machine (None elsewhere: there the export is
        kept here, or downloaded by the browser)."""
        kind, _, port = (self.door or "").partition(":")
        if kind != "ssh" or not port.isdigit():
            return None
        return f"ssh -p {port} {socket.gethostname()} export {table} > game.json"

    def open_lobby(self, *, come_back: bool = True) -> None:
        """The lobby; in a door's session it sits the player at the table they last sat at
        (``come_back``), unless they asked for the lobby itself."""
        from tui.screens.lobby import LobbyScreen

        if self.directory is None:
            self.notify("No table server was found.", severity="warning")
            return
        if self.watching is not None:
            self._watch_only(self.watching)
            return
        reopen = self.last_table() if self.server_only and come_back else None
        lobby = LobbyScreen(self.directory, not self.server_only, reopen, self.form_memory())
        self.show_main(lobby)

    def form_memory(self) -> Path:
        """Where the new-table form keeps its last settings: beside the notices' settings,
        which are the player's own in a door's session too (the doors start each game with
        ``HOME`` the player's folder on the host). Never among the saves: the load list
        would offer it as a broken game."""
        from tui import notices

        return notices.settings_path().parent / FORM_MEMORY

    def on_lobby_screen_opened(self, message: LobbyScreen.Opened) -> None:
        from tui.coached_game import coach_for, table_game
        from tui.screens.game import GameScreen

        table, coach = message.seat.table, None
        if table is not None:
            self.turn_played(table.info.id)  # its turn is on show now: the notice would hide it
        if table is not None and table.seats_here:
            if self.server_only:
                self.keep_last_table(table.info.id)
            if self.directory is not None:
                where, player = self.directory.where, self.directory.player
                coach = coach_for(self, table_game(where, table.info.id), player)
        self.show_main(GameScreen(message.seat, coach=coach))

    def on_lobby_screen_closed(self, _message: LobbyScreen.Closed) -> None:
        if self.server_only:
            self.exit()  # there is no game on this machine to go back to
        else:
            self.start_local()

    def on_tables_requested(self, _message: TablesRequested) -> None:
        if self.watching is not None:
            self.exit()  # a watch link's session has no lobby to go back to
            return
        self.open_lobby(come_back=False)  # asked for, from a table: not that table again

    @work(exclusive=True, group="watch-only")
    async def _watch_only(self, table: int) -> None:
        """A watch link's session: straight on its table, watched; a table that cannot be
        watched ends the session, saying why."""
        from table.client.directory import TableUnavailable
        from table.seat import SeatError
        from tui.screens.game import GameScreen

        assert self.directory is not None
        try:
            seat = await self.directory.watch(table, by_link=True)
        except (TableUnavailable, SeatError) as exc:
            self.no_table_server(str(exc))
            return
        self.show_main(GameScreen(seat))

    # A door's session comes back where the player left off (a reload, a dropped link):
    # the table they last sat at is kept in their own folder on the host.

    def last_table(self) -> int | None:
        """The table this player last sat at through a door (None: none, or unreadable)."""
        try:
            return int((self.store.folder / LAST_TABLE).read_text(encoding="ascii"))
        except (OSError, ValueError):
            return None

    def keep_last_table(self, table: int) -> None:
        with contextlib.suppress(OSError):
            (self.store.folder / LAST_TABLE).write_text(f"{table}\n", encoding="ascii")
