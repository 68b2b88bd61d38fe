"""The hub, without sockets: the order of a server's lobby (a player's own tables, then
seats still open, then the rest, newest first) and the bound on silent connections."""

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


async def test_a_login_keeps_at_most_16_connections_silent_before_their_hello() -> None:
    """Silent connections of one login wait for their hello 16 at most (the 17th is
    refused at once); a trusted account, through which every player of a shared account
    comes, is not held to it."""
    import asyncio

    from table.server.rules import Refusal

    hub = Hub([], NoWriter(), {}, trusted=["games"])  # type: ignore[arg-type]
    silent = [
        asyncio.create_task(hub.connections.greet("eve", asyncio.StreamReader(), object()))  # type: ignore[arg-type]
        for _ in range(16)
    ]
    await asyncio.sleep(0)
    try:
        await hub.connections.greet("eve", asyncio.StreamReader(), object())  # type: ignore[arg-type]
    except Refusal as exc:
        assert "eve has 16 connections saying hello" in str(exc)
    else:
        raise AssertionError("a 17th silent connection was let in")
    shared = [
        asyncio.create_task(hub.connections.greet("games", asyncio.StreamReader(), object()))  # type: ignore[arg-type]
        for _ in range(20)
    ]
    await asyncio.sleep(0)
    assert not any(task.done() for task in shared)  # all 20 wait for their hello
    for task in silent + shared:
        task.cancel()
    await asyncio.gather(*silent, *shared, return_exceptions=True)
    assert not hub.connections.greeting  # nothing left counted
