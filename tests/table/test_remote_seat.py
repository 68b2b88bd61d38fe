"""The remote seat against a scripted link: what the game screen sees of a shared table.

The real server is exercised in tests/tui/test_tables.py and tests/table_server/; here a
fake link answers as the server would, so each rule of the seat shows on its own: a move is
told only once acknowledged, an answer and its broadcast count once, a refusal changes
nothing, a dropped connection is redialled and the history fetched again, and a request the
drop left unanswered is settled against that history: counted once if the server kept it,
sent again at the same position, otherwise not made and the player told so."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TypeVar

import pytest
from msgspec.structs import replace

import core
from core.public import public_view
from table import protocol as wire
from table.client import remote
from table.client.remote import RemoteSeat
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
        joins = [m for m in link.sent if isinstance(m, wire.Join)]
        assert joins and not joins[-1].back  # reconnecting is not coming back
        assert any(u.kind == "status" for u in heard)  # "reconnecting…" was shown
    finally:
        runner.cancel()


DAMAGED = "table 1 is damaged"


async def test_a_redial_the_server_refuses_is_closed_and_said_once(monkeypatch) -> None:
    """The server is back but refuses the table (damaged at its restart): each attempt's
    connection is closed, never piled up, and the player reads the reason once."""
    monkeypatch.setattr(remote, "REDIAL_EVERY", (0.001,))
    start = start_state()
    first = FakeLink(lambda message: snapshot(start))
    dialled: list[FakeLink] = []
    closed: list[FakeLink] = []

    class Refusing(FakeLink):
        async def close(self) -> None:
            closed.append(self)
            await super().close()

    async def dial() -> FakeLink:
        link = Refusing(lambda message: wire.Error(getattr(message, "ref", 0), DAMAGED))
        dialled.append(link)
        return link

    seat = RemoteSeat(first, dial, snapshot(start), watch=False, where="test")
    heard: list[Update] = []
    seat.listen(heard.append)
    runner = asyncio.get_running_loop().create_task(seat.run())
    try:
        first.queue.put_nowait(None)  # the connection drops
        for _ in range(200):
            await asyncio.sleep(0.005)
            if len(dialled) >= 5:
                break
        assert len(dialled) >= 5
        assert len(closed) >= len(dialled) - 1  # every refused attempt closed (one may be asking)
        problems = [u.problem for u in heard if u.problem]
        assert problems == [DAMAGED]
    finally:
        runner.cancel()


# ---------------------------------------------------------------- requests across a drop


class FakeTable:
    """The server's side of the table, as far as a request across a drop needs it: Join,
    Play (refused at a stale seq), Undo, HandOver (of ann's seat) and Say, each committed
    before it is answered."""

    def __init__(self, start: core.GameState, actions: Sequence[core.Action] = ()) -> None:
        self.start = start
        self.actions = list(actions)
        self.chat: list[wire.ChatLine] = []
        self.standin: str | None = None
        """The computer playing ann's seat."""

    def info(self) -> wire.TableInfo:
        table = info()
        ann = replace(table.seats[0], standin=self.standin)
        return replace(table, seats=(ann, *table.seats[1:]))

    def snapshot(self, ref: int = 0, note: str | None = None) -> wire.Snapshot:
        actions, chat = tuple(self.actions), tuple(self.chat)
        return wire.Snapshot(ref, self.info(), self.start, actions, (0,), note, chat)

    def answer(self, message: wire.ClientMessage) -> wire.ServerMessage:
        if isinstance(message, wire.Join):
            return self.snapshot(message.ref)
        if isinstance(message, wire.Play):
            if message.seq != len(self.actions):
                return wire.Error(message.ref, "someone played meanwhile: look again")
            before = core.replay(self.start, self.actions)[-1]
            self.actions.append(message.action)
            return played(before, message.seq, message.action, message.ref)
        if isinstance(message, wire.Undo):
            if message.seq != len(self.actions):
                return wire.Error(message.ref, "someone played meanwhile: look again")
            self.actions.pop()
            return self.snapshot(message.ref, "ann took back their last action.")
        if isinstance(message, wire.HandOver):
            self.standin = message.level
            return wire.Seats(self.info(), "ann's seat is played by a computer.", message.ref)
        if isinstance(message, wire.Say):
            self.chat.append(wire.ChatLine(time.time(), "ann", message.text))
            return wire.Said(TABLE, self.chat[-1], message.ref)
        pytest.fail(f"unexpected request {message!r}")


class DroppedLink(FakeLink):
    """A connection that drops under a request: ``table`` (if any) commits the request
    first, as a server that dies before it answers; with ``hang`` the answer never comes,
    as from a server that stopped without closing the connection."""

    def __init__(self, table: FakeTable | None = None, *, hang: bool = False) -> None:
        super().__init__(lambda m: pytest.fail("a dropped connection answers nothing"))
        self.table = table
        self.hang = hang

    async def ask(self, message: wire.ClientMessage) -> wire.ServerMessage:
        self.sent.append(message)
        if self.table is not None:
            self.table.answer(message)
        if self.hang:
            await asyncio.Event().wait()
        raise ConnectionError("gone")


@pytest.fixture(autouse=True)
def quick_redial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote, "REDIAL_EVERY", (0.01,))


@contextlib.asynccontextmanager
async def across_a_drop(
    table: FakeTable, dropped: DroppedLink, request: Callable[[RemoteSeat], None]
) -> AsyncIterator[tuple[RemoteSeat, FakeLink, list[Update]]]:
    """A seat at ``table`` on ``dropped`` makes ``request``; the connection drops, the seat
    redials a link to ``table`` and, inside the block, has had time to settle it all."""
    back = FakeLink(table.answer)

    async def dial() -> FakeLink:
        return back

    seat = RemoteSeat(dropped, dial, table.snapshot(), watch=False, where="test")
    heard: list[Update] = []
    seat.listen(heard.append)
    runner = asyncio.get_running_loop().create_task(seat.run())
    try:
        request(seat)
        await asyncio.sleep(0.01)
        dropped.queue.put_nowait(None)  # what the real connection does when it ends
        for _ in range(100):
            await asyncio.sleep(0.01)
            if seat.link is back and seat.status is None:
                break
        await asyncio.sleep(0.05)  # an answer to a request sent again, if any
        yield seat, back, heard
    finally:
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner


Asked = TypeVar("Asked", bound=wire.ClientMessage)


def requests(link: FakeLink, kind: type[Asked]) -> list[Asked]:
    """The requests of ``kind`` sent on ``link``."""
    return [m for m in link.sent if isinstance(m, kind)]


async def test_a_move_lost_with_the_connection_is_sent_again_at_the_same_position() -> None:
    start = start_state()
    assert start.current_player == 0  # seed 5: ann starts
    table, action = FakeTable(start), core.legal_actions(start)[0]
    async with across_a_drop(table, DroppedLink(), lambda s: s.play(action)) as found:
        seat, back, heard = found
    assert [(m.seq, m.action) for m in requests(back, wire.Play)] == [(0, action)]
    assert table.actions == [action] and seat.actions == [action]
    assert [u.kind for u in heard].count("played") == 1
    assert seat.status is None and seat.unsaved == 0


async def test_a_move_never_answered_is_settled_at_the_reconnect() -> None:
    start = start_state()
    table, action = FakeTable(start), core.legal_actions(start)[0]
    async with across_a_drop(table, DroppedLink(hang=True), lambda s: s.play(action)) as found:
        seat, back, _ = found
        assert seat.status is None  # not "sending…" for ever: the tester's report
    assert len(requests(back, wire.Play)) == 1
    assert table.actions == [action] and seat.actions == [action]


async def test_a_move_lost_while_the_table_moved_on_is_not_played_and_the_player_is_told() -> None:
    start = start_state()
    mine, theirs = core.legal_actions(start)[:2]
    table = FakeTable(start)

    def play_then_the_table_moves_on(seat: RemoteSeat) -> None:
        seat.play(mine)
        table.actions.append(theirs)  # ann's seat was played elsewhere meanwhile

    async with across_a_drop(table, DroppedLink(), play_then_the_table_moves_on) as found:
        seat, back, heard = found
    assert requests(back, wire.Play) == []
    assert table.actions == [theirs] and seat.actions == [theirs]
    problems = [u.problem for u in heard if u.problem]
    assert problems and "table moved on" in problems[-1] and "not played" in problems[-1]
    assert seat.status is None and seat.unsaved == 0


async def test_a_move_the_server_kept_before_the_drop_counts_once() -> None:
    start = start_state()
    table, action = FakeTable(start), core.legal_actions(start)[0]
    async with across_a_drop(table, DroppedLink(table), lambda s: s.play(action)) as found:
        seat, back, heard = found
    assert requests(back, wire.Play) == []
    assert table.actions == [action] and seat.actions == [action]
    assert not any(u.problem for u in heard)
    assert any(u.note and "was played" in u.note for u in heard)
    assert seat.status is None and seat.unsaved == 0


async def test_an_undo_lost_with_the_connection_is_sent_again_at_the_same_position() -> None:
    start = start_state()
    mine = core.legal_actions(start)[0]
    table = FakeTable(start, [mine])
    async with across_a_drop(table, DroppedLink(), lambda s: s.undo()) as found:
        seat, back, heard = found
    assert [m.seq for m in requests(back, wire.Undo)] == [1]
    assert table.actions == [] and seat.actions == []
    assert not any(u.problem for u in heard)
    assert seat.status is None


async def test_an_undo_the_server_made_before_the_drop_is_not_sent_again() -> None:
    start = start_state()
    table = FakeTable(start, [core.legal_actions(start)[0]])
    async with across_a_drop(table, DroppedLink(table), lambda s: s.undo()) as found:
        seat, back, heard = found
    assert requests(back, wire.Undo) == [] and table.actions == [] and seat.actions == []
    assert not any(u.problem for u in heard) and seat.status is None


async def test_a_chat_line_lost_while_the_table_moved_on_is_not_said_and_the_player_is_told() -> (
    None
):
    start = start_state()
    table = FakeTable(start)

    def say_then_the_table_moves_on(seat: RemoteSeat) -> None:
        seat.say("good luck")
        table.actions.append(core.legal_actions(start)[0])

    async with across_a_drop(table, DroppedLink(), say_then_the_table_moves_on) as found:
        _, back, heard = found
    assert requests(back, wire.Say) == [] and table.chat == []
    problems = [u.problem for u in heard if u.problem]
    assert problems and "table moved on" in problems[-1] and "good luck" in problems[-1]


async def test_a_chat_line_lost_with_the_connection_is_said_once() -> None:
    table = FakeTable(start_state())
    async with across_a_drop(table, DroppedLink(), lambda s: s.say("good luck")) as found:
        seat, back, heard = found
    assert [line.text for line in seat.chat] == ["good luck"] == [x.text for x in table.chat]
    assert len(requests(back, wire.Say)) == 1 and not any(u.problem for u in heard)


async def test_a_chat_line_the_server_kept_before_the_drop_is_not_said_twice() -> None:
    table = FakeTable(start_state())
    async with across_a_drop(table, DroppedLink(table), lambda s: s.say("hi")) as found:
        seat, back, heard = found
    assert requests(back, wire.Say) == [] and [line.text for line in seat.chat] == ["hi"]
    assert not any(u.problem for u in heard)


async def test_a_hand_over_lost_with_the_connection_is_sent_again_at_the_same_position() -> None:
    table = FakeTable(start_state())
    async with across_a_drop(table, DroppedLink(), lambda s: s.hand_over("easy")) as found:
        seat, back, heard = found
    assert [m.level for m in requests(back, wire.HandOver)] == ["easy"]
    assert seat.handed_to == "easy" == table.standin
    assert not any(u.problem for u in heard) and seat.status is None


async def test_a_hand_over_the_server_made_before_the_drop_is_not_sent_again() -> None:
    table = FakeTable(start_state())
    async with across_a_drop(table, DroppedLink(table), lambda s: s.hand_over("easy")) as found:
        seat, back, heard = found
    assert requests(back, wire.HandOver) == [] and seat.handed_to == "easy"
    assert not any(u.problem for u in heard) and seat.status is None
