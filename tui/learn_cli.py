"""`mykerinos learn --list`: the lessons, numbered in teaching order, with a mark on those
the player has done (issue 28).

Imports no Textual (standard library, core and saves only): it runs where there is no
terminal. The mark is ``✓`` where the output's encoding can show it, else ``[x]`` (and
``[ ]`` for a lesson not done), so a plain ASCII terminal reads it too. Progress that
cannot be read is no progress: the list is printed all the same.
"""

from __future__ import annotations

import getpass
import sys
from pathlib import Path
from typing import TextIO

import saves
from core.lessons import LESSONS
from saves.text import shown as shown_text

DONE_MARK = "✓"
NAME_LIMIT = 40
"""A name is shown at most this long (cut with an ellipsis), so a line fits 80 columns."""


def local_player() -> str:
    """The player on this machine when no name is given: the account's name (else
    ``player``), the name lessons are remembered under outside the doors."""
    try:
        return getpass.getuser() or "player"
    except (OSError, KeyError, ImportError):
        return "player"


def _can_show(text: str, out: TextIO) -> bool:
    encoding = getattr(out, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def lesson_lines(done: set[str], fancy: bool) -> list[str]:
    """One line per lesson: its number, a mark when done, its title."""
    marks = (DONE_MARK, " ") if fancy else ("[x]", "[ ]")
    lines = []
    for number, chosen in enumerate(LESSONS, start=1):
        mark = marks[0] if chosen.key in done else marks[1]
        lines.append(f"{number:>2}. {mark} {chosen.title}")
    return lines


def print_lessons(player: str | None, folder: Path | None, out: TextIO | None = None) -> int:
    """Print the lessons with a mark on those ``player`` has done (None: the local
    player, :func:`local_player`), progress read from ``folder`` (None: the default,
    :func:`saves.lessons_folder`). Returns the exit status, 0."""
    stream = out if out is not None else sys.stdout
    name = player if player is not None else local_player()
    progress = saves.LessonProgress(folder if folder is not None else saves.lessons_folder())
    done = progress.done(name)
    fancy = _can_show(DONE_MARK, stream)
    shown = shown_text(name, NAME_LIMIT)
    if not _can_show(shown, stream):
        shown = shown.encode("ascii", "backslashreplace").decode("ascii")
    count = sum(chosen.key in done for chosen in LESSONS)
    stream.write(f"Lessons for {shown}: {count} of {len(LESSONS)} done\n")
    for line in lesson_lines(done, fancy):
        stream.write(line + "\n")
    stream.write("Start one with: mykerinos learn\n")
    stream.flush()
    return 0
