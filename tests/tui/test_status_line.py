"""The game screen's status line at 80 columns: a warning (NOT SAVED, reconnecting…, the
table's pause) is never the part that is cut off, and the line fits (issue 26, item 9):
the less needed parts go first (the deck, the phase, the hints, the away's time)."""

from __future__ import annotations

import core
from table.seat import Player
from tui.prompts import status_line

PAUSE = "paused until 22:56 (cleo): P resumes"


def test_a_warning_comes_before_the_rest() -> None:
    state = core.new_game(3, 1, ["Annabelle", "Bartholomew", "Cleopatra"])
    players = [Player(p.name, p.colour, away="away since 12:24") for p in state.players]
    line = status_line(state, players, "reconnecting…", width=200).plain
    assert line.index("reconnecting…") < line.index("Excavation") < line.index("deck")


def test_a_pause_with_the_decider_away_fits_80_columns_and_keeps_who_and_why() -> None:
    """Issue 26: "… ben (R) to decide (away" was all an 80-column terminal showed."""
    state = core.new_game(3, 1, ["Annabelle", "Bartholomew", "Cleopatra"])
    players = [Player(p.name, p.colour, away="away since 12:24") for p in state.players]
    line = status_line(state, players, PAUSE, width=80, hints=False).plain
    assert len(line) <= 80 and not line.endswith("…"), line
    decider = state.players[state.current].name
    assert PAUSE in line and decider in line and "(away" in line


def test_a_wide_terminal_keeps_everything() -> None:
    state = core.new_game(2, 1, ["ann", "ben"])
    players = [Player(p.name, p.colour) for p in state.players]
    line = status_line(state, players, None, width=80, hints=False).plain
    assert "Excavation" in line and "deck" in line and "hints off" in line
    assert "to decide" in line and len(line) <= 80
