"""Save names: the file stem of a save, kept to a small alphabet so that a name can never
point outside the save folder (no separators, no dots, no absolute paths).
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Final

from saves.errors import SaveError

MAX_NAME_LENGTH: Final = 64
SUFFIX: Final = ".json"
_NAME = re.compile(r"[A-Za-z0-9 _-]+")
_AUTO_NAME = re.compile(r"game-\d{8}-\d{6}(-\d+)?")


def check_name(name: object) -> str:
    """``name`` itself if it is a valid save name; raises :class:`SaveError` otherwise.

    Valid: 1..64 characters among letters, digits, space, ``_`` and ``-``, not starting or
    ending with a space (which would be invisible in a list).
    """
    if not isinstance(name, str) or not name:
        raise SaveError("A save needs a name.")
    if len(name) > MAX_NAME_LENGTH:
        raise SaveError(
            f"The save name {name[:20]!r}... is longer than {MAX_NAME_LENGTH} characters."
        )
    if not _NAME.fullmatch(name) or name != name.strip():
        raise SaveError(
            f"The save name {name!r} may only hold ASCII letters, digits, spaces, '_' and '-'."
        )
    return name


def save_path(folder: Path, name: str) -> Path:
    """The file of save ``name`` in ``folder``; raises :class:`SaveError` if the name is not
    valid or if the file would resolve outside the folder (e.g. through a symbolic link)."""
    check_name(name)
    path = folder / f"{name}{SUFFIX}"
    root = folder.resolve()
    if not path.resolve().is_relative_to(root):
        raise SaveError(f"The save {name!r} points outside the save folder {root}.", path)
    return path


def auto_name(now: datetime, taken: set[str]) -> str:
    """A fresh name for a new game started at ``now``, not among ``taken``."""
    base = now.strftime("game-%Y%m%d-%H%M%S")
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    return name


def is_auto_name(name: str) -> bool:
    """Whether ``name`` looks like one made by :func:`auto_name`."""
    return _AUTO_NAME.fullmatch(name) is not None
