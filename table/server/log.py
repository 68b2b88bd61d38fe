"""The server's log: one line per event on stderr, and no flood of them.

A fault that repeats (the descriptor limit reached at every accept, a client sending
garbage in a loop) is written once per :data:`QUIET` seconds with a count of the lines
held back, never once per attempt. Lines are written by a thread of their own: a reader
of stderr that stalls (a full pipe, journald under load) must never stop the event loop
that serves every table; past :data:`BACKLOG` lines waiting, new ones are dropped and
counted.
"""

from __future__ import annotations

import queue
import sys
import threading
import time

QUIET = 60.0
"""Seconds between two lines about the same repeated fault."""
BACKLOG = 10_000
"""Lines waiting to be written before new ones are dropped."""

_last: dict[str, tuple[float, int]] = {}
_lines: queue.Queue[str] = queue.Queue(BACKLOG)
_dropped = 0
_writer: threading.Thread | None = None


def log(words: str) -> None:
    """One line on stderr, with the time (written soon, by the log's thread)."""
    global _dropped, _writer
    if _writer is None:
        _writer = threading.Thread(target=_write, name="log", daemon=True)
        _writer.start()
    line = time.strftime("%H:%M:%S ") + words
    if _dropped:
        line += f" ({_dropped} lines dropped before this one: stderr was not read)"
    try:
        _lines.put_nowait(line)
    except queue.Full:
        _dropped += 1
    else:
        _dropped = 0


def _write() -> None:
    while True:
        line = _lines.get()
        try:
            print(line, file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass
        finally:
            _lines.task_done()


def flush(within: float = 2.0) -> None:
    """Wait (at most ``within`` seconds) until every line is written: at the stop."""
    deadline = time.monotonic() + within
    while _lines.unfinished_tasks and time.monotonic() < deadline:
        time.sleep(0.01)


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
