"""A child process that must not outlive the server that started it (a computer
player's worker, a web door's game): kill -9 of the server runs no cleanup of its own.

Linux's parent-death signal does it at once; a thread that watches the parent's pid does
it everywhere, and covers a parent that died before the signal was set.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from typing import Final

PARENT_CHECK: Final = 0.2
"""Seconds between two looks at the parent's pid."""


def die_with(parent: int, signal_number: int = signal.SIGKILL) -> None:
    """Send this process ``signal_number`` when ``parent`` (its parent's pid when it
    started) is gone: SIGKILL to end at once, SIGHUP to leave as from a dropped link."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal_number)  # PR_SET_PDEATHSIG

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os.kill(os.getpid(), signal_number)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def parent_death_signal(signal_number: int) -> None:
    """Linux's parent-death signal alone, no thread: for a process that forks (a thread
    would not be in its children, and forking beside one is unsafe). The caller checks
    its parent's pid after, for a parent that died before."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal_number)  # PR_SET_PDEATHSIG


def hang_ups_reach_children() -> None:
    """Make the programs this process starts hang up with their link even when it was
    started by ``nohup`` (or anything else that ignores SIGHUP).

    An ignored signal stays ignored across ``exec``, so every game a door started (and the
    doors' warm process, and each session it forks) would ignore the SIGHUP of a dropped
    connection, or of its lifeline, until the game's own handler is set: it would go on
    starting for nobody, and leave only when killed or by failing to write to a terminal
    that is gone. A handler that does nothing leaves this process as deaf to SIGHUP as
    ``nohup`` meant, and ``exec`` resets a handled signal to its default. Main thread
    only (Python's rule for setting a handler); nothing to do when SIGHUP is not ignored."""
    if signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
        with contextlib.suppress(ValueError):  # not the main thread: its starter's to do
            signal.signal(signal.SIGHUP, _deaf)


def _deaf(_number: int, _frame: object) -> None:
    """SIGHUP, in a process started with it ignored: still ignored."""
