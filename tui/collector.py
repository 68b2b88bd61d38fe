"""The cyclic garbage collector, paused while the game starts (issue 29, target 4).

Start-up makes a few hundred thousand objects (Textual's modules, the stylesheet, the
screens) that live as long as the app, and the collector, triggered by allocations, would
walk them again and again: about a seventh of the CPU time to the first frame
(``bench/bench_tui.py``). So the command pauses it before the imports; when the first frame
is on screen (Textual's ``Ready``) what start-up made is frozen (:func:`gc.freeze`: moved
where the collector never looks again; in a door's forked session, also pages it no longer
writes to) and the collector resumes for everything made after.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

_paused = False


@contextlib.contextmanager
def paused(when: bool = True) -> Iterator[None]:
    """The collector paused (``when``) until the first frame calls :func:`resume`, or at
    the latest until the block ends (an app that never drew a frame)."""
    if when:
        pause()
    try:
        yield
    finally:
        resume()


def pause() -> None:
    """Pause the collector until :func:`resume` (the first frame)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Freeze what was made while paused and collect again; nothing if not paused."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
