"""Writing a file so that a crash at any moment leaves either the old or the new content.

The bytes go to a temporary file in the same folder, are flushed and fsync'ed, then
``os.replace`` puts them in place in one step; the folder is fsync'ed too so the rename
itself survives a power cut. Every write uses its own temporary file, so a second write
started by a signal handler in the middle of the first cannot interleave with it.

A new file is created *exclusively*: the finished temporary file is hard-linked to the
name, which fails if the name exists, so two processes creating the same name at the same
moment can never both succeed (where a file system has no hard links, the name is
reserved with ``O_CREAT | O_EXCL`` first and then replaced).
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

from saves.errors import SaveError, describe_os_error, folder_problem, write_error

TEMP_SUFFIX = ".tmp"
_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EMLINK}


class Exists(SaveError):
    """An exclusive write found the name taken: nothing was written."""


def write_atomically(path: Path, data: bytes, *, exclusive: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically (``exclusive``: create it, raising
    :class:`Exists` if it exists); raises :class:`SaveError` on failure, in which case
    ``path`` keeps its previous content and no temporary file is left behind."""
    temp = _write_temp(path, data)
    try:
        if exclusive:
            _link_exclusively(temp, path)
        else:
            os.replace(temp, path)
    except OSError as exc:
        raise write_error(path, describe_os_error(exc)) from None
    finally:
        # Nothing to remove once replaced; otherwise the temp must not outlive a failure.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    fsync_folder(path.parent)


def _write_temp(path: Path, data: bytes) -> str:
    """A fsync'ed temporary file holding ``data`` beside ``path``; its name."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    except OSError as exc:
        problem = folder_problem(path.parent) or describe_os_error(exc)
        raise write_error(path, problem) from None
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise write_error(path, describe_os_error(exc)) from None
    return temp


def _link_exclusively(temp: str, path: Path) -> None:
    try:
        os.link(temp, path)
        return
    except FileExistsError:
        raise Exists(f"A save named {path.stem!r} already exists.", path) from None
    except OSError as exc:
        if exc.errno not in _NO_HARD_LINKS:
            raise
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        raise Exists(f"A save named {path.stem!r} already exists.", path) from None
    os.replace(temp, path)


def fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable where the platform allows it (not on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a directory; the rename is still atomic
    finally:
        os.close(fd)


def is_temp_file(path: Path) -> bool:
    """Whether ``path`` is a temporary file left by an interrupted write."""
    return path.name.startswith(".") and path.name.endswith(TEMP_SUFFIX)


__all__ = ["Exists", "SaveError", "fsync_folder", "is_temp_file", "write_atomically"]
