"""Pictures of the scores, drawn with block characters as Rich `Text`: how the points grew
season by season, where each player's final points came from, and (the computer's
analysis) each player's expected final margin over the game's decisions.

Pure functions of the game's states (no Textual), sized by the caller. Every picture reads
without colour (NO_COLOR): each bar carries its player's letter, each segment the letter
of what it counts, and the numbers are written beside or above the bars.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

import core
from tui import look

if TYPE_CHECKING:
    from core.analysis import Judgement

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


MEET = "*"
"""Where two players' expected margins fall in the same cell of :func:`margin_chart`."""
AXIS = 5
"""Cells of the margin chart's left axis: a signed value (``+12``, ``-8``) and its tick."""


def margin_chart(
    state: core.GameState,
    judgements: Sequence[Judgement],
    rows: int,
    width: int,
    seats: Collection[int] | None = None,
) -> Text:
    """Every player's (or ``seats``') expected final margin after each judged decision, in
    game order from left to right: each as its player's letter (in its colour), higher
    for a larger margin, ``rows`` tall in ``width`` cells, the zero line drawn ``─`` with
    its value on the axis, then the seasons under the decisions they hold. When there are
    more decisions than columns, a column holds the mean of its decisions. A cell where two
    players meet shows :data:`MEET`, so that it reads without colour (NO_COLOR)."""
    chosen = sorted(range(state.player_count) if seats is None else seats)
    columns = _margin_columns(judgements, max(width - AXIS, 1))
    values = [m for _, margins in columns for seat, m in enumerate(margins) if seat in chosen]
    top, bottom = max([0.0, *values]), min([0.0, *values])
    if top - bottom < 1:
        top, bottom = top + 0.5, bottom - 0.5  # a flat game still shows its zero line

    def row_of(value: float) -> int:
        return round((top - value) * (rows - 1) / (top - bottom))

    zero = row_of(0.0)
    grid: list[list[tuple[str, Style]]] = [
        [("─" if row == zero else " ", look.DIM) for _ in columns] for row in range(rows)
    ]
    for column, (_, margins) in enumerate(columns):
        for seat in chosen:
            row = row_of(margins[seat])
            mark = look.seat_letter(state, seat)
            met = grid[row][column][0] not in ("─", " ")
            grid[row][column] = (
                (MEET, Style(bold=True)) if met else (mark, look.seat_style(state, seat))
            )
    labels = {row_of(top): f"{top:+.0f}", zero: "0", row_of(bottom): f"{bottom:+.0f}"}
    lines = []
    for row, cells in enumerate(grid):
        line = Text(labels.get(row, "").rjust(AXIS - 1)[-(AXIS - 1) :], look.DIM)
        line.append("┼" if row == zero else "┤" if row in labels else "│", look.DIM)
        for mark, style in cells:
            line.append(mark, style)
        line.rstrip()
        lines.append(line)
    lines.append(_season_marks(columns))
    return Text("\n").join(lines)


def _margin_columns(
    judgements: Sequence[Judgement], room: int
) -> list[tuple[int, tuple[float, ...]]]:
    """(season, every seat's margin) of each column: one judgement each while they fit in
    ``room`` cells, else the mean of the judgements each column holds (in game order)."""
    ordered = sorted(judgements, key=lambda j: j.index)
    if len(ordered) <= room:
        return [(j.season, tuple(j.margins)) for j in ordered]
    columns = []
    for column in range(room):
        held = ordered[column * len(ordered) // room : (column + 1) * len(ordered) // room]
        means = tuple(sum(m) / len(held) for m in zip(*(j.margins for j in held), strict=True))
        columns.append((held[0].season, means))
    return columns


def _season_marks(columns: Sequence[tuple[int, tuple[float, ...]]]) -> Text:
    """``S1``, ``S2``… under the first column of each season."""
    marks = [" "] * (AXIS + len(columns) + 2)
    season = 0
    for column, (held, _) in enumerate(columns):
        if held != season:
            season = held
            at = AXIS + column
            if at == AXIS or marks[at - 1] == " ":
                marks[at : at + 2] = list(f"S{season}")
    return Text("".join(marks).rstrip(), look.DIM)
