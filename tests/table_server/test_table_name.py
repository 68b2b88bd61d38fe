"""One name per table (issue 26): its title if given, else its seats as they are now, the
same in the lobby, at the table and in its export; the store keeps only a given title."""

from __future__ import annotations

from pathlib import Path

from saves.format import decode
from table import protocol as wire
from table.client.connection import connect
from table.store import TableStore
from tests.table_server.bots import Bot, create


async def listed_title(socket: Path, table: int) -> str:
    connection = await connect(socket, "dan")
    try:
        answer = await connection.ask(wire.ListTables(connection.new_ref()))
    finally:
        await connection.close()
    assert isinstance(answer, wire.Lobby), answer
    return next(info.title for info in answer.tables if info.id == table)


async def test_an_untitled_table_is_named_by_its_seats_as_they_are_now(server) -> None:
    """The open seat is "open seat" until ben takes it, then "ben", in the lobby, in the
    snapshot at the table and in the export; the store keeps no made-up title."""
    seats = [wire.SeatSpec("player", "ann"), wire.SeatSpec("open"),
             wire.SeatSpec("computer", level="hard")]  # fmt: skip
    table = await create(server.socket, "ann", seats)
    assert await listed_title(server.socket, table) == "ann, open seat, computer (hard)"
    ben = await Bot.join(server.socket, "ben", table, 1)
    named = "ann, ben, computer (hard)"
    assert await listed_title(server.socket, table) == named
    snapshot = ben.frames[-1]
    assert isinstance(snapshot, wire.Snapshot) and snapshot.table.title == named
    exported = await ben.ask(wire.Export(ben.connection.new_ref(), table))
    assert isinstance(exported, wire.Exported)
    assert decode(Path("t.json"), exported.save).title == named
    store = TableStore(server.db)
    try:
        assert next(r.title for r in store.tables() if r.id == table) == ""
    finally:
        store.close()


async def test_a_given_title_is_the_name_everywhere(server) -> None:
    connection = await connect(server.socket, "ann")
    seats = (wire.SeatSpec("player", "ann"), wire.SeatSpec("computer", level="easy"))
    try:
        answer = await connection.ask(wire.CreateTable(connection.new_ref(), seats, " Friday "))
    finally:
        await connection.close()
    assert isinstance(answer, wire.Lobby)
    assert answer.tables[0].title == "Friday"
    assert await listed_title(server.socket, answer.tables[0].id) == "Friday"
