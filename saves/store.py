"""The save folder: listing, loading and deleting saved games by name.

A damaged file never breaks the folder: :meth:`SaveStore.list` shows it with its error,
:meth:`SaveStore.load` raises one :class:`SaveError` naming it, and neither touches it.
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
from saves.atomic import describe_os_error, is_temp_file
from saves.errors import SaveError, load_error, write_error
from saves.format import MAX_FILE_BYTES, SaveFile, decode
from saves.names import SUFFIX, check_name, save_path
from saves.replay import replay
from saves.session import Session

ENV_SAVE_DIR = "MYKERINOS_SAVE_DIR"
LEFTOVER_AGE = 60.0
"""Seconds after which a save's temporary file can only be a leftover of a killed write."""


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
    finished: bool
    error: str | None = None


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
        try:
            entries = list(self.folder.iterdir())
        except OSError:
            return set()
        return {
            p.name[: -len(SUFFIX)]
            for p in entries
            if p.name.endswith(SUFFIX) and not is_temp_file(p) and _is_valid_name(p.stem)
        }

    # ------------------------------------------------------------ reading

    def read(self, name: str) -> tuple[SaveFile, list[core.GameState]]:
        """The save ``name`` and its replayed states; raises :class:`SaveError`."""
        path = self.path(name)
        save = decode(path, read_capped(path))
        return save, replay(path, save)

    def load(self, name: str) -> Session:
        """The game saved as ``name``, ready to play on; raises :class:`SaveError` naming the
        file and the problem (the file is left untouched)."""
        save, states = self.read(name)
        self._remove_leftovers(name, older_than=LEFTOVER_AGE)
        return Session(self, name, save, states)

    def list(self) -> list[SaveSummary]:
        """Every save in the folder, most recently played first; never raises."""
        summaries = [self._summary(name) for name in self.names()]
        return sorted(summaries, key=lambda s: (s.updated, s.name), reverse=True)

    def latest_unfinished(self) -> SaveSummary | None:
        """The most recently played game that is not over and loads, if any."""
        return next((s for s in self.list() if s.error is None and not s.finished), None)

    def _summary(self, name: str) -> SaveSummary:
        path = self.folder / f"{name}{SUFFIX}"
        try:
            info = path.stat()
        except OSError as exc:
            return _damaged(name, load_error(path, describe_os_error(exc)), datetime.now(UTC))
        # A file is only replayed again when it changed.
        key = (info.st_mtime_ns, info.st_size, info.st_ino)
        cached = self._summaries.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        try:
            summary = _summarise(name, *self.read(name))
        except SaveError as exc:
            summary = _damaged(name, exc, datetime.fromtimestamp(info.st_mtime, UTC))
        self._summaries[name] = (key, summary)
        return summary

    # ------------------------------------------------------------ deleting

    def delete(self, name: str, *, missing_ok: bool = False) -> None:
        """Remove save ``name`` (and any temporary file an interrupted write left of it).

        Raises :class:`SaveError` if it does not exist (unless ``missing_ok``) or cannot be
        removed.
        """
        path = self.path(name)
        try:
            path.unlink(missing_ok=missing_ok)
        except FileNotFoundError:
            raise SaveError(f"There is no save named {name!r} in {self.folder}.", path) from None
        except OSError as exc:
            raise write_error(path, f"it cannot be deleted: {describe_os_error(exc)}") from None
        self._remove_leftovers(name, older_than=0.0)
        self._summaries.pop(name, None)

    def _remove_leftovers(self, name: str, older_than: float) -> None:
        """Remove the temporary files of save ``name`` that a killed process left behind,
        if older than ``older_than`` seconds (a younger one may be a write in progress in
        another process). Best effort: a failure here never stops a load or a delete."""
        limit = time.time() - older_than
        for leftover in self.folder.glob(f".{glob.escape(name)}{SUFFIX}.*"):
            with contextlib.suppress(OSError):
                if is_temp_file(leftover) and leftover.stat().st_mtime <= limit:
                    leftover.unlink()


def read_capped(path: Path) -> bytes:
    """The bytes of ``path``, refusing non-regular files and files over the size cap
    before reading them whole; raises :class:`SaveError` naming ``path``."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise load_error(path, "it is not a regular file")
        _check_size(path, info.st_size)
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise load_error(path, "there is no such save") from None
    except OSError as exc:
        raise load_error(path, f"the file cannot be read: {describe_os_error(exc)}") from None
    _check_size(path, len(data))  # it may have grown since stat
    return data


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
