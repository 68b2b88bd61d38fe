"""Your turn at the server's other tables: which turns are news, and which notices told of
one no longer hold.

The app looks at the server's tables every few seconds (``tui.shared_tables``) and asks
:class:`Turns` what changed since its last look: the tables where it became the player's
turn (not those on show here: the board says it), and those where a turn it saw has been
played since (at another terminal, by a stand-in) or undone, whose notice must go. No
Textual here, so the rule is tested alone.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from table.protocol import TableInfo


def my_seat(info: TableInfo, player: str) -> int | None:
    """The seat ``player`` has at the table (reserved or taken), None if none."""
    return next((i for i, s in enumerate(info.seats) if s.name == player and not s.computer), None)


def is_my_turn(info: TableInfo, player: str) -> bool:
    return info.status == "playing" and info.turn is not None and info.turn == my_seat(info, player)


@dataclass
class Turns:
    """The player's turns at the server's tables, as of the last look."""

    player: str
    seen: dict[int, int] | None = None
    """Each table where it was the player's turn, with how many actions it had then
    (None before the first look)."""

    def look(
        self, tables: Sequence[TableInfo], on_show: Collection[int]
    ) -> tuple[list[TableInfo], list[int]]:
        """The tables as they stand now: (the player's new turns, not at a table
        ``on_show``; the tables whose turn seen at the last look is no longer the one to
        play). The first look tells nothing: the lobby shows every turn."""
        now = {info.id: info for info in tables if is_my_turn(info, self.player)}
        seen, self.seen = self.seen, {table: info.actions for table, info in now.items()}
        if seen is None:
            return [], []
        played = [t for t, actions in seen.items() if t not in now or now[t].actions != actions]
        news = [now[t] for t in sorted(now) if seen.get(t) != now[t].actions and t not in on_show]
        return news, played
