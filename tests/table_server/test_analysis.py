"""A finished table's analysis at a real server (issue 27): made by the server, shared by
everyone who asks at once, kept in its store and its export, served kept after a restart
without a job, stopped part-way keeping what is done; a table being played, a stranger
and hostile requests refused in words.

The finished game is written into the store before the server starts (a game whose
exact end is quick to search), and the server judges with few simulations and workers
not niced (:data:`table.server.computers.SIMULATIONS_ENV`, for tests only), so that a
player's decisions are judged in seconds; the last decisions of season 4 are still
searched exactly."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import core
from core.ai import make_bot
from core.analysis import ANALYSIS_VERSION, Analysis, decisions
from saves.format import decode
from table import protocol as wire
from table.client.connection import Connection, connect
from table.server.computers import SIMULATIONS_ENV
from table.store import Append, SeatRow, TableStore
from tests.table_server.bots import WAIT
from tests.table_server.process import Server

ANALYSIS_WAIT = 240.0
"""Seconds a whole analysis may take on a loaded machine (a hang bound, not a timing)."""


GAME = 2
"""The seed of the stored game: a game of easy computers whose exact end is quick to
search (about 10 s of judging in all with 2 simulations; some games take minutes)."""


@pytest.fixture
def server(monkeypatch) -> Iterator[Server]:
    """A real server (not started) whose analyses judge with 2 simulations a decision."""
    monkeypatch.setenv(SIMULATIONS_ENV, "2")
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        running = Server(Path(folder))
        try:
            yield running
        finally:
            running.stop()


def easy_game(seed: int) -> tuple[list[core.GameState], list[core.Action]]:
    """Ann's and an easy computer's game, both seats played by easy computers."""
    state = core.new_game(2, seed, ["ann", "Easy"])
    bots = [make_bot("easy", seed=seed * 8 + seat) for seat in range(2)]
    states, actions = [state], []
    while not core.is_over(state):
        action = bots[state.current].choose(core.public_view(state))
        actions.append(action)
        state = core.apply_action(state, action)
        states.append(state)
    return states, actions


def finished_table(server: Server) -> tuple[int, list[core.GameState], list[core.Action]]:
    """A finished table in the store (then the server starts): its id and real history."""
    states, actions = easy_game(GAME)
    colours = [player.colour for player in states[0].players]
    seats = [
        SeatRow("player", "ann", None, colours[0]),
        SeatRow("computer", None, "easy", colours[1]),
    ]
    store = TableStore(server.db)
    try:
        row = store.create("", GAME, seats, "days", 300, "ann")
        store.commit([Append(row.id, seq, action) for seq, action in enumerate(actions)])
    finally:
        store.close()
    server.start()
    return row.id, states, actions


async def follow(
    connection: Connection, table: int, first: wire.ServerMessage
) -> tuple[list[wire.Analysing], wire.Analysed]:
    """The progress heard after ``first`` (the answer to Analyse), and the result."""
    heard: list[wire.Analysing] = []
    message = first
    while not isinstance(message, wire.Analysed):
        assert isinstance(message, wire.Analysing) and message.table == table, message
        heard.append(message)
        message = await asyncio.wait_for(connection.unasked(), ANALYSIS_WAIT)
    return heard, message


def kept_in_store(server: Server, table: int) -> Analysis | None:
    store = TableStore(server.db)
    try:
        return next(r.analysis for r in store.tables() if r.id == table)
    finally:
        store.close()


async def stored(server: Server, table: int, complete: bool) -> Analysis:
    """The analysis the store keeps, once it is there (written just after it is told)."""
    for _ in range(400):
        kept = kept_in_store(server, table)
        if kept is not None and kept.complete == complete:
            return kept
        await asyncio.sleep(0.05)
    raise AssertionError(f"the store never kept the analysis: {kept_in_store(server, table)}")


async def test_two_players_follow_one_analysis_kept_in_the_store_the_export_and_a_restart(
    server,
) -> None:
    table, states, actions = finished_table(server)
    ann, ben = await connect(server.socket, "ann"), await connect(server.socket, "ben")
    # One player's decisions (the other's are judged the same way: this bounds the test).
    asked = [ann.ask(wire.Analyse(ann.new_ref(), table, (0,))),
             ben.ask(wire.Analyse(ben.new_ref(), table, (0,)))]  # fmt: skip
    firsts = await asyncio.gather(*asked)
    (ann_heard, ann_result), (ben_heard, ben_result) = await asyncio.gather(
        follow(ann, table, firsts[0]), follow(ben, table, firsts[1])
    )
    wanted = decisions(states, actions, (0,))
    for heard in (ann_heard, ben_heard):
        assert heard and heard[0].total == len(wanted)
        assert [h.done for h in heard] == sorted(h.done for h in heard)  # it only goes on
    assert ann_result.analysis == ben_result.analysis
    analysis = ann_result.analysis
    assert analysis is not None and analysis.complete and analysis.seats == (0,)
    assert analysis.version == ANALYSIS_VERSION and analysis.seed == table
    assert [j.index for j in analysis.decisions] == wanted

    assert await stored(server, table, complete=True) == analysis
    exported = await ann.ask(wire.Export(ann.new_ref(), table))
    assert isinstance(exported, wire.Exported)
    assert decode(Path("export.json"), exported.save).analysis == analysis
    await ann.close()
    await ben.close()

    server.stop()
    server.start()
    cleo = await connect(server.socket, "cleo")
    again = await cleo.ask(wire.Analyse(cleo.new_ref(), table, (0,)))
    assert isinstance(again, wire.Analysed) and again.analysis == analysis  # kept: no job
    kept = await cleo.ask(wire.Analyse(cleo.new_ref(), table, kept=True))
    assert isinstance(kept, wire.Analysed) and kept.analysis == analysis
    await cleo.close()


async def test_a_stop_keeps_what_is_judged_and_a_later_look_goes_on_from_there(server) -> None:
    table, _states, _actions = finished_table(server)
    ann = await connect(server.socket, "ann")
    first = await ann.ask(wire.Analyse(ann.new_ref(), table))
    assert isinstance(first, wire.Analysing), first
    heard = first.done
    while heard < 1:
        message = await asyncio.wait_for(ann.unasked(), ANALYSIS_WAIT)
        assert isinstance(message, wire.Analysing), message
        heard = message.done
    stopped = await ann.ask(wire.StopAnalysing(ann.new_ref(), table))
    assert isinstance(stopped, wire.Analysed) and stopped.analysis is not None, stopped
    partial = stopped.analysis
    assert not partial.complete and partial.decisions  # the exact end takes far longer
    kept = await stored(server, table, complete=False)
    done = {j.index for j in partial.decisions}
    assert done <= {j.index for j in kept.decisions}

    again = await ann.ask(wire.Analyse(ann.new_ref(), table))
    assert isinstance(again, wire.Analysing) and again.done >= len(done), again
    stop_again = await ann.ask(wire.StopAnalysing(ann.new_ref(), table))
    assert isinstance(stop_again, wire.Analysed)
    await ann.close()


async def test_a_table_being_played_and_hostile_requests_are_refused_in_words(server) -> None:
    server.start()
    seats = (wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben"))
    ann = await connect(server.socket, "ann")
    created = await ann.ask(wire.CreateTable(ann.new_ref(), seats))
    assert isinstance(created, wire.Lobby)
    playing = created.tables[0].id
    answer = await ann.ask(wire.Analyse(ann.new_ref(), playing))
    assert isinstance(answer, wire.Error) and "being played cannot be analysed" in answer.reason
    for request in (
        wire.Analyse(ann.new_ref(), 10**12),
        wire.StopAnalysing(ann.new_ref(), 10**12),
    ):
        answer = await ann.ask(request)
        assert isinstance(answer, wire.Error) and "there is no table" in answer.reason
    stop = await ann.ask(wire.StopAnalysing(ann.new_ref(), playing))
    assert isinstance(stop, wire.Error) and "nothing of table" in stop.reason

    # Frames no client of this protocol sends: refused, the connection goes on.
    hostile = [
        {"t": "analyse", "ref": 91, "table": playing, "seats": [0, 1, 2, 3, 4]},
        {"t": "analyse", "ref": 92, "table": playing, "seats": [9]},
        {"t": "analyse", "ref": 93, "table": playing, "seats": []},
        {"t": "analyse", "ref": 94, "table": 2**70},
        {"t": "analyse", "ref": 95, "table": playing, "seats": [-1]},
        {"t": "stop-analysing", "ref": 96, "table": playing, "extra": 1},
    ]
    import msgspec

    for frame in hostile:
        body = msgspec.json.encode(frame)
        ann.writer.write(wire.HEADER.pack(len(body)) + body)
    for _ in hostile:
        answer = await asyncio.wait_for(ann.unasked(), WAIT)
        assert isinstance(answer, wire.Error) and "malformed request" in answer.reason, answer
    lobby = await ann.ask(wire.ListTables(ann.new_ref()))
    assert isinstance(lobby, wire.Lobby)  # still served
    await ann.close()


async def test_a_seat_the_table_does_not_have_is_refused(server) -> None:
    table, _states, _actions = finished_table(server)
    ann = await connect(server.socket, "ann")
    answer = await ann.ask(wire.Analyse(ann.new_ref(), table, (0, 3)))
    assert isinstance(answer, wire.Error), answer
    assert answer.reason == f"table {table} has 2 seats: there is no seat 4"
    await ann.close()
