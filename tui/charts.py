"""Pictures of the scores, drawn with block characters as Rich `Text`: how the points grew
season by season, and where each player's final points came from.

Pure functions of the game's states (no Textual), sized by the caller. Every picture reads
without colour (NO_COLOR): each bar carries its player's letter, each segment the letter
of what it counts, and the numbers are written beside or above the bars.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

import core
from tui import look

EIGHTHS = " ▁▂▃▄▅▆▇█"
"""A bar's top cell by eighths of a row, empty to full."""
PARCELS_LETTER = "P"
SERIES_LETTER = "+"


@dataclass(frozen=True, slots=True)
class Column:
    """One group of bars: its label and each player's points (in seat order)."""

    label: str
    points: tuple[int, ...]


def season_columns(states: Sequence[core.GameState]) -> list[Column]:
    """Each player's points at the end of every season the ``states`` (a game's history,
    first to last) have finished, then ``End`` with the final totals once it is over."""
    last = states[-1]
    columns = []
    for season in range(1, min(last.season, 4) + 1):
        after = next((s for s in states if s.season > season or core.is_over(s)), None)
        if after is None:
            break
        columns.append(Column(f"Season {season}", tuple(p.score for p in after.players)))
    if core.is_over(last):
        totals = sorted(core.final_scores(last).players, key=lambda s: s.seat)
        columns.append(Column("End", tuple(s.total for s in totals)))
    return columns


def season_bars(state: core.GameState, columns: Sequence[Column], rows: int, width: int) -> Text:
    """The points of ``columns`` as vertical bars, one group per column and one bar per
    player (its letter below it, its points above it), ``rows`` tall, in ``width`` cells
    (bars widen when there is room)."""
    players = state.player_count
    top = max((p for c in columns for p in c.points), default=0) or 1
    bar = 2
    while _group_width(players, bar + 1) * len(columns) + 3 * len(columns) <= width and bar < 4:
        bar += 1
    lines = [Text() for _ in range(rows + 3)]  # value row, bar rows, letters, labels
    for index, column in enumerate(columns):
        if index:
            for line in lines:
                line.append("   ")
        _group(lines, state, column, rows, bar, top)
    for line in lines:
        line.rstrip()
    return Text("\n").join(lines)


def _group_width(players: int, bar: int) -> int:
    return players * bar + players - 1


def _group(
    lines: list[Text], state: core.GameState, column: Column, rows: int, bar: int, top: int
) -> None:
    """Draw one column's bars into ``lines`` (the value row, ``rows`` bar rows, letters,
    then the label)."""
    for seat, points in enumerate(column.points):
        if seat:
            for line in lines[:-1]:
                line.append(" ")
        style = look.seat_style(state, seat)
        eighths = round(points * rows * 8 / top)
        full, part = divmod(eighths, 8)
        label_row = rows - full - (part > 0)  # the row above the bar's top cell
        for row in range(rows + 1):
            if row == label_row:
                lines[row].append(str(points).center(bar)[:bar])
            elif row > label_row:
                cell = "█" if rows - row < full else EIGHTHS[part]
                lines[row].append(cell * bar, Style(color=style.color))
            else:
                lines[row].append(" " * bar)
        lines[rows + 1].append(look.seat_letter(state, seat).center(bar), style)
    group = _group_width(len(column.points), bar)
    label = column.label if len(column.label) <= group else column.label.replace("Season ", "S")
    lines[rows + 2].append(label.center(group)[:group], look.DIM)


def source_bars(state: core.GameState, width: int) -> Text:
    """Each player's final points as one bar of segments, longest total first: parcels
    (``P``), the exhibition by patron (its letter), series (``+``), each segment as long as
    its points (at least one cell), in its colour, then the total."""
    scores = sorted(core.final_scores(state).players, key=lambda s: -s.total)
    top = max((s.total for s in scores), default=0) or 1
    room = max(width - 18, 10)  # letter, name, spaces and the total around the bar
    text = Text()
    for score in scores:
        if text:
            text.append("\n")
        player = state.players[score.seat]
        text.append(f"{player.colour.letter} ", look.player_style(player.colour))
        text.append(look.pad(player.name, 10) + " ")
        _segments(text, state, score, round(score.total * room / top))
        text.append(f" {score.total}", Style(bold=True))
    return text


def _segments(text: Text, state: core.GameState, score: core.PlayerScore, cells: int) -> None:
    player_colour = look.seat_style(state, score.seat).color
    parts = [(PARCELS_LETTER, score.parcels, Style(color=player_colour))]
    parts += [
        (look.patron_letter(patron), score.exhibition[patron], look.patron_style(patron))
        for patron in core.Patron
    ]
    parts.append((SERIES_LETTER, score.series, Style(bold=True)))
    parts = [part for part in parts if part[1] > 0]
    widths = _share(cells, [points for _, points, _ in parts])
    for (letter, _, style), size in zip(parts, widths, strict=True):
        text.append(letter * size, style + Style(reverse=True))


def _share(cells: int, points: list[int]) -> list[int]:
    """``cells`` shared in proportion to ``points``, each part at least one cell."""
    total = sum(points) or 1
    widths, done, used = [], 0, 0
    for value in points:
        done += value
        end = max(round(done * cells / total), used + 1)
        widths.append(end - used)
        used = end
    return widths


def source_legend() -> Text:
    """What the letters of :func:`source_bars` count."""
    text = Text(f"{PARCELS_LETTER} parcels  ", look.DIM)
    for patron in core.Patron:
        text.append(look.patron_letter(patron), look.patron_style(patron) + Style(bold=True))
        text.append(" ")
    text.append("exhibition by patron  ", look.DIM)
    text.append(f"{SERIES_LETTER} series", look.DIM)
    return text
