"""The game screen: the board, the status line, the action bar and the keys.

It plays through a seat (`table.seat.GameSeat`: the local saved game, or a table shared
with other terminals) and never holds a game itself. State flows down: the board and the
bars are handed what they show from `seat.state` and the half-built action
(`tui.draft.Draft`, in a reactive that refreshes the keys). Intents flow up: keys and the
widgets' messages step the draft; a finished action goes to `seat.play`, and the seat's
updates come back to `on_seat_update`, which logs and re-renders.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.reactive import reactive
from textual.widget import Widget

import core
from saves.format import TableLine
from table.seat import GameSeat, SeatError, Update, changes_the_table, told_beside
from tui import coach as coaching
from tui import decisions, look, prompts
from tui import draft as drafting
from tui.draft import IDLE, Draft, Mode, Refusal
from tui.messages import TablePlayed
from tui.screens.game_menus import GameMenus
from tui.widgets.actionbar import ActionBar, StatusLine
from tui.widgets.board import Board
from tui.widgets.coach_note import CoachNote
from tui.widgets.keys import KeysBar
from tui.widgets.log import LogView
from tui.widgets.museum import MuseumView
from tui.widgets.players import PlayersView
from tui.widgets.region import RegionPicture, RegionView, next_recent, recent_in

SHOWN_PARTS: tuple[type[Widget], ...] = (StatusLine, Board, PlayersView, ActionBar, LogView)
"""The parts the game screen draws into (see :meth:`GameScreen._shown`)."""

LISTED_KEYS = frozenset({"press", "option"})
"""Key-bar entries a narrow terminal leaves out: the action bar lists them, with their
letters (and keeps listing them under a hint or a refusal); every other key that applies
now stays in the keys bar, on a second line if it must."""


class GameScreen(GameMenus):
    """One game in progress (or finished: the board stays visible under the final scores)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(key, f"press('{key}')", name) for key, name in drafting.KEY_NAMES.items()],
        *[Binding(str(i), f"option({i})", "Choose", show=i == 1, key_display="1-9")
          for i in range(1, 10)],
        # Esc steps a half-built action back; with none, at a shared table, it goes back
        # to the lobby (check_action enables one of the two).
        Binding("escape", "back", "Back"),
        Binding("escape", "lobby", "Lobby"),
        Binding("space,enter", "hurry", "Skip pause", show=False),
        Binding("u", "undo", "Undo"),
        Binding("U,ctrl+r", "redo", "Redo"),
        # Priority: the dialog opens before the keys typed with Ctrl+S are handed on.
        Binding("ctrl+s", "save_as", "Save as", priority=True),
        Binding("T", "take_over", "Take over"),
        Binding("o", "load", "Load…", show=False),
        Binding("pageup", "log('pageup')", "Log", key_display="PgUp"),
        *[Binding(key, f"log('{key}')", "Log", show=False) for key in ("pagedown", "home", "end")],
        Binding("f", "final", "Scores"),
        Binding("slash", "hint", "Hint"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
        Binding(coaching.OFF_KEY, "coaching_off", "Coaching off", show=False),  # the note says it
    ]  # fmt: skip

    draft: reactive[Draft] = reactive(
        IDLE, init=False, always_update=True, bindings=True, repaint=False
    )
    """The half-built action of the player deciding now. Not ``repaint``: its watcher hands
    every widget what it shows and each repaints what changed; a repaint of the screen
    would send all of it again (7 KB at 80×24 for each step of an action)."""

    def __init__(self, seat: GameSeat, *, coach: coaching.Coach | None = None) -> None:
        """``coach``: a coached game's coach, whose note explains each situation the
        first time it comes (issue 28, :mod:`tui.coach`); None in every other game."""
        super().__init__()
        self.seat = seat
        self.coach = coach
        self.message: Text | None = None
        """A refusal or a hint, shown above the options until the next step."""
        self._standing = False
        """The message says how the game or the table stood (a pause, someone else's
        turn…): it goes with the next change of the table, not only the next step."""
        self.recent: frozenset[int] = frozenset()
        """Cubes others placed since this terminal's player's last turn, marked until the
        next (see :func:`tui.widgets.region.next_recent`)."""
        self._hint_stop = threading.Event()
        self._parts: tuple[Widget, ...] | None = None
        """What :meth:`_shown` looks at, once found."""

    # ---------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield Board(self.state, id="body")
        if self.coach is not None:
            yield CoachNote(id="coach-note")
        yield ActionBar(id="actions")
        yield KeysBar(LISTED_KEYS)

    def on_mount(self) -> None:
        if not self._shown():  # closed as it opened (the app quitting, the door's session
            return  # ending): its parts are already going, and nothing is to be played
        if self.coach is not None:
            self.add_class("coached")
        self.render_state()
        self.query_one(Board).aim(room=False)
        self.seat.listen(self.on_seat_update)
        self.call_after_refresh(self._log_history)  # not needed for the first frame
        self.run_worker(self.seat.run(), name="seat", group="seat", exclusive=True)

    def on_screen_suspend(self) -> None:
        self.seat.hold(True)  # a summary or dialog is in front: no new computer move

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        self.seat.hold(False)

    def leave(self) -> None:
        """The game is being left: stop its work (a search within 50 ms), free the seat."""
        self.workers.cancel_node(self)
        self._hint_stop.set()
        self.seat.close()

    def on_unmount(self) -> None:
        self.leave()

    # ---------------------------------------------------------------- state and rendering

    @property
    def state(self) -> core.GameState:
        return self.seat.state

    @property
    def legal(self) -> tuple[core.Action, ...]:
        return self.seat.legal_actions()

    @property
    def mode(self) -> Mode:
        state = self.state
        return drafting.mode(state, self.draft, self.seat.decides_here(state.current_player))

    def watch_draft(self) -> None:
        self.render_state()

    def _shown(self) -> bool:
        """Whether every part the screen draws into is there: not before it is composed,
        nor while it is being taken down (its parts go one by one, and an update from the
        server may come between two of them). The parts are found once: this is asked at
        every frame the game draws, where five DOM queries cost a third of it."""
        if self._parts is None:
            try:
                self._parts = tuple(self.query_one(part) for part in SHOWN_PARTS)
            except NoMatches:
                return False
        return all(part.is_attached for part in self._parts)

    def render_state(self) -> None:
        """Hand the board and the bars what they show, from the seat and the draft
        (nothing while the screen is not whole: see :meth:`_shown`)."""
        if not self._shown():
            return
        state, draft, legal, mode = self.state, self.draft, self.legal, self.mode
        placing = mode is Mode.PLACE
        spaces = drafting.next_spaces(draft, state) if placing else frozenset()
        rooms = drafting.open_rooms(draft, legal) if mode is Mode.ROOM else frozenset()
        picture = RegionPicture(state, spaces, draft.placed, placing, self.recent)
        self.query_one(Board).show(picture, rooms)
        players = self.seat.players
        away, computers = tuple(p.away for p in players), tuple(bool(p.computer) for p in players)
        self.query_one(PlayersView).show_presence(away, computers)
        table = self.seat.table
        hints = table.info.hints if table is not None else None
        width = self.app.size.width
        status = prompts.status_line(state, players, self.seat.status, width, hints)
        self.query_one(StatusLine).show(status)
        prompt, options = prompts.decision(state, legal, mode, draft, players)
        if self.message is not None:  # above the options, which stay the keys to press
            options = Text("\n").join([self.message, options]) if options else self.message
        self.query_one(ActionBar).show(prompt, options, prompts.survey_ranking(state))
        self._coach(state, legal, mode)

    def _coach(self, state: core.GameState, legal: tuple[core.Action, ...], mode: Mode) -> None:
        """The coach's note for this position, if the game is coached (see :mod:`tui.coach`)."""
        if self.coach is None:
            return
        seat = state.current_player
        here = seat if self.seat.decides_here(seat) else None
        words = self.coach.words(state, here, legal, room=mode is Mode.ROOM)
        self.query_one(CoachNote).say(words)

    def action_coaching_off(self) -> None:
        """No more notes in this game (the key works only in a coached game)."""
        if self.coach is not None:
            self.coach.turn_off()
            self.render_state()

    def mine(self, seat: int | None) -> bool:
        """Whether ``seat`` is this terminal's player's, whoever plays it now (at a shared
        table a computer may stand in for them: its turns are theirs, seen here)."""
        table = self.seat.table
        if table is None:
            return self.seat.decides_here(seat)
        return seat is not None and seat in table.seats_here

    def _log_history(self) -> None:
        """The log rebuilt from the history: on opening a game, after undo or redo (not
        once the screen is being taken down: after its first refresh it may already be)."""
        if not self._shown():
            return
        # A shared table's one name is its title (the lobby's); a local game's its save's.
        name = self.seat.title if self.seat.table is not None else self.seat.name
        opening = f"Game {name!r}, season {self.state.season}."  # kept in its place
        lines, standins = told_beside(self.seat)  # a shared table's journal: the same for all
        self.query_one(LogView).tell_history(*self.seat.history(), lines, opening, standins)
        self._mark_turn()

    def _mark_turn(self) -> None:
        if self.seat.decides_here(self.state.current_player):  # the log marks what others did
            self.query_one(LogView).turn_of(self.state)

    # ---------------------------------------------------------------- keys (up)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that apply now are active and shown in the keys bar."""
        parameter = parameters[0] if parameters else None
        if action == "coaching_off":
            return self.coach is not None and self.coach.on
        return drafting.allows(action, parameter, self.mode, self.seat)

    def on_key(self, event: events.Key) -> None:
        """An action key with nothing legal behind it says why (its binding is disabled)."""
        key = event.key
        usable = decisions.usable_keys(self.legal)
        if key in drafting.ACTION_KEYS and self.mode is Mode.CHOOSE and key not in usable:
            event.stop()
            self.action_press(key)
        elif key == "u" and not self.seat.can_undo():
            event.stop()
            self.action_undo()  # the seat says why not (at a shared table, its rule)

    def step(self, outcome: Draft | core.Action | Refusal) -> None:
        """Take one step of the draft: a new draft, an action to play, or a refusal."""
        if isinstance(outcome, Refusal):
            self.refuse(outcome.reason)
        elif isinstance(outcome, Draft):
            self.message, self._standing = None, False
            self.draft = outcome
            self.query_one(Board).aim(room=outcome.step == "room")
        else:
            self.decide(outcome)

    def say_wrong_key(self, words: str) -> None:
        """A key that means nothing here (the app found it so): said in the action bar,
        without the bell (a slip of the finger, not a refused move)."""
        self.refuse(words, bell=False)

    def refuse(self, reason: str, *, standing: bool = False, bell: bool = True) -> None:
        """Say why a choice is refused; the half-built action is kept. ``standing``: the
        reason is how the game or the table stands, so it goes as soon as that changes
        (see :func:`table.seat.changes_the_table`)."""
        self.message, self._standing = Text("✗ " + reason, look.CURSOR), standing
        if bell:
            self.app.bell()
        self.render_state()

    def action_press(self, key: str) -> None:
        self.step(drafting.press(self.draft, key, self.state, self.legal))
        self.query_one(RegionView).move_near(drafting.next_spaces(self.draft, self.state))

    def action_option(self, number: int) -> None:
        self.step(drafting.pick_option(self.draft, number, self.state, self.legal))

    def action_back(self) -> None:
        self.step(drafting.back(self.draft))

    @on(RegionView.SpaceChosen)
    def space_chosen(self, event: RegionView.SpaceChosen) -> None:
        if self.mode is Mode.PLACE:
            self.step(drafting.choose_space(self.draft, event.space, self.state, self.legal))

    @on(MuseumView.RoomChosen)
    def room_chosen(self, event: MuseumView.RoomChosen) -> None:
        if self.mode is Mode.ROOM:
            self.step(drafting.choose_room(self.draft, event.room))

    def action_hurry(self) -> None:
        self.seat.hurry()

    def action_log(self, key: str) -> None:
        self.query_one(LogView).scroll_by_key(key)

    # ---------------------------------------------------------------- playing

    def decide(self, action: core.Action) -> None:
        """Play a decision made here; a refusal keeps the draft as it was."""
        self._try(lambda: self.seat.play(action))

    def _try(self, request: Callable[[], object]) -> None:
        """Ask the seat; its refusal (a rule, or the seat's own reason) is said, not raised."""
        try:
            request()
        except core.IllegalActionError as exc:
            self.refuse(exc.reason)
        except SeatError as exc:  # how the game stands here, not the action
            self.refuse(str(exc), standing=True)

    def on_seat_update(self, update: Update) -> None:
        """The seat says what changed: log it, mark others' cubes, re-render, go on. Not
        before the screen is whole nor once it is going: it then shows the seat as it is."""
        if not self._shown():
            return
        if update.problem:
            self.notify(update.problem, severity="error", timeout=8, markup=False)
        if self._standing and changes_the_table(update):
            self.message, self._standing = None, False  # what it said may no longer hold
        log, before = self.query_one(LogView), update.before
        if update.kind == "rewound":  # the journal's lines are in the log rebuilt
            self.recent = recent_in(*self.seat.history(), self.mine)
            self._log_history()
        elif before is not None and update.action is not None:
            log.tell_action(before, update.action, update.events, update.state, update.standin)
            # Others' cubes since this terminal's last turn stay marked: every reply shows.
            self.recent = next_recent(self.recent, before, self.state, self.mine)
            self._mark_turn()
            if self.seat.table is not None:
                self.post_message(TablePlayed(self.seat.table.info.id))
        if update.kind != "rewound":
            for line in update.lines:
                log.tell_line(line)
        if update.note:
            log.tell_line(TableLine(len(self.seat.history()[1]), time.time(), update.note))
        if update.refusal:
            self.refuse(update.refusal, standing=True)
        if update.kind == "status":  # a half-built action survives a word changing
            self.render_state()
        else:
            self.step(IDLE)
        self.refresh_bindings()
        if before is not None and (self.state.season != before.season or core.is_over(self.state)):
            self.show_summary(before)

    def show_summary(self, before: core.GameState) -> None:
        """End of a season (or of the game): the summary over the board. At a shared table
        the game goes on under a summary nobody here must answer, so the one still up (or
        still stacked under a dialog) is out of date: it goes first, never to come back
        once the final scores are closed."""
        from tui.screens.summary import SeasonSummaryScreen

        for screen in reversed(self.app.screen_stack):  # the one in front first
            if isinstance(screen, SeasonSummaryScreen):
                screen.supersede()
        if core.is_over(self.state):
            self.action_final()
        else:
            nobody_here = not any(map(self.seat.decides_here, range(self.state.player_count)))
            # Someone else decides at a shared table: the board stays in view above it.
            elsewhere = self.seat.table is not None and not self.seat.decides_here(
                self.state.current_player
            )
            summary = SeasonSummaryScreen(
                self.seat.history()[0], before.season, auto_continue=nobody_here, docked=elsewhere
            )
            self.app.push_screen(summary)

    def action_final(self) -> None:
        from tui.screens.summary import FinalScreen

        self.app.push_screen(FinalScreen(self.seat))

    # ---------------------------------------------------------------- undo, hint

    def action_undo(self) -> None:
        self._try(self.seat.undo)

    def action_redo(self) -> None:
        self._try(self.seat.redo)

    def action_take_over(self) -> None:
        elsewhere = self.seat.elsewhere
        if elsewhere is not None:  # else the key is not offered
            self._try(elsewhere.take_over)

    def action_hint(self) -> None:
        """What the hard computer player would do here, without playing it (in a thread);
        refused at a shared table created without hints (the status line says which)."""
        table = self.seat.table
        if table is not None and not table.info.hints:
            self.refuse("Hints are off at this table (set when it was created).")
            return
        self.message = Text("Hint: thinking…", look.DIM)
        self.render_state()
        self._find_hint(self.state)

    @work(thread=True, group="hint", exclusive=True)
    def _find_hint(self, state: core.GameState) -> None:
        words = drafting.hint_words(state, self._hint_stop.is_set)
        self.app.call_from_thread(self._show_hint, state, words)

    def _show_hint(self, state: core.GameState, words: str) -> None:
        if state is self.state and self.draft.step == "idle":
            self.message = Text(words, look.RECENT)
            self.render_state()
