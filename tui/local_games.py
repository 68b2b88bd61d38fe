"""The app's flow for the games of this machine: the game to resume, the new-game form,
the list of saved games, a game open in another window, replays, and the lessons (played
here in every session, a door's too: a lesson is never a game at the table server).

A part of :class:`tui.app.MykerinosApp` (which also plays at a table server,
:mod:`tui.shared_tables`), kept apart so that each reads in one sitting. In a door's
session (``server_only``) every way to a game on this machine leads back to the lobby
instead, and saved games are only replayed.

A finished game of this machine is analysed from its save (:func:`local_analysis`), which
keeps the analysis: ``a`` on its final scores and in its replay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.screen import Screen

from tui.messages import LoadRequested, NewGameRequested, ReplayRequested

if TYPE_CHECKING:
    import saves
    from table.analysis import AnalysisSource
    from table.client.directory import ServerAddress, TableDirectory
    from table.seat import GameSeat
    from tui.screens.game import GameScreen
    from tui.screens.lesson import LessonScreen
    from tui.screens.lessons import LessonsRequested, LessonsScreen
    from tui.screens.new_game import NewGameChoice, NewGameScreen


def local_analysis(session: saves.Session) -> AnalysisSource | None:
    """Where the analysis of ``session``'s game comes from: its save, which keeps it
    (:class:`table.analysis.SessionAnalysis`); None while the game is not over."""
    from table.analysis import SessionAnalysis

    return SessionAnalysis(session) if session.finished else None


class LocalGames(App[None]):
    """The games of this machine (see the module docstring)."""

    store: saves.SaveStore
    server_only: bool
    directory: TableDirectory | None
    seed: int | None
    cards: tuple[str, str] | None
    computer_pause: float
    session: saves.Session | None
    """The game of this machine last opened to play."""
    load_error: str | None
    """Why the game to resume could not be loaded (the command prints it and stops)."""
    open_elsewhere: tuple[str, saves.GameOpenElsewhere] | None
    """The game to resume is open in another window: asked about once started."""
    server: ServerAddress | None
    lessons_back = "new"
    """Where Esc on the list of lessons goes: ``new`` (the new-game form) or ``lobby``."""

    if TYPE_CHECKING:  # the app's own, see tui.app.MykerinosApp

        def show_main(self, screen: Screen[Any]) -> None: ...

        def start_local(self) -> None: ...

        def open_lobby(self, *, come_back: bool = True) -> None: ...

        def keep_last_table(self, table: int) -> None: ...

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
        """The game screen playing ``session`` through a local seat (coached if it is its
        human player's coached game)."""
        from table.local import LocalSeat
        from tui.coached_game import coach_for, save_game
        from tui.screens.game import GameScreen

        seat = LocalSeat(session, pace=self.computer_pause, take_over=self.store.take_over)
        human = next((s.name for s in session.seats if s.kind == "human"), None)
        coach = coach_for(self, save_game(session.name), human) if human is not None else None
        return GameScreen(seat, coach=coach)

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

    def analysis_for(self, seat: GameSeat) -> AnalysisSource | None:
        """Where the final scores' ``a`` gets the analysis of ``seat``'s game: a shared
        table's from its server, which makes and keeps it; a game of this machine's from
        its save; None while the game is not over."""
        import core
        from table.local import LocalSeat

        if not core.is_over(seat.state):
            return None
        if seat.table is not None:
            return seat.table.analysis()
        return local_analysis(seat.session) if isinstance(seat, LocalSeat) else None

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

        history = (message.states, message.actions)
        lines, standins = message.lines, message.standins  # a shared table's journal
        replay = ReplayScreen(history, title=message.title, lines=lines, standins=standins)
        self.push_screen(replay)

    # ---------------------------------------------------------------- lessons

    def learner(self) -> str:
        """Whose lessons these are: the table server's name for this terminal's player (in
        a door's session, the door's player), else ``--player``, else the login name (as
        ``mykerinos learn --list`` says it)."""
        if self.directory is not None:
            return self.directory.player
        if self.server is not None and self.server.player:
            return self.server.player
        from tui.learn_cli import local_player

        return local_player()

    def open_lessons(self, back: str | None = None, select: int = 0) -> None:
        """The list of lessons, ``select`` under the cursor; ``back``: where its Esc goes
        (``new`` or ``lobby``; None: as last time)."""
        from tui.coached_game import progress
        from tui.screens.lessons import LessonsScreen, catalogue

        if back is not None:
            self.lessons_back = back
        player = self.learner()
        done = progress(self.store.folder).done(player)
        self.show_main(LessonsScreen(catalogue(), done, player, select))

    def on_lessons_requested(self, message: LessonsRequested) -> None:
        self.open_lessons(message.back)

    def on_lessons_screen_closed(self, _message: LessonsScreen.Closed) -> None:
        if self.lessons_back == "lobby" and self.directory is not None:
            self.open_lobby(come_back=False)
        else:
            self.start_new_game()  # a door's session: its lobby

    def on_lessons_screen_chosen(self, message: LessonsScreen.Chosen) -> None:
        from tui.screens.lessons import COACHED

        if message.index == COACHED:
            self.start_coached_game()
        else:
            self.open_lesson(message.index)

    def open_lesson(self, index: int) -> None:
        """Lesson ``index`` of the catalogue on the game screen (from its start)."""
        from table.lesson import LessonSeat
        from tui.screens.lesson import LessonScreen
        from tui.screens.lessons import catalogue

        lessons = catalogue()
        try:
            seat = LessonSeat(lessons[index])
        except (IndexError, RuntimeError) as exc:
            self.notify(str(exc), title="Cannot open the lesson", severity="error")
            return
        self.show_main(LessonScreen(seat, index + 1, len(lessons)))

    def on_lesson_screen_finished(self, message: LessonScreen.Finished) -> None:
        from tui.coached_game import progress

        try:
            progress(self.store.folder).mark_done(self.learner(), message.key)
        except OSError as exc:  # the lesson is done all the same
            self.notify(f"Your progress was not kept: {exc}", severity="warning")

    def on_lesson_screen_leave(self, message: LessonScreen.Leave) -> None:
        from tui.screens.lessons import catalogue

        keys = [lesson.key for lesson in catalogue()]
        index = keys.index(message.key) if message.key in keys else 0
        if message.next and index + 1 < len(keys):
            self.open_lesson(index + 1)
        else:  # the last one done: the list, on its next entry (the coached game)
            self.open_lessons(select=index + 1 if message.next else index)

    def start_coached_game(self) -> None:
        """A coached first game against the easy computer (:mod:`tui.coach`)."""
        from tui.coached_game import start_coached_game
        from tui.screens.new_game import name_or

        start_coached_game(self, name=name_or(self.learner(), "You"))
