"""The remote seat against a scripted link: what the game screen sees of a shared table.

The real server is exercised in tests/tui/test_tables.py and tests/table_server/; here a
fake link answers as the server would, so each rule of the seat shows on its own: a move is
told only once acknowledged, an answer and its broadcast count once, a refusal changes
nothing, a dropped connection is redialled and the history fetched again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

import core
from core.public import public_view
from table import protocol as wire
from table.remote import RemoteSeat
from table.seat import SeatError, Update

TABLE = 7


def info(status: wire.TableStatus = "playing", present: bool = True) -> wire.TableInfo:
    seats = (
        wire.SeatInfo(core.Colour.BLUE, "ann", present=present),
        wire.SeatInfo(core.Colour.RED, "ben", present=present, away_since=None),
    )
    return wire.TableInfo(TABLE, "ann, ben", seats, status, 0, 1, 0.0, 0.0, 0)


def snapshot(start: core.GameState, actions=(), seats_here=(0,), note=None) -> wire.Snapshot:
    return wire.Snapshot(0, info(), start, tuple(actions), tuple(seats_here), note)


class FakeLink:
    """Answers requests with ``answer(request)``; unasked messages are pushed by the test."""

    def __init__(self, answer: Callable[[wire.ClientMessage], wire.ServerMessage]) -> None:
        self.player = "ann"
        self.answer = answer
        self.sent: list[wire.ClientMessage] = []
        self.queue: asyncio.Queue[wire.ServerMessage | None] = asyncio.Queue()
        self.refs = 0

    def new_ref(self) -> int:
        self.refs += 1
        return self.refs

    async def ask(self, message: wire.ClientMessage) -> wire.ServerMessage:
        self.sent.append(message)
        await asyncio.sleep(0)
        return self.answer(message)

    async def unasked(self) -> wire.ServerMessage:
        message = await self.queue.get()
        if message is None:
            raise ConnectionError("gone")
        return message

    async def close(self) -> None:
        self.queue.put_nowait(None)


def start_state() -> core.GameState:
    return public_view(core.new_game(2, 5, names=["ann", "ben"]))


def played(state: core.GameState, seq: int, action: core.Action, ref: int = 0) -> wire.Played:
    after, events = core.apply_action_with_events(state, action)
    return wire.Played(ref, TABLE, seq, action, tuple(events), public_view(after))


async def _seat(answer, start=None, actions=()) -> tuple[RemoteSeat, FakeLink, list[Update]]:
    start = start or start_state()
    link = FakeLink(answer)

    async def dial() -> FakeLink:
        return link

    seat = RemoteSeat(link, dial, snapshot(start, actions), watch=False, where="test")
    heard: list[Update] = []
    seat.listen(heard.append)
    return seat, link, heard


async def test_a_move_is_told_once_acknowledged_and_only_once() -> None:
    start = start_state()
    holder: dict[str, wire.Played] = {}

    def answer(message: wire.ClientMessage) -> wire.ServerMessage:
        assert isinstance(message, wire.Play)
        holder["ack"] = played(start, message.seq, message.action, message.ref)
        return holder["ack"]

    seat, _, heard = await _seat(answer, start)
    assert start.current_player == 0  # seed 5: ann starts
    action = seat.legal_actions()[0]
    seat.play(action)
    assert seat.unsaved == 1 and seat.status == "sending…"
    assert [u.kind for u in heard] == ["status"]  # nothing played before the ack
    for _ in range(5):
        await asyncio.sleep(0)
    assert [u.kind for u in heard] == ["status", "played"]
    assert seat.actions == [action] and seat.unsaved == 0
    seat._receive(wire.Played(0, TABLE, 0, action, (), holder["ack"].state))  # the broadcast
    assert [u.kind for u in heard] == ["status", "played"]


async def test_an_illegal_move_is_refused_here_and_nothing_is_sent() -> None:
    seat, link, heard = await _seat(lambda m: pytest.fail("nothing may be sent"))
    assert seat.state.current_player == 0  # seed 5: ann starts
    with pytest.raises(core.IllegalActionError):
        seat.play(core.TakeParcel(0))
    assert link.sent == [] and heard == []


async def test_a_server_refusal_is_a_problem_on_screen_and_changes_nothing() -> None:
    def refuse(message: wire.ClientMessage) -> wire.ServerMessage:
        assert isinstance(message, wire.Play)
        return wire.Error(message.ref, "Someone played meanwhile.")

    seat, _, heard = await _seat(refuse)
    assert seat.state.current_player == 0  # seed 5: ann starts
    before = seat.state
    seat.play(seat.legal_actions()[0])
    for _ in range(5):
        await asyncio.sleep(0)
    assert seat.state is before and seat.actions == []
    assert heard[-1].problem == "Someone played meanwhile."


async def test_the_other_players_seat_is_not_decided_here() -> None:
    seat, _, _ = await _seat(lambda m: pytest.fail("nothing may be sent"))
    assert seat.decides_here(0) and not seat.decides_here(1) and not seat.decides_here(None)
    if seat.state.current_player == 1:
        with pytest.raises(SeatError, match="not your decision"):
            seat.play(seat.legal_actions()[0])


async def test_undo_is_offered_for_my_last_action_only() -> None:
    start = start_state()
    assert start.current_player == 0  # seed 5: ann starts
    mine = core.legal_actions(start)[0]
    after_mine = core.apply_action(start, mine)
    seat, _, _ = await _seat(lambda m: pytest.fail("unused"), start, [mine])
    assert seat.can_undo() == (after_mine.season == start.season)
    actions, state = [mine], after_mine
    while state.current_player != 1:  # ann may have a neutral cube to place first
        actions.append(core.legal_actions(state)[0])
        state = core.apply_action(state, actions[-1])
    actions.append(core.legal_actions(state)[0])  # ben acts: ann's action is behind his
    seat2, _, _ = await _seat(lambda m: pytest.fail("unused"), start, actions)
    assert not seat2.can_undo()
    with pytest.raises(SeatError, match="only your own last action"):
        seat2.undo()


async def test_a_dropped_connection_is_redialled_and_the_history_fetched_again() -> None:
    start = start_state()
    action = core.legal_actions(start)[0]

    def answer(message: wire.ClientMessage) -> wire.ServerMessage:
        return snapshot(start, [action])  # the Join after the redial

    seat, link, heard = await _seat(answer, start)
    runner = asyncio.get_running_loop().create_task(seat.run())
    try:
        link.queue.put_nowait(None)  # the connection drops
        for _ in range(200):
            await asyncio.sleep(0.01)
            if seat.actions:
                break
        assert seat.actions == [action]  # what was played meanwhile is there
        assert any(u.note == "Reconnected to the table server." for u in heard)
        assert any(u.kind == "status" for u in heard)  # "reconnecting…" was shown
    finally:
        runner.cancel()
