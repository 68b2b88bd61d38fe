"""Save format 3: a shared table's journal kept with its exported game (issue 25). The
lines (chat and notes) and the stand-ins round-trip, an older file loads without them,
and a game resumed here keeps them for the moves it had (the corpus holds the hostile
files: tests/saves/corpus.py)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import pytest
from msgspec.structs import replace

import core
import saves
from core.levels import Level
from saves import format as save_format
from saves.format import TableLine
from tests.saves.helpers import hot_seat

WHEN = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
LINES = [
    TableLine(0, 1.0, "ann took seat 1."),
    TableLine(2, 2.0, "[/] nice [bold]move", "ben"),
    TableLine(3, 3.0, "who is winning?", "cleo", spectator=True),
    TableLine(6, 4.0, "ann took back their last action."),
]


def _exported(actions: int = 6, seed: int = 4) -> tuple[saves.SaveFile, list[core.Action]]:
    """A shared table's export: ``actions`` random actions, the second made by a stand-in."""
    seats = hot_seat(2)
    state = core.new_game(2, seed, names=[s.name for s in seats], colours=[s.colour for s in seats])
    rng, log = random.Random(seed), list[core.Action]()
    for _ in range(actions):
        log.append(rng.choice(core.legal_actions(state)))
        state = core.apply_action(state, log[-1])
    standins: list[Level | None] = [None] * actions
    standins[1] = "normal"
    save = saves.SaveFile(
        format=saves.FORMAT,
        version=saves.VERSION,
        title="At the table",
        seed=seed,
        players=seats,
        actions=log,
        created=WHEN,
        updated=WHEN,
        lines=LINES,
        standins=standins,
    )
    return save, log


def test_lines_and_standins_round_trip(store: saves.SaveStore) -> None:
    """encode then decode gives the same lines (chat, a watcher's chat, notes; markup kept
    as text) and stand-ins."""
    save, _ = _exported()
    data = save_format.encode(save)
    assert save_format.decode(store.path("t"), data) == save
    document = json.loads(data)
    assert document["lines"][1] == {
        "seq": 2,
        "at": 2.0,
        "text": "[/] nice [bold]move",
        "name": "ben",
    }
    assert document["standins"] == [None, "normal", None, None, None, None]


def test_a_game_without_a_journal_writes_neither_field(store: saves.SaveStore) -> None:
    """A game played here has no lines and no stand-in: neither is in its file (which is
    as before, but for its version)."""
    session = saves.Session.new(store, hot_seat(2), seed=1)
    session.apply(core.legal_actions(session.state)[0])
    document = json.loads(session.path.read_bytes())
    assert "lines" not in document and "standins" not in document
    assert session.lines == [] and session.standins == []
    session.close()


def test_a_version_2_file_loads_and_is_written_as_current(store: saves.SaveStore) -> None:
    """A save of version 2 migrates (nothing to convert: it has no journal); the next
    autosave writes the current version."""
    save, log = _exported()
    document = json.loads(save_format.encode(save))
    document.pop("lines"), document.pop("standins")
    document["version"] = 2
    store.folder.mkdir(parents=True)
    store.path("old").write_text(json.dumps(document), encoding="utf-8")
    session = store.open("old")
    assert session.actions == log and session.lines == [] and session.standins == []
    session.apply(core.legal_actions(session.state)[0])
    written = json.loads(store.path("old").read_bytes())
    assert written["version"] == saves.VERSION and "lines" not in written
    session.close()


def test_a_resumed_export_keeps_its_journal_for_the_moves_it_had(
    store: saves.SaveStore,
) -> None:
    """Adopted and played on here: the file keeps the table's lines and stand-ins; the
    moves played here have no stand-in and no line."""
    save, _ = _exported()
    session = saves.Session.adopt(store, save_format.encode(save), "kept")
    assert session.lines == LINES
    assert session.standins == save.standins
    session.apply(core.legal_actions(session.state)[0])
    written = save_format.decode(session.path, session.path.read_bytes())
    assert written.lines == LINES
    assert written.standins == [*save.standins, None]
    session.close()
    again = store.open("kept")
    assert again.lines == LINES and again.standins == [*save.standins, None]
    again.close()


def test_an_undo_takes_back_the_lines_of_the_moves_it_takes_back(
    store: saves.SaveStore,
) -> None:
    """Undoing the table's last moves drops the lines said after them (their place is
    gone) and their stand-ins; a redo brings them back; a move played instead has none."""
    save, log = _exported()
    session = saves.Session.adopt(store, save_format.encode(save), "kept")
    session.undo()  # back to 5 actions: the note said after 6 has no place
    assert len(session.actions) == 5
    assert session.lines == LINES[:3] and session.standins == save.standins[:5]
    session.redo()
    assert session.lines == LINES and session.standins == save.standins
    while len(session.actions) > 1:
        session.undo()
    assert session.lines == LINES[:1] and session.standins == []  # the stand-in's move is gone
    other = next(a for a in core.legal_actions(session.state) if a != log[1])
    session.apply(other)
    written = save_format.decode(session.path, session.path.read_bytes())
    assert written.lines == LINES[:1] and written.standins == []
    session.close()


@pytest.mark.parametrize("count", [0, 3, 7])
def test_standins_of_another_length_are_refused_in_words(
    store: saves.SaveStore, count: int
) -> None:
    """Stand-ins must be one per action (or none): a save that cannot be loaded is never
    written."""
    save, _ = _exported()
    wrong = replace(save, standins=["easy"] * count)
    if count == 0:
        save_format.check_new(wrong)
        return
    with pytest.raises(ValueError, match=f"{count} stand-ins for 6 actions"):
        save_format.check_new(wrong)


def test_a_hidden_character_in_a_line_is_refused_in_words(store: saves.SaveStore) -> None:
    """U+202E in a line of chat or a sayer's name: the file is refused, saying which line."""
    save, _ = _exported()
    evil = [*LINES[:2], TableLine(3, 3.0, "olleh\u202e", "cleo")]
    with pytest.raises(saves.SaveError, match="line 3 of the table's journal contains U\\+202E"):
        save_format.decode(store.path("t"), save_format.encode(replace(save, lines=evil)))


def test_a_line_said_before_the_tables_last_undo_is_kept(store: saves.SaveStore) -> None:
    """Ben spoke after a 7th action that ann then took back: his line shows after the 6
    actions the game has (before the undo's note) and stays with the game played on."""
    save, _ = _exported()
    lines = [
        TableLine(7, 5.0, "oops", "ben"),
        TableLine(6, 6.0, "ann took back their last action."),
    ]
    assert save_format.places(lines, 6) == [6, 6]
    session = saves.Session.adopt(store, save_format.encode(replace(save, lines=lines)), "kept")
    assert session.lines == lines
    session.apply(core.legal_actions(session.state)[0])
    assert save_format.decode(session.path, session.path.read_bytes()).lines == lines
    session.undo()
    session.undo()  # back before the 6th action: neither line has a place any more
    assert session.lines == []
    session.close()
