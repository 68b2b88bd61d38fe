"""Save names: the file stem of a save, kept to a small alphabet so that a name can never
point outside the save folder (no separators, no dots, no absolute paths).

A name is checked as text only; the path is never resolved (a symbolic link loop would
make that fail). Whether the file at that path is a plain file, and not a link, a folder
or a FIFO, is checked when it is opened (:func:`saves.store.read_capped`).
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Final

from saves.errors import SaveError
from saves.text import hidden_character, quoted

MAX_NAME_LENGTH: Final = 64
SUFFIX: Final = ".json"
LOCK_SUFFIX: Final = ".lock"
_NAME = re.compile(r"[A-Za-z0-9 _-]+")


def check_name(name: object) -> str:
    """``name`` itself if it is a valid save name; raises :class:`SaveError` otherwise.

    Valid: 1..64 characters among letters, digits, space, ``_`` and ``-``, not starting or
    ending with a space (which would be invisible in a list).
    """
    if not isinstance(name, str) or not name:
        raise SaveError("A save needs a name.")
    hidden = hidden_character(name)
    if hidden is not None:
        raise SaveError(f"The save name contains {hidden}, which is not allowed.")
    if len(name) > MAX_NAME_LENGTH:
        raise SaveError(
            f"The save name {quoted(name, 24)} is longer than {MAX_NAME_LENGTH} characters."
        )
    if not _NAME.fullmatch(name) or name != name.strip():
        raise SaveError(
            f"The save name {quoted(name)} may only hold ASCII letters, digits, spaces, "
            "'_' and '-'."
        )
    return name


def save_path(folder: Path, name: str) -> Path:
    """The file of save ``name`` directly in ``folder``; raises :class:`SaveError` if the
    name is not valid."""
    check_name(name)
    return folder / f"{name}{SUFFIX}"


def lock_path(folder: Path, name: str) -> Path:
    """The hidden lock file of save ``name`` (see :mod:`saves.lock`); never listed."""
    check_name(name)
    return folder / f".{name}{LOCK_SUFFIX}"


def auto_name(now: datetime, taken: set[str]) -> str:
    """A fresh name for a new game started at ``now``, not among ``taken``."""
    base = now.strftime("game-%Y%m%d-%H%M%S")
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    return name
