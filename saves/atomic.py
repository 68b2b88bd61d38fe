"""Writing a file so that a crash at any moment leaves either the old or the new content.

The bytes go to a temporary file in the same folder, are flushed and fsync'ed, then
``os.replace`` puts them in place in one step; the folder is fsync'ed too so the rename
itself survives a power cut. Every write uses its own temporary file, so a second write
started by a signal handler in the middle of the first cannot interleave with it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

from saves.errors import SaveError, write_error

TEMP_SUFFIX = ".tmp"

_PROBLEMS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EROFS: "the save folder is on a read-only file system",
    errno.EACCES: "permission denied (the save folder is read-only)",
    errno.EPERM: "permission denied (the save folder is read-only)",
}


def describe_os_error(exc: OSError) -> str:
    """A short description of ``exc`` in words, without the path (the caller names it)."""
    return _PROBLEMS.get(exc.errno or 0) or (exc.strerror or str(exc)).lower()


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically; raises :class:`SaveError` on failure, in
    which case ``path`` keeps its previous content and no temporary file is left behind."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    except OSError as exc:
        raise write_error(path, describe_os_error(exc)) from None
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except OSError as exc:
        raise write_error(path, describe_os_error(exc)) from None
    finally:
        # Nothing to remove once replaced; otherwise the temp must not outlive a failure.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    fsync_folder(path.parent)


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


__all__ = ["SaveError", "describe_os_error", "fsync_folder", "is_temp_file", "write_atomically"]
