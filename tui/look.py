"""How things look: glyphs, letters and styles shared by the widgets.

Everything that tells players, patrons, pyramids or rooms apart has a glyph or a letter
as well as a colour, so the game reads the same with NO_COLOR=1 or 16 colours. Highlights
use bold/underline/reverse attributes (and brackets), never colour alone.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.style import Style
from rich.text import Text

import core

PYRAMID = "▲"
EMPTY = "·"
NEUTRAL_LETTER = "N"

PATRON_LETTER = {
    core.Patron.VIOLET: "v",
    core.Patron.LEMON: "l",
    core.Patron.BROWN: "s",
    core.Patron.BLACKMORE: "k",
    core.Patron.TANGERINE: "t",
}
"""One letter per patron (also its key): Sir Brown is `s`, Mrs. Blackmore `k`."""
PATRONLESS_LETTER = "*"

# The ten colours stay apart in a 16-colour terminal (TERM=xterm), where each becomes the
# nearest ANSI colour: players bright (blue 12, red 9, green 10, white 15, the neutral's
# cyan 14); patrons magenta 13, yellow 11, dark red 1 (CSS "brown"), grey 7 and, for
# Tangerine, the dark yellow 3 (a brownish orange in the VGA palette). A test checks it.
PATRON_COLOUR = {
    core.Patron.VIOLET: "#b36bff",
    core.Patron.LEMON: "#e6d200",
    core.Patron.BROWN: "#a52a2a",
    core.Patron.BLACKMORE: "#9a9a9a",
    core.Patron.TANGERINE: "#e07000",
}
COLOUR_STYLE = {
    core.Colour.BLUE: "#5f9fff",
    core.Colour.RED: "#ff5f5f",
    core.Colour.GREEN: "#5fd75f",
    core.Colour.WHITE: "#f0f0f0",
}
NEUTRAL_STYLE = "#5fd7d7"

DIM = Style(dim=True)
CURSOR = Style(reverse=True)
LEGAL = Style(bold=True, underline=True, bgcolor="#204020")
PLACED = Style(bold=True, italic=True, underline=True)
SURVEYED = Style(bgcolor="#303048")
RECENT = Style(bold=True, underline=True)
"""Cubes the computer has just placed, shown {R} until the next decision."""
SURVEYED_LABEL = Style(bold=True, reverse=True)
"""The parcel numbers of the area being surveyed: seen without colour (NO_COLOR)."""


def player_style(colour: core.Colour | None) -> Style:
    """The bold foreground of a player's colour (the neutral's when ``colour`` is None)."""
    return Style(bold=True, color=COLOUR_STYLE[colour] if colour else NEUTRAL_STYLE)


def patron_style(patron: core.Patron | None) -> Style:
    return Style(color=PATRON_COLOUR[patron]) if patron is not None else Style(bold=True)


def patron_letter(patron: core.Patron | None) -> str:
    return PATRON_LETTER[patron] if patron is not None else PATRONLESS_LETTER


LegendLine = dict[core.Patron | None, str]
"""Patron letters on one line of the legend, with their names (None: the patronless ``*``)."""
_SHORT: LegendLine = {p: p.name.title() for p in core.Patron}
_UNGUESSED: LegendLine = {core.Patron.BROWN: "Sir Brown", core.Patron.BLACKMORE: "Mrs. Blackmore"}
_GUESSED: LegendLine = {core.Patron.VIOLET: "Violet", core.Patron.LEMON: "Lemon",
                        core.Patron.TANGERINE: "Tangerine"}  # fmt: skip
LEGEND_FORMS: tuple[tuple[LegendLine, ...], ...] = (
    ({**_SHORT, None: "no patron"},),
    ({**_UNGUESSED, None: "no patron"}, _GUESSED),
)
"""The forms of the legend, widest first: on one line with the short names when it fits
(a wide region, 64 cells), else on two, the letters nobody guesses (s, k, *) first."""


def patron_legend(width: int) -> tuple[Text, ...]:
    """What the patron letters stand for, every one of them, in lines of at most ``width``
    cells: one line when there is room (the short names), else two (42 cells, the narrow
    region, hold them all); cut with … only below that."""
    lines: tuple[Text, ...] = ()
    for form in LEGEND_FORMS:
        for gap in ("  ", " "):
            lines = tuple(_legend_line(line, gap) for line in form)
            if max(line.cell_len for line in lines) <= width:
                return lines
    for line in lines:
        line.truncate(width, overflow="ellipsis")
    return lines


def _legend_line(names: LegendLine, gap: str) -> Text:
    text = Text()
    for patron, name in names.items():
        if text:
            text.append(gap)
        text.append(patron_letter(patron), patron_style(patron) + Style(bold=True))
        text.append(f" {name}", patron_style(patron))
    return text


def card_cartouche(card_id: int) -> str:
    """A parcel's cartouche in two characters: patron letter and value (``v3``, ``k ``)."""
    card = core.CARDS[card_id]
    value = str(card.value) if card.value else " "
    return patron_letter(card.patron) + value


def seat_letter(state: core.GameState, seat: int) -> str:
    """A seat's letter: its colour's initial, or N for the neutral (``core.NEUTRAL``)."""
    if seat == core.NEUTRAL:
        return NEUTRAL_LETTER
    return state.players[seat].colour.letter


def seat_style(state: core.GameState, seat: int) -> Style:
    if seat == core.NEUTRAL:
        return player_style(None)
    return player_style(state.players[seat].colour)


def seat_name(state: core.GameState, seat: int) -> str:
    """``Ann (B)``: a player's name with their letter, or ``the neutral``."""
    if seat == core.NEUTRAL:
        return "the neutral (N)"
    player = state.players[seat]
    return f"{player.name} ({player.colour.letter})"


def room_short(wings: tuple[int, ...], room: int) -> str:
    """A Museum room in a few letters for tight tables: ``Brown 3``, ``Bl/Vi 2`` (a 2-room
    between two wings), ``Violet 5``; `core.museum.room_label` is the long form."""
    patrons = [core.Patron(wings[w]).name.title() for w in core.museum.room_wings(room)]
    points = core.museum.room_points(room)
    if len(patrons) == 1:
        return f"{patrons[0]} {points}"
    return f"{'/'.join(p[:2] for p in patrons)} {points}"


def cut(text: str, cells: int) -> str:
    """``text`` in at most ``cells`` terminal cells, ended with … when cut. Measured in
    cells, not characters: 日本語 letters and most emoji take two."""
    if cell_len(text) <= cells:
        return text
    return set_cell_size(text, max(cells - 1, 0)).rstrip() + "…"


def pad(text: str, cells: int) -> str:
    """``text`` cut (see :func:`cut`) and padded with spaces to exactly ``cells`` cells."""
    text = cut(text, cells)
    return text + " " * (cells - cell_len(text))


def fit_lines(text: Text, width: int) -> Text:
    """Every line of ``text`` cut with … to ``width`` cells. Textual wraps a widget's text
    whatever its ``no_wrap``, so a panel that must keep one line per row cuts its own.
    A ``width`` of 0 (a widget not laid out yet) cuts nothing."""
    lines = text.split("\n", allow_blank=True)
    for line in lines:
        if width > 0:
            line.truncate(width, overflow="ellipsis")
    return Text("\n").join(lines)
