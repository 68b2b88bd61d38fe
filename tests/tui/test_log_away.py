"""The log at a shared table (issue 18 #4): chat in its place among the moves, the same on
every terminal and after every reconnection; moves a computer made for an absent player
said to be the computer's; and on that player's turn, what happened while they were away
set off from their own last decision."""

from __future__ import annotations

import random

import core
from table.seat import ChatLine
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


def test_chat_keeps_its_place_among_the_moves() -> None:
    states, actions = history(4)
    chat = [ChatLine(2.0, "ben", "nice", seq=2), ChatLine(1.0, "ann", "hi", seq=0),
            ChatLine(3.0, "cleo", "late", spectator=True)]  # fmt: skip
    log = LogView()
    log.tell_history(states, actions, chat)
    lines = plain(log)
    first = LogView()
    first.tell_history(states[:3], actions[:2])
    moved = len(plain(first))  # the lines of the first two moves
    assert lines[0] == "» ann: hi"
    assert lines[moved + 1] == "» ben: nice"  # after two moves, before the third
    assert lines[-1] == "» cleo (watching): late"  # no known place: after the moves
    again = LogView()
    again.tell_history(states, actions, list(reversed(chat)))  # heard in another order
    assert plain(again) == lines


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
