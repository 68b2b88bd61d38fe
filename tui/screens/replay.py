"""The replay screen: step through a saved or finished game, action by action.

The board (the region and the players) shows the position after the highlighted action of
the log; both move together. Nothing is written: replay reads the session's states only.
The region is drawn by the game's own `RegionView`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static

import core
from table.seat import ChatLine
from tui import look
from tui.widgets.keys import KeysBar
from tui.widgets.region import RegionPicture, RegionView

if TYPE_CHECKING:
    import saves

PHASES = {core.Phase.EXCAVATION: "excavation", core.Phase.SURVEY: "survey",
          core.Phase.OVER: "game over"}  # fmt: skip


def describe(state: core.GameState, action: core.Action) -> str:
    """The action in words as played in ``state`` (its notation if that fails)."""
    from core.explain import describe_action

    try:
        return describe_action(state, action)
    except (ValueError, IndexError, KeyError):
        return core.format_action(action)


def players_text(state: core.GameState) -> Text:
    """A small table of the players: points (final totals once over), stock (Stk), reserve
    (Res) and Museum rooms; ``>`` marks who decides, ``passed`` who has passed this season."""
    over = core.is_over(state)
    totals = [p.total for p in core.final_scores(state).players] if over else None
    text = Text(f"    {'Player':<10} {'Total' if over else 'Pts':>5} Stk Res Rooms\n", "dim")
    for seat, player in enumerate(state.players):
        marker = ">" if state.current_player == seat else " "
        points = totals[seat] if totals is not None else player.score
        rooms = sum(1 for holder in state.museum if holder == seat)
        excavating = state.phase == core.Phase.EXCAVATION
        passed = " passed" if excavating and state.has_passed(seat) else ""
        line = (
            f"{marker} {player.colour.letter} {look.pad(player.name, 10)} {points:>5} "
            f"{player.stock:>3} {player.reserve:>3} {rooms:>5}{passed}"
        )
        text.append(line + "\n", style="bold" if marker == ">" else "")
    if over:
        winners = core.final_scores(state).winners
        text.append("Won by " + " & ".join(state.players[s].name for s in winners), "bold")
    return text


class ReplayScreen(Screen[None]):
    """A game's log beside its board; ←/→ step one action, Home/End jump, Esc goes back."""

    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    ReplayScreen #replay-status { height: 1; background: $panel; text-style: bold; }
    ReplayScreen #replay-body { height: 1fr; }
    ReplayScreen #replay-board { width: auto; min-width: 42; margin-right: 1; }
    ReplayScreen #replay-region { margin-bottom: 1; }
    ReplayScreen #replay-players { height: auto; }
    ReplayScreen #replay-log { width: 1fr; height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h,up,k", "step(-1)", "Back", key_display="←"),
        Binding("right,l,down,j", "step(1)", "Forward", key_display="→"),
        Binding("home,g", "jump(0)", "Start"),
        Binding("end,G", "jump(-1)", "End"),
        Binding("escape,q", "close", "Close"),
    ]

    def __init__(
        self,
        source: saves.Session | tuple[Sequence[core.GameState], Sequence[core.Action]],
        *,
        title: str | None = None,
        start: int = 0,
        chat: Sequence[ChatLine] = (),
    ) -> None:
        """Replay a session, or ``(states, actions)`` with one more state than actions.
        ``start`` is the number of actions played at first (negative: from the end);
        ``chat``, a shared table's, is listed after the moves."""
        super().__init__()
        self.chat = chat
        if isinstance(source, tuple):
            states, actions = list(source[0]), list(source[1])
            self.game_title = title or "Replay"
        else:
            states, actions = source.states(), list(source.actions)
            self.game_title = title or source.title
        if len(states) != len(actions) + 1:
            raise ValueError("a replay needs one more state than actions")
        self.states = states
        self.actions = actions
        self.position = self._clamp(start)
        """How many actions have been played in the position shown."""

    def _clamp(self, position: int) -> int:
        if position < 0:
            position += len(self.states)
        return min(max(position, 0), len(self.actions))

    def compose(self) -> ComposeResult:
        yield Static(id="replay-status", markup=False)
        with Horizontal(id="replay-body"):
            with Vertical(id="replay-board"):
                region = RegionView(RegionPicture(self.state), id="replay-region")
                region.can_focus = False  # its arrows move a placement cursor; here they step
                yield region
                yield Static(id="replay-players")
            log = OptionList(*self._log_lines(), id="replay-log")
            log.can_focus = False
            yield log
        yield KeysBar()

    def _log_lines(self) -> list[Text]:
        # Text, not str: an option's string is read as markup, and names are the players'.
        moves = [
            Text(f"{number}. {describe(state, action)}")
            for number, (state, action) in enumerate(
                zip(self.states[:-1], self.actions, strict=True), start=1
            )
        ]
        said = [
            Text(f"» {line.name}{' (watching)' if line.spectator else ''}: {line.text}")
            for line in self.chat
        ]
        return moves + said

    def on_mount(self) -> None:
        self.show()

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
        """Clicking a line of the log shows the position after that action."""
        self.go_to(event.option_index + 1)

    def action_close(self) -> None:
        self.dismiss(None)

    # ---------------------------------------------------------------- rendering

    @property
    def state(self) -> core.GameState:
        """The position shown."""
        return self.states[self.position]

    def show(self) -> None:
        """Put the board and the log in step with ``position``."""
        state = self.state
        self.query_one("#replay-status", Static).update(self._status(state))
        self.query_one("#replay-region", RegionView).picture = RegionPicture(state)
        self.query_one("#replay-players", Static).update(players_text(state))
        log = self.query_one(OptionList)
        log.highlighted = self.position - 1 if self.position else None
        if self.position:
            log.scroll_to_highlight()

    def _status(self, state: core.GameState) -> str:
        where = f"season {state.season}, {PHASES[state.phase]}"
        return f"Replay · action {self.position}/{len(self.actions)} · {where} · {self.game_title}"
