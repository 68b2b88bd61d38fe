"""A moment of a table's life in words, written once for the server, the clients and
the journal: "22:56" in the reader's own time zone (each terminal formats it itself)."""

from __future__ import annotations

import time


def clock(when: float) -> str:
    """``when`` (Unix seconds) as the hour and minute where this program runs."""
    return time.strftime("%H:%M", time.localtime(when))
