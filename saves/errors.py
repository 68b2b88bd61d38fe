"""The one error of the saves package: a save that cannot be read, written or named."""

from __future__ import annotations

from pathlib import Path


class SaveError(Exception):
    """A save file could not be loaded or written, or a save name is not allowed.

    ``str(error)`` is one sentence a player can read: it names the file (or the name) and
    says what is wrong. The file itself is never modified by the failed operation.
    """

    def __init__(self, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        self.path = path
        """The file concerned, when there is one."""


def load_error(path: Path, problem: str) -> SaveError:
    """A :class:`SaveError` for a file that cannot be loaded."""
    return SaveError(f"Cannot load {path}: {problem}.", path)


def write_error(path: Path, problem: str) -> SaveError:
    """A :class:`SaveError` for a file that cannot be written."""
    return SaveError(f"Cannot save {path}: {problem}.", path)


def mismatch(detail: str) -> str:
    """The problem of a file that is JSON but not shaped like a save; ``detail`` says what
    and where (msgspec's words, e.g. "Expected `int`, got `str` - at `$.seed`")."""
    return f"it does not match the save format ({detail[:1].lower()}{detail[1:]})"
