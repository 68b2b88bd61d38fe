"""Every kind of hostile file in tests/saves/corpus.py, beside a good save: the folder
still lists, the damaged file shows as one damaged row and fails to load with one short
SaveError naming it, a hostile but valid one loads as written, and none is ever modified.
(The command line's half of this check is in tests/tui/test_cli.py.)"""

from __future__ import annotations

import time
from datetime import timedelta, timezone
from pathlib import Path

import pytest

import saves
from saves.text import is_hidden
from tests.saves.corpus import CASE_IDS, CASES, Case, fingerprint, good_bytes, write_case

TIME_LIMIT = 10.0
"""Seconds before a call counts as a hang (a bound, not a timing: the issue's 2 s per file is
measured by bench/bench_hostile.py, away from a loaded test machine)."""
MESSAGE_LIMIT = 400
"""Characters an error may hold beyond the path of the file it names."""
FARTHEST_ZONES = [timezone(timedelta(hours=23, minutes=59)), timezone(-timedelta(hours=23))]


def _folder_with(tmp_path: Path, case: Case) -> tuple[saves.SaveStore, Path]:
    """A save folder holding a good save "good" and the hostile file as save "hostile"."""
    folder = tmp_path / "saves"
    folder.mkdir()
    (folder / "good.json").write_bytes(good_bytes())
    return saves.SaveStore(folder), write_case(case, folder, "hostile")


def _timed(call, *args):
    start = time.perf_counter()
    try:
        return call(*args)
    finally:
        assert time.perf_counter() - start < TIME_LIMIT, f"{call.__name__} took too long"


def _check_message(message: str, path: Path) -> None:
    assert str(path) in message
    assert len(message) < len(str(path)) + MESSAGE_LIMIT, message
    assert not any(is_hidden(char) for char in message), f"not plain text: {message!r}"


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_hostile_file_is_listed_and_loaded_safely(tmp_path: Path, case: Case) -> None:
    """list() shows the file (damaged: one row with a short error naming it), load() raises
    one SaveError naming it (or loads a valid one), each within the time limit, the good
    save beside it is untouched by all this, and the file is the same afterwards."""
    store, path = _folder_with(tmp_path, case)
    before = fingerprint(path)
    rows = {row.name: row for row in _timed(store.list)}
    assert rows["good"].error is None
    hostile = rows["hostile"]
    for zone in FARTHEST_ZONES:
        hostile.updated.astimezone(zone)  # the load screen converts it: never an overflow
    if case.loads:
        assert hostile.error is None
        session = _timed(store.load, "hostile")
        assert [seat.name for seat in session.seats] == hostile.players
        session.close()
    else:
        assert hostile.error is not None and case.words in hostile.error
        _check_message(hostile.error, path)
        with pytest.raises(saves.SaveError) as caught:
            _timed(store.load, "hostile")
        assert caught.value.path == path
        assert case.words is not None and case.words in str(caught.value)
        _check_message(str(caught.value), path)
    assert fingerprint(path) == before
    assert store.load("good").actions


def test_the_corpus_is_large_and_its_names_are_unique() -> None:
    """At least 70 kinds of hostile file, each with its own id."""
    assert len(CASES) >= 70 and len(set(CASE_IDS)) == len(CASE_IDS)
