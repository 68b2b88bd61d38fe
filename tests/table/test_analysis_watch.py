"""Who may have a table analysed: anyone who may replay it. Every player of a server may
watch or export any table; a watch link's session only its own table, so it may have
that one analysed (its own words say when not yet), and no other."""

from __future__ import annotations

from table import protocol as wire
from table.client.connection import connect
from tests.table.test_tickets import door_server  # noqa: F401 (a fixture)
from tests.table.test_watch_tickets import _tables


async def test_a_watch_link_may_analyse_its_table_only(door_server) -> None:  # noqa: F811
    one, two = await _tables(door_server)
    guest = await connect(door_server.socket, None,
                          door_server.hub.issue_ticket("guest 1a2b", watching=one))  # fmt: skip
    for request in (wire.Analyse(guest.new_ref(), two), wire.StopAnalysing(guest.new_ref(), two)):
        answer = await guest.ask(request)
        assert isinstance(answer, wire.Error), answer
        assert answer.reason == f"this link lets you watch table {one} only"
    own = await guest.ask(wire.Analyse(guest.new_ref(), one))
    assert isinstance(own, wire.Error), own  # let through: refused for what the table is
    assert own.reason == "a table being played cannot be analysed: it can be once the game is over"
    await guest.close()

    player = await connect(door_server.socket, None, door_server.hub.issue_ticket("ben"))
    answer = await player.ask(wire.Analyse(player.new_ref(), two, kept=True))
    assert isinstance(answer, wire.Error) and "being played" in answer.reason
    await player.close()
