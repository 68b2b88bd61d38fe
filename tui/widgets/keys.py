"""The keys that apply now, on one line: a light stand-in for Textual's Footer.

Textual's Footer rebuilds one widget per key whenever the bindings change, which on this
game happens after every move; this bar renders the same information (the screen's active
bindings, filtered by each node's `check_action`) as one line of text.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.screen import Screen
from textual.widget import Widget

KEY = Style(bold=True, reverse=True)


class KeysBar(Widget):
    """The shown, enabled bindings of the screen, one entry per action.

    When they do not all fit, the entries of the ``droppable`` actions (named without
    their parameters, e.g. ``kind``) are left out, group by group until the rest fits:
    first the game screen's action keys, which its action bar lists anyway, then the
    keys a player needs least, so that Undo, Help and Quit always show.
    """

    DEFAULT_CSS = """
    KeysBar { height: 1; dock: bottom; background: $panel; }
    """

    def __init__(self, *droppable: frozenset[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.droppable = droppable

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: Screen[Any]) -> None:
        self.refresh()

    def render(self) -> Text:
        entries: list[tuple[str, Text]] = []
        seen: set[str] = set()
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if not binding.show or not active.enabled or binding.action in seen:
                continue
            seen.add(binding.action)
            entry = Text()
            entry.append(f" {self.app.get_key_display(binding)} ", KEY)
            entry.append(f" {binding.description}  ")
            entries.append((binding.action.partition("(")[0], entry))
        for group in self.droppable:
            if sum(e.cell_len for _, e in entries) <= self.size.width:
                break
            entries = [(a, e) for a, e in entries if a not in group]
        text = Text(no_wrap=True, overflow="ellipsis")
        for _, entry in entries:
            text.append_text(entry)
        return text
