"""Which lessons each player has done (issue 28), remembered on this computer.

The contract::

    progress = saves.LessonProgress(saves.lessons_folder())
    progress.done("Ada")            # {"board", "start"}: the keys of the lessons done
    progress.mark_done("Ada", "extend")

It also keeps, per player, the coached games they have begun (:meth:`LessonProgress.coached`):
which of the coach's notes each has shown and whether its coaching was turned off, so a
coached game reopened days later (a save, a shared table) goes on coached, without
repeating a note.

One small msgspec JSON file per player, in the folder beside the saves (``lessons``
instead of ``saves``). Its name is a hash of the player's name, so any name (slashes,
dots, control characters, thousands of characters) is a safe file name, and two players
never share a file; the name is kept inside too, so a file only answers for its player.

Reading never fails: a missing, damaged, hostile (a link, a FIFO, a huge file) or foreign
file is no progress; keys of lessons this version does not know are ignored. Writing is
atomic (:mod:`saves.atomic`) and raises :class:`~saves.errors.SaveError` saying why when
the folder cannot be written. Two processes marking at the very same moment may lose one
mark (the lesson is then simply offered again). Imports ``core`` only.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Final

import msgspec

from saves.atomic import write_atomically
from saves.store import default_folder as saves_folder

FORMAT: Final = "mykerinos-lessons"
VERSION: Final = 1
MAX_PROGRESS_BYTES: Final = 64 * 1024
"""A progress file larger than this is not read (it holds a name and a few keys)."""
FOLDER_NAME: Final = "lessons"
MAX_COACHED: Final = 16
"""The coached games remembered per player (the most recent; an older one is played on
uncoached)."""
OFF: Final = "off"
"""In a coached game's record: its coaching was turned off."""


class CoachedGame(msgspec.Struct, frozen=True):
    """One coached game as stored: what identifies it (a save, a table at a server) and
    the situations (``tui.coach.Situation`` values) whose note it has shown, with
    :data:`OFF` when coaching was turned off."""

    game: str
    shown: tuple[str, ...] = ()


class ProgressFile(msgspec.Struct, frozen=True):
    """One player's progress as stored: the player's name and the keys of lessons done."""

    player: str
    done: tuple[str, ...] = ()
    coached: tuple[CoachedGame, ...] = ()
    """The player's coached games, the most recent last (at most :data:`MAX_COACHED`)."""
    format: str = FORMAT
    version: int = VERSION


def default_folder(cli_dir: str | None = None) -> Path:
    """Where progress lives: the folder ``lessons`` beside the save folder
    (:func:`saves.default_folder`, so ``--save-dir`` and ``$MYKERINOS_SAVE_DIR`` move it
    too), e.g. ``~/.local/share/mykerinos/lessons``."""
    return saves_folder(cli_dir).parent / FOLDER_NAME


def _order() -> list[str]:
    """The lessons' keys in teaching order (the catalogue is loaded when progress is read
    or written, not with ``saves``: every start of the game imports ``saves``)."""
    from core.lessons import LESSONS

    return [chosen.key for chosen in LESSONS]


def _known() -> frozenset[str]:
    return frozenset(_order())


class LessonProgress:
    """The lessons done by each player, kept in ``folder`` (created on the first mark)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def path(self, player: str) -> Path:
        """The file of ``player``'s progress: a hash of the name, never the name itself."""
        import hashlib  # here: its OpenSSL costs a start of the game 5 ms

        digest = hashlib.sha256(player.encode("utf-8", "surrogatepass")).hexdigest()
        return self.folder / f"{digest[:40]}.json"

    def _read(self, player: str) -> ProgressFile:
        """``player``'s progress as stored; none when there is none or it cannot be read.
        Never raises."""
        none = ProgressFile(player=player)
        if not self.folder.is_dir():  # no one's progress yet: no file's name to hash (a
            return none  # resumed game's first frame would import hashlib for it)
        data = _read_small(self.path(player))
        if data is None:
            return none
        try:
            stored = msgspec.json.decode(data, type=ProgressFile)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError):
            return none
        if stored.format != FORMAT or stored.player != player:
            return none
        return stored

    def done(self, player: str) -> set[str]:
        """The keys of the lessons ``player`` has done (known to this version); empty when
        there is no progress or it cannot be read. Never raises."""
        return set(self._read(player).done) & _known()

    def coached(self, player: str, game: str) -> tuple[str, ...] | None:
        """What ``player``'s coached game ``game`` has shown (see :class:`CoachedGame`), or
        None when ``game`` is not one of their coached games. Never raises."""
        found = [kept for kept in self._read(player).coached if kept.game == game]
        return found[-1].shown if found else None

    def keep_coached(self, player: str, game: str, shown: tuple[str, ...]) -> None:
        """Remember ``game`` as ``player``'s coached game, having shown ``shown`` (it
        becomes their most recent; the oldest beyond :data:`MAX_COACHED` is forgotten);
        raises :class:`~saves.errors.SaveError` if it cannot be written."""
        stored = self._read(player)
        others = tuple(kept for kept in stored.coached if kept.game != game)
        coached = (*others, CoachedGame(game, shown))[-MAX_COACHED:]
        done = tuple(key for key in stored.done if key in _known())
        self._write(ProgressFile(player=player, done=done, coached=coached))

    def mark_done(self, player: str, key: str) -> None:
        """Remember that ``player`` has done the lesson ``key`` (``KeyError`` for a key no
        lesson has); raises :class:`~saves.errors.SaveError` if it cannot be written."""
        if key not in _known():
            raise KeyError(key)
        done = self.done(player)
        if key in done:
            return
        keys = tuple(sorted(done | {key}, key=_order().index))
        self._write(ProgressFile(player=player, done=keys, coached=self._read(player).coached))

    def _write(self, stored: ProgressFile) -> None:
        write_atomically(self.path(stored.player), msgspec.json.encode(stored))


def _read_small(path: Path) -> bytes | None:
    """The bytes of a plain file of at most :data:`MAX_PROGRESS_BYTES`, else None: never
    follows a link, never blocks on a FIFO, never raises."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_PROGRESS_BYTES:
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_PROGRESS_BYTES and (chunk := os.read(fd, MAX_PROGRESS_BYTES + 1)):
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
    except OSError:
        return None
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)
    return None if len(data) > MAX_PROGRESS_BYTES else data
