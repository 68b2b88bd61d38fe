"""The server's log: one line per event on stderr, and no flood of them.

A fault that repeats (the descriptor limit reached at every accept, a client sending
garbage in a loop) is written once per :data:`QUIET` seconds with a count of the lines
held back, never once per attempt.
"""

from __future__ import annotations

import sys
import time

QUIET = 60.0
"""Seconds between two lines about the same repeated fault."""

_last: dict[str, tuple[float, int]] = {}


def log(words: str) -> None:
    """One line on stderr, with the time."""
    print(time.strftime("%H:%M:%S ") + words, file=sys.stderr, flush=True)


def log_once(kind: str, words: str, now: float | None = None) -> bool:
    """``words`` logged unless a line of the same ``kind`` was in the last :data:`QUIET`
    seconds (then only counted, and the count said with the next line). True if written."""
    now = time.monotonic() if now is None else now
    since, held = _last.get(kind, (-QUIET, 0))
    if now - since < QUIET:
        _last[kind] = (since, held + 1)
        return False
    _last[kind] = (now, 0)
    log(words + (f" ({held} more like it in the last minute)" if held else ""))
    return True
