"""End-of-season summary and the final scores with their breakdown and the tie-break, each
with pictures: the points after each season as bars and, at the end, where each player's
points came from. From the final scores, ``r`` replays the game and ``a`` opens the
computer's analysis of it (where the app can get one: see :meth:`FinalScreen.on_mount`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

import core
from tui import charts, look
from tui.messages import NewGameRequested, ReplayRequested, TablesRequested
from tui.widgets.keys import KeysBar
from tui.widgets.scores import SeasonChart, SourceBars

if TYPE_CHECKING:
    from table.analysis import AnalysisSource
    from table.seat import GameSeat


def _player_cell(state: core.GameState, seat: int) -> Text:
    player = state.players[seat]
    text = Text(f"{player.colour.letter} ", look.player_style(player.colour))
    text.append(player.name)
    return text


def _cards_words(cards: tuple[int, ...]) -> str:
    return " ".join(look.card_cartouche(c).strip() for c in cards) or "–"


AUTO_CONTINUE = 5
"""Seconds a season summary stays up on its own when nobody at this screen plays (only
computers, or watching): long enough to read the points, short enough not to stall."""


class SeasonSummaryScreen(ModalScreen[None]):
    """What each player got this season: points, parcels (as cartouches), Museum rooms.

    With ``auto_continue`` (nobody here has a decision to make) it closes by itself after
    :data:`AUTO_CONTINUE` seconds, counting down on screen; any other key than Enter pauses
    the count so the table can be read at leisure. Its keys stay on its last line, however
    little of the rest fits (at 80×24 with four players the chart scrolls). ``docked``
    (someone else decides now at a shared table): the points only, in a short box at the
    bottom, so the board stays in view while the game goes on under it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", "Continue"),
    ]

    def __init__(
        self,
        states: Sequence[core.GameState],
        season: int,
        *,
        auto_continue: bool = False,
        docked: bool = False,
    ) -> None:
        """The summary of ``season`` from the game's ``states`` (the last is the position
        now, at the start of the next season)."""
        super().__init__(classes="docked" if docked else None)
        self.docked = docked
        self.states = states
        self.now, self.season = states[-1], season
        self.start = next((s for s in states if s.season == season), self.now)
        self.countdown: int | None = AUTO_CONTINUE if auto_continue else None
        self.superseded = False
        """A newer summary or the final scores replaced it (see :meth:`supersede`)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide", id="season-summary"):
            yield Static(Text(f"Season {self.season} is over", style="bold"))
            yield Static(self._table())
            yield Static(self._keys_line(), classes="keys", id="summary-keys")
            if self.docked:
                return
            yield Static(Text("Points after each season", style="bold"), classes="chart-title")
            yield SeasonChart(self.now, charts.season_columns(self.states))
            yield Static(f"Season {self.now.season} begins: new parcels are dealt.", classes="keys")

    def on_mount(self) -> None:
        if self.countdown is not None:
            self._ticker = self.set_interval(1, self._tick)

    def _keys_line(self) -> Text:
        text = Text.assemble(("Enter", "bold"), " continue")
        if self.countdown is not None:
            text.append(f" · continuing by itself in {self.countdown} s (any key pauses)", look.DIM)
        return text

    def _tick(self) -> None:
        if self.countdown is None:
            return
        self.countdown -= 1
        if self.countdown <= 0:
            self.action_close()
        else:
            self.query_one("#summary-keys", Static).update(self._keys_line())

    def on_key(self, event: events.Key) -> None:
        """Any key but the continue keys stops the countdown: the reader wants more time."""
        if self.countdown is not None and event.key not in ("enter", "space", "escape"):
            self.countdown = None
            self._ticker.stop()
            self.query_one("#summary-keys", Static).update(self._keys_line())
            if event.key not in self.active_bindings:
                event.stop()  # it paused, as the line said: not a key that did nothing

    def _table(self) -> Table:
        table = Table(box=None, padding=(0, 1), show_edge=False)
        for column in ("Player", "Points", "Total", "Parcels taken", "Rooms"):
            table.add_column(column)
        for seat in range(self.now.player_count):
            before, after = self.start.players[seat], self.now.players[seat]
            new_cards = after.cards[len(before.cards) :]
            rooms = [look.room_short(self.now.wings, r) for r in range(15)
                     if self.now.museum[r] == seat and self.start.museum[r] != seat]  # fmt: skip
            table.add_row(
                _player_cell(self.now, seat),
                f"+{after.score - before.score}",
                str(after.score),
                _cards_words(new_cards),
                ", ".join(rooms) or "–",
            )
        return table

    def supersede(self) -> None:
        """The game has moved on (another season ended, or the game): this summary closes
        now if it is in front, else the moment what covers it closes. It must never
        outlive its season: its countdown cannot close it while it is covered, which left
        an old "Season 2 is over" under the final scores."""
        self.superseded = True
        self.countdown = None
        self.action_close()

    def on_screen_resume(self) -> None:
        if self.superseded:
            self.call_later(self.action_close)

    def action_close(self) -> None:
        if self.is_active:  # the countdown and Enter may both ask; a covered one waits
            self.dismiss(None)


class FinalScreen(Screen[None]):
    """Final scores: parcels, exhibition per patron with the room that set the value,
    series, total, winner, and the tie-break in words when it was used."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "See the board"),
        Binding("n", "new_game", "New game"),
        Binding("n", "tables", "Tables"),
        Binding("r", "replay", "Replay"),
        Binding("a", "analyse", "Analyse"),
        Binding("down,pagedown", "scroll(1)", "Scroll", key_display="↓↑"),
        Binding("up,pageup", "scroll(-1)", "Scroll", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, seat: GameSeat) -> None:
        super().__init__()
        self.seat = seat
        self.state = seat.state
        self.analysis: AnalysisSource | None = None
        """Where ``a`` gets the game's analysis (None: ``a`` is not offered)."""

    def on_mount(self) -> None:
        """The analysis comes from the app, which knows what kind of game the seat plays:
        its ``analysis_for(seat)`` (see :class:`tui.local_games.LocalGames`)."""
        finder = getattr(self.app, "analysis_for", None)
        self.analysis = finder(self.seat) if finder is not None else None
        self.refresh_bindings()

    @property
    def viewer(self) -> int | None:
        from tui.screens.analysis import viewer_of

        return viewer_of(self.seat.decides_here, self.state.player_count)

    def compose(self) -> ComposeResult:
        scores = core.final_scores(self.state)
        with VerticalScroll(id="final", can_focus=False):  # the screen's keys scroll it
            yield Static(Text("Final scores", style="bold"))
            yield Static(self._verdict(scores), id="verdict")
            yield Static(Text("Where the points came from", style="bold"), classes="chart-title")
            yield SourceBars(self.state)
            yield Static(charts.source_legend())
            yield Static(Text("Points after each season", style="bold"), classes="chart-title")
            yield SeasonChart(self.state, charts.season_columns(self.seat.history()[0]))
            yield Static(Text("In detail", style="bold"), classes="chart-title")
            yield Static(self._table(scores))
            yield Static(
                Text(
                    "Exhibition: points = cards × value of the best room held for the "
                    "patron's wing (the room below: its 5-, 3- or a 2-room beside it; "
                    "–: none, value 1).",
                    look.DIM,
                )
            )
        yield KeysBar()

    def _table(self, scores: core.FinalScores) -> Table:
        table = Table(box=None, padding=(0, 1, 0, 0), show_edge=False)
        table.add_column("Player", no_wrap=True)
        table.add_column("Parcels", justify="right", no_wrap=True)
        for patron in core.Patron:
            title = Text(patron.name.title(), look.patron_style(patron))
            table.add_column(title, justify="right", style=look.patron_style(patron), no_wrap=True)
        table.add_column("Series", justify="right", no_wrap=True)
        table.add_column("Total", justify="right", style="bold", no_wrap=True)
        for score in sorted(scores.players, key=lambda s: -s.total):
            table.add_row(
                _player_cell(self.state, score.seat),
                str(score.parcels),
                *[self._exhibit(score, patron) for patron in core.Patron],
                f"{score.series}\n{score.series_count}×5" if score.series_count else "0",
                str(score.total),
            )
        return table

    def _exhibit(self, score: core.PlayerScore, patron: core.Patron) -> str:
        points = score.exhibition[patron]
        value = score.room_values[patron]
        cards = points // value if value else 0
        room = score.rooms[patron]
        where = f"{core.museum.room_points(room)}-room" if room is not None else "–"
        return f"{points}={cards}×{value}\n{where}"

    def _verdict(self, scores: core.FinalScores) -> Text:
        state = self.state
        by_seat = {s.seat: s for s in scores.players}
        winners = [look.seat_name(state, seat) for seat in scores.winners]
        best = by_seat[scores.winners[0]].total
        text = Text()
        if len(winners) == 1:
            text.append(f"{winners[0]} wins with {best} points.", "bold")
        else:
            text.append(f"{' and '.join(winners)} share the win with {best} points.", "bold")
        if scores.tie_break_used:
            tied = [s for s in scores.players if s.total == best]
            stocks = ", ".join(f"{look.seat_name(state, s.seat)} {s.stock}" for s in tied)
            text.append(
                f"\nTie-break: {len(tied)} players tied at {best}; the most cubes in stock "
                f"wins ({stocks})."
            )
            if len(winners) > 1:
                text.append(" Still tied, so they share the win.")
        return text

    def action_close(self) -> None:
        self.app.pop_screen()

    def action_scroll(self, direction: int) -> None:
        final = self.query_one("#final")
        final.scroll_relative(y=direction * max(final.size.height - 2, 1), animate=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``n``: a new game after a game on this machine, the tables' lobby after a game
        at a shared table (where a new game is one more table)."""
        if action in ("new_game", "tables"):
            return (self.seat.table is not None) == (action == "tables")
        if action == "analyse":
            return self.analysis is not None
        return True

    def action_new_game(self) -> None:
        self.post_message(NewGameRequested())

    def action_tables(self) -> None:
        self.post_message(TablesRequested())

    def action_replay(self) -> None:
        """The replay, from which ``a`` opens the analysis too (when this screen has it)."""
        from table.seat import told_beside
        from tui.screens.replay import ReplayScreen

        states, actions = self.seat.history()
        lines, standins = told_beside(self.seat)
        if self.analysis is None:  # the app's usual replay (its request carries no analysis)
            self.post_message(ReplayRequested(states, actions, self.seat.title, lines, standins))
            return
        replay = ReplayScreen(
            (states, actions),
            title=self.seat.title,
            lines=lines,
            standins=standins,
            analysis=self.analysis,
            viewer=self.viewer,
        )
        self.app.push_screen(replay)

    def action_analyse(self) -> None:
        from tui.screens.analysis import AnalysisScreen

        if self.analysis is not None:
            states, actions = self.seat.history()
            screen = AnalysisScreen(
                states, actions, self.analysis, title=self.seat.title, viewer=self.viewer
            )
            self.app.push_screen(screen)

    def action_quit(self) -> None:
        self.app.exit()
