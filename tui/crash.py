"""Crash reports: an unexpected error is written to a file, never shown as a traceback.

A traceback with its local variables can hold anything the game was handling, raw save
bytes included, and a player over SSH may not be the machine's owner. So the player reads
one line saying where the report is; the report (the full traceback with locals) goes to
the user data folder (``~/.local/share/mykerinos/crash-reports`` on Linux), readable by
its owner only.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import platformdirs

KEEP = 20
"""Reports kept: older ones are removed when a new one is written."""


def folder() -> Path:
    return Path(platformdirs.user_data_dir("mykerinos", appauthor=False)) / "crash-reports"


def report_text(error: BaseException) -> str:
    """The full report of ``error``: the traceback with each frame's local variables."""
    from rich.console import Console
    from rich.traceback import Traceback

    console = Console(file=io.StringIO(), width=120, color_system=None, record=True)
    console.print(
        Traceback.from_exception(type(error), error, error.__traceback__, show_locals=True)
    )
    return console.export_text()


def write_report(error: BaseException) -> Path | None:
    """Write the report of ``error``; its path, or None if it could not be written."""
    where = folder()
    path = where / time.strftime(f"crash-%Y%m%d-%H%M%S-{os.getpid()}.txt")
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(report_text(error))
    except OSError:
        return None
    _prune(where)
    return path


def printed(command: Callable[[], int]) -> int:
    """Run ``command``, which prints its answer to stdout and returns the exit status, then
    flush stdout. A reader that closed its end (``mykerinos --list | head -1``) had what it
    wanted: no crash report nor traceback, the rest is dropped quietly and the status is 0
    (as ``mykerinos invite NAME | head -1``)."""
    try:
        status = command()
        sys.stdout.flush()  # a reader gone is found here, not in the flush at exit
    except BrokenPipeError:
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, sys.stdout.fileno())  # what is left in the buffer goes nowhere at exit
        os.close(quiet)
        return 0
    return status


def one_line(path: Path | None) -> str:
    """What the player reads."""
    where = f"a report was written to {path}" if path else "no report could be written"
    return f"Mykerinos stopped on an unexpected error; your game is saved and {where}."


def _prune(where: Path) -> None:
    with contextlib.suppress(OSError):  # best effort: a report is written either way
        reports = sorted(where.glob("crash-*.txt"), key=lambda p: p.stat().st_mtime)
        for old in reports[:-KEEP]:
            old.unlink(missing_ok=True)
