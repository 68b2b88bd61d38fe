"""The order of a server's lobby: a player's own tables, then seats still open, then the
rest, newest first; so a flood of another player's tables never hides them."""

from __future__ import annotations

from typing import Any

import core
from table.server.hub import Hub
from table.store import SeatRow, TableRow
from tests.table.tables import T0


class NoWriter:
    async def commit(self, change: Any) -> None:  # nothing is stored here
        raise AssertionError("the lobby changes nothing")


def table(id_: int, names: list[str | None], updated: float) -> TableRow:
    colours = list(core.Colour)
    seats = [SeatRow("player" if n else "open", n, None, colours[i]) for i, n in enumerate(names)]
    return TableRow(id_, f"t{id_}", 5, T0, updated, seats)


def test_your_tables_then_open_seats_then_the_newest_others() -> None:
    rows = [table(1, ["ben", "cleo"], T0 + 30), table(2, ["ben", None], T0 + 10),
            table(3, ["ann", "ben"], T0 + 20), table(4, ["dan", "eve"], T0 + 40)]  # fmt: skip
    hub = Hub(rows, NoWriter(), {})  # type: ignore[arg-type]
    assert [info.id for info in hub.lobby("ann")] == [3, 2, 4, 1]
    assert [info.id for info in hub.lobby("ben")] == [2, 1, 3, 4]
