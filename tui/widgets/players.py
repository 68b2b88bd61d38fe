"""Player panels: name, letter, score, stock, reserve, and patron cards by patron.

A seat played by a computer (a computer player, or a player's seat handed to a computer
standing in) says so in words: ``AI`` where the second line starts, so that no width is
needed for it and nothing cuts it off.

Cards show one mark each: ● untilted (usable; one won in a survey from next season on),
○ tilted (spent until the season ends). The patronless card has no power: it shows as a
plain ``*``. Once the game is over the points are the final totals (exhibition and
series included), as on the final scores.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.geometry import Size

import core
from tui import look
from tui.widgets.stateview import StateView

USABLE = "●"
TILTED = "○"
NAME_CELLS = 9
"""Terminal cells for a name (cut with … when wider): the panel keeps one line per row."""
COMPUTER_MARK = "AI "
"""Where a computer plays the seat: the second line's indent (under ``▸B ``), in words."""
INDENT = "   "


class PlayersView(StateView):
    """Two lines per player; the player deciding now is marked ▸ and bold."""

    DEFAULT_CSS = """
    PlayersView { height: auto; }
    """

    away: tuple[str | None, ...] = ()
    """Per seat, why the player is not here ("away since 14:02"), None when present: only
    at a shared table, where each player has a terminal of their own."""

    computers: tuple[bool, ...] = ()
    """Per seat, whether a computer plays it now (a computer player, or a stand-in)."""

    def show_presence(self, away: tuple[str | None, ...], computers: tuple[bool, ...] = ()) -> None:
        if (away, computers) != (self.away, self.computers):
            self.away, self.computers = away, computers
            self.refresh()

    def resizes(self, old: core.GameState, new: core.GameState) -> bool:
        return old.player_count != new.player_count

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 2 * self._state.player_count

    def render(self) -> Text:
        state = self._state
        points = [p.score for p in state.players]
        if core.is_over(state):
            points = [s.total for s in sorted(core.final_scores(state).players, key=_seat)]
        text = Text()
        for seat in range(state.player_count):
            if seat:
                text.append("\n")
            self._player(text, seat, points[seat])
        return look.fit_lines(text, self.size.width)

    def _player(self, text: Text, seat: int, points: int) -> None:
        state = self._state
        player = state.players[seat]
        deciding = state.current_player == seat
        text.append("▸" if deciding else " ", Style(bold=True))
        text.append(f"{player.colour.letter} ", look.player_style(player.colour))
        text.append(look.pad(player.name, NAME_CELLS), Style(bold=deciding))
        text.append(f" {points:>3} pts", Style(bold=True))
        text.append(f"  stock {player.stock:>2} res {player.reserve:>2}")
        computer = seat < len(self.computers) and self.computers[seat]
        text.append("\n")
        text.append(COMPUTER_MARK if computer else INDENT, Style(bold=True))
        self._cards(text, player)
        if state.player_count == 2:
            text.append(f"  neutral {player.neutral_stock}", look.player_style(None))
        if state.has_passed(seat) and state.phase is core.Phase.EXCAVATION:
            text.append("  passed", look.DIM)
        away = self.away[seat] if seat < len(self.away) else None
        if away:
            text.append(f"  {away.replace('since ', '')}", look.DIM)  # "away 14:02"

    def _cards(self, text: Text, player: core.PlayerState) -> None:
        counts: dict[core.Patron | None, list[str]] = {}
        for card in player.cards:
            patron = core.CARDS[card].patron
            marks = counts.setdefault(patron, [])
            marks.append(TILTED if card in player.tilted else USABLE)
        if not counts:
            text.append("no cards", look.DIM)
            return
        for patron in core.Patron:
            if patron in counts:
                style = look.patron_style(patron)
                text.append(look.patron_letter(patron), style + Style(bold=True))
                text.append("".join(sorted(counts[patron])) + " ", style)
        if None in counts:  # no power to use, so no usable mark: its 5 was scored when taken
            text.append(look.PATRONLESS_LETTER, look.DIM)


def _seat(score: core.PlayerScore) -> int:
    return score.seat
