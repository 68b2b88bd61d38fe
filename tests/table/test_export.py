"""A shared table's export keeps its journal (issue 25): the lines its players saw (chat
where it was said, the notes of an undo, a pause, a hand-over) and the stand-in that made
each move, so that the save's replay shows what the table showed. The journal is built
by hand here; the room passes the table's own."""

from __future__ import annotations

import random
from pathlib import Path

import core
from saves.format import MAX_LINES, SaveFile, TableLine, decode
from saves.replay import replay
from table import journal
from table.server.export import export_save, kept_lines
from table.store import SeatRow, TableRow

T0 = 1_000_000.0
SEED = 9
PATH = Path("table-7.json")


def _game(moves: int) -> tuple[list[core.GameState], list[core.Action]]:
    chance = random.Random(2)
    states = [core.new_game(2, SEED, ["ann", "ben"], [core.Colour.BLUE, core.Colour.RED])]
    actions: list[core.Action] = []
    for _ in range(moves):
        actions.append(chance.choice(core.legal_actions(states[-1])))
        states.append(core.apply_action(states[-1], actions[-1]))
    return states, actions


def _row(actions: list[core.Action]) -> TableRow:
    seats = [SeatRow("player", "ann", None, core.Colour.BLUE),
             SeatRow("player", "ben", None, core.Colour.RED)]  # fmt: skip
    return TableRow(7, "ann, ben", SEED, T0, T0 + 60, seats, actions=actions)


def _evening(states: list[core.GameState], actions: list[core.Action]) -> list[journal.Any]:
    """Six moves, ben's third one by a stand-in, with chat, a pause, an undo and a
    hand-over among them, in the order the server would have written them."""
    moves = [
        journal.Move(T0 + seq, seq, states[seq].current_player or 0, action)
        for seq, action in enumerate(actions)
    ]
    ben = [i for i, s in enumerate(states[:-1]) if s.current_player == 1]
    handed = ben[1]
    assert handed < 5, "the stand-in's move comes before the undo"
    moves[handed] = journal.Move(T0 + handed, handed, 1, actions[handed], standin="normal")
    return [
        journal.Sit(T0, 0, 1, "ben"),
        journal.Chat(T0, 0, "ann", "[bold]hi[/] ben"),
        *moves[:2],
        journal.Pause(T0 + 2, 2, "ann", until=T0 + 600),
        journal.PauseEnd(T0 + 3, 2, "ann", early=True),
        *moves[2:handed],
        journal.HandOver(T0 + handed, handed, by="ann", seat=1, name="ben", level="normal"),
        *moves[handed:5],
        journal.Chat(T0 + 5, 5, "cleo", "who leads?", spectator=True),
        journal.Undo(T0 + 6, 4, "ann"),
        moves[4],
        *moves[5:],
    ]


def _export(moves: int = 6) -> tuple[SaveFile, list[journal.Any], list[core.Action]]:
    states, actions = _game(moves)
    entries = _evening(states, actions)
    save = decode(PATH, export_save(_row(actions), states, entries))
    return save, entries, actions


def test_the_export_keeps_the_lines_the_players_saw() -> None:
    """The save's lines are the journal's told lines, in its order: chat as chat (a
    watcher's marked), every other entry in the words every terminal showed."""
    save, entries, _ = _export()
    assert save.lines == journal.told_lines(entries)
    said = [(line.seq, line.name, line.text) for line in save.lines]
    assert said[:4] == [
        (0, None, "ben took seat 2."),
        (0, "ann", "[bold]hi[/] ben"),
        (2, None, "ann paused the table until " + said[2][2].rsplit(" ", 1)[-1]),
        (2, None, "ann ended their pause: play on."),
    ]
    assert any(line.spectator and line.name == "cleo" for line in save.lines)
    assert (4, None, "ann took back their last action.") in said


def test_the_export_says_which_moves_a_stand_in_made() -> None:
    """One stand-in per action, from the journal's moves (the move played after an undo
    is the one that counts); the save replays to the same game."""
    save, entries, actions = _export()
    assert save.standins == journal.standins(entries, len(actions))
    assert save.standins.count("normal") == 1
    assert save.actions == actions
    assert len(replay(PATH, save)) == len(actions) + 1


def test_a_table_without_a_journal_exports_as_before() -> None:
    """No entries (or none made by a stand-in, no line): neither field is in the file."""
    states, actions = _game(4)
    data = export_save(_row(actions), states)
    assert b'"lines"' not in data and b'"standins"' not in data
    moves = [journal.Move(T0, seq, 0, a) for seq, a in enumerate(actions)]
    assert b'"standins"' not in export_save(_row(actions), states, moves)


def test_hostile_lines_are_kept_safe_and_bounded() -> None:
    """A line the save format would refuse (a control character, U+202E, too long, a
    sayer without a name) is escaped, not lost, so the export always loads; past the
    bound the oldest chat gives way first."""
    states, actions = _game(2)
    evil: list[journal.Any] = [
        journal.Chat(T0, 1, "\x1b[2Jann", "hi\u202e\x07 [/]" + "x" * 500),
        journal.Chat(T0, 1, "", "who?"),
        journal.Undo(T0, 1, "ben\u202e"),
    ]
    save = decode(PATH, export_save(_row(actions), states, evil))
    first, nameless, undo = save.lines
    assert first.name == "\\x1b[2Jann" and first.text.startswith("hi\\u202e\\x07 [/]")
    assert len(first.text) == 400 and first.text.endswith("…")
    assert nameless.name == "?" and undo.text == "ben\\u202e took back their last action."
    chat = [TableLine(1, T0, f"line {i}", "ann") for i in range(MAX_LINES)]
    notes = [TableLine(1, T0, "ann took back their last action.")] * 10
    kept = kept_lines([*chat[:5], *notes, *chat[5:]])
    assert len(kept) == MAX_LINES and kept[:10] == notes and kept[10].text == "line 10"
