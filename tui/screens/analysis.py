"""The computer's analysis of a finished game: each player's decisions judged in expected
final margin, the turning points in the game's words, and a chart of every player's
expected margin over the game.

The screen reads the analysis from an :class:`~table.analysis.AnalysisSource` (a game of
this machine's save, a shared table's server): what is kept with the game shows at once;
the rest is made in a thread (it takes minutes on the worker processes the source starts),
with a progress bar and the time left. Esc then stops it and keeps what is done, and a
second Esc closes; leaving the screen stops it too. A refusal (a table still being
played…) is said in words.

Enter on a turning point replays the game at that moment, before the decision, with the
better move shown on the board (:class:`tui.screens.replay.ReplayScreen`'s ``better``).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, ProgressBar, Static

import core
from core.analysis import (
    ANALYSIS_VERSION,
    BLUNDER,
    MISTAKE,
    Analysis,
    Judgement,
    decisions,
    in_words,
    summarise,
    turning_points,
)
from core.analysis.report import severity
from tui import look
from tui.widgets.keys import KeysBar
from tui.widgets.margin_chart import MarginChart

if TYPE_CHECKING:
    from table.analysis import AnalysisSource, Progress


def viewer_of(decides_here: Callable[[int], bool], players: int) -> int | None:
    """The player at this terminal: the one seat decided here, None when several (hot
    seat) or none (watching) are."""
    here = [seat for seat in range(players) if decides_here(seat)]
    return here[0] if len(here) == 1 else None


def time_left(seconds: float | None) -> str:
    """``about 40 s left``, ``about 3 min left``; before a first judgement gives a pace,
    ``working out the time left``."""
    if seconds is None:
        return "working out the time left"
    if seconds < 90:
        return f"about {max(round(seconds), 1)} s left"
    return f"about {round(seconds / 60)} min left"


def usable(kept: Analysis | None) -> Analysis | None:
    """What is kept, if it was made by this version's judge (an older one is made again,
    never shown beside new judgements)."""
    return kept if kept is not None and kept.version == ANALYSIS_VERSION else None


class AnalysisScreen(Screen[None]):
    """The report of a finished game's analysis, made (the rest of it) while it shows."""

    DEFAULT_CSS = """
    AnalysisScreen { layout: vertical; }
    AnalysisScreen #analysis-title { height: 1; background: $panel; text-style: bold; }
    AnalysisScreen #analysis-progress { height: auto; padding: 0 1; }
    AnalysisScreen #analysis-report { height: 1fr; padding: 0 1; }
    AnalysisScreen .heading { margin-top: 1; text-style: bold; }
    AnalysisScreen #turning {
        height: auto; border: none; padding: 0; background: $background;
    }
    """
    # Priority: the list of turning points has the focus and would take Enter and the pages.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay_here", "Replay there", priority=True),
        Binding("p", "player", "Player"),
        Binding("c", "go_on", "Go on"),
        Binding("pagedown", "scroll(1)", "Scroll", key_display="PgDn", priority=True),
        Binding("pageup", "scroll(-1)", "Scroll", show=False, priority=True),
        Binding("escape", "stop", "Stop, keep what is done"),
        Binding("escape", "close", "Close"),
        Binding("q", "close_now", "Close", show=False),
    ]

    def __init__(
        self,
        states: Sequence[core.GameState],
        actions: Sequence[core.Action],
        source: AnalysisSource,
        *,
        title: str,
        viewer: int | None = None,
    ) -> None:
        """The analysis of the finished game ``states`` (one more than ``actions``) from
        ``source``; ``viewer``: the player at this terminal (told as "you"), if known."""
        super().__init__()
        self.states, self.actions = list(states), list(actions)
        self.source = source
        self.game_title = title
        self.viewer = viewer
        self.analysis: Analysis | None = None
        """What is shown: kept, then what the last run made."""
        self.running = False
        self.error: str | None = None
        self.only: int | None = None
        """The one player whose turning points and margin are shown (None: everyone)."""
        self._stop = threading.Event()
        self._closed = False
        self._shown: list[Judgement] = []
        """The turning points listed, in the list's order."""
        self.wanted = len(decisions(self.states, self.actions))
        """The decisions of everyone, all judged once the analysis is complete."""

    @property
    def players(self) -> int:
        return self.states[0].player_count

    def compose(self) -> ComposeResult:
        title = Text(f"Analysis · {self.game_title}", no_wrap=True, overflow="ellipsis")
        yield Static(title, id="analysis-title")
        with Vertical(id="analysis-progress"):
            yield ProgressBar(show_eta=True, id="bar")
            yield Static(id="progress-words", markup=False)
        with VerticalScroll(id="analysis-report", can_focus=False):  # the keys scroll it
            yield Static(id="summary")
            yield Static(id="state-words", markup=False)
            yield Static(id="turning-heading", classes="heading", markup=False)
            yield OptionList(id="turning")
            yield Static(id="chart-heading", classes="heading", markup=False)
            yield MarginChart(self.states[0], id="chart")
            yield Static(id="chart-legend")
        yield KeysBar()

    def on_mount(self) -> None:
        self.analysis = usable(self.source.kept)
        self.query_one(OptionList).focus()
        if self._complete(self.analysis):
            self.query_one("#analysis-progress").display = False
        else:
            self._start()
        self.show()
        report = self.query_one("#analysis-report")
        self.call_after_refresh(report.scroll_home, animate=False)  # not to the focused list

    def _complete(self, analysis: Analysis | None) -> bool:
        """Every decision of every player is judged."""
        return (
            analysis is not None
            and analysis.complete
            and set(range(self.players)) <= set(analysis.seats)
        )

    # ---------------------------------------------------------------- the work

    def _start(self) -> None:
        self.running, self.error = True, None
        self._stop = threading.Event()
        self.query_one("#analysis-progress").display = True
        self.query_one("#progress-words", Static).update(
            "Judging every decision of every player: Esc stops and keeps what is done"
        )
        self._analyse(self._stop)
        self.refresh_bindings()

    @work(thread=True, exclusive=True, group="analysis", exit_on_error=False)
    def _analyse(self, stop: threading.Event) -> None:
        """Run the source in this thread; everything shown goes through the event loop."""
        from table.analysis import AnalysisRefused

        def progress(done: Progress) -> None:
            self._from_thread(self._progress, done)

        try:
            analysis = self.source.run(None, progress, stop)
        except AnalysisRefused as refusal:
            self._from_thread(self._failed, str(refusal))
        except Exception as exc:  # a worker process gone, a save unwritable: said in words
            self._from_thread(self._failed, f"The analysis failed: {exc}")
        else:
            self._from_thread(self._finished, analysis)

    def _from_thread(self, callback: Callable[..., None], *args: Any) -> None:
        """``callback(*args)`` in the event loop, unless the screen is gone (or the app)."""
        if self._closed:
            return
        with contextlib.suppress(RuntimeError):  # the app ended meanwhile
            self.app.call_from_thread(callback, *args)

    def _progress(self, done: Progress) -> None:
        if self._closed or not self.running:
            return
        self.query_one(ProgressBar).update(total=max(done.total, 1), progress=done.done)
        if self._stop.is_set():
            return  # "stopping" stays until the work has stopped
        self.query_one("#progress-words", Static).update(
            f"{done.done}/{done.total} decisions · {time_left(done.left)} · "
            "Esc stops and keeps what is done"
        )

    def _finished(self, analysis: Analysis) -> None:
        if self._closed:
            return
        self.running = False
        self.analysis = usable(analysis) or self.analysis
        self.query_one("#analysis-progress").display = False
        self.show()
        self.refresh_bindings()

    def _failed(self, words: str) -> None:
        if self._closed:
            return
        self.running, self.error = False, words
        self.query_one("#analysis-progress").display = False
        self.show()
        self.refresh_bindings()

    def on_unmount(self) -> None:
        """Leaving the screen stops the work (the source's processes end with it)."""
        self._closed = True
        self._stop.set()

    # ---------------------------------------------------------------- keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop":
            return self.running and not self._stop.is_set()
        if action == "close":
            return not self.running or self._stop.is_set()
        if action == "go_on":
            return not self.running and not self._complete(self.analysis)
        if action == "replay_here":
            return bool(self._shown)
        if action == "player":
            return self.analysis is not None and self.players > 1
        return True

    def action_stop(self) -> None:
        self._stop.set()
        self.query_one("#progress-words", Static).update("Stopping: keeping what is done…")
        self.refresh_bindings()

    def action_close(self) -> None:
        self._stop.set()
        self.dismiss(None)

    def action_close_now(self) -> None:
        """q: close even while it runs (what is done is kept, as with Esc)."""
        self.action_close()

    def action_go_on(self) -> None:
        self._start()
        self.show()

    def action_player(self) -> None:
        """All players, then each one in turn, then all again."""
        self.only = 0 if self.only is None else self.only + 1
        if self.only >= self.players:
            self.only = None
        self.show()

    def action_scroll(self, direction: int) -> None:
        report = self.query_one("#analysis-report")
        report.scroll_relative(y=direction * max(report.size.height - 2, 1), animate=False)

    def action_replay_here(self) -> None:
        highlighted = self.query_one(OptionList).highlighted
        if highlighted is not None and highlighted < len(self._shown):
            self._replay(self._shown[highlighted])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A click on a turning point (Enter is the screen's own key)."""
        self._replay(self._shown[event.option_index])

    def _replay(self, judgement: Judgement) -> None:
        """The game at the moment of ``judgement``, before it, with the better move shown."""
        from tui.screens.replay import ReplayScreen

        history = (self.states, self.actions)
        self.app.push_screen(
            ReplayScreen(history, title=self.game_title, start=judgement.index, better=judgement)
        )

    # ---------------------------------------------------------------- the report

    def show(self) -> None:
        """Every part of the report in step with the analysis and the player filter."""
        judged = list(self.analysis.decisions) if self.analysis is not None else []
        self.query_one("#state-words", Static).update(self._state_words(judged))
        summary = self.query_one("#summary", Static)
        summary.display = bool(judged)
        summary.update(self._summary(judged))
        who = "all players" if self.only is None else look.seat_name(self.states[0], self.only)
        turning = turning_points(judged, self.only)
        self._shown = turning
        after = " · Enter: replay that moment" if turning else ""
        if judged and not turning:
            after = " · none: no decision judged lost anything"
        self.query_one("#turning-heading", Static).update(f"Turning points · {who}{after}")
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([self._turning_line(j) for j in turning])
        options.display = bool(turning)
        if turning:
            options.highlighted = 0
        self.query_one("#chart-heading", Static).update(
            f"Expected final margin after each decision · {who}"
        )
        seats = None if self.only is None else (self.only,)
        self.query_one(MarginChart).show(judged, seats)
        self.query_one("#chart-legend", Static).update(self._legend())
        self.refresh_bindings()

    def _state_words(self, judged: list[Judgement]) -> Text:
        """How far the analysis is, the refusal if any, and what its numbers mean."""
        lines: list[Text] = []
        if self.error is not None:
            lines.append(Text(self.error, "bold"))
        if self.source.note is not None:
            lines.append(Text(self.source.note))  # Text: a file's name is not markup
        if not judged:
            lines.append(
                Text(
                    "The report fills in when the analysis is done, or stopped with Esc."
                    if self.running
                    else "Nothing was judged."
                )
            )
        elif not self._complete(self.analysis):
            done = f"{len(judged)} of {self.wanted} decisions judged"
            lines.append(Text(done + (" so far." if self.running else "; c goes on."), "bold"))
        exact = sum(1 for j in judged if j.exact)
        if judged:
            lines.append(
                Text(
                    f"Judged exactly: {exact} of {len(judged)} (nothing hidden was left, at "
                    "the end of season 4); the others averaged over parcels redealt."
                    if exact
                    else "None judged exactly; each averaged over parcels redealt.",
                    look.DIM,
                )
            )
        lines.append(
            Text(
                f"Mistake: loses ≥ {MISTAKE:.1f} points of expected final margin (own final "
                f"score minus the best opponent's); blunder: ≥ {BLUNDER:.1f}.",
                look.DIM,
            )
        )
        return Text("\n").join(lines)

    def _summary(self, judged: list[Judgement]) -> Table:
        state = self.states[0]
        table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False)
        table.add_column("Player", no_wrap=True)
        for column in ("Decisions", "Mean loss", "Mistakes", "Blunders"):
            table.add_column(column, justify="right", no_wrap=True)
        seats = sorted({j.seat for j in judged} | set(self.analysis.seats if self.analysis else ()))
        for seat in seats:
            summary = summarise(judged, seat)
            name = Text(f"{look.seat_letter(state, seat)} ", look.seat_style(state, seat))
            name.append(look.cut(state.players[seat].name, 16))
            if seat == self.viewer:
                name.append(" (you)", look.DIM)
            table.add_row(
                name,
                str(summary.decisions),
                f"{summary.mean_loss:.2f}",
                str(summary.mistakes),
                str(summary.blunders),
            )
        return table

    def _turning_line(self, judgement: Judgement) -> Text:
        """A turning point in the game's words: Text, never markup (names are players')."""
        text = Text()
        kind = severity(judgement)
        if kind:
            text.append(f"{kind.title()} ", "bold reverse")
            text.append(" ")
        text.append(in_words(self.states, judgement, self.viewer))
        return text

    def _legend(self) -> Text:
        state = self.states[0]
        text = Text()
        for seat in range(self.players):
            if self.only is not None and seat != self.only:
                continue
            text.append(look.seat_letter(state, seat), look.seat_style(state, seat))
            text.append(f" {look.cut(state.players[seat].name, 12)}  ")
        text.append("* players meet  ─ level with the best opponent", look.DIM)
        return text
