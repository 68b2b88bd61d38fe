"""Requests a screen sends up to the app, which owns the flow between screens.

Screens post these (they bubble from the screen to the app) rather than calling the app's
methods by name, so a screen needs to know nothing of the app it runs in.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.message import Message

import core


class NewGameRequested(Message):
    """The player asked for a new game (the new-game form)."""


class LoadRequested(Message):
    """The player asked for the list of saved games."""


class TablesRequested(Message):
    """The player asked for the table server's lobby (play with others)."""


class ReplayRequested(Message):
    """The player asked to replay a game: its states (one more than its actions)."""

    def __init__(
        self, states: Sequence[core.GameState], actions: Sequence[core.Action], title: str
    ) -> None:
        super().__init__()
        self.states = states
        self.actions = actions
        self.title = title
