"""The region: every space with its pyramid or cube, the parcels' cartouches, areas apart,
and under it what the patron letters of the cartouches stand for.

Line API widget: a cursor move repaints only the rows that changed, which keeps a move to
a few hundred bytes over SSH. It renders from what the screen gives it (the state, the
legal next spaces, the cubes placed so far) and owns only the cursor. Choosing a space
posts `RegionView.SpaceChosen`; the screen decides what it means.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import msgspec
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

import core
from core.region import WIDTH, area_of, rows_in, spaces_of
from tui import look

Space = int


@functools.cache
def _console() -> Console:
    """The console region lines are rendered with (made when first drawn, not at import)."""
    return Console(width=200, color_system="truecolor", legacy_windows=False)


"""Only turns the legend's Text into segments (Text.render needs a console)."""


class RegionPicture(msgspec.Struct, frozen=True):
    """What the region shows: set as a whole by the screen (attributes down)."""

    state: core.GameState
    legal: frozenset[Space] = frozenset()
    placed: tuple[Space, ...] = ()
    placing: bool = False
    recent: frozenset[Space] = frozenset()
    """Cubes a computer player has just placed (shown ``{R}``, bold and underlined)."""


class Metrics(msgspec.Struct, frozen=True):
    """Column widths: a space's cell, the gap holding the parcel's number and cartouche
    between its two columns (three cells, so ``P10`` fits like ``P1``), and the line
    between the two areas of a row. Roomy when the widget may be wide."""

    cell: int
    gap: int
    area_line: str

    @property
    def parcel(self) -> int:
        return 2 * self.cell + self.gap

    @property
    def width(self) -> int:
        # row label (3) + 4 parcels + two thin parcel lines + the line between the areas
        return 3 + 4 * self.parcel + 2 + len(self.area_line)


COMPACT = Metrics(cell=3, gap=3, area_line="┃")
ROOMY = Metrics(cell=5, gap=4, area_line=" ┃ ")


def new_cubes(before: core.GameState, after: core.GameState) -> frozenset[Space]:
    """Spaces holding a cube in ``after`` that were empty in ``before`` (same season)."""
    if after.season != before.season or len(after.cubes) != len(before.cubes):
        return frozenset()
    new = 0
    for old, now in zip(before.cubes, after.cubes, strict=True):
        new |= now & ~old
    return frozenset(spaces_of(new))


def still_recent(
    recent: frozenset[Space], before: core.GameState, after: core.GameState
) -> frozenset[Space]:
    """The cubes others placed since a decision here, after one more of their actions:
    ``recent`` and the new cubes, less the spaces emptied since (a surveyed area's cubes
    go back to their reserves; a new season starts with an empty region), which showed
    as ``{·}`` on nothing."""
    occupied = 0
    for mask in after.cubes:
        occupied |= mask
    return frozenset(s for s in recent | new_cubes(before, after) if occupied >> s & 1)


def next_recent(
    recent: frozenset[Space],
    before: core.GameState,
    after: core.GameState,
    mine: Callable[[int | None], bool],
) -> frozenset[Space]:
    """The marks after one more action: none after a turn of a seat of this terminal's
    player (``mine``: whoever made it, the player or a computer standing in for them, who
    was seen to play it), else :func:`still_recent`. A terminal with no seat of its own
    (watching) marks the cubes of the last action only: it never decides, and marks kept
    until then would pile up over the whole season."""
    if mine(before.current_player):
        return frozenset()
    if not any(map(mine, range(before.player_count))):
        return still_recent(frozenset(), before, after)
    return still_recent(recent, before, after)


def recent_in(
    states: Sequence[core.GameState],
    actions: Sequence[core.Action],
    mine: Callable[[int | None], bool],
) -> frozenset[Space]:
    """The marks after the history (the states before each action, then the current
    one), as :func:`next_recent` kept them move by move: an undo, a redo or a reconnection
    rebuilds the marks this terminal had, never every move a stand-in ever made."""
    recent: frozenset[Space] = frozenset()
    for index in range(len(actions)):
        recent = next_recent(recent, states[index], states[index + 1], mine)
    return recent


class RegionView(Widget, can_focus=True):
    """The season's region with a placement cursor."""

    DEFAULT_CSS = """
    RegionView { width: auto; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(0,-1)", "Move", show=False),
        Binding("down", "move(0,1)", "Move", show=False),
        Binding("left", "move(-1,0)", "Move", show=False),
        Binding("right", "move(1,0)", "Move", show=False),
        # hjkl move while a cube is being placed; otherwise l and k are Lemon and Blackmore.
        Binding("k", "vim_move(0,-1)", "Move", show=False),
        Binding("j", "vim_move(0,1)", "Move", show=False),
        Binding("h", "vim_move(-1,0)", "Move", show=False),
        Binding("l", "vim_move(1,0)", "Move", show=False),
        Binding("enter,space", "choose", "Place"),
    ]

    class SpaceChosen(Message):
        """The player chose the space under the cursor (Enter/Space)."""

        def __init__(self, space: Space) -> None:
            self.space = space
            super().__init__()

    def __init__(self, picture: RegionPicture, *, roomy: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._picture = picture
        self.metrics = ROOMY if roomy else COMPACT
        self.cursor: Space = 0
        self._strips: list[Strip] = []
        self._stale = True
        """The lines are to be built when first asked for: the screen sets the picture and
        the focus before its first frame, and each would have built them again."""

    # ---------------------------------------------------------------- attributes down

    @property
    def picture(self) -> RegionPicture:
        return self._picture

    @picture.setter
    def picture(self, picture: RegionPicture) -> None:
        resized = rows_in(len(picture.state.region)) != self.rows
        before = self._picture.placed
        self._picture = picture
        if self.cursor >= WIDTH * self.rows:
            self.cursor = 0
        cubes, cubes_before = len(picture.placed), len(before)
        if cubes > cubes_before and picture.legal and self.cursor not in picture.legal:
            # A cube placed: on to where the next one may go (issue 18 #11).
            self.cursor = self._nearest(picture.legal)
        elif cubes == cubes_before - 1 and picture.placing:
            self.cursor = before[-1]  # Esc took it back: there, to place it again or move on
        self._repaint(layout=resized)

    def set_roomy(self, roomy: bool) -> None:
        metrics = ROOMY if roomy else COMPACT
        if metrics != self.metrics:
            self.metrics = metrics
            self._repaint(layout=True)

    @property
    def rows(self) -> int:
        return rows_in(len(self._picture.state.region))

    # ---------------------------------------------------------------- keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("choose", "vim_move"):
            return self._picture.placing
        return True

    def action_vim_move(self, dx: int, dy: int) -> None:
        self.action_move(dx, dy)

    def action_move(self, dx: int, dy: int) -> None:
        row, col = divmod(self.cursor, WIDTH)
        row = min(max(row + dy, 0), self.rows - 1)
        col = min(max(col + dx, 0), WIDTH - 1)
        self.move_cursor(row * WIDTH + col)

    def move_near(self, spaces: frozenset[Space]) -> None:
        """Move the cursor to the nearest of ``spaces``, unless it is on one already."""
        if spaces and self.cursor not in spaces:
            self.move_cursor(self._nearest(spaces))

    def _nearest(self, spaces: frozenset[Space]) -> Space:
        """The space of ``spaces`` fewest cursor keys away, ties to the first in reading
        order. After a cube, the next one of the same action goes next to it or to the
        player's own cubes, so the nearest is nearly always the one meant."""
        row, col = divmod(self.cursor, WIDTH)
        return min(spaces, key=lambda s: (abs(s // WIDTH - row) + abs(s % WIDTH - col), s))

    def move_cursor(self, space: Space) -> None:
        if space != self.cursor:
            self.cursor = space
            self._repaint()

    def action_choose(self) -> None:
        self.post_message(self.SpaceChosen(self.cursor))

    def on_click(self, event: events.Click) -> None:
        """Mouse is a bonus, never needed: clicking a space moves the cursor there."""
        space = self._space_at(event.x, event.y)
        if space is not None:
            self.move_cursor(space)

    # ---------------------------------------------------------------- rendering

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.metrics.width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines)

    def render_line(self, y: int) -> Strip:
        lines = self._lines
        return lines[y] if y < len(lines) else Strip.blank(self.size.width)

    @property
    def _lines(self) -> list[Strip]:
        """The region's lines, built if they are stale."""
        if self._stale:
            self._rebuild()
        return self._strips

    def _repaint(self, layout: bool = False) -> None:
        if self._stale:  # never drawn: built as it is first laid out
            self.refresh(layout=True)
            return
        old = self._strips
        self._rebuild()
        if layout or len(old) != len(self._lines):
            self.refresh(layout=True)
            return
        width = self.size.width or self.metrics.width
        for y, (before, after) in enumerate(zip(old, self._lines, strict=True)):
            if before != after:
                self.refresh(Region(0, y, width, 1))

    def _rebuild(self) -> None:
        lines = [self._header()]
        for row in range(self.rows):
            if row and row % 3 == 0:
                lines.append(self._separator())
            lines.append(self._row(row))
        lines.extend(self._legend())
        self._strips = lines
        self._stale = False

    def _row_of_line(self, y: int) -> int | None:
        """The region row drawn on line ``y``, None for the header and separators."""
        if y == 0:
            return None
        y -= 1
        row, rest = divmod(y, 4)
        return None if rest == 3 else row * 3 + rest

    def _space_at(self, x: int, y: int) -> Space | None:
        row = self._row_of_line(y)
        if row is None or row >= self.rows:
            return None
        for col in range(WIDTH):
            start = self._cell_x(col)
            if start <= x < start + self.metrics.cell:
                return row * WIDTH + col
        return None

    def _cell_x(self, col: int) -> int:
        m = self.metrics
        slot, side = divmod(col, 2)
        x = 3 + slot * m.parcel + side * (m.cell + m.gap)
        return x + (slot >= 1) + (slot >= 2) * len(m.area_line) + (slot >= 3)

    def _header(self) -> Strip:
        m = self.metrics
        text = [" "] * m.width
        for col in range(WIDTH):
            text[self._cell_x(col) + m.cell // 2] = "abcdefgh"[col]
        return Strip([Segment("".join(text), look.DIM)])

    def _legend(self) -> list[Strip]:
        """The patron letters of the cartouches in words, under the region: every patron,
        on two lines when the region is narrow (see `look.patron_legend`)."""
        width = self.metrics.width
        legend = look.patron_legend(width)
        widest = max(line.cell_len for line in legend)
        indent = Segment(" " * min(3, width - widest))  # under the row labels, if it fits
        strips = []
        for line in legend:
            segments = [indent, *line.render(_console())]
            # Every segment styled: the NO_COLOR filter cannot take a segment without a style.
            strips.append(Strip([Segment(s.text, s.style or Style()) for s in segments]))
        return strips

    def _separator(self) -> Strip:
        m = self.metrics
        half = "─" * (2 * m.parcel + 1)
        cross = m.area_line.replace(" ", "─").replace("┃", "╋")
        return Strip([Segment("   " + half + cross + half, look.DIM)])

    def _row(self, row: int) -> Strip:
        segments = [Segment(f"{row + 1:>2} ", look.DIM)]
        for slot in range(4):
            if slot == 2:
                segments.append(Segment(self.metrics.area_line, look.DIM))
            elif slot:
                segments.append(Segment("│", look.DIM))
            parcel = (row // 3) * 4 + slot
            segments.append(self._cell(row * WIDTH + 2 * slot))
            segments.append(self._cartouche(parcel, row % 3))
            segments.append(self._cell(row * WIDTH + 2 * slot + 1))
        return Strip(segments)

    def _cartouche(self, parcel: int, line: int) -> Segment:
        """The gap between a parcel's two columns on its ``line`` (0..2): its number on
        top (P3 in the survey options), its cartouche in the middle. The numbers of the
        parcels being surveyed are in reverse video, so the area reads without colour."""
        state = self._picture.state
        gap = self.metrics.gap
        face = state.region[parcel] if parcel < len(state.region) else -1
        surveyed = state.survey_area == parcel // 2
        base = look.SURVEYED if surveyed else Style()
        if line == 0 and face >= 0:
            style = base + (look.SURVEYED_LABEL if surveyed else look.DIM)
            return Segment(f"P{parcel + 1}".center(gap), style)
        if line != 1 or face < 0:
            fill = "░" if face < 0 and line == 1 else " "
            return Segment(fill * gap, base + look.DIM if face < 0 else base)
        card = core.CARDS[face >> 1]
        style = base + look.patron_style(card.patron)
        return Segment(look.card_cartouche(card.id).center(gap), style)

    def _cell(self, space: Space) -> Segment:
        picture = self._picture
        state = picture.state
        glyph, style = look.EMPTY, look.DIM
        for seat, mask in zip(core.cube_holders(state), state.cubes, strict=True):
            if mask >> space & 1:
                glyph, style = look.seat_letter(state, seat), look.seat_style(state, seat)
                break
        else:
            if state.pyramids >> space & 1:
                glyph, style = look.PYRAMID, Style(color="#d7af5f")
        left, right = " ", " "
        if space in picture.placed:
            glyph = look.seat_letter(state, _placer(state))
            style = look.seat_style(state, _placer(state)) + look.PLACED
            left, right = "(", ")"
        elif space in picture.legal:
            style = style + look.LEGAL
            left, right = "[", "]"
        elif space in picture.recent:
            style = style + look.RECENT
            left, right = "{", "}"
        if state.survey_area >= 0 and area_of(space) == state.survey_area:
            style = look.SURVEYED + style
        if space == self.cursor and self.has_focus_within_screen:
            style = style + look.CURSOR
        pad = (self.metrics.cell - 3) // 2
        return Segment(" " * pad + left + glyph + right + " " * pad, style)

    @property
    def has_focus_within_screen(self) -> bool:
        """The cursor shows while the region is the screen's focused widget (or unmounted)."""
        try:
            return self.screen.focused is self or self.screen.focused is None
        except Exception:  # not mounted yet: draw the cursor
            return True

    def on_focus(self) -> None:
        self._repaint()

    def on_blur(self) -> None:
        self._repaint()


def _placer(state: core.GameState) -> int:
    """Whose cubes the half-built action places: the neutral's during neutral placement."""
    return core.NEUTRAL if state.neutral_pending else state.current
