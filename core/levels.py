"""The levels of computer players: shared by the rules' computer players, save files and
the table protocol, so none of those needs the other to name one."""

from __future__ import annotations

from typing import Literal, get_args

Level = Literal["easy", "normal", "hard"]
"""A computer player's level: also the type of a computer seat's level in a save file."""
LEVELS: tuple[Level, ...] = get_args(Level)
"""Every level, weakest first (read from :data:`Level`, the one list)."""
