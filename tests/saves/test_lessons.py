"""Lesson progress per player (issue 28): remembered, separate, safe for any name, and a
damaged or hostile file is no progress rather than a crash."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import pytest

import saves
from saves.lessons import MAX_PROGRESS_BYTES, LessonProgress, ProgressFile, default_folder


def test_marks_are_remembered_across_instances(tmp_path: Path) -> None:
    progress = LessonProgress(tmp_path / "lessons")
    assert progress.done("Ada") == set()
    progress.mark_done("Ada", "board")
    progress.mark_done("Ada", "extend")
    progress.mark_done("Ada", "board")
    assert LessonProgress(tmp_path / "lessons").done("Ada") == {"board", "extend"}


def test_two_players_are_kept_apart(tmp_path: Path) -> None:
    progress = LessonProgress(tmp_path)
    progress.mark_done("Ada", "board")
    progress.mark_done("Bob", "survey")
    assert progress.done("Ada") == {"board"}
    assert progress.done("Bob") == {"survey"}
    assert progress.done("ada") == set()


@pytest.mark.parametrize(
    "name",
    ["../../etc/passwd", "/abs", "a/b\\c", ".", "..", "", "nul\x00", "\u202eevil", "x" * 5000],
)
def test_hostile_names_stay_in_the_folder(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "lessons"
    progress = LessonProgress(folder)
    progress.mark_done(name, "start")
    assert progress.done(name) == {"start"}
    files = list(folder.iterdir())
    assert len(files) == 1 and files[0].parent == folder
    assert files[0].name.endswith(".json") and len(files[0].name) < 64


def test_an_unknown_lesson_key_cannot_be_marked(tmp_path: Path) -> None:
    with pytest.raises(KeyError):
        LessonProgress(tmp_path).mark_done("Ada", "chess")


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{not json",
        b"[]",
        b'{"player": 5}',
        b'{"player": "Ada", "done": "board"}',
        b"[" * 100_000,
        b"\xff\xfe",
    ],
)
def test_a_damaged_file_is_no_progress(tmp_path: Path, content: bytes) -> None:
    progress = LessonProgress(tmp_path)
    progress.path("Ada").write_bytes(content)
    assert progress.done("Ada") == set()
    progress.mark_done("Ada", "pass")  # and it is replaced by a good one
    assert progress.done("Ada") == {"pass"}


def test_unknown_keys_and_fields_are_ignored(tmp_path: Path) -> None:
    progress = LessonProgress(tmp_path)
    data = {"player": "Ada", "done": ["board", "flying", "survey"], "future": 1}
    progress.path("Ada").write_bytes(msgspec.json.encode(data))
    assert progress.done("Ada") == {"board", "survey"}


def test_another_players_file_does_not_answer(tmp_path: Path) -> None:
    progress = LessonProgress(tmp_path)
    foreign = ProgressFile(player="Bob", done=("board",))
    progress.path("Ada").write_bytes(msgspec.json.encode(foreign))
    assert progress.done("Ada") == set()


def test_a_huge_file_is_not_read(tmp_path: Path) -> None:
    progress = LessonProgress(tmp_path)
    padding = " " * (MAX_PROGRESS_BYTES + 10)
    progress.path("Ada").write_bytes(b'{"player": "Ada", "done": ["board"]}' + padding.encode())
    assert progress.done("Ada") == set()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symbolic links")
def test_links_and_fifos_are_not_followed(tmp_path: Path) -> None:
    progress = LessonProgress(tmp_path)
    target = tmp_path / "elsewhere.json"
    target.write_bytes(msgspec.json.encode(ProgressFile(player="Ada", done=("board",))))
    progress.path("Ada").symlink_to(target)
    assert progress.done("Ada") == set()
    os.mkfifo(progress.path("Bob"))
    assert progress.done("Bob") == set()  # and it did not block


def test_a_folder_that_cannot_be_written_says_why(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(saves.SaveError):
        LessonProgress(blocker / "lessons").mark_done("Ada", "board")
    assert LessonProgress(blocker / "lessons").done("Ada") == set()


def test_the_folder_is_beside_the_saves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(saves.ENV_SAVE_DIR, str(tmp_path / "saves"))
    assert default_folder() == tmp_path / "lessons"
    assert saves.lessons_folder() == tmp_path / "lessons"
    assert default_folder(str(tmp_path / "x" / "saves")) == tmp_path / "x" / "lessons"


# ---------------------------------------------------------------- mykerinos learn --list


def _listing(player: str | None, folder: Path, encoding: str) -> str:
    import io

    from tui.learn_cli import print_lessons

    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding=encoding, errors="strict")
    assert print_lessons(player, folder, out) == 0
    return raw.getvalue().decode(encoding)


def test_the_list_marks_the_lessons_done(tmp_path: Path) -> None:
    LessonProgress(tmp_path).mark_done("Ada", "extend")
    text = _listing("Ada", tmp_path, "utf-8")
    lines = text.splitlines()
    assert lines[0] == "Lessons for Ada: 1 of 13 done"
    assert " 3. ✓ Extending an excavation" in lines
    assert " 1.   The board: regions, areas, parcels, pyramids" in lines
    assert all(len(line) <= 80 for line in lines)


def test_the_list_falls_back_to_ascii_marks(tmp_path: Path) -> None:
    LessonProgress(tmp_path).mark_done("Zoë", "board")
    text = _listing("Zoë", tmp_path, "ascii")
    assert " 1. [x] The board: regions, areas, parcels, pyramids" in text
    assert " 2. [ ] Starting an excavation" in text
    assert "Zo\\xeb" in text


def test_the_list_escapes_a_hostile_name_and_survives_damage(tmp_path: Path) -> None:
    name = "\x1b[31mevil" + "x" * 200
    LessonProgress(tmp_path).path(name).write_bytes(b"{broken")
    text = _listing(name, tmp_path, "utf-8")
    assert "\x1b" not in text and "0 of 13 done" in text
    assert all(len(line) <= 80 for line in text.splitlines())


# ---------------------------------------------------------------- coached games


def test_a_coached_game_is_remembered_with_its_notes_beside_the_lessons(tmp_path: Path) -> None:
    progress = LessonProgress(tmp_path)
    progress.mark_done("Ada", "board")
    assert progress.coached("Ada", "save:g1") is None
    progress.keep_coached("Ada", "save:g1", ())
    progress.keep_coached("Ada", "save:g1", ("placement", "pass"))
    progress.mark_done("Ada", "start")  # marking keeps the coached games
    again = LessonProgress(tmp_path)
    assert again.coached("Ada", "save:g1") == ("placement", "pass")
    assert again.coached("Bob", "save:g1") is None  # another player's game is not coached
    assert again.done("Ada") == {"board", "start"}  # keeping a game keeps the lessons


def test_only_the_most_recent_coached_games_are_kept(tmp_path: Path) -> None:
    from saves.lessons import MAX_COACHED

    progress = LessonProgress(tmp_path)
    for n in range(MAX_COACHED + 3):
        progress.keep_coached("Ada", f"table:s:{n}", ("placement",))
    progress.keep_coached("Ada", "table:s:3", ("placement", "off"))  # now the most recent
    assert progress.coached("Ada", "table:s:0") is None
    assert progress.coached("Ada", "table:s:2") is None
    assert progress.coached("Ada", "table:s:3") == ("placement", "off")
    assert progress.coached("Ada", f"table:s:{MAX_COACHED + 2}") == ("placement",)
    assert progress.path("Ada").stat().st_size < MAX_PROGRESS_BYTES


def test_a_progress_file_from_before_coached_games_still_reads(tmp_path: Path) -> None:
    progress = LessonProgress(tmp_path)
    old = b'{"player": "Ada", "done": ["board"], "format": "mykerinos-lessons", "version": 1}'
    progress.path("Ada").write_bytes(old)
    assert progress.done("Ada") == {"board"} and progress.coached("Ada", "save:x") is None
    bad = b'{"player": "Ada", "done": [], "coached": [{"game": 5}]}'
    progress.path("Ada").write_bytes(bad)
    assert progress.coached("Ada", "save:x") is None and progress.done("Ada") == set()
