"""A one-line choice among a few values, changed with ←/→ (keyboard-only form field)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget


class Cycler(Widget, can_focus=True):
    """Shows ``◂ value ▸``; left/right (or h/l, space) step through ``options``."""

    DEFAULT_CSS = """
    Cycler { width: auto; height: 1; padding: 0 1; }
    Cycler:focus { text-style: reverse bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "step(-1)", "Change", show=False),
        Binding("right,l,space", "step(1)", "Change", key_display="←→"),
    ]

    class Changed(Message):
        """The value changed (posted after every step)."""

        def __init__(self, cycler: Cycler) -> None:
            self.cycler = cycler
            super().__init__()

        @property
        def control(self) -> Cycler:
            return self.cycler

    def __init__(self, options: list[str], index: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.options = options
        self.index = index

    @property
    def value(self) -> str:
        return self.options[self.index]

    @value.setter
    def value(self, value: str) -> None:
        self.index = self.options.index(value)
        self.refresh(layout=True)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return 4 + max(len(o) for o in self.options)

    def render(self) -> Text:
        return Text(f"◂ {self.value:<{max(len(o) for o in self.options)}} ▸")

    def action_step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.options)
        self.refresh(layout=True)
        self.post_message(self.Changed(self))
