"""The log at a shared table (issue 18 #4, issue 25): the table's journal (chat, and the
notes of an undo, a pause, a hand-over) in its place among the moves, the same on every
terminal and after every reconnection; moves a computer made for an absent player said to
be the computer's; and on that player's turn, what happened while they were away set off
from their own last decision."""

from __future__ import annotations

import random

import core
from saves.format import TableLine, places
from tui.widgets.log import LogView


def history(moves: int, seed: int = 3) -> tuple[list[core.GameState], list[core.Action]]:
    chance = random.Random(seed)
    states = [core.new_game(2, 5, ["ann", "ben"])]
    actions: list[core.Action] = []
    for _ in range(moves):
        action = chance.choice(core.legal_actions(states[-1]))
        actions.append(action)
        states.append(core.apply_action(states[-1], action))
    return states, actions


def plain(log: LogView) -> list[str]:
    return [line.plain for line in log.lines]


def test_the_journal_keeps_its_place_among_the_moves() -> None:
    """A line with seq k shows after the k-th move: chat as chat (a watcher marked),
    notes as they are; a line said after the last move, last."""
    states, actions = history(4)
    lines = [
        TableLine(0, 1.0, "hi", "ann"),
        TableLine(0, 1.5, "ben took seat 2."),
        TableLine(2, 2.0, "nice", "ben"),
        TableLine(4, 3.0, "late", "cleo", spectator=True),
    ]
    log = LogView()
    log.tell_history(states, actions, lines)
    told = plain(log)
    first = LogView()
    first.tell_history(states[:3], actions[:2])
    moved = len(plain(first))  # the lines of the first two moves
    assert told[:2] == ["» ann: hi", "ben took seat 2."]
    assert told[moved + 2] == "» ben: nice"  # after two moves, before the third
    assert told[-1] == "» cleo (watching): late"
    live = LogView()  # each line told as it is said, among the moves as they are played
    live.tell_history(states[:1], [], lines[:2])
    for seq, action in enumerate(actions):
        live.tell_action(states[seq], action)
        if seq == 1:
            live.tell_line(lines[2])
    live.tell_line(lines[3])
    assert plain(live) == told  # a reconnection rebuilds the log every terminal had


def test_a_line_said_before_an_undo_shows_before_its_note() -> None:
    """Ben spoke after move 3; ann then took it back: his line shows after move 2, before
    the undo's note, not after a move 3 that is no longer the one he saw. A line whose
    place is past the moves (a client that has not yet dropped the move) shows last."""
    states, actions = history(3)
    lines = [
        TableLine(3, 1.0, "oops", "ben"),
        TableLine(2, 2.0, "ann took back their last action."),
        TableLine(3, 3.0, "better", "ben"),
    ]
    assert places(lines, 3) == [2, 2, 3]
    log = LogView()
    log.tell_history(states, actions, lines)
    told = plain(log)
    oops = told.index("» ben: oops")
    assert told[oops + 1] == "ann took back their last action."
    assert told[-1] == "» ben: better" and oops < len(told) - 2
    assert places([TableLine(9, 1.0, "ahead", "ben")], 3) == [3]


def test_hostile_lines_show_as_written_never_as_markup() -> None:
    """Markup is text; a control or format character is shown escaped, live or rebuilt."""
    states, actions = history(1)
    evil = TableLine(1, 1.0, "[/] [bold]x\u202e\x1b[2J", "[@click=app.quit]ann\u202e")
    log = LogView()
    log.tell_history(states, actions, [evil])
    rebuilt = plain(log)[-1]
    assert rebuilt == "» [@click=app.quit]ann\\u202e: [/] [bold]x\\u202e\\x1b[2J"
    log.tell_line(evil)
    assert plain(log)[-1] == rebuilt
    name = "[@click=app.quit]ann\\u202e"
    assert [(s.start, s.end, s.style) for s in log.lines[-1].spans] == [(2, 2 + len(name), "bold")]


def test_a_stand_ins_moves_are_the_computers_and_the_return_is_marked() -> None:
    states, actions = history(12)
    movers = [s.current_player for s in states[:-1]]
    ann_moves = [i for i, m in enumerate(movers) if m == 0]
    handed = ann_moves[1]  # ann's second decision on was made by a computer for her
    standins: list[core.Level | None] = [
        "easy" if m == 0 and i >= handed else None for i, m in enumerate(movers)
    ]
    log = LogView()
    log.tell_history(states, actions, standins=standins)
    assert any(line.endswith("(computer, easy)") for line in plain(log))
    assert not any(
        line.endswith("(computer, easy)") and line.startswith("R ") for line in plain(log)
    )  # fmt: skip  (ben's own moves are his)
    turn = next(s for s in states[::-1] if s.current_player == 0)
    log.turn_of(turn)
    assert log.since_words == "while you were away"
    assert log.since is not None
    assert not log.entries[log.since - 1].standin  # from ann's own last decision
    plain_log = LogView()
    plain_log.tell_history(states, actions)
    plain_log.turn_of(turn)
    assert plain_log.since_words == "since ann's last decision"


def test_a_player_whose_first_decisions_a_computer_made_is_told_them_all() -> None:
    states, actions = history(8)
    movers = [s.current_player for s in states[:-1]]
    standins: list[core.Level | None] = ["normal" if m == 1 else None for m in movers]
    log = LogView()
    log.tell_history(states, actions, standins=standins)
    turn = next(s for s in states[::-1] if s.current_player == 1)
    log.turn_of(turn)
    assert log.since == 0 and log.since_words == "while you were away"


def test_the_end_of_the_game_clears_the_mark_of_a_turn() -> None:
    """Nobody decides after the last action: the log follows the newest lines (the end of
    the game), not a player's old turn."""
    chance = random.Random(4)
    states = [core.new_game(2, 5, ["ann", "ben"])]
    actions: list[core.Action] = []
    while not core.is_over(states[-1]):
        actions.append(chance.choice(core.legal_actions(states[-1])))
        states.append(core.apply_action(states[-1], actions[-1]))
    log = LogView()
    log.tell_history(states[:-2], actions[:-2])
    log.turn_of(states[-2])  # ann's or ben's last decision of the game is due here
    log.since, log.top = 0, 0  # as if marked and scrolled
    log.tell_action(states[-2], actions[-1], standin="easy")  # a computer made it
    assert log.since is None and log.top is None
