"""A watch link's ticket (issue 26 #19): its session may list its one table, watch it,
leave and export it, and nothing else: Join, Create, Play, chat, another table are
refused in words."""

from __future__ import annotations

import core
from table import protocol as wire
from table.client.connection import connect
from tests.table.test_tickets import door_server  # noqa: F401 (a fixture)


async def _tables(door_server) -> tuple[int, int]:  # noqa: F811
    """Two tables of ann and ben, both playing."""
    ann = await connect(door_server.socket, None, door_server.hub.issue_ticket("ann"))
    seats = (wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben"))
    ids = []
    for title in ("one", "two"):
        answer = await ann.ask(wire.CreateTable(ann.new_ref(), seats, title))
        assert isinstance(answer, wire.Lobby), answer
        ids.append(answer.tables[0].id)
    await ann.close()
    return ids[0], ids[1]


async def test_a_watch_ticket_watches_its_table_only(door_server) -> None:  # noqa: F811
    one, two = await _tables(door_server)
    ticket = door_server.hub.issue_ticket("guest 1a2b", watching=one)
    guest = await connect(door_server.socket, None, ticket)
    assert guest.player == "guest 1a2b"

    lobby = await guest.ask(wire.ListTables(guest.new_ref()))
    assert isinstance(lobby, wire.Lobby) and [t.id for t in lobby.tables] == [one], lobby
    seen = await guest.ask(wire.Watch(guest.new_ref(), one))
    assert isinstance(seen, wire.Snapshot) and seen.seats_here == (), seen

    refused = {
        "join": wire.Join(guest.new_ref(), one),
        "join another": wire.Join(guest.new_ref(), two),
        "watch another": wire.Watch(guest.new_ref(), two),
        "create": wire.CreateTable(
            guest.new_ref(), (wire.SeatSpec("player", "guest 1a2b"), wire.SeatSpec("open"))
        ),
        "play": wire.Play(guest.new_ref(), one, 0, core.Pass()),
        "say": wire.Say(guest.new_ref(), one, "hello"),
        "ladder": wire.Ladder(guest.new_ref()),
    }
    for what, message in refused.items():
        answer = await guest.ask(message)
        assert isinstance(answer, wire.Error), (what, answer)
        assert "watch" in answer.reason, (what, answer.reason)
    assert "table" in (await guest.ask(wire.Join(guest.new_ref(), two))).reason
    await guest.close()

    player = await connect(door_server.socket, None, door_server.hub.issue_ticket("ann"))
    joined = await player.ask(wire.Join(player.new_ref(), two))
    assert isinstance(joined, wire.Snapshot), joined  # a player's ticket is as before
    await player.close()
