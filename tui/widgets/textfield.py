"""A one-line text field that keeps the order of fast typing.

Textual's `Input` types a printable key in its own key handler, but its editing keys
(Backspace, Enter, the arrows, Ctrl+A…) are bindings, which Textual runs only once the key
has bubbled up to the app. Keys that arrive together (a fast typist over SSH, `tmux
send-keys`) are each handed to the field before the first binding has run, so letters
overtake the Backspaces and the Enter before them: "30 Backspaces, `my save 1`, Enter" sent
at once saved "my s", or an empty name. This field runs its own bindings at once, in the
order the keys came.

It is also styled once as it is mounted, not before: `Input` sets its classes (``compact``)
while it is made, and Textual styles a widget again at each change of its classes, even
one not yet in a screen, whose styles its mount then computes anew (the new-game form's
five fields paid about 10 ms of the first frame for it, ``bench/bench_tui.py``).

A paste longer than the room left in a bounded field is cut to fit, and the field says so
(:class:`TextField.Cut`): `Input` left such a paste out whole, without a word.
"""

from __future__ import annotations

from textual import events
from textual.binding import BindingsMap
from textual.message import Message
from textual.widgets import Input

_BOUND = BindingsMap(Input.BINDINGS).key_to_bindings
"""The editing keys of `Input`, with their actions."""


class TextField(Input):
    """An `Input` whose editing keys act in typing order (see the module docstring)."""

    class Cut(Message):
        """A paste did not fit: its first ``kept`` characters of ``pasted`` were typed,
        the field holding at most ``most``."""

        def __init__(self, kept: int, pasted: int, most: int) -> None:
            super().__init__()
            self.kept, self.pasted, self.most = kept, pasted, most

    def on_paste(self, event: events.Paste) -> None:
        """Type what fits of a paste too long for the field (over the selection, as
        `Input` would: its first line) and post :class:`Cut`; a paste that fits is left
        to `Input`."""
        if not self.max_length or not event.text:
            return
        line = event.text.splitlines()[0]
        start, end = sorted(self.selection)
        room = self.max_length - (len(self.value) - (end - start))
        if len(line) <= room:
            return
        kept = line[: max(room, 0)]
        self.replace(kept, start, end)
        self.post_message(self.Cut(len(kept), len(line), self.max_length))
        event.stop()
        event.prevent_default()

    def update_node_styles(self, animate: bool = True) -> None:
        if self.parent is not None:  # else not yet mounted: its mount styles it
            super().update_node_styles(animate)

    async def on_key(self, event: events.Key) -> None:
        if not event.is_printable and await self.take(event):
            event.stop()
            event.prevent_default()  # Input's own handler would see it again

    async def take(self, event: events.Key) -> bool:
        """Apply ``event`` to the field now: a printable key is typed (over the selection),
        an editing key runs its action. Returns False for any other key (Esc, Tab…).

        A screen calls this for keys that reached it before the field had focus."""
        if event.is_printable and event.character is not None:
            selection = self.selection
            if selection.is_empty:
                self.insert_text_at_cursor(event.character)
            else:
                self.replace(event.character, *selection)
            return True
        for key in (event.key, *event.aliases):
            for binding in _BOUND.get(key, ()):
                await self.run_action(binding.action)
                return True
        return False
