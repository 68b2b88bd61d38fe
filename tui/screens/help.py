"""Help: the keys and a short rules summary; `r` switches to the rules with the rulings."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui import rules_text
from tui.widgets.keys import KeysBar


class HelpScreen(ModalScreen[None]):
    """Keys and rules; scrolls with the arrows; Esc, ? or q closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,q", "close", "Close"),
        Binding("r", "switch", "Rules / keys"),
        Binding("down,j", "scroll(1)", "Scroll", show=False),
        Binding("up,k", "scroll(-1)", "Scroll", show=False),
        Binding("pagedown,space", "scroll(10)", "Scroll", show=False),
        Binding("pageup", "scroll(-10)", "Scroll", show=False),
    ]

    def __init__(self, rules: bool = False) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(self._text(), id="help-text")
        yield KeysBar()

    def _text(self) -> str:
        return rules_text.RULES if self.rules else rules_text.KEYS

    def action_switch(self) -> None:
        self.rules = not self.rules
        self.query_one("#help-text", Static).update(self._text())
        self.query_one("#help-body").scroll_home(animate=False)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-body").scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
