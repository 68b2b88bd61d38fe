"""The Museum: 15 rooms by wing, with the wing's patron and each room's occupant.

One line per wing: its 5-room, its 3-room, and the 2-room it shares with the next wing.
During a booking (survey) or a Sir Brown appeal the legal rooms are bracketed and a cursor
moves over the rooms; choosing posts `MuseumView.RoomChosen`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

import core
from core.museum import WINGS
from tui import look

COLUMNS = 3
"""Cursor columns: the wing's 5-room, 3-room, then the 2-room toward the next wing."""


def room_at(wing: int, column: int) -> int:
    return (wing, WINGS + wing, 2 * WINGS + wing)[column]


class MuseumView(Widget, can_focus=True):
    """Rooms with values and occupants; a room cursor when booking."""

    DEFAULT_CSS = """
    MuseumView { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(0,-1)", "Move", show=False),
        Binding("down,j", "move(0,1)", "Move", show=False),
        Binding("left,h", "move(-1,0)", "Move", show=False),
        Binding("right,l", "move(1,0)", "Move", show=False),
        # The Museum has focus only while a room is being chosen, so hjkl are free here.
        Binding("enter,space", "choose", "Choose room"),
    ]

    class RoomChosen(Message):
        """The player chose the room under the cursor."""

        def __init__(self, room: int) -> None:
            self.room = room
            super().__init__()

    def __init__(self, state: core.GameState, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._state = state
        self.legal: frozenset[int] = frozenset()
        self.cursor = (0, 0)

    def show(self, state: core.GameState, legal: frozenset[int] = frozenset()) -> None:
        """Render ``state``; bracket and allow the ``legal`` rooms (empty: not booking)."""
        if state != self._state or legal != self.legal:
            self._state, self.legal = state, legal
            if legal and self.room not in legal:
                first = min(legal)
                self.cursor = next(
                    (w, c) for w in range(WINGS) for c in range(COLUMNS) if room_at(w, c) == first
                )
            self.refresh()

    @property
    def room(self) -> int:
        return room_at(*self.cursor)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return WINGS + 1

    def action_move(self, dx: int, dy: int) -> None:
        wing, column = self.cursor
        self.cursor = ((wing + dy) % WINGS, min(max(column + dx, 0), COLUMNS - 1))
        self.refresh()

    def action_choose(self) -> None:
        self.post_message(self.RoomChosen(self.room))

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("Museum  ", Style(bold=True))
        text.append("5-room 3-room 2-room→next", look.DIM)
        for wing in range(WINGS):
            text.append("\n")
            self._wing(text, wing)
        return text

    def _wing(self, text: Text, wing: int) -> None:
        patron = core.Patron(self._state.wings[wing])
        text.append(f"{wing + 1} ", look.DIM)
        text.append(look.patron_letter(patron), look.patron_style(patron) + Style(bold=True))
        text.append(f" {patron.name.title()[:9]:<9}", look.patron_style(patron))
        for column in range(COLUMNS):
            room = room_at(wing, column)
            text.append(f" {core.museum.room_points(room)}")
            self._room(text, room, (wing, column) == self.cursor)

    def _room(self, text: Text, room: int, under_cursor: bool) -> None:
        holder = self._state.museum[room]
        glyph, style = look.EMPTY, look.DIM
        if holder != -1:
            glyph = look.seat_letter(self._state, holder)
            style = look.seat_style(self._state, holder)
        left, right = " ", " "
        if room in self.legal:
            left, right, style = "[", "]", style + look.LEGAL
        if under_cursor and self.has_focus:
            style = style + look.CURSOR
        text.append(left + glyph + right, style)
