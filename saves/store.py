"""The save folder: listing, opening, watching and deleting saved games by name.

A damaged file never breaks the folder: :meth:`SaveStore.list` shows it with its error,
:meth:`SaveStore.open` raises one :class:`SaveError` naming it, and neither touches it.
A save must be a plain file directly in the folder: a symbolic link (into the folder or
out of it, or a loop), a folder, a FIFO or a socket named like a save is shown damaged and
never followed or read. Times are always time-zone aware and in range
(:func:`saves.format.safe_time`), so a user interface can convert and sort them freely.

Which games are open in another process comes from their locks (:mod:`saves.lock`).
"""

from __future__ import annotations

import contextlib
import glob
import os
import stat
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import platformdirs

import core
from core.analysis import Analysis
from saves import lock
from saves.analysis import keep_in_file
from saves.atomic import is_temp_file
from saves.errors import (
    GameOpenElsewhere,
    SaveError,
    describe_os_error,
    folder_problem,
    load_error,
    write_error,
)
from saves.format import EARLIEST, LATEST, MAX_FILE_BYTES, SaveFile, decode_game, safe_time
from saves.names import LOCK_SUFFIX, SUFFIX, check_name, save_path
from saves.replay import replay
from saves.session import Session

ENV_SAVE_DIR = "MYKERINOS_SAVE_DIR"
LEFTOVER_AGE = 60.0
"""Seconds after which a save's temporary file can only be a leftover of a killed write."""

FileKey = tuple[int, int, int]
"""What tells a version of a file from another cheaply: (mtime in ns, size, inode)."""


def default_folder(cli_dir: str | None = None) -> Path:
    """Where saves live: ``cli_dir`` (``--save-dir``), else ``$MYKERINOS_SAVE_DIR``, else
    the platform's user data folder (e.g. ``~/.local/share/mykerinos/saves``)."""
    if cli_dir:
        return Path(cli_dir).expanduser()
    env = os.environ.get(ENV_SAVE_DIR)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("mykerinos", appauthor=False)) / "saves"


class SaveSummary(msgspec.Struct, frozen=True):
    """One line of the load screen. A damaged file has ``error`` set and is not openable."""

    name: str
    title: str
    players: list[str]
    season: int
    leader: str | None
    """Who leads on points (the winners once finished); None before anyone scores."""
    updated: datetime
    """When it was last played (for a damaged file: last modified); always time-zone aware
    and far enough inside ``datetime``'s range to convert to any time zone."""
    finished: bool
    error: str | None = None
    winners: tuple[str, ...] = ()
    """Once finished, the winners' names (core's final scores, tie-break included): one,
    or several sharing the win. Empty while the game goes on."""
    open_elsewhere: str | None = None
    """Who has the game open in another process and since when ("in another window since
    14:02 (pid 123, tty pts/3)"), or None. Such a game can be watched or taken over."""


class SaveStore:
    """The saves in one folder (created on the first save). Names: see :mod:`saves.names`."""

    def __init__(self, folder: Path, clock: Callable[[], datetime] | None = None) -> None:
        self.folder = Path(folder)
        self._clock = clock or (lambda: datetime.now(UTC))
        self._summaries: dict[str, tuple[tuple[int, int, int], SaveSummary]] = {}

    def now(self) -> datetime:
        """The time stamped on saves (UTC; injectable for tests)."""
        return self._clock()

    def path(self, name: str) -> Path:
        """The file of save ``name``; raises :class:`SaveError` for a name not allowed."""
        return save_path(self.folder, name)

    def names(self) -> set[str]:
        """The names of the save files in the folder (damaged ones included)."""
        return self._scan()[0]

    def _scan(self) -> tuple[set[str], set[str]]:
        """The names of the saves in the folder, and the names that have a lock file."""
        try:
            entries = os.listdir(self.folder)
        except OSError:
            return set(), set()
        saves, locks = set(), set()
        for entry in entries:
            if entry.endswith(SUFFIX):
                saves.add(entry[: -len(SUFFIX)])
            elif entry.startswith(".") and entry.endswith(LOCK_SUFFIX):
                locks.add(entry[1 : -len(LOCK_SUFFIX)])
        return {n for n in saves if _is_valid_name(n)}, {n for n in locks if _is_valid_name(n)}

    def problem(self) -> str | None:
        """Why the folder cannot hold saves or be read ("the save folder X is a file, not a
        folder"), or None (a folder that does not exist yet is fine)."""
        problem = folder_problem(self.folder)
        if problem is None and self.folder.exists():
            try:
                os.listdir(self.folder)
            except OSError as exc:
                problem = f"the save folder {self.folder} cannot be read: " + describe_os_error(
                    exc, writing=False
                )
        return problem

    def file_key(self, name: str) -> FileKey | None:
        """The :data:`FileKey` of save ``name`` (never following a link); None if absent."""
        try:
            info = os.lstat(self.path(name))
        except OSError:
            return None
        return (info.st_mtime_ns, info.st_size, info.st_ino)

    # ------------------------------------------------------------ reading

    def read(self, name: str) -> tuple[SaveFile, list[core.GameState]]:
        """The save ``name`` and its replayed states; raises :class:`SaveError`."""
        save, states, _ = self.read_keyed(name)
        return save, states

    def read_keyed(self, name: str) -> tuple[SaveFile, list[core.GameState], FileKey]:
        """:meth:`read`, with the :data:`FileKey` of the very bytes read."""
        save, states, key, _ = self.read_noted(name)
        return save, states, key

    def read_noted(self, name: str) -> tuple[SaveFile, list[core.GameState], FileKey, str | None]:
        """:meth:`read_keyed`, and why an analysis kept in the file that does not decode
        was left out (see ``saves.format.decode_game``), or None."""
        path = self.path(name)
        data, key = read_capped(path)
        save, problem = decode_game(path, data)
        return save, replay(path, save), key, problem

    def open(self, name: str) -> Session:
        """The game saved as ``name``, to play on, holding its lock until
        ``Session.close()``; raises :class:`SaveError` naming the file and the problem (the
        file is left untouched), :class:`GameOpenElsewhere` when another process holds it.

        When the folder cannot hold the lock (read-only, no lock support), the game still
        opens: ``session.lock_problem`` says why, and moves are not saved.
        """
        save, states, key, left_out = self.read_noted(name)
        claim, problem = None, None
        try:
            with lock.writing(self.folder):
                claim = lock.claim(self.folder, name)
        except lock.CannotLock as exc:
            problem = exc.problem
        if claim is not None and self.file_key(name) != key:
            try:  # its last holder saved it between our reading and claiming: read again
                save, states, key, left_out = self.read_noted(name)
            except SaveError:
                lock.release(claim)
                raise
        self._remove_leftovers(name, older_than=LEFTOVER_AGE)
        return Session(
            self, name, save, states, claim=claim, file_key=key, lock_problem=problem,
            analysis_problem=left_out,
        )  # fmt: skip

    load = open
    """The older name of :meth:`open`."""

    def watch(self, name: str) -> Session:
        """The game saved as ``name``, read-only: it never writes, takes no lock, and
        follows the file with ``Session.refresh()``. Raises :class:`SaveError` as
        :meth:`open` does."""
        save, states, key, left_out = self.read_noted(name)
        holder = lock.held_elsewhere(self.folder, name)
        where = f" (open {_describe(holder)})" if holder is not None else ""
        reason = f"You are watching the game {name!r}{where}; take it over to play."
        return Session(
            self, name, save, states, file_key=key, watching=reason, analysis_problem=left_out
        )

    def take_over(self, name: str) -> Session:
        """The game saved as ``name``, to play on, even if another process holds it: that
        process's session refuses its next change (``TakenOver``) and becomes read-only.
        The game is read from the file after the take-over, so it holds every move the
        other process saved. Raises :class:`SaveError` if the file does not load or the
        folder cannot hold the lock (then nothing is taken)."""
        self.read_keyed(name)  # a damaged game is refused before anyone loses it
        try:
            with lock.writing(self.folder):
                claim = lock.claim(self.folder, name, take_over=True)
        except lock.CannotLock as exc:
            raise write_error(self.path(name), exc.problem) from None
        try:
            save, states, key, left_out = self.read_noted(name)
        except SaveError:
            lock.release(claim)
            raise
        return Session(
            self, name, save, states, claim=claim, file_key=key, analysis_problem=left_out
        )

    def keep_analysis(
        self, name: str, analysis: Analysis, actions: list[core.Action] | tuple[core.Action, ...]
    ) -> Analysis:
        """Keep ``analysis`` of the finished game ``actions`` in save ``name``, even when
        the game is open elsewhere or was only read (``mykerinos analyse NAME``): under
        the folder's write lock, the file is read again and written back with its own
        moves, atomically, refused when they are not ``actions`` any more. Returns what is
        kept (merged with the analysis kept before); raises :class:`SaveError` naming the
        file, ``ValueError`` for an analysis of another game (see
        :func:`saves.analysis.keep_in_file`)."""
        return keep_in_file(self.path(name), analysis, actions, save_folder=True)

    def open_elsewhere(self, name: str) -> str | None:
        """Who has game ``name`` open in another process, in words, or None."""
        holder = lock.held_elsewhere(self.folder, name)
        return None if holder is None else _describe(holder)

    def list(self) -> list[SaveSummary]:
        """Every save in the folder, most recently played first; never raises."""
        names, locked = self._scan()
        summaries = []
        for name in names:
            summary = self._summary(name)
            if name in locked and (where := self.open_elsewhere(name)) is not None:
                summary = msgspec.structs.replace(summary, open_elsewhere=where)
            summaries.append(summary)
        return sorted(summaries, key=lambda s: (s.updated, s.name), reverse=True)

    def latest_unfinished(self) -> SaveSummary | None:
        """The most recently played game that is not over and loads, if any (it may be
        open elsewhere: see ``open_elsewhere``)."""
        return next((s for s in self.list() if s.error is None and not s.finished), None)

    def _summary(self, name: str) -> SaveSummary:
        path = self.folder / f"{name}{SUFFIX}"
        try:
            info = os.lstat(path)
        except OSError as exc:
            problem = describe_os_error(exc, writing=False)
            return _damaged(name, load_error(path, problem), datetime.now(UTC))
        # A file is only replayed again when it changed.
        key = (info.st_mtime_ns, info.st_size, info.st_ino)
        cached = self._summaries.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        try:
            summary = _summarise(name, *self.read(name))
        except SaveError as exc:
            summary = _damaged(name, exc, _modified(info.st_mtime))
        self._summaries[name] = (key, summary)
        return summary

    # ------------------------------------------------------------ deleting

    def delete(self, name: str, *, missing_ok: bool = False, force: bool = False) -> None:
        """Remove save ``name`` (and any temporary file an interrupted write left of it).

        Raises :class:`GameOpenElsewhere` if another process has the game open, unless
        ``force``: that process's session is then refused its next change (it is told the
        game was deleted). Raises :class:`SaveError` if it does not exist (unless
        ``missing_ok``) or cannot be removed.
        """
        path = self.path(name)
        try:
            with lock.writing(self.folder):
                self._delete_locked(name, path, missing_ok, force)
        except lock.CannotLock as exc:
            raise write_error(path, f"it cannot be deleted: {exc.problem}") from None
        self._remove_leftovers(name, older_than=0.0)
        self._summaries.pop(name, None)

    def _delete_locked(self, name: str, path: Path, missing_ok: bool, force: bool) -> None:
        holder = lock.held_elsewhere(self.folder, name)
        if holder is not None and not force:
            where = _describe(holder)
            raise GameOpenElsewhere(
                f"The game {name!r} is open {where}: it cannot be deleted.",
                path,
                holder if isinstance(holder, lock.Holder) else None,
            )
        try:
            path.unlink(missing_ok=missing_ok)
        except FileNotFoundError:
            raise SaveError(f"There is no save named {name!r} in {self.folder}.", path) from None
        except OSError as exc:
            raise write_error(path, f"it cannot be deleted: {describe_os_error(exc)}") from None
        if holder is not None:  # leave word for the holder: its next move is refused
            tombstone = lock.claim(self.folder, name, take_over=True, deleted=True)
            lock.release(tombstone, keep_file=True)
        else:
            lock.remove_if_stale(self.folder, name)

    def _remove_leftovers(self, name: str, older_than: float) -> None:
        """Remove the temporary files of save ``name`` (and of its lock) that a killed
        process left behind, if older than ``older_than`` seconds (a younger one may be a
        write in progress in another process). Best effort: a failure here never stops a
        load or a delete."""
        limit = time.time() - older_than
        for pattern in (f".{glob.escape(name)}{SUFFIX}.*", f".{glob.escape(name)}{LOCK_SUFFIX}.*"):
            for leftover in self.folder.glob(pattern):
                with contextlib.suppress(OSError):
                    if is_temp_file(leftover) and leftover.lstat().st_mtime <= limit:
                        leftover.unlink()


def read_capped(path: Path) -> tuple[bytes, FileKey]:
    """The bytes of ``path`` and their :data:`FileKey`, refusing links, non-regular files
    and files over the size cap before reading them whole; raises :class:`SaveError`
    naming ``path``. Never follows a link and never blocks (on a FIFO)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise load_error(path, "there is no such save") from None
    except OSError as exc:
        raise load_error(path, _unopenable(path, exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise load_error(path, f"it is {_kind(info.st_mode)}, not a save file")
        _check_size(path, info.st_size)
        data = _read_at_most(fd, MAX_FILE_BYTES + 1)
    except OSError as exc:
        problem = describe_os_error(exc, writing=False)
        raise load_error(path, f"the file cannot be read: {problem}") from None
    finally:
        os.close(fd)
    _check_size(path, len(data))  # it may have grown since fstat
    return data, (info.st_mtime_ns, info.st_size, info.st_ino)


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks, size = [], 0
    while size < limit and (chunk := os.read(fd, min(limit - size, 1 << 20))):
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _unopenable(path: Path, exc: OSError) -> str:
    """Why ``path`` could not be opened, from what it is (a link, a socket...)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        mode = 0
    if stat.S_ISLNK(mode) or stat.S_ISSOCK(mode):
        return f"it is {_kind(mode)}, not a save file"
    return f"the file cannot be read: {describe_os_error(exc, writing=False)}"


_KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFSOCK: "a socket",
    stat.S_IFLNK: "a symbolic link (a save must be a plain file)",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
}


def _kind(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def _modified(mtime: float) -> datetime:
    """The time of a file's mtime, aware and in range whatever the file system says."""
    try:
        return safe_time(datetime.fromtimestamp(mtime, UTC))
    except (OverflowError, OSError, ValueError):
        return LATEST if mtime > 0 else EARLIEST


def _describe(holder: lock.Holder | bool) -> str:
    return holder.describe() if isinstance(holder, lock.Holder) else "in another window"


def _check_size(path: Path, size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise load_error(
            path,
            f"the file is {size / 2**20:.1f} MiB, more than the {MAX_FILE_BYTES // 2**20} MiB "
            "a save may hold",
        )


def _is_valid_name(stem: str) -> bool:
    try:
        check_name(stem)
    except SaveError:
        return False
    return True


def _summarise(name: str, save: SaveFile, states: list[core.GameState]) -> SaveSummary:
    state = states[-1]
    return SaveSummary(
        name=name,
        title=save.title,
        players=[seat.name for seat in save.players],
        season=state.season,
        leader=leader(state),
        updated=save.updated,
        finished=core.is_over(state),
        winners=winners(state),
    )


def leader(state: core.GameState) -> str | None:
    """The name(s) of the winners once over, else of the players with most points so far
    (None while nobody has scored)."""
    if core.is_over(state):
        seats = list(core.final_scores(state).winners)
    else:
        best = max(p.score for p in state.players)
        if best == 0:
            return None
        seats = [seat for seat, p in enumerate(state.players) if p.score == best]
    return " & ".join(state.players[seat].name for seat in seats)


def winners(state: core.GameState) -> tuple[str, ...]:
    """The winners' names once the game is over (several: a shared win), else none."""
    if not core.is_over(state):
        return ()
    return tuple(state.players[seat].name for seat in core.final_scores(state).winners)


def _damaged(name: str, error: SaveError, updated: datetime) -> SaveSummary:
    return SaveSummary(
        name=name,
        title=name,
        players=[],
        season=0,
        leader=None,
        updated=updated,
        finished=False,
        error=str(error),
    )
