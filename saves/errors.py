"""The errors of the saves package: a save that cannot be read, written, named or played.

Every message is one plain-text sentence (no markup, no control characters, input quoted
and cut short by :mod:`saves.text`) that names the file or the name and says what is wrong.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from saves.text import tame

if TYPE_CHECKING:
    from saves.lock import Holder


class SaveError(Exception):
    """A save file could not be loaded or written, or a save name is not allowed.

    ``str(error)`` is one sentence a player can read: it names the file (or the name) and
    says what is wrong. The file itself is never modified by the failed operation.
    """

    def __init__(self, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        self.path = path
        """The file concerned, when there is one."""


class GameOpenElsewhere(SaveError):
    """The game is open for play in another process (another window, another login).

    ``holder`` says who holds it (pid, user, host, tty, since when), or is None when the
    lock file could not be read. The game may still be watched or taken over.
    """

    def __init__(self, message: str, path: Path | None, holder: Holder | None) -> None:
        super().__init__(message, path)
        self.holder = holder


class ReadOnly(SaveError):
    """A change was asked of a session that only watches its game: nothing was changed."""


class TakenOver(ReadOnly):
    """Another process took the game over (or deleted it): this session did not apply the
    change asked, and is read-only from now on. ``holder`` is who took it, when known."""

    def __init__(self, message: str, path: Path | None, holder: Holder | None) -> None:
        super().__init__(message, path)
        self.holder = holder


def load_error(path: Path, problem: str) -> SaveError:
    """A :class:`SaveError` for a file that cannot be loaded."""
    return SaveError(f"Cannot load {path}: {problem}.", path)


def write_error(path: Path, problem: str) -> SaveError:
    """A :class:`SaveError` for a file that cannot be written."""
    return SaveError(f"Cannot save {path}: {problem}.", path)


def mismatch(detail: str) -> str:
    """The problem of a file that is JSON but not shaped like a save; ``detail`` says what
    and where (msgspec's words, e.g. "Expected `int`, got `str` - at `$.seed`"), and is
    quoted cut short, as it may quote the file."""
    what, at, where = detail.rpartition(" - at `")
    if not at:
        what, where = detail, ""
    return f"it does not match the save format ({lower_first(tame(what))}{at}{tame(where)})"


def lower_first(text: str) -> str:
    """``text`` with a lower-case first letter, unless it starts an acronym ("JSON")."""
    if text[1:2].isupper():
        return text
    return text[:1].lower() + text[1:]


_READING = {
    errno.EACCES: "permission denied (this user may not read it)",
    errno.EPERM: "permission denied (this user may not read it)",
    errno.ELOOP: "it is a symbolic link (a save must be a plain file)",
}
_WRITING = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EROFS: "the save folder is on a read-only file system",
    errno.EACCES: "permission denied (this user may not write in the save folder)",
    errno.EPERM: "permission denied (this user may not write in the save folder)",
    errno.ENOLCK: "the save folder cannot hold locks (no lock support on its file system)",
}


def describe_os_error(exc: OSError, *, writing: bool = True) -> str:
    """A short description of ``exc`` in words, without the path (the caller names it);
    ``writing`` says whether it happened writing (or reading) a save."""
    words = (_WRITING if writing else _READING).get(exc.errno or 0)
    if words is None and exc.errno == errno.EROFS:
        words = _WRITING[errno.EROFS]
    return words or lower_first((exc.strerror or str(exc)).rstrip("."))


def folder_problem(folder: Path) -> str | None:
    """Why ``folder`` cannot be a save folder when something in its path is not a folder
    ("the save folder X is a file, not a folder"), else None (it exists, or can be made)."""
    for part in (folder, *folder.parents):
        try:
            info = os.stat(part)
        except (FileNotFoundError, NotADirectoryError):
            continue  # look further up for what is in the way
        except OSError as exc:
            return f"the save folder {folder} cannot be reached ({describe_os_error(exc)})"
        if stat.S_ISDIR(info.st_mode):
            return None
        if part == folder:
            return f"the save folder {folder} is a file, not a folder"
        return f"the save folder {folder} cannot be made: {part} is a file, not a folder"
    return None
