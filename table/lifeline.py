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
