"""Live tables and tables over days (issue 13): an absent player's seat handed to a
computer after the table's wait (made short here), given back when they return; pauses."""

from __future__ import annotations

import asyncio

from table import journal
from table import protocol as wire
from table.client.connection import connect
from tests.table_server.bots import Bot
from tests.table_server.history import told_entries

SEATS = (wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben"))


async def table_of(server, pace: wire.Pace, wait: float = 1.0) -> int:
    connection = await connect(server.socket, "ann")
    answer = await connection.ask(wire.CreateTable(connection.new_ref(), SEATS, "", pace, wait))
    await connection.close()
    assert isinstance(answer, wire.Lobby)
    return answer.tables[0].id


async def hand_ben(ann: Bot) -> wire.ServerMessage:
    return await ann.ask(wire.HandOver(ann.connection.new_ref(), ann.table, "easy", seat=1))


async def test_a_live_table_hands_an_absent_seat_over_after_the_wait(server) -> None:
    table = await table_of(server, "live", wait=1.0)
    ann = await Bot.join(server.socket, "ann", table, 1)
    ben = await Bot.join(server.socket, "ben", table, 2)
    refused = await hand_ben(ann)
    assert isinstance(refused, wire.Error) and "here" in refused.reason  # ben is present
    await ben.connection.close()
    await ann.drain()
    early = await hand_ben(ann)
    assert isinstance(early, wire.Error) and "less than the table's wait" in early.reason
    await asyncio.sleep(1.1)
    done = await hand_ben(ann)
    assert isinstance(done, wire.Told) and done.table.seats[1].standin == "easy"
    (handed,) = told_entries(done)
    assert isinstance(handed, journal.HandOver) and (handed.by, handed.name) == ("ann", "ben")
    assert "while ben is away" in (journal.words(handed) or "")
    for _ in range(30):  # the computer plays ben's turns; ann plays hers
        turns = [before.current_player for before in ann.states[:-1]]
        if set(turns) == {0, 1} and turns.count(1) >= 2:
            break  # not the whole game out: a short deal could end it, before ben is back
        if ann.my_turn():
            await ann.play_one()
        else:
            await ann.listen(2.0)
    assert {before.current_player for before in ann.states[:-1]} == {0, 1}
    back = await Bot.join(server.socket, "ben", table, 3)
    snapshot = next(f for f in back.frames if isinstance(f, wire.Snapshot))
    assert snapshot.table.seats[1].standin is None
    said = [journal.words(entry) for entry in snapshot.journal[-2:]]
    assert said == ["ben is back at the table.", "ben plays their own seat again."]


async def test_a_table_over_days_waits_for_everyone(server) -> None:
    table = await table_of(server, "days", wait=1.0)
    ann = await Bot.join(server.socket, "ann", table, 1)
    ben = await Bot.join(server.socket, "ben", table, 2)
    await ben.connection.close()
    await asyncio.sleep(1.1)
    refused = await hand_ben(ann)
    assert isinstance(refused, wire.Error) and "waits for everyone" in refused.reason


async def test_a_pause_stops_the_table_once_per_player_per_season(server) -> None:
    table = await table_of(server, "live")
    ann = await Bot.join(server.socket, "ann", table, 1)
    ben = await Bot.join(server.socket, "ben", table, 2)
    paused = await ann.ask(wire.Pause(ann.connection.new_ref(), table, 10))
    assert isinstance(paused, wire.Told) and paused.table.paused_by == "ann"
    (pause,) = paused.entries
    assert "ann paused the table until" in (journal.words(pause) or "")
    mover = ann if ann.my_turn() else ben
    refused = await mover.play_one()
    assert isinstance(refused, wire.Error) and "paused until" in refused.reason
    again = await ann.ask(wire.Pause(ann.connection.new_ref(), table, 10))
    assert isinstance(again, wire.Error) and "once this season" in again.reason
    days = await table_of(server, "days")
    other = await Bot.join(server.socket, "ann", days, 3)
    no = await other.ask(wire.Pause(other.connection.new_ref(), days, 5))
    assert isinstance(no, wire.Error) and "live" in no.reason
