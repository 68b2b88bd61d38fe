"""One live writer per game (saves.lock), in one process: another process's hold is faked
with a lock file flocked on a descriptor this process's lock tables do not know, which is
exactly what another process looks like. (Real processes: tests/saves_pty/test_two_windows.)
"""

from __future__ import annotations

import errno
import fcntl
import os
import random
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest

import core
import saves
from saves import lock
from tests.saves.helpers import hot_seat, play_random, save_files


class OtherWindow:
    """Another process holding game ``name`` (pid 4242 on tty pts/9), or having taken it
    over from this one."""

    def __init__(self, store: saves.SaveStore, name: str, *, deleted: bool = False) -> None:
        record = saves.Holder(
            token="other",
            pid=4242,
            user=lock._USER,
            host=lock._HOST,
            tty="/dev/pts/9",
            since=datetime.now(UTC),
            deleted=deleted,
        )
        store.folder.mkdir(parents=True, exist_ok=True)
        self.fd, temp = tempfile.mkstemp(dir=store.folder)
        fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(self.fd, msgspec.json.encode(record))
        os.replace(temp, store.folder / f".{name}.lock")

    def close(self) -> None:
        os.close(self.fd)


def _game(store: saves.SaveStore, name: str = "g", moves: int = 4) -> saves.Session:
    session = saves.Session.new(store, hot_seat(3), seed=5, name=name)
    play_random(session, random.Random(5), limit=moves)
    return session


def _next_move(session: saves.Session) -> core.Action:
    return core.legal_actions(session.state)[0]


def test_a_new_game_is_held_until_closed(store: saves.SaveStore) -> None:
    """Session.new holds the game's lock, whose record names this process; close() removes
    it, and the session is read-only afterwards."""
    session = _game(store, moves=0)
    record = lock.holder_at(store.folder, "g")
    assert record is not None and record.pid == os.getpid() and session.holds_lock
    session.close()
    assert not (store.folder / ".g.lock").exists() and save_files(store.folder) == ["g.json"]
    with pytest.raises(saves.ReadOnly):
        session.apply(_next_move(session))
    session.close()  # twice is fine


def test_open_elsewhere_is_refused_with_who_and_since_when(store: saves.SaveStore) -> None:
    """Opening a game another process holds: GameOpenElsewhere saying who (pid, tty) and
    since when; list() and latest_unfinished() say so too."""
    _game(store).close()
    other = OtherWindow(store, "g")
    with pytest.raises(saves.GameOpenElsewhere) as caught:
        store.open("g")
    message = str(caught.value)
    assert message.startswith("The game 'g' is open in another window since ")
    assert message.endswith("(pid 4242, tty pts/9).") and caught.value.holder is not None
    [row] = store.list()
    assert row.open_elsewhere is not None and "pid 4242" in row.open_elsewhere
    assert store.latest_unfinished() == row
    other.close()
    assert store.list()[0].open_elsewhere is None, "the kernel released it: free again"
    store.open("g").close()


def test_a_stale_or_hostile_lock_file_does_not_block(store: saves.SaveStore) -> None:
    """A lock file nobody holds (its process died), even one full of junk, is replaced."""
    _game(store).close()
    (store.folder / ".g.lock").write_bytes(b"\x1b[2J" * 5000)
    session = store.open("g")
    assert lock.holder_at(store.folder, "g").pid == os.getpid()  # type: ignore[union-attr]
    session.close()


def test_unreadable_holder_record_is_still_open_elsewhere(store: saves.SaveStore) -> None:
    """A held lock with a record that cannot be read: open elsewhere, whoever it is."""
    _game(store).close()
    other = OtherWindow(store, "g")
    os.pwrite(other.fd, b"\x00garbage" + b" " * 200, 0)
    with pytest.raises(saves.GameOpenElsewhere, match=r"open in another window\.$"):
        store.open("g")
    other.close()


def test_watching_never_writes_and_follows_the_file(store: saves.SaveStore) -> None:
    """A watching session refuses every change (nothing changes, on disk or in memory)
    and refresh() follows the holder's moves, reading the file only when it changed."""
    holder = _game(store)
    watcher = store.watch("g")
    before, state = holder.path.read_bytes(), watcher.state
    changes = [
        lambda: watcher.apply(_next_move(watcher)),
        watcher.undo,
        watcher.redo,
        watcher.save,
        lambda: watcher.save_as("copy"),
    ]
    for change in changes:
        with pytest.raises(saves.ReadOnly, match="watching"):
            change()
    assert holder.path.read_bytes() == before and watcher.state == state
    assert watcher.unsaved_moves == 0 and not watcher.can_undo()
    holder.apply(_next_move(holder))
    assert watcher.refresh() and watcher.actions == holder.actions
    assert watcher.state == holder.state
    assert not watcher.refresh()
    holder.close()


def test_refresh_is_cheap_when_the_file_did_not_change(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No change of time, size or inode: refresh() does not read the file."""
    _game(store).close()
    watcher = store.watch("g")

    def no_reading(name: str) -> object:
        raise AssertionError("read again")

    monkeypatch.setattr(store, "read_keyed", no_reading)
    assert watcher.refresh() is False


def test_taken_over_session_refuses_before_changing_anything(store: saves.SaveStore) -> None:
    """Another process takes the game over: the next move is refused with who took it,
    nothing changes in memory or on disk, and the session stays read-only."""
    session = _game(store)
    actions, state, data = list(session.actions), session.state, session.path.read_bytes()
    other = OtherWindow(store, "g")
    for _ in range(2):
        with pytest.raises(saves.TakenOver) as caught:
            session.apply(_next_move(session))
        assert "was taken over in another window at" in str(caught.value)
        assert "(pid 4242, tty pts/9)" in str(caught.value)
    for change in (session.undo, session.save):
        with pytest.raises(saves.TakenOver):
            change()
    assert session.actions == actions and session.state == state and session.read_only
    assert session.path.read_bytes() == data
    session.close()
    assert lock.holder_at(store.folder, "g").pid == 4242, "closing leaves the new holder's lock"  # type: ignore[union-attr]
    other.close()


def test_take_over_reads_the_game_as_saved(store: saves.SaveStore) -> None:
    """take_over() holds the game even though another process does, with its saved moves;
    that process is shown as no longer holding it."""
    _game(store).close()
    other = OtherWindow(store, "g")
    session = store.take_over("g")
    assert len(session.actions) == 4 and not session.read_only
    session.apply(_next_move(session))
    assert store.read("g")[0].actions == session.actions
    assert lock.holder_at(store.folder, "g").pid == os.getpid()  # type: ignore[union-attr]
    session.close()
    other.close()


def test_a_damaged_game_is_not_taken_over(store: saves.SaveStore) -> None:
    """Taking over a file that does not load fails before the holder loses anything."""
    _game(store).close()
    other = OtherWindow(store, "g")
    (store.folder / "g.json").write_text("{")
    with pytest.raises(saves.SaveError, match="truncated"):
        store.take_over("g")
    assert lock.holder_at(store.folder, "g").pid == 4242  # type: ignore[union-attr]
    other.close()


def test_sessions_of_one_process_share_the_game(store: saves.SaveStore) -> None:
    """In one process (one window) a game may be opened twice; the lock goes with the last."""
    first = _game(store)
    second = store.open("g")
    second.apply(_next_move(second))
    first.close()
    assert (store.folder / ".g.lock").exists()
    second.close()
    assert not (store.folder / ".g.lock").exists()


def test_delete_refuses_a_game_open_elsewhere_unless_forced(store: saves.SaveStore) -> None:
    """delete() says who has it open; forced, it deletes, and the holder is told at its
    next move that the game was deleted."""
    session = _game(store)
    other = OtherWindow(store, "other")
    (store.folder / "other.json").write_bytes(session.path.read_bytes())
    with pytest.raises(saves.GameOpenElsewhere, match="cannot be deleted"):
        store.delete("other")
    store.delete("other", force=True)
    assert store.names() == {"g"}
    other.close()
    # The same seen from the holder's side: this session's game is deleted by force.
    tombstone = OtherWindow(store, "g", deleted=True)
    session.path.unlink()
    with pytest.raises(saves.TakenOver, match="was deleted in another window"):
        session.apply(_next_move(session))
    assert store.names() == set(), "a deleted game is not brought back"
    tombstone.close()


def test_read_only_folder_plays_on_unsaved(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder where no lock file can be made (read-only): the game still opens, moves are
    kept in memory with a SaveError saying why (as "not saved"); once the folder can be
    written again the next move saves them all."""
    _game(store).close()

    def read_only(*args: object, **kwargs: object) -> object:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr("saves.lock.tempfile.mkstemp", read_only)
    monkeypatch.setattr("saves.atomic.tempfile.mkstemp", read_only)
    session = store.open("g")
    assert session.lock_problem == "the save folder is on a read-only file system"
    for expected in (1, 2):
        with pytest.raises(saves.SaveError, match="read-only file system"):
            session.apply(_next_move(session))
        assert session.unsaved and session.unsaved_moves == expected
    assert len(store.read("g")[0].actions) == 4
    monkeypatch.undo()
    session.apply(_next_move(session))
    assert not session.unsaved and session.unsaved_moves == 0 and session.holds_lock
    assert store.read("g")[0].actions == session.actions
    session.close()


def test_a_late_lock_gives_up_a_game_saved_meanwhile(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session that could not lock its game, when it finally can, refuses to write over
    moves another process saved meanwhile."""
    _game(store).close()
    real_install = lock._install
    monkeypatch.setattr(lock, "_install", lambda *a: (_ for _ in ()).throw(lock.CannotLock("x")))
    stuck = store.open("g")
    monkeypatch.setattr(lock, "_install", real_install)
    other = store.take_over("g")
    other.apply(_next_move(other))
    other.close()
    with pytest.raises(saves.TakenOver, match="saved in another window meanwhile"):
        stuck.apply(_next_move(stuck))
    assert len(store.read("g")[0].actions) == 5


def test_a_busy_folder_keeps_the_move_unsaved(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process stuck holding the folder's write lock: the move is kept, not saved,
    and the message says the folder is busy."""
    session = _game(store)
    monkeypatch.setattr(lock, "WRITE_WAIT", 0.05)
    stuck = os.open(store.folder / lock.FOLDER_LOCK, os.O_RDWR)
    fcntl.flock(stuck, fcntl.LOCK_EX)
    try:
        with pytest.raises(saves.SaveError, match="the save folder is busy"):
            session.apply(_next_move(session))
    finally:
        os.close(stuck)
    assert session.unsaved_moves == 1
    session.save()
    assert session.unsaved_moves == 0 and store.read("g")[0].actions == session.actions


def test_unsaved_moves_counts_what_the_file_lacks(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves played while saving fails are counted until a save succeeds."""
    session = _game(store)
    assert session.unsaved_moves == 0

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("saves.atomic.os.fsync", full)
    for expected in (1, 2, 3):
        with pytest.raises(saves.SaveError, match="disk is full"):
            session.apply(_next_move(session))
        assert session.unsaved_moves == expected
    monkeypatch.setattr("saves.atomic.os.fsync", lambda fd: None)
    session.save()
    assert session.unsaved_moves == 0


def test_a_name_taken_behind_the_stores_back_is_never_overwritten(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new game's name is created exclusively: if another process made that file after
    the folder was listed, the new game takes the next name and the file is untouched."""
    store = saves.SaveStore(store.folder, clock=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    first = saves.Session.new(store, hot_seat(2), seed=1)
    data = first.path.read_bytes()
    first.close()
    monkeypatch.setattr(store, "names", set)  # the listing misses the file
    second = saves.Session.new(store, hot_seat(3), seed=2)
    assert second.name == f"{first.name}-2" and first.path.read_bytes() == data


def test_save_as_never_overwrites_a_name_taken_meanwhile(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """save_as to a new name fails if the file appears between the check and the write."""
    session = _game(store)
    (store.folder / "sunday.json").write_bytes(b"theirs")
    monkeypatch.setattr(Path, "exists", lambda self: False)
    with pytest.raises(saves.SaveError, match="already exists"):
        session.save_as("sunday")
    assert (store.folder / "sunday.json").read_bytes() == b"theirs" and session.name == "g"
