"""The keys that apply now, on one line: a light stand-in for Textual's Footer.

Textual's Footer rebuilds one widget per key whenever the bindings change, which on this
game happens after every move; this bar renders the same information (the screen's active
bindings, filtered by each node's `check_action`) as one line of text.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

KEY = Style(bold=True, reverse=True)


class KeysBar(Widget):
    """The shown, enabled bindings of the screen, one entry per action."""

    DEFAULT_CSS = """
    KeysBar { height: 1; dock: bottom; background: $panel; }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen) -> None:
        self.refresh()

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        seen: set[str] = set()
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if not binding.show or not active.enabled or binding.action in seen:
                continue
            seen.add(binding.action)
            text.append(f" {self.app.get_key_display(binding)} ", KEY)
            text.append(f" {binding.description}  ")
        return text
