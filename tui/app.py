"""The app and its factory `make_app`, used by both the `mykerinos` command and the tests.

The app owns the flow between screens (resume? → new game → game → summaries → final)
and the "terminal too small" guard; the game itself lives in `GameScreen`.

In a door's session (``server_only``: a remote player, playing as the host's account) the
app plays at the table server only: every way to a game on this machine (the new-game
form, the resume question, a saved game opened to play, the lobby's "back") leads back
to the lobby or out of the app instead; saved games (the session's own folder, where
its exports land) are only replayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen

from tui.messages import LoadRequested, NewGameRequested, ReplayRequested, TablesRequested

if TYPE_CHECKING:
    from textual.driver import Driver
    from textual.notifications import SeverityLevel

    import saves
    from table.client.remote import ServerAddress, TableDirectory
    from tui.screens.game import GameScreen
    from tui.screens.lobby import LobbyScreen
    from tui.screens.new_game import NewGameChoice, NewGameScreen

TERMINATE_GRACE = 3.0
"""Seconds a SIGTERM leaves for a clean shutdown before the process just ends."""

TURNS_EVERY = 3.0
"""Seconds between two looks at the tables where it may have become the player's turn."""

MIN_SIZE = (80, 24)
"""The smallest terminal the game lays out in (the default SSH window)."""


class MykerinosApp(App[None]):
    """Mykerinos in the terminal, keyboard only."""

    CSS_PATH = "app.tcss"
    TITLE = "Mykerinos"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        # Textual's own ctrl+q quits at once and its ctrl+c only says "press ctrl+q": both
        # go through the game's quit question instead, like q (nothing unsaved is lost).
        Binding("ctrl+q,ctrl+c", "request_quit", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        store: saves.SaveStore,
        *,
        seed: int | None = None,
        resume: str | None = None,
        offer_resume: bool = True,
        computer_pause: float = 0.4,
        server: ServerAddress | None = None,
        cards: tuple[str, str] | None = None,
        server_only: bool = False,
    ) -> None:
        """``server``: where to look for a table server (None: play on this machine only);
        ``cards``: (file name, text) of the cards new games are played with (None: the
        built-in deck); ``server_only``: a door's session, which never plays on this
        machine (see the module docstring: it needs ``server``, and refuses ``resume``)."""
        if server_only and (server is None or resume is not None):
            raise ValueError("a door's session plays at the table server only")
        super().__init__()
        self.cards = cards
        self.store = store
        self.server = server
        self.server_only = server_only
        self.directory: TableDirectory | None = None
        """The table server's tables, once it answered."""
        self.seed = seed
        self.resume = resume
        self.offer_resume = offer_resume
        self.computer_pause = computer_pause
        self.session: saves.Session | None = None
        self.load_error: str | None = None
        """Why the game to resume could not be loaded (the command prints it and stops)."""
        self.open_elsewhere: tuple[str, saves.GameOpenElsewhere] | None = None
        """The game to resume is open in another window: asked about once started."""
        self.farewell: str | None = None
        """Why the app ended by itself, one line for the command to print once the terminal
        is back (Textual's exit message would be wrapped to the terminal's width)."""
        if resume is not None:
            self._load_first(resume)

    def _load_first(self, name: str) -> None:
        """Load the game to resume before the first frame, so that frame is the game."""
        import saves

        try:
            self.session = self.store.open(name)
        except saves.GameOpenElsewhere as exc:
            self.open_elsewhere = (name, exc)
        except saves.SaveError as exc:
            self.load_error = str(exc)

    def get_default_screen(self) -> Screen[Any]:
        if self.session is not None:
            return self._game_screen(self.session)
        return super().get_default_screen()

    def _game_screen(self, session: saves.Session) -> GameScreen:
        """The game screen playing ``session`` through a local seat."""
        from table.local import LocalSeat
        from tui.screens.game import GameScreen

        seat = LocalSeat(session, pace=self.computer_pause, take_over=self.store.take_over)
        return GameScreen(seat)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notice is plain text: they quote file names, save titles and players'
        names, where a ``[/]`` would otherwise crash the app (screens' ``self.notify``
        lands here too)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def get_driver_class(self) -> type[Driver]:
        """On POSIX terminals, Textual's driver made safe against the end of input and
        bytes that are not UTF-8 (`tui.terminal`)."""
        if sys.platform == "win32":
            return super().get_driver_class()
        from tui.terminal import TerminalDriver

        return TerminalDriver

    def _fatal_error(self) -> None:
        """An unexpected error (Textual's one hook for it): the game is saved, the full
        report goes to a file, and the player reads one line saying where; never a
        traceback, whose locals could show raw save bytes to a remote player."""
        from tui import crash

        self.save_now()
        error = sys.exc_info()[1] or RuntimeError("unknown error")
        self.bell()
        self.panic(crash.one_line(crash.write_report(error)))

    def action_request_quit(self) -> None:
        """Ctrl+Q or Ctrl+C: the game's quit question when a game is in front or has moves
        not saved; otherwise (new-game form, lists) leave at once, nothing being lost."""
        from tui.screens.dialogs import ConfirmScreen
        from tui.screens.game import GameScreen
        from tui.screens.too_small import TooSmallScreen

        if isinstance(self.screen, TooSmallScreen):
            self.screen.action_quit()  # no room for the question: it saves and leaves
            return
        if isinstance(self.screen, ConfirmScreen):
            return  # a question is on screen already: it is answered with y or n
        games = [s for s in self.screen_stack if isinstance(s, GameScreen)]
        main = next(s for s in reversed(self.screen_stack) if not isinstance(s, ModalScreen))
        if games and (main is games[-1] or games[-1].seat.unsaved):
            games[-1].action_quit_game()
        else:
            self.exit()

    # ---------------------------------------------------------------- start-up

    def on_mount(self) -> None:
        self._install_signal_handlers()
        self.check_size()
        if self.session is not None:
            return  # the game is the default screen
        if self.open_elsewhere is not None:
            self._ask_elsewhere(*self.open_elsewhere)
            return
        if self.load_error is not None:
            self.notify(self.load_error, title="Cannot load", severity="error", timeout=10)
            self.start_new_game()
            return
        if self.server is not None and (self.server_only or self.server.socket.exists()):
            self._find_tables()
            return
        self.start_local()

    def start_local(self) -> None:
        """The game on this machine: the latest unfinished one is offered, else a new one.
        A door's session has none: its lobby instead (or it ends, no server answering)."""
        if self.server_only:
            if self.directory is None:
                self.no_table_server("no lobby was reached")
            else:
                self.open_lobby()
            return
        latest = self.store.latest_unfinished() if self.offer_resume else None
        if latest is None:
            self.start_new_game()
            return
        self.offer_to_resume(latest)

    # ---------------------------------------------------------------- the table server

    @work(exclusive=True, group="tables")
    async def _find_tables(self) -> None:
        """Reach the table server; its lobby when it answers, the local game otherwise.
        Everything the server says is read through :mod:`tui.server_text`."""
        from table.client.remote import TableUnavailable
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
        self.watch_turns()
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

    def watch_turns(self) -> None:
        """Look at the server's tables every :data:`TURNS_EVERY` seconds, to tell the player
        when it becomes their turn at a table they are not looking at."""
        self._my_turns: set[int] | None = None
        self.set_interval(TURNS_EVERY, self._check_turns)

    @work(exclusive=True, group="turns")
    async def _check_turns(self) -> None:
        from table.client.remote import RemoteSeat, TableUnavailable
        from tui.screens.game import GameScreen
        from tui.screens.lobby import is_my_turn

        if self.directory is None:
            return
        try:
            tables = await self.directory.tables()
        except TableUnavailable:
            return
        mine = {t.id: t for t in tables if is_my_turn(t, self.directory.player)}
        known, self._my_turns = self._my_turns, set(mine)
        if known is None:
            return  # at start-up the lobby shows them all: nothing new to tell
        looking = {  # under a dialog or a summary too: the game is still on show
            screen.seat.info.id
            for screen in self.screen_stack
            if isinstance(screen, GameScreen) and isinstance(screen.seat, RemoteSeat)
        }
        for table in sorted(set(mine) - known - looking):
            self.tell_turn(mine[table].title)

    def tell_turn(self, title: str) -> None:
        """It is the player's turn at table ``title``: tell it the ways they chose."""
        from tui import notices

        settings = notices.load()
        words = f"It is your turn at the table “{title}”."  # shown already: no repr
        if settings.line:
            self.notify(words, title="Your turn", timeout=15)
        if settings.bell:
            self.bell()
        if settings.desktop:
            self.write_escapes(notices.desktop_escapes("Mykerinos", words))

    def write_escapes(self, escapes: str) -> None:
        """Send terminal escapes as they are (a desktop notice), as Textual's ``bell``
        does; nothing when no terminal is attached (headless tests)."""
        if not self.is_headless and self._driver is not None:
            self._driver.write(escapes)

    def keep_export(self, name: str, data: bytes) -> str:
        """A shared table's exported game, saved here as ``name`` (to replay or resume)."""
        import saves
        from table.seat import SeatError

        try:
            saves.Session.adopt(self.store, data, name).close()
        except saves.SaveError as exc:
            raise SeatError(str(exc)) from None
        if self.server_only:
            return f"Exported: the game is saved here as {name!r} (o: replay it)."
        return f"Exported: the game is saved here as {name!r} (o: load or replay it)."

    def open_lobby(self) -> None:
        from tui.screens.lobby import LobbyScreen

        if self.directory is None:
            self.notify("No table server was found.", severity="warning")
            return
        reopen = self.last_table() if self.server_only else None
        self.show_main(LobbyScreen(self.directory, back=not self.server_only, reopen=reopen))

    def on_lobby_screen_opened(self, message: LobbyScreen.Opened) -> None:
        from tui.screens.game import GameScreen

        if self.server_only and not message.seat.watching:
            self.keep_last_table(message.seat.info.id)
        self.show_main(GameScreen(message.seat))

    # A door's session comes back where the player left off (a reload, a dropped link):
    # the table they last sat at is kept in their own folder on the host.
    LAST_TABLE = "last-table"

    def last_table(self) -> int | None:
        """The table this player last sat at through a door (None: none, or unreadable)."""
        try:
            return int((self.store.folder / self.LAST_TABLE).read_text(encoding="ascii"))
        except (OSError, ValueError):
            return None

    def keep_last_table(self, table: int) -> None:
        with contextlib.suppress(OSError):
            (self.store.folder / self.LAST_TABLE).write_text(f"{table}\n", encoding="ascii")

    def on_lobby_screen_closed(self, _message: LobbyScreen.Closed) -> None:
        if self.server_only:
            self.exit()  # there is no game on this machine to go back to
        else:
            self.start_local()

    def on_tables_requested(self, _message: TablesRequested) -> None:
        self.open_lobby()

    def offer_to_resume(self, latest: saves.SaveSummary) -> None:
        """The dialog offering the latest unfinished game; loading another one and going
        back from the list comes back here (never silently to a new game)."""
        from tui.screens.dialogs import ResumeScreen

        def chosen(choice: str | None) -> None:
            if choice == "resume":
                self.load_game(latest.name)
            elif choice == "new":
                self.start_new_game()
            elif choice == "load":
                self.open_load(back=lambda: self.offer_to_resume(latest))
            else:
                self.exit()

        self.push_screen(ResumeScreen(latest.title, latest.season, latest.open_elsewhere), chosen)

    def _install_signal_handlers(self) -> None:
        """SIGHUP (SSH dropped) and SIGTERM: save and leave cleanly, inside the event loop."""
        loop = asyncio.get_running_loop()
        handlers = {signal.SIGHUP: self.hang_up, signal.SIGTERM: self.terminate}
        for number, handler in handlers.items():
            # Not on every platform, nor outside the main thread (tests): then none is needed.
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(number, handler)

    def save_now(self) -> None:
        """Write the game if the last autosave failed (every move is saved as played).
        Runs in the event loop, so never in the middle of a move being applied."""
        from tui.screens.game import GameScreen

        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                screen.seat.flush()

    def hang_up(self) -> None:
        """SIGHUP, the terminal is gone (SSH dropped): save and leave at once. A clean
        Textual shutdown would try to restore a terminal that no longer exists and can
        block for ever writing to it."""
        self.save_now()
        os._exit(0)

    def terminate(self) -> None:
        """SIGTERM: save and exit cleanly (the terminal is restored); if the shutdown
        has not finished in a few seconds, leave anyway, the game being saved."""
        self.save_now()
        timer = threading.Timer(TERMINATE_GRACE, os._exit, (0,))
        timer.daemon = True
        timer.start()
        self.exit()

    # ---------------------------------------------------------------- flow between screens

    def show_main(self, screen: Screen[Any]) -> None:
        """Make ``screen`` the one screen in view, above the app's base screen (which is the
        resumed game when the app started with one: it is stopped, never popped); the
        too-small guard is put back on top if needed."""
        from tui.screens.game import GameScreen

        while len(self.screen_stack) > 1:
            self.pop_screen()
        base = self.screen_stack[0]
        if isinstance(base, GameScreen):
            base.leave()
        self.push_screen(screen)
        self.check_size()

    def start_new_game(self) -> None:
        """The new-game form (a door's session: its lobby, where tables are created)."""
        from tui.screens.new_game import NewGameScreen

        if self.server_only:
            self.start_local()
            return
        can_cancel = self.session is not None and not self.session.finished
        tables = self.directory is not None
        cards = self.cards[0] if self.cards is not None else None
        self.show_main(NewGameScreen(self.seed, can_cancel=can_cancel, tables=tables, cards=cards))

    def on_new_game_screen_chosen(self, message: NewGameScreen.Chosen) -> None:
        self._new_game_chosen(message.choice)

    def _new_game_chosen(self, choice: NewGameChoice | None) -> None:
        import saves

        if choice is None:
            if self.session is not None:
                self.load_game(self.session.name)  # left for the form: open it again
            return
        seats = [
            saves.SeatConfig(s.name, s.colour, "computer" if s.kind == "computer" else "human",
                             s.level)
            for s in choice.seats
        ]  # fmt: skip
        try:
            cards = self.cards[1] if self.cards is not None else None
            session = saves.Session.new(self.store, seats, seed=choice.seed, cards=cards)
        except (saves.SaveError, ValueError) as exc:
            self.notify(str(exc), title="Cannot start", severity="error", timeout=10)
            self.start_new_game()
            return
        self.open_game(session)

    def open_game(self, session: saves.Session) -> None:
        """Play ``session`` here (a door's session never does: its lobby instead)."""
        if self.server_only:
            session.close()
            self.start_local()
            return
        self.session = session
        self.show_main(self._game_screen(session))

    def load_game(self, name: str) -> None:
        """Play the saved game ``name``; if another window has it open, ask whether to
        watch it or take it over. A door's session replays it instead."""
        import saves

        if self.server_only:
            self.replay_saved(name)
            return
        try:
            session = self.store.open(name)
        except saves.GameOpenElsewhere as exc:
            self._ask_elsewhere(name, exc)
            return
        except saves.SaveError as exc:
            self.notify(str(exc), title="Cannot load", severity="error", timeout=10)
            self.start_new_game()
            return
        self.open_game(session)

    def _ask_elsewhere(self, name: str, refusal: saves.GameOpenElsewhere) -> None:
        """Game ``name`` is open in another window: watch it, take it over, or go back."""
        import saves
        from tui.screens.dialogs import ElsewhereScreen
        from tui.screens.game import GameScreen

        def chosen(choice: str | None) -> None:
            try:
                if choice == "watch":
                    self.open_game(self.store.watch(name))
                elif choice == "take":
                    self.open_game(self.store.take_over(name))
                elif not any(isinstance(s, GameScreen) for s in self.screen_stack):
                    self.start_new_game()
            except saves.SaveError as exc:
                self.notify(str(exc), title="Cannot open", severity="error", timeout=10)
                self.start_new_game()

        self.push_screen(ElsewhereScreen(str(refusal)), chosen)

    def open_load(self, back: Callable[[], None] | None = None) -> None:
        """The list of saved games; going back from it calls ``back`` (the screen it was
        opened from is under it, so by default nothing is needed unless there is none)."""
        from tui.screens.load import LoadScreen

        def chosen(name: str | None) -> None:
            if name:
                self.load_game(name)
            elif back is not None:
                back()
            elif self.session is None and not self.server_only:
                self.start_new_game()  # a door's session: back to the game under the list

        self.push_screen(LoadScreen(self.store, replay_only=self.server_only), chosen)

    def replay_saved(self, name: str) -> None:
        """The saved game ``name`` in the replay screen, read without taking it."""
        from tui.screens.replay import show_saved

        show_saved(self.screen, name, self.store)

    # ---------------------------------------------------------------- screens' requests

    def on_new_game_requested(self, _message: NewGameRequested) -> None:
        self.start_new_game()

    def on_load_requested(self, _message: LoadRequested) -> None:
        self.open_load()

    def on_replay_requested(self, message: ReplayRequested) -> None:
        from tui.screens.replay import ReplayScreen

        self.push_screen(ReplayScreen((message.states, message.actions), title=message.title))

    # ---------------------------------------------------------------- too small

    def on_resize(self, event: events.Resize) -> None:
        # This handler runs before App._on_resize stores the new size: use the event's.
        self.check_size(event.size)

    def check_size(self, size: tuple[int, int] | None = None) -> None:
        """Show the too-small message under MIN_SIZE; remove it once there is room."""
        from tui.screens.too_small import TooSmallScreen

        width, height = size or self.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        showing = isinstance(self.screen, TooSmallScreen)
        if small and not showing:
            self.push_screen(TooSmallScreen(MIN_SIZE))
        elif not small and showing:
            self.pop_screen()


def make_app(
    save_dir: str | Path | None = None,
    *,
    seed: int | None = None,
    resume: str | None = None,
    offer_resume: bool = True,
    computer_pause: float = 0.4,
    server: ServerAddress | None = None,
    cards: tuple[str, str] | None = None,
    server_only: bool = False,
) -> MykerinosApp:
    """The app users run: saves in ``save_dir`` (else the env/default folder, see
    `saves.default_folder`); ``resume`` a save name (``""``: the latest unfinished game);
    ``computer_pause`` seconds between computer moves (0 in tests); ``server`` where a
    table server may listen (its lobby comes first when it answers); ``server_only``: a
    door's session, playing at that server only (see :class:`MykerinosApp`)."""
    import saves

    store = saves.SaveStore(saves.default_folder(None if save_dir is None else str(save_dir)))
    if resume == "":
        latest = store.latest_unfinished()
        resume = latest.name if latest is not None else None
    return MykerinosApp(
        store,
        seed=seed,
        resume=resume,
        offer_resume=offer_resume,
        computer_pause=computer_pause,
        server=server,
        cards=cards,
        server_only=server_only,
    )
