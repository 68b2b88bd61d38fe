"""One live writer per game: who holds a game open, and the short lock every write takes.

Why: the same player logged in twice (two SSH sessions, or the shared account of
docs/playing-over-ssh.md) must never have two windows autosaving their own log of one game,
the last writer silently winning. The protocol, for game NAME in a save folder:

- ``.NAME.lock`` says who holds the game: a small JSON :class:`Holder` record (a token, pid,
  user, host, tty, since when). The holder keeps that very file open with
  ``flock(LOCK_EX)``; the kernel drops a flock when its process ends, however it ends, so a
  lock file that nobody has flocked is stale and free to replace.
- A claim never edits a lock file in place: it writes its record to a new file, flocks it,
  and renames it over ``.NAME.lock``. So the holder *is* the file at that name: a session
  owns its game exactly while ``.NAME.lock`` is the file it holds open (same device and
  inode), and a rename by anyone else (taking over) ends that at once.
- Every change of holder and every write of a save happens under the folder's short write
  lock (``flock`` of :data:`FOLDER_LOCK`, held for the milliseconds of one write): opening
  checks that the current lock file is not flocked, then installs its own; taking over
  installs its own regardless; a write checks that its session still owns the game, then
  writes. So no write can land after a take-over has read the game, and a session that was
  taken over refuses its next move before changing anything.
- Probes (is it held? by whom?) take a shared ``flock`` on the lock file for an instant:
  they conflict with a holder, never with each other, and need no write lock.
- In one process, the sessions of one game share one :class:`Claim`: the process is the
  instance ("open in another window" means another process), and the user interface
  keeps one session per game. A process forked from a holder never holds what its parent
  held.

Failures to lock (a read-only folder, a file system without ``flock``) raise
:class:`CannotLock`, which the session turns into "not saved"; it never writes unlocked.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import getpass
import os
import socket
import stat
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

import msgspec

from saves.atomic import TEMP_SUFFIX
from saves.errors import GameOpenElsewhere, describe_os_error, folder_problem
from saves.format import safe_time
from saves.names import lock_path
from saves.text import cut, printable

FOLDER_LOCK: Final = ".mykerinos.lock"
"""The folder's short write lock; a hidden file that is never removed (removing a lock
file others may be waiting on would let two processes hold it)."""
WRITE_WAIT: Final = 5.0
"""Seconds a write waits for another process's write before saying the folder is busy."""
_HOLDER_BYTES: Final = 4096
_Identity = tuple[int, int]


class CannotLock(Exception):
    """The folder cannot hold the locks (read-only, no ``flock``, busy): ``problem`` says
    why, in the words of :func:`saves.errors.describe_os_error`."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class Holder(msgspec.Struct, frozen=True):
    """Who holds a game: the content of its lock file."""

    token: str
    pid: int
    user: str
    host: str
    tty: str | None
    since: datetime
    deleted: bool = False
    """The holder deleted the game (a forced delete leaves this record behind)."""

    def describe(self) -> str:
        """Where and since when, in words: "in another window since 14:02 (pid 123, tty
        pts/3)". Every field is shown printable and cut short: the file may be hostile."""
        return f"in another window since {clock_time(self.since)} ({self.where()})"

    def where(self) -> str:
        parts = [f"pid {self.pid}"]
        if self.user != _USER:
            parts.insert(0, f"user {cut(printable(self.user), 32)}")
        if self.host != _HOST:
            parts.append(f"on {cut(printable(self.host), 40)}")
        if self.tty:
            parts.append(f"tty {cut(printable(self.tty.removeprefix('/dev/')), 20)}")
        return ", ".join(parts)


def clock_time(when: datetime) -> str:
    """``when`` in local time: "14:02" today, else "3 Jan 14:02"."""
    local = safe_time(when).astimezone()
    today = datetime.now(local.tzinfo).date() == local.date()
    return local.strftime("%H:%M" if today else "%d %b %H:%M")


def _tty() -> str | None:
    for fd in (0, 1, 2):
        with contextlib.suppress(OSError):
            return os.ttyname(fd)
    return None


def _user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):
        return str(os.getuid())


_USER: Final = _user()
_HOST: Final = socket.gethostname()


class Claim:
    """This process's hold on one game: its lock file, open and flocked."""

    def __init__(self, folder: Path, name: str, fd: int, holder: Holder) -> None:
        self.folder, self.name, self.fd, self.holder = folder, name, fd, holder
        info = os.fstat(fd)
        self.identity: _Identity = (info.st_dev, info.st_ino)
        self.pid = os.getpid()
        self.users = 1
        """Sessions of this process sharing the claim."""


_mutex = threading.RLock()
"""Guards the two tables below; held through a write so threads of one process take
turns (re-entrant: a signal handler saving in the middle of a save goes on)."""
_claims: dict[_Identity, Claim] = {}
_folder_locks: dict[str, list[int]] = {}
"""Folder → [fd of its flocked write lock, nesting depth] while this process writes."""


@contextlib.contextmanager
def writing(folder: Path) -> Iterator[None]:
    """Hold the folder's short write lock (re-entrant within the process); raises
    :class:`CannotLock` when the folder cannot hold it or stays busy :data:`WRITE_WAIT`."""
    key = os.path.abspath(folder)
    with _mutex:
        entry = _folder_locks.get(key)
        if entry is None:
            entry = _folder_locks[key] = [_take_folder_lock(folder), 0]
        entry[1] += 1
        try:
            yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del _folder_locks[key]
                os.close(entry[0])


def _take_folder_lock(folder: Path) -> int:
    path = folder / FOLDER_LOCK
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = _open_lock_file(path, create=True)
    except OSError as exc:
        raise CannotLock(folder_problem(folder) or describe_os_error(exc)) from None
    deadline = time.monotonic() + WRITE_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                raise CannotLock(
                    f"the save folder is busy (another Mykerinos has been writing in it "
                    f"for {WRITE_WAIT:.0f} seconds)"
                ) from None
            time.sleep(0.005)
        except OSError as exc:
            os.close(fd)
            raise CannotLock(describe_os_error(exc)) from None


def _open_lock_file(path: Path, *, create: bool) -> int:
    """A descriptor of the plain file ``path`` (never through a link, never blocking on a
    FIFO), read-write when allowed; raises OSError (ELOOP, EEXIST for a non-file)."""
    flags = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags | os.O_RDWR | (os.O_CREAT if create else 0), 0o600)
    except OSError as exc:
        if exc.errno not in (errno.EACCES, errno.EROFS, errno.EPERM, errno.EISDIR):
            raise
        fd = os.open(path, flags | os.O_RDONLY)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EEXIST, f"{path.name} is not a plain file")
    return fd


# ---------------------------------------------------------------- claiming


def claim(folder: Path, name: str, *, take_over: bool = False, deleted: bool = False) -> Claim:
    """This process's claim on game ``name``, under :func:`writing`: shared when the process
    already holds it; else the lock file is installed, unless another process holds it
    and ``take_over`` is False (:class:`GameOpenElsewhere`). Raises :class:`CannotLock`
    when the folder cannot hold a lock file."""
    path = lock_path(folder, name)
    with _mutex:
        current = _own_claim(path)
        if current is not None:
            current.users += 1
            return current
    if not take_over:
        holder = held_elsewhere(folder, name)
        if holder is not None:
            raise _open_elsewhere(folder, name, holder)
    return _install(folder, name, deleted)


def _open_elsewhere(folder: Path, name: str, holder: Holder | bool) -> GameOpenElsewhere:
    where = holder.describe() if isinstance(holder, Holder) else "in another window"
    path = folder / f"{name}.json"
    known = holder if isinstance(holder, Holder) else None
    return GameOpenElsewhere(f"The game {name!r} is open {where}.", path, known)


def _install(folder: Path, name: str, deleted: bool) -> Claim:
    holder = Holder(
        token=os.urandom(8).hex(),  # secrets.token_hex(8), without importing it
        pid=os.getpid(),
        user=_USER,
        host=_HOST,
        tty=_tty(),
        since=datetime.now(UTC),
        deleted=deleted,
    )
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{name}.lock.", suffix=TEMP_SUFFIX)
    except OSError as exc:
        raise CannotLock(folder_problem(folder) or describe_os_error(exc)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(fd, msgspec.json.encode(holder))
        os.replace(temp, lock_path(folder, name))
    except OSError as exc:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise CannotLock(describe_os_error(exc)) from None
    new = Claim(folder, name, fd, holder)
    with _mutex:
        _claims[new.identity] = new
    return new


def _own_claim(path: Path) -> Claim | None:
    """The claim of this process whose file is at ``path`` now, if any."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    found = _claims.get((info.st_dev, info.st_ino))
    return found if found is not None and found.pid == os.getpid() else None


def owns(claim: Claim) -> bool:
    """Whether ``claim`` still holds its game (nobody took it over); call under
    :func:`writing` for the answer to stay true while writing."""
    if claim.pid != os.getpid():
        return False
    try:
        info = os.stat(lock_path(claim.folder, claim.name), follow_symlinks=False)
    except OSError:
        return False
    return (info.st_dev, info.st_ino) == claim.identity


def release(claim: Claim, *, keep_file: bool = False) -> None:
    """One session of this process lets go of ``claim``; the last one removes the lock
    file (if still its own, and not ``keep_file``) and closes it, which drops the flock."""
    with _mutex:
        claim.users -= 1
        if claim.users > 0:
            return
        _claims.pop(claim.identity, None)
    try:
        if claim.pid == os.getpid() and not keep_file:
            with writing(claim.folder):
                if owns(claim):
                    os.unlink(lock_path(claim.folder, claim.name))
    except (CannotLock, OSError):
        pass  # a stale lock file is harmless: nobody holds its flock
    finally:
        os.close(claim.fd)


# ---------------------------------------------------------------- probing


def held_elsewhere(folder: Path, name: str) -> Holder | bool | None:
    """Who holds game ``name`` in another process: their :class:`Holder`, True when the
    lock is held but its record cannot be read, None when nobody else holds it."""
    path = lock_path(folder, name)
    if _own_claim(path) is not None:
        return None
    try:
        fd = _open_lock_file(path, create=False)
    except OSError:
        return None  # no lock file, or none that anybody can hold
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return read_holder(fd) or True
    except OSError:
        return None
    finally:
        os.close(fd)
    return None


def read_holder(fd: int) -> Holder | None:
    """The record in the open lock file ``fd``; None if it is not one (hostile, empty)."""
    try:
        data = os.pread(fd, _HOLDER_BYTES, 0)
        return msgspec.json.decode(data, type=Holder)
    except (OSError, msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return None


def holder_at(folder: Path, name: str) -> Holder | None:
    """The record in game ``name``'s lock file now (held or not), if it is readable."""
    try:
        fd = _open_lock_file(lock_path(folder, name), create=False)
    except OSError:
        return None
    try:
        return read_holder(fd)
    finally:
        os.close(fd)


def remove_if_stale(folder: Path, name: str) -> None:
    """Remove game ``name``'s lock file if nobody holds it; under :func:`writing`."""
    path = lock_path(folder, name)
    if _own_claim(path) is None and held_elsewhere(folder, name) is None:
        with contextlib.suppress(OSError):
            path.unlink()


def _forget_after_fork() -> None:
    """In a forked child: the parent's claims and write locks are not the child's."""
    global _mutex
    _mutex = threading.RLock()
    _claims.clear()
    _folder_locks.clear()


os.register_at_fork(after_in_child=_forget_after_fork)
