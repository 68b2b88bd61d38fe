"""Autosave atomicity: whatever happens during a write, the previous good copy stays."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

import core
import saves
from tests.saves.helpers import hot_seat, play_random, save_files


def _game(store: saves.SaveStore, actions: int = 8) -> saves.Session:
    session = saves.Session.new(store, hot_seat(3), seed=31, name="g")
    play_random(session, random.Random(31), limit=actions)
    return session


def test_crash_between_temp_write_and_replace_keeps_the_old_file(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """os.replace failing (as if the process died just before it): the old save still loads
    with every earlier action, and no temporary file is left."""
    session = _game(store)
    before = list(session.actions)

    def crash(src: object, dst: object) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(saves.SaveError, match="input/output error"):
        session.apply(core.legal_actions(session.state)[0])
    assert store.load("g").actions == before
    assert save_files(store.folder) == ["g.json"]


def test_a_temp_file_left_by_a_kill_is_ignored_and_cleaned(store: saves.SaveStore) -> None:
    """A half-written temp file (left by kill -9) is not listed, does not hide the save, and
    is removed with the save."""
    session = _game(store)
    leftover = store.folder / ".g.json.abc123.tmp"
    leftover.write_bytes(session.path.read_bytes()[:40])
    assert [s.name for s in store.list()] == ["g"]
    assert store.load("g").actions == session.actions
    session.close()
    store.delete("g")
    assert save_files(store.folder) == []


def test_a_save_from_a_signal_handler_during_a_save_is_safe(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second save started in the middle of the first (as a SIGHUP handler would) does not
    interleave with it: both complete and the file holds the whole log."""
    session = _game(store)
    real_fsync = os.fsync
    nested: list[int] = []

    def fsync_then_hangup(fd: int) -> None:
        if not nested:
            nested.append(fd)
            session.save()  # the "signal handler", while the outer temp file is open
        real_fsync(fd)

    monkeypatch.setattr("saves.atomic.os.fsync", fsync_then_hangup)
    session.apply(core.legal_actions(session.state)[0])
    assert nested, "the nested save ran"
    assert store.load("g").actions == session.actions
    assert save_files(store.folder) == ["g.json"]


def test_writes_go_through_a_temp_file_in_the_same_folder(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bytes are written to a temp file beside the save and renamed onto it."""
    session = _game(store, actions=1)
    renames: list[tuple[Path, Path]] = []
    real_replace = os.replace

    def spy(src: str, dst: str) -> None:
        renames.append((Path(src), Path(dst)))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    session.apply(core.legal_actions(session.state)[0])
    [(src, dst)] = renames
    assert src.parent == dst.parent == store.folder and dst == session.path
    assert src.name.startswith(".g.json.") and src.name.endswith(".tmp")


def test_loading_removes_old_leftovers_only(store: saves.SaveStore) -> None:
    """Loading a save removes temp files a killed write left long ago, but not a young one
    (which may be another process writing right now), nor those of other saves."""
    session = _game(store)
    old = store.folder / ".g.json.old1.tmp"
    young = store.folder / ".g.json.new1.tmp"
    other = store.folder / ".h.json.old2.tmp"
    for leftover in (old, young, other):
        leftover.write_bytes(b"{")
    long_ago = time.time() - 3600
    for leftover in (old, other):
        os.utime(leftover, (long_ago, long_ago))
    assert store.load("g").actions == session.actions
    assert not old.exists() and young.exists() and other.exists()
