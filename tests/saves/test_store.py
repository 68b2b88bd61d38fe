"""The save folder: where it is, what list() shows, resume candidates, delete."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import core
import saves
from tests.saves.helpers import against_computers, hot_seat, play_random


def test_default_folder_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """--save-dir wins over MYKERINOS_SAVE_DIR, which wins over the platform data folder."""
    monkeypatch.setenv("MYKERINOS_SAVE_DIR", str(tmp_path / "env"))
    assert saves.default_folder(str(tmp_path / "cli")) == tmp_path / "cli"
    assert saves.default_folder() == tmp_path / "env"
    monkeypatch.delenv("MYKERINOS_SAVE_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert saves.default_folder() == tmp_path / "data" / "mykerinos" / "saves"


def test_list_shows_each_game_newest_first(store: saves.SaveStore) -> None:
    """Summaries carry the players, season, leader, last played and whether it is over."""
    first = saves.Session.new(store, hot_seat(2), seed=1, name="first")
    play_random(first, random.Random(1))
    second = saves.Session.new(store, against_computers(3), seed=2, name="second")
    play_random(second, random.Random(2), limit=50)
    listed = store.list()
    assert [s.name for s in listed] == ["second", "first"]
    latest = listed[0]
    assert latest.players == ["Ann", "Bot1", "Bot2"]
    assert latest.season == second.state.season and not latest.finished
    assert latest.updated == second.updated and latest.error is None
    assert latest.leader == saves.leader(second.state)
    assert listed[1].finished
    winners = core.final_scores(first.state).winners
    assert listed[1].leader == " & ".join(first.seats[seat].name for seat in winners)


def test_leader_is_the_most_points_so_far(store: saves.SaveStore) -> None:
    """Before anyone scores there is no leader; afterwards, the top scorer(s)."""
    session = saves.Session.new(store, hot_seat(3), seed=3)
    assert saves.leader(session.state) is None
    play_random(session, random.Random(3), limit=70)
    scores = [p.score for p in session.state.players]
    expected = [p.name for p in session.state.players if p.score == max(scores)]
    assert max(scores) > 0, "this seed has scored by action 70"
    assert saves.leader(session.state) == " & ".join(expected)


def test_latest_unfinished_skips_finished_and_damaged(store: saves.SaveStore) -> None:
    """The game offered on launch is the most recent one that is not over and loads."""
    assert store.latest_unfinished() is None
    playing = saves.Session.new(store, hot_seat(2), seed=4, name="playing")
    done = saves.Session.new(store, hot_seat(2), seed=5, name="done")
    play_random(done, random.Random(5))
    (store.folder / "broken.json").write_text("{")
    summary = store.latest_unfinished()
    assert summary is not None and summary.name == playing.name


def test_list_sees_a_file_change(store: saves.SaveStore) -> None:
    """A save changed since the last list() is read again."""
    session = saves.Session.new(store, hot_seat(2), seed=6, name="g")
    assert store.list()[0].season == 1
    play_random(session, random.Random(6))
    assert store.list()[0].finished


def test_delete(store: saves.SaveStore) -> None:
    """delete removes the file; deleting a missing save says so unless missing_ok."""
    saves.Session.new(store, hot_seat(2), seed=7, name="gone")
    store.delete("gone")
    assert store.list() == [] and store.names() == set()
    with pytest.raises(saves.SaveError, match="no save named 'gone'"):
        store.delete("gone")
    store.delete("gone", missing_ok=True)


def test_empty_or_missing_folder_lists_nothing(tmp_path: Path) -> None:
    """A folder that does not exist yet is an empty store, not an error."""
    assert saves.SaveStore(tmp_path / "nowhere").list() == []


def test_files_that_are_not_saves_are_not_listed(store: saves.SaveStore) -> None:
    """Other files in the folder (notes, odd names) are left alone."""
    saves.Session.new(store, hot_seat(2), seed=8, name="real")
    (store.folder / "notes.txt").write_text("hello")
    (store.folder / "odd name!.json").write_text("{}")
    assert [s.name for s in store.list()] == ["real"]
