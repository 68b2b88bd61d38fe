"""The game screen's status line at 80 columns: a warning (NOT SAVED, reconnecting…) is
never the part that is cut off."""

from __future__ import annotations

import core
from table.seat import Player
from tui.prompts import status_line


def test_a_warning_comes_before_what_a_narrow_terminal_cuts() -> None:
    state = core.new_game(3, 1, ["Annabelle", "Bartholomew", "Cleopatra"])
    players = [Player(p.name, p.colour, away="away since 12:24") for p in state.players]
    line = status_line(state, players, "reconnecting…").plain
    assert line.index("reconnecting…") < line.index("Excavation")
    assert "reconnecting…" in line[:80] and len(line) > 80
