"""A seat handed to a computer and taken back, at a real server (issue 13): the computer
plays it meanwhile, the table is told, the player cannot act for it, and the seat is the
player's again when they take it back or come back to the table."""

from __future__ import annotations

import asyncio
import random

from msgspec.structs import replace

from table import journal
from table import protocol as wire
from table.client.connection import connect
from tests.table_server.bots import WAIT, Bot, catch_up, create, played
from tests.table_server.history import has, told_entries

SEATS = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben")]


async def hand(bot: Bot, level: str | None) -> wire.Told:
    answer = await bot.ask(wire.HandOver(bot.connection.new_ref(), bot.table, level))  # type: ignore[arg-type]
    assert isinstance(answer, wire.Told), answer
    return answer


def words(told: wire.ServerMessage) -> list[str]:
    """What the Told's entries say (the one wording every terminal shows)."""
    return [journal.words(entry) or "" for entry in told_entries(told)]


async def test_a_handed_seat_is_played_by_the_computer_until_taken_back(server) -> None:
    table = await create(server.socket, "ann", SEATS)
    ann, ben = (
        await Bot.join(server.socket, "ann", table, 1),
        await Bot.join(server.socket, "ben", table, 2),
    )
    told = await hand(ann, "easy")
    assert told.table.seats[0].standin == "easy"
    assert words(told) == ["ann's seat is played by a computer (easy) until they take it back."]
    await ben.listen(WAIT)
    heard = [f for f in ben.frames if has(f, journal.HandOver)]
    assert heard and heard[-1] == replace(told, ref=0)  # the table is told the same, for its log
    # Ben plays his turns; Ann's are played by the computer on the server: until each seat
    # has moved and ann's twice, not the whole game out (a short deal could end it in 40
    # rounds, and a game over takes no hand-back).
    for _ in range(40):
        turns = [before.current_player for before in ann.states[:-1]]
        if set(turns) == {0, 1} and turns.count(0) >= 2:
            break
        if ben.my_turn():
            await ben.play_one()
        else:
            await ben.listen(WAIT)
        await catch_up([ann, ben])
    movers = {before.current_player for before in ann.states[:-1]}
    assert movers == {0, 1}  # ann's seat moved without ann
    back = await hand(ann, None)
    assert back.table.seats[0].standin is None and words(back) == [
        "ann plays their own seat again."
    ]
    await asyncio.sleep(0.3)  # a move the computer had under way may still land
    for _ in range(400):  # from now on only ann plays ann's seat: her moves are accepted
        await ann.drain()
        await ben.drain()
        if ann.my_turn():
            assert played(await ann.play_one())
            break
        if ben.my_turn():
            await ben.play_one()
        else:
            await ann.listen(0.5)
    else:
        raise AssertionError("ann's turn never came back")


async def test_while_handed_the_player_cannot_act_and_coming_back_takes_the_seat_again(
    server,
) -> None:
    table = await create(server.socket, "ann", SEATS)
    ann = await Bot.join(server.socket, "ann", table, 1)
    ben = await Bot.join(server.socket, "ben", table, 2)
    mover = ann if ann.my_turn() else ben
    await hand(mover, "easy")
    await catch_up([ann, ben])
    await mover.connection.close()  # gone while the computer plays for them
    for _ in range(20):
        other = ben if mover is ann else ann
        if other.my_turn():
            await other.play_one()
        else:
            await other.listen(0.2)
    name = "ann" if mover is ann else "ben"
    again = await Bot.join(server.socket, name, table, 3)
    snapshot = [f for f in again.frames if isinstance(f, wire.Snapshot)][-1]
    assert all(seat.standin is None for seat in snapshot.table.seats)
    said = [journal.words(entry) for entry in snapshot.journal[-2:]]
    assert said == [f"{name} is back at the table.", f"{name} plays their own seat again."]


async def test_a_spectator_cannot_hand_over_a_seat(server) -> None:
    table = await create(server.socket, "ann", SEATS)
    await Bot.join(server.socket, "ann", table, 1)
    eve = Bot(await connect(server.socket, "eve"), random.Random(0))
    await eve.enter(wire.Watch(eve.connection.new_ref(), table))
    answer = await eve.ask(wire.HandOver(eve.connection.new_ref(), table, "easy"))
    assert isinstance(answer, wire.Error) and "only a player" in answer.reason
