"""The "terminal too small" screen, shown by the app instead of a broken layout.

Its own module so that start-up does not import the dialogs' widgets (Input) with it.
There is no room for the quit question here, so `q` (and Ctrl+Q, Ctrl+C, which the app
hands to :meth:`TooSmallScreen.action_quit`) saves the game the way SIGTERM does and
leaves; only moves that could still not be saved make it ask, in its own lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

if TYPE_CHECKING:
    from tui.screens.game import GameScreen


class TooSmallScreen(Screen[None]):
    """Shown instead of a broken layout while the terminal is under the minimum size."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit", "Quit", show=False)]

    def __init__(self, minimum: tuple[int, int]) -> None:
        super().__init__()
        self.minimum = minimum
        self.unsaved_question: str | None = None
        """Set once ``q`` found moves that could not be saved: a second ``q`` leaves."""

    def compose(self) -> ComposeResult:
        yield Static(id="too-small-message", markup=False)

    def on_mount(self) -> None:
        self.show_size()

    def on_resize(self) -> None:
        self.show_size()

    def show_size(self) -> None:
        width, height = self.app.size
        min_w, min_h = self.minimum
        if self.unsaved_question is not None:
            leaving = f"{self.unsaved_question}\nq: quit anyway."
        else:
            leaving = "q or Ctrl+C: quit" + (" (saved)." if self._games() else ".")
        self.query_one(Static).update(
            f"Terminal too small: {width}×{height}.\n"
            f"Mykerinos needs {min_w}×{min_h}.\n"
            f"{self._enlarge()}\nnothing is lost.\n"
            f"{leaving}"
        )

    def _enlarge(self) -> str:
        """How to make room: in a browser (the web door), zooming out gives more cells."""
        if self.app.is_web:
            return "Enlarge the window\nor zoom out (Ctrl+-);"
        return "Enlarge the window;"

    def action_quit(self) -> None:
        """Save the games open (the app's :meth:`save_now`, as on SIGTERM) and leave; if
        moves are still not saved, say so first (the quit question's words) and leave on
        the second press."""
        from tui import prompts
        from tui.app import MykerinosApp

        if isinstance(self.app, MykerinosApp):
            self.app.save_now()
        unsaved = [game.seat for game in self._games() if game.seat.unsaved]
        if unsaved and self.unsaved_question is None:
            self.unsaved_question = prompts.quit_question(unsaved[-1])
            self.app.bell()
            self.show_size()
            return
        self.app.exit()

    def _games(self) -> list[GameScreen]:
        from tui.screens.game import GameScreen

        return [screen for screen in self.app.screen_stack if isinstance(screen, GameScreen)]
