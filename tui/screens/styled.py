"""Screens styled once as they open, not twice (issue 29, target 4: the first frame).

Textual styles every widget as it is mounted, then, when the new screen comes in front,
styles the whole screen again (``ScreenResume.refresh_styles``, true for every push): on
the new-game form, the first frame of a first start, that second pass over its fields
costs about as much as the first (``bench/bench_tui.py``). Nothing can have changed in
between: the stylesheet is the one each widget was just styled with, and a change of
classes or focus restyles what it touches by itself. So a screen made of
:class:`StyledAtMount` says, through that public flag, that its first resume needs no
second pass; every later resume (a dialog closed over it, the theme changed meanwhile)
restyles it as Textual always does.

It relies on Textual's order of handlers: a subclass's handler of a message runs before
its bases' (the order ``prevent_default`` relies on), so the flag is set before
``Screen`` reads it. The snapshot tests (tests/tui) show each screen as styled.
"""

from __future__ import annotations

from textual import events


class StyledAtMount:
    """A mix-in for a :class:`textual.screen.Screen`: its first resume, as it opens, keeps
    the styles its widgets were mounted with (see the module docstring)."""

    _resumed = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False
