"""The door's host key: Ed25519, made at the first start and kept beside the store.

Friends check its fingerprint (``ssh-keygen -lf`` of the ``.pub`` file, or the line
``mykerinos serve --ssh`` prints) the first time they connect; a new key each start would
teach them to ignore the warning that matters. The private key is written once, readable
by its owner only; one that others can read is refused, as sshd refuses it. The key appears
whole or not at all (written aside, then linked into place: a start killed, or a disk
full, in the middle never leaves a key that stops every later start), and its public half
is written again whenever it is missing (``mykerinos invite`` tells the fingerprint from
it).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

import asyncssh

from table.doors.options import KEY_NAME


class HostKeyError(OSError):
    """The host key cannot be used; ``str`` says why, in one sentence (an ``OSError``:
    like a port in use, it stops the start with one line)."""


def host_key(folder: Path) -> asyncssh.SSHKey:
    """The door's private host key in ``folder``, made (with its ``.pub``) when absent."""
    path = folder / KEY_NAME
    if not path.exists():
        _create(path)
    try:
        mode = path.stat().st_mode
        key = asyncssh.read_private_key(path)
    except (OSError, asyncssh.KeyImportError) as exc:
        raise HostKeyError(f"cannot read the door's host key {path}: {exc}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise HostKeyError(f"the door's host key {path} can be read by others: chmod 600 it")
    public = path.with_name(path.name + ".pub")
    if not public.exists():
        with contextlib.suppress(OSError):  # only for the host's eyes: the door needs none
            public.write_bytes(key.export_public_key())
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """``SHA256:…``, as ``ssh-keygen -l`` and the ssh client print it."""
    return key.get_fingerprint("sha256")


def _create(path: Path) -> None:
    """Write a new key with mode 600 from the start (never readable by others, even
    for a moment) under a name of its own, then link it into place whole (another start
    that made one at the same moment wins: its key is used), then its public half."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="mykerinos door")
    aside = path.with_name(f".{path.name}.{os.getpid()}")
    aside.unlink(missing_ok=True)
    try:
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(key.export_private_key())
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(aside, path)
        except FileExistsError:
            return  # another start made it at the same moment: use theirs
        except OSError:  # a file system without links: the store's lock keeps starts apart
            os.replace(aside, path)
    finally:
        aside.unlink(missing_ok=True)
    public = path.with_name(path.name + ".pub")
    public.write_bytes(key.export_public_key())
