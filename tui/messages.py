"""Requests a screen sends up to the app, which owns the flow between screens.

Screens post these (they bubble from the screen to the app) rather than calling the app's
methods by name, so a screen needs to know nothing of the app it runs in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.message import Message

import core

if TYPE_CHECKING:
    from saves.format import TableLine


class NewGameRequested(Message):
    """The player asked for a new game (the new-game form)."""


class LoadRequested(Message):
    """The player asked for the list of saved games."""


class TablesRequested(Message):
    """The player asked for the table server's lobby (play with others)."""


class ReplayRequested(Message):
    """The player asked to replay a game: its states (one more than its actions), and at
    a shared table its journal's lines and stand-ins (see ``table.seat.told_beside``)."""

    def __init__(
        self,
        states: Sequence[core.GameState],
        actions: Sequence[core.Action],
        title: str,
        lines: Sequence[TableLine] = (),
        standins: Sequence[core.Level | None] = (),
    ) -> None:
        super().__init__()
        self.states = states
        self.actions = actions
        self.title = title
        self.lines = lines
        self.standins = standins


class TablePlayed(Message):
    """An action was played at shared table ``table`` on show here: a notice of a turn
    there is out of date."""

    def __init__(self, table: int) -> None:
        super().__init__()
        self.table = table
