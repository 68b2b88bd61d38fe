"""The game screen: the region, players, passing scale, Museum, log and the action bar.

State flows down: the screen holds the `saves.Session` (whose `.state` is the one current
GameState) and hands each widget what it renders. Intents flow up: the region posts
`SpaceChosen`, the Museum `RoomChosen`; keys pick action kinds and options. The screen
turns a completed intent into an Action, applies it through the session (core checks it;
the session autosaves) and re-renders. Computer seats play in a worker thread.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

import core
from core.region import WIDTH, spaces_of
from tui import decisions, look, placement, prompts
from tui.widgets.actionbar import ActionBar, StatusLine
from tui.widgets.keys import KeysBar
from tui.widgets.log import LogView
from tui.widgets.museum import MuseumView
from tui.widgets.passing import PassingView
from tui.widgets.players import PlayersView
from tui.widgets.region import RegionPicture, RegionView

if TYPE_CHECKING:
    import saves

ROOMY_WIDTH = 110
"""From this terminal width on, the region uses wider cells."""

ACTION_KEYS = ("a", "b", "p", "v", "l", "s", "k", "t", "n", "m", "x")
DROPPABLE_KEYS = frozenset({"kind", "pass_turn", "brown", "neutral_skip", "option"})
"""Key-bar entries left out first on a narrow terminal: the action bar lists these keys."""


def refusal_words(exc: ValueError) -> str:
    """What a player reads of core's refusal: the reason alone, without the notation."""
    return getattr(exc, "reason", None) or str(exc)


class GameScreen(Screen[None]):
    """One game in progress (or finished: the board stays visible under the final scores)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "kind('a')", "Start"),
        Binding("b", "kind('b')", "Extend"),
        Binding("p", "pass_turn", "Pass"),
        Binding("v", "kind('v')", "Violet"),
        Binding("l", "kind('l')", "Lemon"),
        Binding("s", "brown", "Brown"),
        Binding("k", "kind('k')", "Blackmore"),
        Binding("t", "kind('t')", "Tangerine"),
        Binding("n", "kind('n')", "Neutral 1"),
        Binding("m", "kind('m')", "Neutral 2"),
        Binding("x", "neutral_skip", "No neutral"),
        *[Binding(str(i), f"option({i})", "Choose", show=i == 1, key_display="1-9")
          for i in range(1, 10)],
        Binding("escape", "back", "Back"),
        Binding("space,enter", "skip_pause", "Skip pause", show=False),
        Binding("u", "undo", "Undo"),
        Binding("U,ctrl+r", "redo", "Redo"),
        Binding("ctrl+s", "save_as", "Save as"),
        Binding("o", "load", "Load…", show=False),
        Binding("f", "final", "Scores"),
        Binding("slash", "hint", "Hint"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
    ]  # fmt: skip

    def __init__(self, session: saves.Session, *, pause: float = 0.4) -> None:
        super().__init__()
        self.session = session
        self.pause = pause
        """Seconds between computer moves so people can follow (0 in tests)."""
        self.kind: placement.Kind | None = None
        self.placed: tuple[int, ...] = ()
        self.variant_key: str | None = None
        """'v' or 'l' pressed while both its A and B forms are legal: a or b picks."""
        self.room_type: type | None = None
        """core.Brown or core.BookRoom while the Museum cursor is choosing a room."""
        self.message: Text | None = None
        self.thinking = False
        self.recent: frozenset[int] = frozenset()
        """Spaces of the cubes the last computer move placed, highlighted until the next one."""
        self._generation = 0
        self._skip = threading.Event()
        self._bots: dict[int, object] = {}
        self._legal_for: core.GameState | None = None
        self._legal: tuple[core.Action, ...] = ()
        self._usable: list[str] = []

    # ---------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        state = self.state
        yield StatusLine(id="status")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield RegionView(RegionPicture(state), id="region")
                yield LogView(id="log")
            with Vertical(id="right"):
                yield PlayersView(state, id="players")
                yield PassingView(state, id="passing")
                yield MuseumView(state, id="museum")
        yield ActionBar(id="actions")
        yield KeysBar(DROPPABLE_KEYS)

    def on_mount(self) -> None:
        self.query_one(RegionView).set_roomy(self.app.size.width >= ROOMY_WIDTH)
        self.render_state()
        self.call_after_refresh(self._log_opening)  # not needed for the first frame
        self.query_one(RegionView).focus()
        self.call_after_refresh(self.next_turn)

    def _log_history(self, count: int = 30) -> None:
        """The log rebuilt from the session's last ``count`` actions, worded as when they
        were played (core's events, automatic steps included), so it always matches the
        board: on opening a game, and after undo or redo."""
        states, actions = self.session.states(), self.session.actions
        self.query_one(LogView).clear()
        for index in range(max(0, len(actions) - count), len(actions)):
            self._log_events(states[index], actions[index])

    def _log_opening(self) -> None:
        self._log_history()
        self.log_line(f"Game {self.session.name!r}, season {self.state.season}.")

    def _log_events(self, before: core.GameState, action: core.Action) -> None:
        try:
            _after, events = core.apply_action_with_events(before, action)
        except (core.IllegalActionError, core.MalformedActionError):
            events = []  # the session replayed it already: cannot happen, words are enough
        for event in events or [core.Event(core.format_action(action), before.current)]:
            self.log_line(event.text, event.seat)

    def on_resize(self) -> None:
        self.query_one(RegionView).set_roomy(self.app.size.width >= ROOMY_WIDTH)

    # ---------------------------------------------------------------- state

    @property
    def state(self) -> core.GameState:
        return self.session.state

    @property
    def legal(self) -> tuple[core.Action, ...]:
        """core.legal_actions of the current state (cached per state)."""
        if self._legal_for is not self.state:
            self._legal_for, self._legal = self.state, core.legal_actions(self.state)
            self._usable = decisions.usable_keys(self._legal)
        return self._legal

    @property
    def usable_keys(self) -> list[str]:
        """The action keys with a legal action behind them (cached with ``legal``)."""
        _ = self.legal
        return self._usable

    @property
    def human_to_play(self) -> bool:
        seat = self.state.current_player
        return seat is not None and not self.session.is_computer(seat) and not self.thinking

    @property
    def mode(self) -> str:
        """choose, variant, place, room, survey, computer or over."""
        if core.is_over(self.state):
            return "over"
        if not self.human_to_play:
            return "computer"
        if self.room_type is not None:
            return "room"
        if self.kind is not None:
            return "place"
        if self.variant_key is not None:
            return "variant"
        if self.state.phase is core.Phase.SURVEY:
            return "survey"
        return "choose"

    # ---------------------------------------------------------------- rendering (down)

    def render_state(self) -> None:
        """Hand every widget what it shows, from the session's state and the half-built
        action; refresh the keys bar."""
        state = self.state
        mode = self.mode
        legal_spaces: frozenset[int] = frozenset()
        if mode == "place" and self.kind is not None:
            legal_spaces = frozenset(placement.next_spaces(self.legal, self.kind, self.placed))
        region = self.query_one(RegionView)
        region.picture = RegionPicture(
            state, legal_spaces, self.placed, mode == "place", self.recent
        )
        rooms: frozenset[int] = frozenset()
        if mode == "room" and self.room_type is not None:
            rooms = decisions.rooms_for(self.legal, self.room_type)
        self.query_one(MuseumView).show(state, rooms)
        self.query_one(PlayersView).state = state
        self.query_one(PassingView).state = state
        session = self.session
        self.query_one(StatusLine).show(
            prompts.status_line(state, session.is_computer, session.unsaved)
        )
        prompt, options = prompts.decision(
            state, self.legal, mode, prompts.Building(
                self.kind, self.placed, self.variant_key, self.room_type, len(legal_spaces)
            ),
        )  # fmt: skip
        self.query_one(ActionBar).show(prompt, options if self.message is None else self.message)
        self.refresh_bindings()

    def log_line(self, text: str, seat: int | None = None) -> None:
        line = Text()
        if seat is not None and seat >= 0:
            line.append(look.seat_letter(self.state, seat) + " ", look.seat_style(self.state, seat))
        line.append(text)
        self.query_one(LogView).add(line)

    def refuse(self, reason: str) -> None:
        """Say why a choice is refused; the half-built action is kept."""
        self.message = Text("✗ " + reason, look.CURSOR)
        self.app.bell()
        self.render_state()

    # ---------------------------------------------------------------- keys (up)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that apply now are active and shown in the keys bar."""
        mode = self.mode
        if action == "kind":
            key = str(parameters[0])
            if mode == "variant":
                return key in ("a", "b")
            return mode == "choose" and key in self.usable_keys
        if action in ("pass_turn", "brown", "neutral_skip"):
            key = {"pass_turn": "p", "brown": "s", "neutral_skip": "x"}[action]
            return mode == "choose" and key in self.usable_keys
        if action == "option":
            return mode == "survey" and int(str(parameters[0])) <= len(
                decisions.survey_options(self.state, self.legal)
            )
        if action == "back":
            return mode in ("place", "room", "variant")
        if action == "skip_pause":
            return mode == "computer"
        if action == "undo":
            return mode != "computer" and self.session.can_undo()
        if action == "redo":
            return mode != "computer" and self.session.can_redo()
        if action == "final":
            return mode == "over"
        if action == "hint":
            return mode in ("choose", "survey")
        return True

    def on_key(self, event) -> None:
        """An action key that leads to nothing legal now says why (the bindings handle the
        usable ones)."""
        key = event.key
        if key in ACTION_KEYS and self.mode == "choose" and (key not in self.usable_keys):
            event.stop()
            self.refuse(decisions.why_not(self.state, key))

    def action_kind(self, key: str) -> None:
        if self.variant_key is not None:
            kinds = placement.kinds_for_key(self.legal, self.variant_key)
            self.variant_key = None
            self._start_placing(next(k for k in kinds if (k.cubes == 1) == (key == "a")))
            return
        kinds = placement.kinds_for_key(self.legal, key)
        if len(kinds) > 1:
            self.variant_key = key
            self.message = None
            self.render_state()
        elif kinds:
            self._start_placing(kinds[0])

    def _start_placing(self, kind: placement.Kind) -> None:
        self.kind, self.placed, self.message = kind, (), None
        self._cursor_to_legal()
        self.render_state()

    def _cursor_to_legal(self) -> None:
        """Put the cursor on the nearest legal space if it is not on one already."""
        if self.kind is None:
            return
        spaces = placement.next_spaces(self.legal, self.kind, self.placed)
        region = self.query_one(RegionView)
        if spaces and region.cursor not in spaces:
            row, col = divmod(region.cursor, WIDTH)

            def distance(s: int) -> tuple[int, int]:
                return abs(s // WIDTH - row) + abs(s % WIDTH - col), s

            region.move_cursor(min(spaces, key=distance))

    def action_pass_turn(self) -> None:
        self.decide(core.Pass())

    def action_neutral_skip(self) -> None:
        self.decide(core.NeutralSkip())

    def action_brown(self) -> None:
        self.room_type, self.message = core.Brown, None
        self.render_state()
        self.query_one(MuseumView).focus()

    def action_option(self, number: int) -> None:
        options = decisions.survey_options(self.state, self.legal)
        if not 1 <= number <= len(options):
            return
        option = options[number - 1]
        if option.action is not None:
            self.decide(option.action)
            return
        self.room_type, self.message = core.BookRoom, None
        self.render_state()
        self.query_one(MuseumView).focus()

    def action_back(self) -> None:
        """Esc: take back the last cube placed, else leave the half-built action."""
        self.message = None
        if self.placed:
            self.placed = self.placed[:-1]
        elif self.kind is not None:
            self.kind = None
        elif self.room_type is not None:
            self.room_type = None
            self.query_one(RegionView).focus()
        else:
            self.variant_key = None
        self.render_state()

    @on(RegionView.SpaceChosen)
    def space_chosen(self, event: RegionView.SpaceChosen) -> None:
        kind = self.kind
        if kind is None or self.mode != "place":
            return
        space = event.space
        if space not in placement.next_spaces(self.legal, kind, self.placed):
            self.refuse(placement.refusal(self.state, kind, self.placed, space))
            return
        placed = (*self.placed, space)
        if len(placed) < kind.cubes:
            # The cursor stays on the cube just placed: arrows go on from there.
            self.placed, self.message = placed, None
            self.render_state()
            return
        self.decide(kind.build(placed))

    @on(MuseumView.RoomChosen)
    def room_chosen(self, event: MuseumView.RoomChosen) -> None:
        if self.room_type is None or self.mode != "room":
            return
        self.decide(self.room_type(event.room))

    def action_skip_pause(self) -> None:
        self._skip.set()

    # ---------------------------------------------------------------- applying

    def decide(self, action: core.Action) -> None:
        """Apply a human decision through the session; a refusal keeps everything as it was."""
        try:
            core.apply_action(self.state, action)  # check first: a refusal changes nothing
        except (core.IllegalActionError, core.MalformedActionError) as exc:
            self.refuse(refusal_words(exc))
            return
        self.apply(action)

    def apply(self, action: core.Action) -> None:
        """Play ``action`` (already known legal), log what happened, then go on."""
        import saves

        before = self.state
        try:
            events = self.session.apply(action)
        except saves.SaveError as exc:
            events = []
            self.notify(str(exc), title="Not saved", severity="error", timeout=8)
        except (core.IllegalActionError, core.MalformedActionError) as exc:
            self.refuse(refusal_words(exc))
            return
        for event in events or [core.Event(core.format_action(action), before.current)]:
            self.log_line(event.text, event.seat)
        self._reset_ui()
        # The computers' cubes since the last human decision stay marked, so a human
        # sees every reply, not just the last one.
        if self.session.is_computer(before.current):
            self.recent = _new_cubes(before, self.state) | (
                self.recent if self.state.season == before.season else frozenset()
            )
        else:
            self.recent = frozenset()
        self.render_state()
        if self.state.season != before.season or core.is_over(self.state):
            self.show_summary(before)
        else:
            self.next_turn()

    def _reset_ui(self) -> None:
        self.kind, self.placed, self.variant_key, self.room_type = None, (), None, None
        self.message = None
        region = self.query_one(RegionView)
        if self.focused is not region:
            region.focus()

    def show_summary(self, before: core.GameState) -> None:
        """End of a season (or of the game): the summary, then play on."""
        from tui.screens.summary import FinalScreen, SeasonSummaryScreen

        if core.is_over(self.state):
            self.app.push_screen(FinalScreen(self.session))
            return
        start = self._season_start(before.season)
        self.app.push_screen(
            SeasonSummaryScreen(start, self.state, before.season), lambda _: self.next_turn()
        )

    def _season_start(self, season: int) -> core.GameState:
        for state in self.session.states():
            if state.season == season:
                return state
        return self.state

    def action_final(self) -> None:
        from tui.screens.summary import FinalScreen

        self.app.push_screen(FinalScreen(self.session))

    # ---------------------------------------------------------------- computer turns

    def next_turn(self) -> None:
        """Start a computer move if a computer seat decides now."""
        seat = self.state.current_player
        if seat is None or not self.session.is_computer(seat) or self.thinking:
            return
        self.thinking = True
        self._skip.clear()
        self.render_state()
        self._computer_move(self.state, self._generation, self._bot(seat))

    def _bot(self, seat: int):
        if seat not in self._bots:
            from core.ai import make_bot

            level = self.session.seat_level(seat) or "normal"
            self._bots[seat] = make_bot(level, seed=self.session.seed * 8 + seat)
        return self._bots[seat]

    @work(thread=True, group="computer")
    def _computer_move(self, state: core.GameState, generation: int, bot) -> None:
        """In a thread: choose, wait the short pause (skippable), hand the move back."""
        started = time.monotonic()
        action = bot.choose(state)
        wait = self.pause - (time.monotonic() - started)
        if wait > 0:
            self._skip.wait(wait)
        self.app.call_from_thread(self._computer_chose, state, generation, action)

    def on_unmount(self) -> None:
        self.stop_computer()

    def on_screen_resume(self) -> None:
        """Back on top (after help, a dialog, loading cancelled): play on if a computer
        seat was left waiting."""
        if self.is_mounted:
            self.next_turn()

    def action_load(self) -> None:
        """Open another saved game (this one is saved already)."""
        self.stop_computer()
        self.thinking = False
        open_load = getattr(self.app, "open_load", None)
        if open_load is not None:
            open_load()

    def stop_computer(self) -> None:
        """Forget any computer move under way (the screen is being left)."""
        self._generation += 1
        self._skip.set()

    def _computer_chose(self, state: core.GameState, generation: int, action: core.Action) -> None:
        self.thinking = False
        if generation != self._generation or state is not self.state:
            return  # undone or replaced meanwhile
        self.apply(action)

    # ---------------------------------------------------------------- undo, saving, leaving

    def action_undo(self) -> None:
        self.session.undo()
        self._after_history("Undone: back to your last decision.")

    def action_redo(self) -> None:
        self.session.redo()
        self._after_history("Redone.")

    def _after_history(self, words: str) -> None:
        self._generation += 1
        self.thinking = False
        self.recent = frozenset()
        self._reset_ui()
        self._log_history()
        self.log_line(words)
        self.render_state()
        self.next_turn()

    def action_save_as(self) -> None:
        from tui.screens.dialogs import SaveAsScreen

        def save(name: str | None) -> None:
            import saves

            if not name:
                return
            try:
                self.session.save_as(name)
            except saves.SaveError as exc:
                self.notify(str(exc), title="Not saved", severity="error", timeout=8)
                return
            self.notify(f"Saved as {self.session.name!r}.")

        self.app.push_screen(SaveAsScreen(self.session.name), save)

    def action_hint(self) -> None:
        """What the hard computer player would do here, without playing it (in a thread)."""
        self.message = Text("Hint: thinking…", look.DIM)
        self.render_state()
        self._find_hint(self.state, self._generation)

    @work(thread=True, group="hint", exclusive=True)
    def _find_hint(self, state: core.GameState, generation: int) -> None:
        from core.ai import hint
        from core.explain import describe_action

        action = hint(state, seed=self.session.seed)
        words = "Hint: " + describe_action(state, action).split(" ", 1)[1]
        self.app.call_from_thread(self._show_hint, state, generation, words)

    def _show_hint(self, state: core.GameState, generation: int, words: str) -> None:
        if state is self.state and generation == self._generation:
            self.message = Text(words, look.RECENT)
            self.render_state()

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_quit_game(self) -> None:
        from tui.screens.dialogs import ConfirmScreen

        def leave(yes: bool | None) -> None:
            if yes:
                self._generation += 1
                self.app.exit()

        saved = "" if self.session.unsaved else f" The game is saved as {self.session.name!r}."
        self.app.push_screen(ConfirmScreen(f"Quit the game?{saved}"), leave)


def _new_cubes(before: core.GameState, after: core.GameState) -> frozenset[int]:
    """Spaces holding a cube in ``after`` that were empty in ``before`` (same season)."""
    if after.season != before.season or len(after.cubes) != len(before.cubes):
        return frozenset()
    new = 0
    for old, now in zip(before.cubes, after.cubes, strict=True):
        new |= now & ~old
    return frozenset(spaces_of(new))
