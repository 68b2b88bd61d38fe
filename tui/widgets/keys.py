"""The keys that apply now, on one line or two: a light stand-in for Textual's Footer.

Textual's Footer rebuilds one widget per key whenever the bindings change, which on this
game happens after every move; this bar renders the same information (the screen's active
bindings, filtered by each node's `check_action`) as text.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget

KEY = Style(bold=True, reverse=True)

MAX_LINES = 2
"""Lines the bar may take when its keys do not fit on one (80 columns at a shared table)."""


def means_nothing(screen: Screen[Any], event: events.Key) -> str | None:
    """What to say of a typed key (or Enter) that nothing on ``screen`` takes now (no
    binding of the screen or the app applies to it), or None. Called as the key reaches
    the app: a focused field or a screen that took it has stopped it before."""
    if not (event.character and event.is_printable) and event.key != "enter":
        return None  # arrows, Tab, Ctrl+…: never looked up (a key's own cost, over SSH)
    bindings = screen.active_bindings
    if event.key in bindings:
        return None
    shown = {"space": "Space", "enter": "Enter"}.get(event.key, event.character)
    help_key = "question_mark" in bindings and bindings["question_mark"].enabled
    return f"{shown} does nothing here" + (": ? lists the keys" if help_key else "")


class KeysBar(Widget):
    """The shown, enabled bindings of the screen, one entry per action.

    Every key that applies now stays reachable from the screen. When the entries do not
    fit on one line, the ``droppable`` groups (actions named without their parameters,
    e.g. ``press``) are left out first: the screen lists those keys elsewhere (the game
    screen's action bar lists the action keys with their letters), then the entries
    move closer together. If the rest still does not fit, it goes on a second line
    rather than being cut: a narrow terminal gives up a line of the board, never a key.
    """

    DEFAULT_CSS = """
    KeysBar { height: auto; max-height: 2; dock: bottom; background: $panel; }
    """

    def __init__(self, *droppable: frozenset[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.droppable = droppable
        self._shown: list[Text] = []
        self._laid_out: tuple[int, list[Text]] | None = None
        """The lines last laid out and their width: Textual asks for them several times
        a frame (the height, the render), and they hold until the bindings change."""
        self._listed: list[tuple[str, str, str]] | None = None
        """(action, key, description) of each shown binding, as last read from the screen
        (reading them asks every node's ``check_action``): they hold until the bindings
        change."""

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: Screen[Any]) -> None:
        self._laid_out = self._listed = None
        if not self.size.width:  # not laid out yet: the layout will ask for the lines
            self.refresh(layout=True)
            return
        before = len(self._shown)
        self.refresh(layout=len(self._lines(self.size.width)) != before)

    def _entries(self, gap: str) -> list[tuple[str, Text]]:
        """(action without parameters, its entry) of each shown, enabled binding; ``gap``
        ends each entry."""
        if self._listed is None:
            self._listed = []
            seen: set[str] = set()
            for active in self.screen.active_bindings.values():
                binding = active.binding
                if not binding.show or not active.enabled or binding.action in seen:
                    continue
                seen.add(binding.action)
                key = self.app.get_key_display(binding)
                self._listed.append((binding.action, key, binding.description))
        entries: list[tuple[str, Text]] = []
        for action, key, description in self._listed:
            entry = Text()
            entry.append(f" {key} ", KEY)
            entry.append(f" {description}{gap}")
            entries.append((action.partition("(")[0], entry))
        return entries

    def _lines(self, width: int) -> list[Text]:
        """The entries in lines of ``width`` cells: on one line if they fit, leaving out
        the droppable groups as needed, then closer together; else on up to
        :data:`MAX_LINES` lines. The same as last time until the bindings change (Textual
        publishes every change of the screen's bindings, focus included, as its Footer
        expects: :meth:`_bindings_changed`)."""
        if self._laid_out is not None and self._laid_out[0] == width:
            return self._laid_out[1]
        for gap in ("  ", " "):
            entries = self._entries(gap)
            for group in self.droppable:
                if _cells(entries) <= width:
                    break
                entries = [(a, e) for a, e in entries if a not in group]
            if _cells(entries) <= width:
                break
        lines: list[Text] = [Text(no_wrap=True, overflow="ellipsis")]
        for _, entry in entries:
            full = lines[-1].cell_len + cell_len(entry.plain.rstrip()) > width
            if lines[-1] and full and len(lines) < MAX_LINES:
                lines.append(Text(no_wrap=True, overflow="ellipsis"))
            lines[-1].append_text(entry)
        self._shown = lines
        self._laid_out = (width, lines)
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Text:
        width = self.size.width
        lines = [line.copy() for line in self._lines(width)]
        for line in lines:
            if width and line.cell_len > width:  # its last gap, else what cannot fit
                line.rstrip()
                line.truncate(width, overflow="ellipsis")
        return Text("\n").join(lines)


def _cells(entries: list[tuple[str, Text]]) -> int:
    """The cells ``entries`` take on one line (the last one's trailing gap shows nothing)."""
    return cell_len("".join(e.plain for _, e in entries).rstrip())
