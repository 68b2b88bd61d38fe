"""The "terminal too small" screen, shown by the app instead of a broken layout.

Its own module so that start-up does not import the dialogs' widgets (Input) with it.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static


class TooSmallScreen(Screen[None]):
    """Shown instead of a broken layout while the terminal is under the minimum size."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "app.quit", "Quit", show=False)]

    def __init__(self, minimum: tuple[int, int]) -> None:
        super().__init__()
        self.minimum = minimum

    def compose(self) -> ComposeResult:
        yield Static(id="too-small-message")

    def on_mount(self) -> None:
        self.show_size()

    def on_resize(self) -> None:
        self.show_size()

    def show_size(self) -> None:
        width, height = self.app.size
        min_w, min_h = self.minimum
        self.query_one(Static).update(
            f"Terminal too small: {width}×{height}.\n"
            f"Mykerinos needs at least {min_w}×{min_h}.\n"
            "Enlarge the window; the game is waiting, nothing is lost."
        )
