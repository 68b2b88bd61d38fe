"""The app and its factory `make_app`, used by both the `mykerinos` command and the tests.

The app owns the flow between screens (resume? → new game → game → summaries → final;
the lobby of a table server → its tables), the notices, the quit path, the signals and
the "terminal too small" guard; the game itself lives in `GameScreen`. The flows are
written by concept: the games of this machine in :mod:`tui.local_games`, a table server's
in :mod:`tui.shared_tables`; this module starts them and holds what both use.

In a door's session (``server_only``: a remote player, playing as the host's account) the
app plays at the table server only: every way to a game on this machine (the new-game
form, the resume question, a saved game opened to play, the lobby's "back") leads back
to the lobby or out of the app instead; saved games (the session's own folder, where
its exports land) are only replayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import re
import signal
import sys
import threading
import uuid
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.notifications import Notification, Notify
from textual.screen import ModalScreen, Screen

from tui import collector
from tui.local_games import LocalGames
from tui.shared_tables import SharedTables

if TYPE_CHECKING:
    from textual.driver import Driver
    from textual.notifications import SeverityLevel

    import saves
    from table.client.directory import ServerAddress, TableDirectory
    from tui.turns import Turns

TERMINATE_GRACE = 3.0
"""Seconds a SIGTERM leaves for a clean shutdown before the process just ends."""

NOTHING_SECONDS = 3.0
"""How long the notice that a key did nothing stays (it is about the key just pressed)."""

MIN_SIZE = (80, 24)
"""The smallest terminal the game lays out in (the default SSH window)."""

STYLESHEET = Path(__file__).with_name("app.tcss")
"""The app's one stylesheet, with comments that say why."""


def stylesheet() -> str:
    """:data:`STYLESHEET` without its comments, which Textual's parser, run at every
    start, spends almost half its time on (about 3 ms of the first frame)."""
    text = STYLESHEET.read_text(encoding="utf-8")
    return re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)


class MykerinosApp(SharedTables, LocalGames):
    """Mykerinos in the terminal, keyboard only."""

    CSS = stylesheet()
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
        door: str | None = None,
        lessons: bool = False,
    ) -> None:
        """``server``: where to look for a table server (None: play on this machine only);
        ``cards``: (file name, text) of the cards new games are played with (None: the
        built-in deck); ``server_only``: a door's session, which never plays on this
        machine (see the module docstring: it needs ``server``, and refuses ``resume``);
        ``door``: which door started that session (``ssh:PORT`` or ``web``), where a
        guest's export goes; ``lessons``: start on the list of lessons (``mykerinos
        learn``; its ``server`` only names the player, it is never dialled)."""
        if server_only and (server is None or resume is not None):
            raise ValueError("a door's session plays at the table server only")
        super().__init__()
        self.cards = cards
        self.store = store
        self.server = server
        self.server_only = server_only
        self.door = door if server_only else None
        self.directory: TableDirectory | None = None
        self.turns: Turns | None = None
        self.turn_notices: dict[int, int] = {}
        self._notices: dict[int, Notification] = {}
        """The notices shown, by number (some may have expired)."""
        self._numbers = itertools.count(1)
        self._said_nothing: int | None = None
        """The notice that a key did nothing, if one may still be shown."""
        self.seed = seed
        self.resume = resume
        self.offer_resume = offer_resume
        self.lessons_first = lessons and not server_only
        self.computer_pause = computer_pause
        self.session: saves.Session | None = None
        self.load_error: str | None = None
        self.open_elsewhere: tuple[str, saves.GameOpenElsewhere] | None = None
        self.farewell: str | None = None
        """Why the app ended by itself, one line for the command to print once the terminal
        is back (Textual's exit message would be wrapped to the terminal's width)."""
        if resume is not None:
            self._load_first(resume)

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
        self.notice(message, title=title, severity=severity, timeout=timeout)

    def notice(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
    ) -> int:
        """A notice in plain text; returns the number by which :meth:`withdraw` takes it
        down once it no longer holds (a turn told at another table, played since)."""
        seconds = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        notification = Notification(message, title, severity, seconds, markup=False)
        self._notices = {n: kept for n, kept in self._notices.items() if not kept.has_expired}
        number = next(self._numbers)
        self._notices[number] = notification
        self.post_message(Notify(notification))
        return number

    def withdraw(self, notice: int) -> None:
        """Take notice ``notice`` down now. Textual takes notices down only all at once
        (``clear_notifications``): the others are shown again, each as a new notice (a
        toast is known by its notice's identity) with the time it had left."""
        if self._notices.pop(notice, None) is None:
            return
        self.clear_notifications()
        for number, other in list(self._notices.items()):
            if not other.has_expired:
                self._notices[number] = again = replace(other, identity=str(uuid.uuid4()))
                self.post_message(Notify(again))

    def on_key(self, event: events.Key) -> None:
        """A typed key that nothing took (no field, no screen, no binding that applies
        now) says so: on the screen's own line where it has one (``say_wrong_key``: the
        game screen, the new-game form), else in a short notice, the last such notice
        replacing the one before (a word typed at the wrong place is one notice, not
        five)."""
        from tui.screens.too_small import TooSmallScreen
        from tui.widgets.keys import means_nothing

        screen = self.screen
        nothing = means_nothing(screen, event)
        if nothing is None or isinstance(screen, TooSmallScreen):  # no room there
            return
        say = getattr(screen, "say_wrong_key", None)
        if say is not None:
            say(nothing)
            return
        if self._said_nothing is not None:
            self.withdraw(self._said_nothing)
        self._said_nothing = self.notice(nothing, timeout=NOTHING_SECONDS)

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

    def on_ready(self) -> None:
        """The first frame is on screen: the collector resumes (:mod:`tui.collector`)."""
        collector.resume()

    def on_mount(self) -> None:
        self._install_signal_handlers()
        self.check_size()
        if self.session is not None:
            return  # the game is the default screen
        if self.open_elsewhere is not None:
            self._ask_elsewhere(*self.open_elsewhere)
            return
        if self.lessons_first:
            self.open_lessons("new")
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
        while len(self.screen_stack) > 1:
            self.pop_screen()
        base = self.screen_stack[0]
        # Not imported for this test alone: a first start's new-game form needs none of the
        # game screen, and a module never loaded cannot be the base screen's.
        game = sys.modules.get("tui.screens.game")
        if game is not None and isinstance(base, game.GameScreen):
            base.leave()
        self.push_screen(screen)
        self.check_size()

    # ---------------------------------------------------------------- too small

    def on_resize(self, event: events.Resize) -> None:
        # This handler runs before App._on_resize stores the new size: use the event's.
        self.check_size(event.size)

    def check_size(self, size: tuple[int, int] | None = None) -> None:
        """Show the too-small message under MIN_SIZE; remove it once there is room."""
        width, height = size or self.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        # Its module is loaded only once it is needed (the first frame, at a size that
        # fits, needs none of it): a module never loaded cannot be the screen's.
        shown = sys.modules.get("tui.screens.too_small")
        showing = shown is not None and isinstance(self.screen, shown.TooSmallScreen)
        if small and not showing:
            from tui.screens.too_small import TooSmallScreen

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
    door: str | None = None,
    lessons: bool = False,
) -> MykerinosApp:
    """The app users run: saves in ``save_dir`` (else the env/default folder, see
    `saves.default_folder`); ``resume`` a save name (``""``: the latest unfinished game);
    ``computer_pause`` seconds between computer moves (0 in tests); ``server`` where a
    table server may listen (its lobby comes first when it answers); ``server_only``: a
    door's session, playing at that server only (see :class:`MykerinosApp`); ``lessons``:
    start on the list of lessons."""
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
        door=door,
        lessons=lessons,
    )
