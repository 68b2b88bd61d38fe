"""Screens styled once as they open, and laid out again only when their size changes
(issue 29, target 4: the first frame).

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

Textual also lays a screen out again for every ``Resize`` it gets, and it gets some that
change nothing: the app sends on the size it started at and the one its driver reads
(the same one), and a screen tells itself its own size after its first layout. A game
screen's first frame paid for three such layouts after the one that placed it (1.5 % of
the first frame's instructions, ``bench/tui_instructions.py``). A screen made of
:class:`LaidOutPerSize` keeps its layout when a ``Resize`` brings the size it already
has; a new size lays it out as always. (Its ``Resize`` handler also sets Textual's
breakpoint classes, which these screens do not use.)
"""

from __future__ import annotations

from typing import cast

from textual import events
from textual.widget import Widget


class StyledAtMount:
    """A mix-in for a :class:`textual.screen.Screen`: its first resume, as it opens, keeps
    the styles its widgets were mounted with (see the module docstring)."""

    _resumed = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False


class LaidOutPerSize:
    """A mix-in for a :class:`textual.screen.Screen`: a ``Resize`` to the size it is laid
    out at already is not laid out again (see the module docstring)."""

    def on_resize(self, event: events.Resize) -> None:
        if event.size == cast(Widget, self).outer_size:
            event.prevent_default()  # Screen's handler runs after this one: skip it
