"""A pause lifted early at a real server (issue 18): only the player who paused ends it,
the table is told, and the game (its computers included) goes on at once, not when the
ten minutes are up; the pause of the season stays taken, and the store keeps the table
unpaused across a restart."""

from __future__ import annotations

from table import journal
from table import protocol as wire
from tests.table_server.bots import Bot, catch_up, played
from tests.table_server.history import has
from tests.table_server.test_pace import table_of


async def pause(bot: Bot) -> wire.ServerMessage:
    return await bot.ask(wire.Pause(bot.connection.new_ref(), bot.table, 10))


async def resume(bot: Bot) -> wire.ServerMessage:
    return await bot.ask(wire.Resume(bot.connection.new_ref(), bot.table))


async def seated(server) -> tuple[Bot, Bot]:
    table = await table_of(server, "live", wait=300)
    return (
        await Bot.join(server.socket, "ann", table, 1),
        await Bot.join(server.socket, "ben", table, 2),
    )


async def test_the_player_who_paused_resumes_and_the_game_goes_on(server) -> None:
    ann, ben = await seated(server)
    paused = await pause(ann)
    assert isinstance(paused, wire.Told) and paused.table.paused_by == "ann"
    others = await resume(ben)
    assert isinstance(others, wire.Error) and "only they can resume it" in others.reason

    done = await resume(ann)
    assert isinstance(done, wire.Told) and done.table.paused_until is None
    assert [journal.words(e) for e in done.entries] == ["ann ended their pause: play on."]
    assert done.table.paused_this_season == ("ann",)
    await ben.drain()
    told = [f for f in ben.frames if isinstance(f, wire.Told) and has(f, journal.PauseEnd)]
    assert told and told[-1].entries == done.entries
    mover = ann if ann.my_turn() else ben
    assert played(await mover.play_one())  # at once, not in 10 minutes

    again = await resume(ann)
    assert isinstance(again, wire.Error) and again.reason == "the table is not paused"
    no_second = await pause(ann)
    assert isinstance(no_second, wire.Error) and "once this season" in no_second.reason


async def test_a_computer_due_during_the_pause_plays_as_soon_as_it_is_resumed(server) -> None:
    ann, ben = await seated(server)
    for _ in range(20):  # until it is ann's turn
        if ann.my_turn():
            break
        await ben.play_one()
        await catch_up([ann, ben])
    assert ann.my_turn()
    assert has(await pause(ann), journal.Pause)
    handed = await ann.ask(wire.HandOver(ann.connection.new_ref(), ann.table, "easy"))
    assert has(handed, journal.HandOver) and handed.table.seats[0].standin == "easy"  # type: ignore[union-attr]
    played = len(ann.actions)
    await ann.listen(1.0)  # paused: the computer does not move for her
    assert len(ann.actions) == played
    assert has(await resume(ann), journal.PauseEnd)
    for _ in range(100):  # 20 s at most (the pause itself runs 10 minutes)
        if len(ann.actions) > played:
            break
        await ann.listen(0.2)
    assert len(ann.actions) > played and ann.states[played].current_player == 0


async def test_a_resumed_table_stays_unpaused_after_a_restart(server) -> None:
    ann, _ = await seated(server)
    assert has(await pause(ann), journal.Pause)
    assert has(await resume(ann), journal.PauseEnd)
    table = ann.table
    server.stop()
    server.start()
    back = await Bot.join(server.socket, "ann", table, 3)
    snapshot = next(f for f in back.frames if isinstance(f, wire.Snapshot))
    assert snapshot.table.paused_until is None and snapshot.table.paused_by is None
    assert snapshot.table.paused_this_season == ("ann",)
