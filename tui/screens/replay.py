"""The replay screen: step through a saved or finished game, action by action.

It shows what the game screen showed at each moment, with the game screen's own widgets:
its status line and its `Board` (region and legend, players' panels with their cards,
passing scale, Museum), in which the list of the game's actions takes the place of the
game's log; the highlighted action is the last one played in the position shown. Nothing
is written: replay reads the session's states only.

Once the game is over, core has cleared the region: the board then keeps the region of
the last position that had one (the status line says so), so that the end of the game
does not show an empty board.

A shared table's game (a finished table from the lobby, an export opened from the load
list) also lists its journal as its players saw it: the chat where it was said, the
table's notes (an undo, a pause, a hand-over) where they happened, and " (computer,
normal)" after each move a computer made standing in for its player. A game played here
has none, and replays as a plain list of its actions.

Once the game is over, ``a`` opens the computer's analysis of it (when the replay was
given where to get it). From the analysis, a turning point replays the game at that
moment with the better move (``better``) on the board: its cubes drawn as a placement
being built is, ``(B)``, or its Museum room bracketed, and said in words above the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList, Static

import core
from saves.format import TableLine, places
from table.journal import standin_mark
from table.seat import Player
from tui import look, prompts
from tui.widgets.actionbar import StatusLine
from tui.widgets.board import Board
from tui.widgets.keys import KeysBar
from tui.widgets.log import LogView, said
from tui.widgets.region import RegionPicture, RegionView

if TYPE_CHECKING:
    import saves
    from core.analysis import Judgement
    from table.analysis import AnalysisSource

PAGE = 10
"""Actions stepped by PgUp and PgDn."""


def describe(state: core.GameState, action: core.Action) -> str:
    """The action in words as played in ``state`` (its notation if that fails)."""
    from core.explain import describe_action

    try:
        return describe_action(state, action)
    except (ValueError, IndexError, KeyError):
        return core.format_action(action)


def verdict(state: core.GameState) -> str:
    """Who won a finished game, by core's final scores (tie-break included), in the final
    scores' words: ``Ann (B) wins with 51 points`` or ``… share the win with 40 points``."""
    scores = core.final_scores(state)
    best = max(score.total for score in scores.players)
    names = [look.seat_name(state, seat) for seat in scores.winners]
    if len(names) == 1:
        return f"{names[0]} wins with {best} points"
    return f"{', '.join(names[:-1])} and {names[-1]} share the win with {best} points"


def players_of(source: saves.Session | None, state: core.GameState) -> list[Player]:
    """Who sits where, as the status line names them: a session's seats say which are
    computers; a bare list of states gives the names and colours only."""
    seats = source.seats if source is not None else []
    levels = [seat.level if seat.kind == "computer" else None for seat in seats]
    levels += [None] * (state.player_count - len(levels))
    return [
        Player(player.name, player.colour, computer=level)
        for player, level in zip(state.players, levels, strict=False)
    ]


def show_saved(screen: Screen[Any], name: str, store: saves.SaveStore) -> None:
    """Push the replay of the saved game ``name`` over ``screen``'s app, read without
    taking the game (another window may be playing it), with its analysis once it is over
    (its one human player told as "you"); a save that cannot be read is said in a notice."""
    import saves
    from tui.local_games import local_analysis
    from tui.screens.analysis import viewer_of

    try:
        session = store.watch(name)
    except saves.SaveError as exc:
        screen.notify(str(exc), title="Cannot open", severity="error", timeout=10, markup=False)
        return
    session.close()
    seats = session.seats
    viewer = viewer_of(lambda seat: seats[seat].kind == "human", len(seats))
    screen.app.push_screen(ReplayScreen(session, analysis=local_analysis(session), viewer=viewer))


GERUND = {"starts": "starting", "extends": "extending", "passes": "passing",
          "appeals": "appealing", "places": "placing", "takes": "taking", "gives": "giving",
          "books": "booking"}  # fmt: skip
"""The verbs of `core.explain`'s sentences as "Better: starting an excavation on d4"."""


def better_move(
    state: core.GameState, judgement: Judgement
) -> tuple[Text, RegionPicture, frozenset[int]]:
    """The better move of ``judgement`` in ``state`` (the position it was decided in): in
    words (``Better: starting an excavation on d4 (+3.1 expected)``), drawn on the region
    (its cubes, as a placement being built) and its Museum room (to bracket), if any. A
    survey's parcel is said in words only."""
    action = core.parse_action(judgement.best)
    words = describe(state, action).removeprefix(f"{state.players[state.current].name} ")
    verb, _, rest = words.partition(" ")
    how = "exactly" if judgement.exact else "expected"
    text = Text(no_wrap=False)
    text.append("Better: ", "bold")
    text.append(f"{GERUND.get(verb, verb)} {rest}".strip())
    text.append(f" (+{judgement.loss:.1f} {how})", "bold")
    text.append(f" · played: {judgement.played}", look.DIM)
    spaces = tuple(core.placed_spaces(action))
    rooms = (
        frozenset({action.room}) if isinstance(action, core.Brown | core.BookRoom) else frozenset()
    )
    return text, RegionPicture(state, placed=spaces), rooms


class ActionList(OptionList):
    """The replay's list of actions: it keeps the highlighted action in view when its
    height changes (the region above it may grow a row of parcels, the survey's ranking
    appear, after the scroll that :meth:`ReplayScreen.show` asked for)."""

    def on_resize(self, _event: events.Resize) -> None:
        if self.highlighted is not None:
            self.scroll_to_highlight()


class ReplayScreen(Screen[None]):
    """A game's board beside its list of actions; ←/→ step one action, PgUp/PgDn ten,
    Home/End jump, Esc goes back."""

    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    ReplayScreen #replay-status { height: 1; background: $panel; text-style: bold; }
    ReplayScreen #replay-ranking { height: 1; }
    ReplayScreen #replay-better { height: auto; max-height: 2; }
    ReplayScreen #replay-log {
        width: 100%; height: 1fr; min-height: 2; border: none; padding: 0;
        background: $background; scrollbar-size-vertical: 1;
    }
    ReplayScreen #replay-log:focus { background-tint: $foreground 0%; }
    """
    # Priority: the list of actions has the focus (so the region draws no cursor) and
    # would take the arrows, Home, End and the pages for its own highlight.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h,up,k", "step(-1)", "Back", key_display="←", priority=True),
        Binding("right,l,down,j", "step(1)", "Forward", key_display="→", priority=True),
        Binding("pagedown", f"step({PAGE})", f"{PAGE} on", key_display="PgDn", priority=True),
        Binding("pageup", f"step(-{PAGE})", f"{PAGE} back", key_display="PgUp", show=False,
                priority=True),
        Binding("home,g", "jump(0)", "Start", priority=True),
        Binding("end,G", "jump(-1)", "End", priority=True),
        Binding("a", "analyse", "Analyse"),
        Binding("escape,q", "close", "Close"),
    ]  # fmt: skip

    def __init__(
        self,
        source: saves.Session | tuple[Sequence[core.GameState], Sequence[core.Action]],
        *,
        title: str | None = None,
        start: int = 0,
        lines: Sequence[TableLine] = (),
        standins: Sequence[core.Level | None] = (),
        analysis: AnalysisSource | None = None,
        viewer: int | None = None,
        better: Judgement | None = None,
    ) -> None:
        """Replay a session, or ``(states, actions)`` with one more state than actions.
        ``start`` is the number of actions played at first (negative: from the end).
        ``lines`` and ``standins``, a shared table's (its journal's lines in its order,
        and for each action the computer that made it for its player), are listed where
        they happened; a session brings its own (an export's). ``analysis``: where ``a``
        gets the finished game's analysis (None: not offered), ``viewer`` the player at
        this terminal, told as "you" in it. ``better``: a decision judged, whose better
        move is shown while the position it was decided in is."""
        super().__init__()
        if isinstance(source, tuple):
            states, actions = list(source[0]), list(source[1])
            self.game_title = title or "Replay"
            session = None
        else:
            states, actions = source.states(), list(source.actions)
            self.game_title = title or source.title
            session = source
        if len(states) != len(actions) + 1:
            raise ValueError("a replay needs one more state than actions")
        self.states = states
        self.actions = actions
        self.lines = list(lines or (session.lines if session else ()))
        self.standins = list(standins or (session.standins if session else ()))
        self._options: list[int] = []
        """For each line of the list, the position it shows when chosen: after its action,
        or, for a line of the table's journal, after the actions played when it was said."""
        self._moves: list[int] = []
        """For each action, its line in the list."""
        self.players = players_of(session, states[0])
        self.analysis = analysis
        self.viewer = viewer
        self.better = better
        self.position = self._clamp(start)
        """How many actions have been played in the position shown."""

    def _clamp(self, position: int) -> int:
        if position < 0:
            position += len(self.states)
        return min(max(position, 0), len(self.actions))

    def compose(self) -> ComposeResult:
        yield Static(id="replay-status", markup=False)
        yield Static(id="replay-better", markup=False)
        yield StatusLine(id="status")
        yield Board(self.state, id="body")
        yield Static(id="replay-ranking", markup=False)
        yield KeysBar()

    def on_mount(self) -> None:
        """The game's log gives its place in the board to the list of actions."""
        board = self.query_one(Board)
        board.query_one(RegionView).can_focus = False  # its arrows would move a cursor
        game_log = board.query_one(LogView)
        actions = ActionList(*self._log_lines(), id="replay-log")
        column = game_log.parent
        assert isinstance(column, Widget)
        column.mount(actions, after=game_log)
        game_log.remove()
        actions.focus()
        self.show()

    def _log_lines(self) -> list[Text]:
        """The actions, numbered, with the table's lines where they were said (their
        positions kept in ``_options``, in step). Text, not str: an option's string is
        read as markup, and names and chat are the players'."""
        shown: list[Text] = []
        self._options, self._moves = [], []
        waiting = list(zip(places(self.lines, len(self.actions)), self.lines, strict=True))
        waiting.reverse()  # taken from the end: the first line first
        for index, (state, action) in enumerate(zip(self.states, self.actions, strict=False)):
            while waiting and waiting[-1][0] <= index:
                self._options.append(index)
                shown.append(said(waiting.pop()[1]))
            self._moves.append(len(shown))
            self._options.append(index + 1)
            shown.append(self._move_line(index, state, action))
        for position, line in reversed(waiting):
            self._options.append(position)
            shown.append(said(line))
        return shown

    def _move_line(self, index: int, state: core.GameState, action: core.Action) -> Text:
        text = Text(f"{index + 1}. {describe(state, action)}")
        standin = self.standins[index] if index < len(self.standins) else None
        text.append(standin_mark(standin), look.DIM)
        return text

    # ---------------------------------------------------------------- keys

    def action_step(self, delta: int) -> None:
        self.go_to(self.position + delta)

    def action_jump(self, position: int) -> None:
        """Home (0) or End (-1: after the last action)."""
        self.go_to(len(self.actions) if position < 0 else position)

    def go_to(self, position: int) -> None:
        """Show the position after ``position`` actions (kept within the game)."""
        target = min(max(position, 0), len(self.actions))
        if target != self.position:
            self.position = target
            self.show()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Clicking a line of the log shows the position after that action (a line of
        the table's journal: the position it was said in)."""
        self.position = self._options[event.option_index]
        self.show()  # the highlight goes back to the action, even at the same position

    def action_close(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "analyse":  # only a finished game, and only with a way to its analysis
            return self.analysis is not None and core.is_over(self.states[-1])
        return True

    def action_analyse(self) -> None:
        from tui.screens.analysis import AnalysisScreen

        if self.analysis is not None:
            screen = AnalysisScreen(
                self.states, self.actions, self.analysis, title=self.game_title, viewer=self.viewer
            )
            self.app.push_screen(screen)

    # ---------------------------------------------------------------- rendering

    @property
    def state(self) -> core.GameState:
        """The position shown."""
        return self.states[self.position]

    @property
    def region_state(self) -> core.GameState:
        """The position whose region is drawn: the one shown, unless core has cleared the
        region at the end of the game; then the last one that still had it."""
        for state in reversed(self.states[: self.position + 1]):
            if state.region:
                return state
        return self.state

    def show(self) -> None:
        """Put the bars, the board and the list in step with ``position``."""
        state = self.state
        self.query_one("#replay-status", Static).update(self._title())
        self.query_one(StatusLine).show(self._status(state))
        board = self.query_one(Board)
        better = self.query_one("#replay-better", Static)
        better.display = self.better is not None and self.position == self.better.index
        if self.better is not None and better.display:
            words, picture, rooms = better_move(state, self.better)
            better.update(words)
            board.show(picture, rooms)
        else:
            board.show(RegionPicture(state))
            board.query_one(RegionView).picture = RegionPicture(self.region_state)
        ranking = self.query_one("#replay-ranking", Static)
        detail = prompts.survey_ranking(state, self.size.width or 80)
        ranking.display = detail is not None
        ranking.update(detail or "")
        log = self.query_one(OptionList)
        log.highlighted = self._moves[self.position - 1] if self.position else None
        if self.position:  # once laid out: the region may have grown a row of parcels
            self.call_after_refresh(log.scroll_to_highlight)
        else:
            log.scroll_home(animate=False)  # the start: the first actions in view

    def _title(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"Replay · action {self.position}/{len(self.actions)} · ")
        text.append(self.game_title)
        return text

    def _status(self, state: core.GameState) -> Text:
        """The game screen's status line; at the end, who won instead of the deck."""
        if not core.is_over(state):
            return prompts.status_line(state, self.players, None)
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f" Season {state.season}/4 ", look.CURSOR)
        text.append(f" {verdict(state)}", "bold")
        if self.region_state is not state:
            text.append(" · region before the last action", look.DIM)
        return text
