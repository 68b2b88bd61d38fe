"""Bad save files: each gives one clear SaveError naming the file and the problem, leaves
the file untouched, and never stops the store from listing or loading the other saves."""

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
from tests.saves.helpers import hot_seat, play_random

Document = dict[str, Any]


def _good_document(store: saves.SaveStore, actions: int = 12) -> Document:
    """The JSON object of a good 3-player save named "good", also written to the store."""
    session = saves.Session.new(store, hot_seat(3), seed=11, name="good")
    play_random(session, random.Random(3), limit=actions)
    document: Document = json.loads(session.path.read_bytes())
    return document


def _write(store: saves.SaveStore, name: str, content: bytes) -> Path:
    store.folder.mkdir(parents=True, exist_ok=True)
    path = store.folder / f"{name}.json"
    path.write_bytes(content)
    return path


class _Deep:
    """Stands for a list nested 100 000 deep (json.dumps itself cannot nest that far)."""


DEEP = _Deep()
_DEEP_TEXT = "[" * 100_000 + "]" * 100_000


def _nested_list(depth: int) -> list[object]:
    nested: list[object] = []
    for _ in range(depth):
        nested = [nested]
    return nested


def _dumps(document: Document) -> bytes:
    text = json.dumps(document, default=lambda value: "<deep>")
    return text.replace('"<deep>"', _DEEP_TEXT).encode()


def _edit(change: Callable[[Document], None]) -> Callable[[Document], bytes]:
    def build(document: Document) -> bytes:
        change(document)
        return _dumps(document)

    return build


def _set(key: str, value: object) -> Callable[[Document], bytes]:
    return _edit(lambda d: d.__setitem__(key, value))


def _illegal_action(document: Document) -> None:
    # Excavating the space just excavated is never legal.
    document["actions"].append(dict(document["actions"][-1]))
    document["actions"].append(dict(document["actions"][-1]))


# (case id, the file's bytes from a good document, words the message must hold)
BAD_FILES: list[tuple[str, Callable[[Document], bytes], str]] = [
    ("truncated", lambda d: json.dumps(d).encode()[:150], "truncated"),
    ("empty", lambda d: b"", "truncated"),
    ("not-json", lambda d: b"Mykerinos, season 2, Ann leads\n", "not valid JSON"),
    ("binary", lambda d: bytes(range(256)), "not valid JSON"),
    ("not-an-object", lambda d: b"[1, 2, 3]", "not a JSON object"),
    ("wrong-format", _set("format", "chess-save"), "not a Mykerinos save"),
    ("no-format", _edit(lambda d: d.pop("format")), "not a Mykerinos save"),
    ("future-version", _set("version", 7), "newer Mykerinos"),
    ("huge-version", _set("version", 10**40), "newer Mykerinos"),
    ("negative-version", _set("version", -1), "version -1 is unknown"),
    ("text-version", _set("version", "1"), "version '1' is not a number"),
    ("seed-is-text", _set("seed", "eleven"), "$.seed"),
    ("players-not-list", _set("players", {"Ann": "blue"}), "$.players"),
    ("colour-unknown", _edit(lambda d: d["players"][1].update(colour="pink")), "$.players[1]"),
    ("action-unknown-kind", _edit(lambda d: d["actions"][0].update(type="fly")), "$.actions[0]"),
    ("action-space-text", _edit(lambda d: d["actions"][2].update(space="c3")), "$.actions[2]"),
    ("unknown-field", _set("cheat", True), "unknown field `cheat`"),
    ("unknown-player-field", _edit(lambda d: d["players"][0].update(score=99)), "`score`"),
    ("missing-field", _edit(lambda d: d.pop("seed")), "`seed`"),
    ("illegal-action", _edit(_illegal_action), "is not legal"),
    ("absurd-seed", _set("seed", 10**30), "$.seed"),
    ("negative-seed", _set("seed", -5), "$.seed"),
    ("absurd-space", _edit(lambda d: d["actions"][0].update(space=10**12)), "malformed"),
    ("negative-space", _edit(lambda d: d["actions"][0].update(space=-3)), "malformed"),
    (
        "absurd-room",
        _edit(lambda d: d["actions"].append({"type": "book", "room": 99})),
        "malformed",
    ),
    ("too-many-actions", _set("actions", [{"type": "pass"}] * 5000), "$.actions"),
    ("one-player", _edit(lambda d: d.update(players=d["players"][:1])), "$.players"),
    ("five-players", _edit(lambda d: d.update(players=d["players"] * 2)), "$.players"),
    ("same-colours", _edit(lambda d: d["players"][1].update(colour="blue")), "same colour"),
    ("unknown-level", _edit(lambda d: d["players"][1].update(kind="computer", level="god")), "god"),
    ("empty-name", _edit(lambda d: d["players"][0].update(name="")), "$.players[0].name"),
    ("huge-name", _edit(lambda d: d["players"][0].update(name="A" * 9999)), "$.players[0].name"),
    ("escape-in-title", _set("title", "Ann\x1b[2J\x1b[31m"), "$.title"),
    ("escape-in-name", _edit(lambda d: d["players"][0].update(name="A\x07")), "$.players[0].name"),
    ("bad-time", _set("updated", "last tuesday"), "$.updated"),
    ("deep-actions", _edit(lambda d: d["actions"].insert(0, DEEP)), "nested too deeply"),
    ("deep-unknown", _set("extra", DEEP), "nested too deeply"),
    ("deep-version", _set("version", DEEP), "nested too deeply"),
    ("deep-in-depth-limit", _set("version", _nested_list(50)), "is not a number"),
    ("multi-megabyte", _set("pad", "x" * 5_000_000), "MiB"),
]


@pytest.mark.parametrize(
    ("content", "words"), [c[1:] for c in BAD_FILES], ids=[c[0] for c in BAD_FILES]
)
def test_bad_file_gives_one_clear_error_and_is_left_untouched(
    store: saves.SaveStore, content: Callable[[Document], bytes], words: str
) -> None:
    """Loading the file raises SaveError naming it and the problem; its bytes stay as they were."""
    data = content(_good_document(store))
    path = _write(store, "bad", data)
    with pytest.raises(saves.SaveError) as caught:
        store.load("bad")
    message = str(caught.value)
    assert str(path) in message
    assert words in message
    assert "\n" not in message and len(message) < 400
    assert path.read_bytes() == data
    assert caught.value.path == path


@pytest.mark.parametrize(
    ("content", "words"), [c[1:] for c in BAD_FILES[:6]], ids=[c[0] for c in BAD_FILES[:6]]
)
def test_damaged_file_is_listed_with_its_error_and_the_rest_still_loads(
    store: saves.SaveStore, content: Callable[[Document], bytes], words: str
) -> None:
    """store.list() shows the damaged file with its error; the good save still loads."""
    document = _good_document(store)
    _write(store, "bad", content(document))
    listed = {summary.name: summary for summary in store.list()}
    assert words in (listed["bad"].error or "")
    assert listed["good"].error is None
    assert store.latest_unfinished() == listed["good"]
    assert len(store.load("good").actions) == len(document["actions"])


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
    """A file the player may not read: a SaveError saying so (simulated, as tests may be root)."""
    document = _good_document(store)
    path = _write(store, "locked", json.dumps(document).encode())

    def refuse(self: Path, *args: object, **kwargs: object) -> object:
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(saves.SaveError) as caught:
        store.load("locked")
    assert str(path) in str(caught.value) and "permission denied" in str(caught.value)


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
    with pytest.raises(saves.SaveError, match="not a regular file"):
        store.load("odd")
    assert "not a regular file" in (next(s for s in store.list() if s.name == "odd").error or "")


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
    [(errno.ENOSPC, "disk is full"), (errno.EROFS, "read-only"), (errno.EACCES, "read-only")],
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
    assert [p.name for p in store.folder.iterdir()] == ["full.json"], "no temp file left"
    monkeypatch.undo()
    session.apply(core.legal_actions(session.state)[0])
    unsaved.append(session.unsaved)
    assert unsaved == [True, False]
    assert store.load("full").state == session.state


def test_folder_that_cannot_be_created(tmp_path: Path) -> None:
    """A save folder under a plain file cannot be made: a SaveError, not a crash."""
    (tmp_path / "file").write_text("not a folder")
    store = saves.SaveStore(tmp_path / "file" / "saves")
    with pytest.raises(saves.SaveError, match="Cannot save"):
        saves.Session.new(store, hot_seat(2), seed=1, name="x")
    assert store.list() == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_for_real(store: saves.SaveStore) -> None:
    """A real read-only folder: the autosave fails with a SaveError, the old file is kept."""
    session = saves.Session.new(store, hot_seat(2), seed=2, name="ro")
    before = session.path.read_bytes()
    store.folder.chmod(0o500)
    try:
        with pytest.raises(saves.SaveError, match="read-only"):
            session.apply(core.legal_actions(session.state)[0])
    finally:
        store.folder.chmod(0o700)
    assert session.path.read_bytes() == before
