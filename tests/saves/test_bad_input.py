"""Bad save files and bad folders beyond the corpus of tests/saves/test_corpus.py: the size
cap read before the file, unreadable files, a folder that cannot hold saves, and writes
that fail (full disk, read-only folder): each gives one clear SaveError naming the real
cause, and nothing saved before is lost."""

from __future__ import annotations

import errno
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import core
import saves
from tests.saves.helpers import hot_seat, play_random, save_files


def _good_document(store: saves.SaveStore, actions: int = 12) -> dict[str, Any]:
    """The JSON object of a good 3-player save named "good", also written to the store."""
    session = saves.Session.new(store, hot_seat(3), seed=11, name="good")
    play_random(session, random.Random(3), limit=actions)
    document: dict[str, Any] = json.loads(session.path.read_bytes())
    return document


def _write(store: saves.SaveStore, name: str, content: bytes) -> Path:
    store.folder.mkdir(parents=True, exist_ok=True)
    path = store.folder / f"{name}.json"
    path.write_bytes(content)
    return path


def test_size_cap_is_checked_before_reading(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file over the cap is refused from its size alone, without opening it."""
    path = _write(store, "big", b"{}" + b" " * (saves.MAX_FILE_BYTES + 10))
    opened: list[Path] = []
    real_open = Path.open

    def spy(self: Path, *args: Any, **kwargs: Any) -> Any:
        opened.append(self)
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", spy)
    with pytest.raises(saves.SaveError, match="MiB"):
        store.load("big")
    assert path not in opened


def test_unreadable_file(store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file the player may not read: a SaveError saying reading it is not permitted, not
    that the folder is read-only (simulated, as tests may run as root)."""
    document = _good_document(store)
    path = _write(store, "locked", json.dumps(document).encode())
    real_open = os.open

    def refuse(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if Path(file) == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real_open(file, flags, *args, **kwargs)

    monkeypatch.setattr("saves.store.os.open", refuse)
    with pytest.raises(saves.SaveError) as caught:
        store.load("locked")
    message = str(caught.value)
    assert str(path) in message and "permission denied (this user may not read it)" in message
    assert "read-only" not in message


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_for_real(store: saves.SaveStore) -> None:
    """A file with mode 000 gives a SaveError saying permission is denied."""
    path = _write(store, "locked", json.dumps(_good_document(store)).encode())
    path.chmod(0)
    with pytest.raises(saves.SaveError, match="permission denied"):
        store.load("locked")


def test_folder_instead_of_file(store: saves.SaveStore) -> None:
    """A folder named like a save is refused, not opened."""
    _good_document(store)
    (store.folder / "odd.json").mkdir()
    with pytest.raises(saves.SaveError, match="it is a folder, not a save file"):
        store.load("odd")
    assert "a folder" in (next(s for s in store.list() if s.name == "odd").error or "")


def test_missing_save(store: saves.SaveStore) -> None:
    """Loading a name with no file says there is no such save."""
    with pytest.raises(saves.SaveError, match="no such save"):
        store.load("nothing")


def test_log_ending_mid_survey_loads_and_resumes_mid_survey(store: saves.SaveStore) -> None:
    """A game saved in the middle of a survey is not damaged: it resumes at that decision."""
    session = saves.Session.new(store, hot_seat(3), seed=4, name="survey")
    rng = random.Random(8)
    while session.state.phase != core.Phase.SURVEY:
        session.apply(rng.choice(core.legal_actions(session.state)))
    session.apply(core.legal_actions(session.state)[0])  # one survey decision made
    assert session.state.phase == core.Phase.SURVEY, "this seed must still be surveying"
    loaded = store.load("survey")
    assert loaded.state == session.state
    assert loaded.state.survey_steps
    assert core.legal_actions(loaded.state) == core.legal_actions(session.state)
    loaded.apply(core.legal_actions(loaded.state)[0])


# ---------------------------------------------------------------- writing


def _fail_with(code: int) -> Callable[..., object]:
    def fail(*args: object, **kwargs: object) -> object:
        raise OSError(code, os.strerror(code))

    return fail


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (errno.ENOSPC, "disk is full"),
        (errno.EROFS, "read-only file system"),
        (errno.EACCES, "permission denied (this user may not write in the save folder)"),
    ],
)
def test_failed_autosave_keeps_the_move_and_the_old_file(
    store: saves.SaveStore, monkeypatch: pytest.MonkeyPatch, code: int, words: str
) -> None:
    """A full or read-only folder: apply raises SaveError after the move is kept in memory;
    the file still holds the previous position; the next save writes everything."""
    session = saves.Session.new(store, hot_seat(2), seed=2, name="full")
    play_random(session, random.Random(2), limit=5)
    before = session.path.read_bytes()
    monkeypatch.setattr(os, "fsync", _fail_with(code))
    action = core.legal_actions(session.state)[0]
    with pytest.raises(saves.SaveError) as caught:
        session.apply(action)
    assert str(session.path) in str(caught.value) and words in str(caught.value)
    unsaved = [session.unsaved]
    assert session.actions[-1] == action
    assert session.path.read_bytes() == before
    assert save_files(store.folder) == ["full.json"], "no temp file left"
    monkeypatch.undo()
    session.apply(core.legal_actions(session.state)[0])
    unsaved.append(session.unsaved)
    assert unsaved == [True, False]
    assert store.load("full").state == session.state


def test_folder_under_a_file(tmp_path: Path) -> None:
    """A save folder under a plain file cannot be made: a SaveError naming that file."""
    (tmp_path / "file").write_text("not a folder")
    store = saves.SaveStore(tmp_path / "file" / "saves")
    with pytest.raises(saves.SaveError) as caught:
        saves.Session.new(store, hot_seat(2), seed=1, name="x")
    assert f"cannot be made: {tmp_path / 'file'} is a file, not a folder" in str(caught.value)
    assert store.list() == []
    assert "is a file, not a folder" in (store.problem() or "")


def test_folder_that_is_a_file(tmp_path: Path) -> None:
    """A save folder that is a plain file: said in those words, not "file exists"."""
    (tmp_path / "saves").write_text("not a folder")
    store = saves.SaveStore(tmp_path / "saves")
    with pytest.raises(saves.SaveError) as caught:
        saves.Session.new(store, hot_seat(2), seed=1, name="x")
    message = str(caught.value)
    assert f"the save folder {tmp_path / 'saves'} is a file, not a folder" in message
    assert "file exists" not in message.lower()
    assert store.problem() == f"the save folder {tmp_path / 'saves'} is a file, not a folder"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_for_real(store: saves.SaveStore) -> None:
    """A real read-only folder: the autosave fails with a SaveError, the old file is kept."""
    session = saves.Session.new(store, hot_seat(2), seed=2, name="ro")
    before = session.path.read_bytes()
    store.folder.chmod(0o500)
    try:
        with pytest.raises(saves.SaveError, match="may not write in the save folder"):
            session.apply(core.legal_actions(session.state)[0])
    finally:
        store.folder.chmod(0o700)
    assert session.path.read_bytes() == before
