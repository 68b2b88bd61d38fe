"""The remote seat against a scripted table: what the game screen sees of a shared table.

The real server is exercised in tests/tui/test_tables.py and tests/table_server/; here a
fake table speaks protocol 3 as the server does (one :class:`~table.protocol.Told` per
change, to the requester with its ``ref`` and to every other connection with ref 0), so
each rule of the seat shows on its own: a move is told only once the table tells it, a
Told heard twice counts once, a refusal changes nothing, every entry of the journal
becomes a line in the journal's own words, a dropped connection is redialled and the
table fetched again with what was told meanwhile, and a request the drop left unanswered
is settled against it: counted once if the server kept it, sent again at the same
position, otherwise not made and the player told so."""

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
from table import journal, rules
from table import protocol as wire
from table.client import seat as remote
from table.client.known import EARLY_KEPT, KnownTable
from table.client.seat import RemoteSeat
from table.seat import SeatError, Update, told_beside

TABLE = 7


def info(status: wire.TableStatus = "playing", present: bool = True) -> wire.TableInfo:
    seats = (
        wire.SeatInfo(core.Colour.BLUE, "ann", present=present),
        wire.SeatInfo(core.Colour.RED, "ben", present=present, away_since=None),
    )
    return wire.TableInfo(TABLE, "ann, ben", seats, status, 0, 1, 0.0, 0.0, 0)


def moves(start: core.GameState, actions: Sequence[core.Action]) -> list[journal.Any]:
    """The journal's moves of ``actions`` played from ``start`` by the seats' own players."""
    states = core.replay(start, actions)
    return [
        journal.Move(float(i), i, states[i].current_player or 0, action)
        for i, action in enumerate(actions)
    ]


def snapshot(
    start: core.GameState,
    actions: Sequence[core.Action] = (),
    seats_here: Sequence[int] = (0,),
    entries: Sequence[journal.Any] | None = None,
) -> wire.Snapshot:
    """A snapshot of ``actions`` from ``start``, its journal their moves (or ``entries``)."""
    told = moves(start, actions) if entries is None else entries
    return wire.Snapshot(0, info(), start, tuple(actions), tuple(seats_here), tuple(told))


class FakeLink:
    """Answers requests with ``answer(request)``; unasked messages are pushed by the test."""

    def __init__(
        self, answer: Callable[[wire.ClientMessage], wire.ServerMessage], player: str = "ann"
    ) -> None:
        self.player = player
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


# ---------------------------------------------------------------- a table speaking protocol 3


class FakeTable:
    """The server's side of one table of ann and ben: the actions, the journal, who stands
    in for ann, the pause. Each request is committed before it is answered with one
    Told, which every other connection at the table hears with ref 0."""

    def __init__(self, start: core.GameState, actions: Sequence[core.Action] = ()) -> None:
        self.start = start
        self.actions = list(actions)
        self.journal: list[journal.Any] = moves(start, actions)
        self.standin: core.Level | None = None
        """The computer playing ann's seat."""
        self.paused: tuple[float, str] | None = None
        self.pace: wire.Pace = "days"
        self.links: list[TableLink] = []
        """The connections at the table (those that joined), told of every change."""

    def info(self) -> wire.TableInfo:
        table = replace(info(), pace=self.pace, actions=len(self.actions))
        ann = replace(table.seats[0], standin=self.standin)
        until, by = self.paused or (None, None)
        return replace(table, seats=(ann, *table.seats[1:]), paused_until=until, paused_by=by)

    def state(self) -> core.GameState:
        return core.replay(self.start, self.actions)[-1]

    def snapshot(self, ref: int = 0, seats_here: tuple[int, ...] = (0,)) -> wire.Snapshot:
        actions, told = tuple(self.actions), tuple(self.journal)
        return wire.Snapshot(ref, self.info(), self.start, actions, seats_here, told)

    def tell(
        self,
        entries: Sequence[journal.Any],
        ref: int = 0,
        asker: FakeLink | None = None,
        state: core.GameState | None = None,
        events: Sequence[core.Event] = (),
    ) -> wire.Told:
        """Add ``entries`` to the journal: the Told to ``asker`` (with ``ref``); every
        other connection hears it with ref 0."""
        n = len(self.journal)
        self.journal.extend(entries)
        told = wire.Told(0, self.info(), n, tuple(entries), state, tuple(events))
        for link in self.links:
            if link is not asker:
                link.queue.put_nowait(told)
        return replace(told, ref=ref)

    # ---------------------------------------------------------------- what happens there

    def play(
        self, action: core.Action, ref: int = 0, asker: FakeLink | None = None, **move: object
    ) -> wire.Told:
        before = self.state()
        after, events = core.apply_action_with_events(before, action)
        entry = journal.Move(time.time(), len(self.actions), before.current_player or 0, action)
        self.actions.append(action)
        entry = replace(entry, **move)
        return self.tell([entry], ref, asker, public_view(after), events)

    def undo(self, player: str, ref: int = 0, asker: FakeLink | None = None) -> wire.Told:
        self.actions.pop()
        return self.tell([journal.Undo(time.time(), len(self.actions), player)], ref, asker)

    def say(self, name: str, text: str, ref: int = 0, asker: FakeLink | None = None) -> wire.Told:
        line = journal.Chat(time.time(), len(self.actions), name, text)
        return self.tell([line], ref, asker)

    def pause(self, player: str, ref: int = 0, asker: FakeLink | None = None) -> wire.Told:
        until = time.time() + 600
        self.paused = (until, player)
        return self.tell([journal.Pause(time.time(), len(self.actions), player, until)], ref, asker)

    def resume(self, player: str, ref: int = 0, asker: FakeLink | None = None) -> wire.Told:
        self.paused = None
        entry = journal.PauseEnd(time.time(), len(self.actions), player, early=True)
        return self.tell([entry], ref, asker)

    def hand_over(
        self, by: str, level: core.Level | None, ref: int = 0, asker: FakeLink | None = None
    ) -> wire.Told:
        self.standin = level
        entry = journal.HandOver(time.time(), len(self.actions), by, 0, "ann", level)
        return self.tell([entry], ref, asker)

    # ---------------------------------------------------------------- the requests

    def answer(
        self, message: wire.ClientMessage, asker: FakeLink | None = None
    ) -> wire.ServerMessage:
        stale = wire.Error(getattr(message, "ref", 0), "someone played meanwhile: look again")
        player = asker.player if asker is not None else "ann"
        match message:
            case wire.Join() | wire.Watch():
                if isinstance(asker, TableLink) and asker not in self.links:
                    self.links.append(asker)
                here = (0,) if player == "ann" else (1,)
                return self.snapshot(message.ref, () if isinstance(message, wire.Watch) else here)
            case wire.Play() if message.seq != len(self.actions):
                return stale
            case wire.Play():
                return self.play(message.action, message.ref, asker)
            case wire.Undo() if message.seq != len(self.actions):
                return stale
            case wire.Undo():
                return self.undo(player, message.ref, asker)
            case wire.HandOver():
                return self.hand_over(player, message.level, message.ref, asker)
            case wire.Pause():
                return self.pause(player, message.ref, asker)
            case wire.Resume():
                return self.resume(player, message.ref, asker)
            case wire.Say():
                return self.say(player, message.text, message.ref, asker)
        pytest.fail(f"unexpected request {message!r}")


class TableLink(FakeLink):
    """A connection of ``player`` to ``table``: its answers are the table's."""

    def __init__(self, table: FakeTable, player: str = "ann") -> None:
        super().__init__(lambda message: table.answer(message, self), player)
        self.table = table

    async def close(self) -> None:
        if self in self.table.links:
            self.table.links.remove(self)
        await super().close()


async def _seat(answer, start=None, actions=()) -> tuple[RemoteSeat, FakeLink, list[Update]]:
    start = start or start_state()
    link = FakeLink(answer)

    async def dial() -> FakeLink:
        return link

    seat = RemoteSeat(link, dial, snapshot(start, actions), watch=False, where="test")
    heard: list[Update] = []
    seat.listen(heard.append)
    return seat, link, heard


async def turns(count: int = 5) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


def lines_of(heard: Sequence[Update]) -> list[str]:
    """The journal's lines heard, as the log says them (chat as ``name: text``)."""
    return [
        f"{line.name}: {line.text}" if line.name else line.text
        for update in heard
        for line in update.lines
    ]


# ---------------------------------------------------------------- playing


async def test_a_move_is_told_once_the_table_tells_it_and_only_once() -> None:
    table = FakeTable(start_state())
    seat, _, heard = await _seat(lambda message: table.answer(message))
    assert table.start.current_player == 0  # seed 5: ann starts
    action = seat.legal_actions()[0]
    seat.play(action)
    assert seat.unsaved == 1 and seat.status == "sending…"
    assert [u.kind for u in heard] == ["status"]  # nothing played before the Told
    await turns()
    assert [u.kind for u in heard] == ["status", "played"]
    assert seat.known.actions == [action] and seat.unsaved == 0
    assert isinstance(seat.table.journal[-1], journal.Move)
    told = replace(table.tell([]), n=0, entries=tuple(table.journal))
    seat._receive(told)  # heard again (a broadcast of the same entry): known already
    assert [u.kind for u in heard] == ["status", "played"]


async def test_an_illegal_move_is_refused_here_and_nothing_is_sent() -> None:
    seat, link, heard = await _seat(lambda m: pytest.fail("nothing may be sent"))
    assert seat.state.current_player == 0  # seed 5: ann starts
    with pytest.raises(core.IllegalActionError):
        seat.play(core.TakeParcel(0))
    assert link.sent == [] and heard == []


async def test_a_server_refusal_is_said_as_a_refusal_and_changes_nothing() -> None:
    def refuse(message: wire.ClientMessage) -> wire.ServerMessage:
        assert isinstance(message, wire.Play)
        return wire.Error(message.ref, "Someone played meanwhile.")

    seat, _, heard = await _seat(refuse)
    assert seat.state.current_player == 0  # seed 5: ann starts
    before = seat.state
    seat.play(seat.legal_actions()[0])
    await turns()
    assert seat.state is before and seat.known.actions == []
    assert heard[-1].refusal == "Someone played meanwhile." and not heard[-1].problem


async def test_the_other_players_seat_is_not_decided_here() -> None:
    seat, _, _ = await _seat(lambda m: pytest.fail("nothing may be sent"))
    assert seat.decides_here(0) and not seat.decides_here(1) and not seat.decides_here(None)


async def test_undo_is_offered_for_my_last_action_only_in_the_rules_words() -> None:
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
    states = core.replay(start, actions)
    why = rules.why_no_undo(info(), states, [None] * len(actions), [0], len(actions))
    assert why is not None
    with pytest.raises(SeatError) as refused:
        seat2.undo()
    assert str(refused.value) == rules.sentence(why)  # the table's rule, in its words


async def test_no_undo_of_a_move_a_stand_in_made_for_me() -> None:
    start = start_state()
    mine = core.legal_actions(start)[0]
    cases: list[tuple[core.Level | None, bool]] = [(None, True), ("normal", False)]
    for standin, offered in cases:
        entries = [journal.Move(0.0, 0, 0, mine, standin)]
        link = FakeLink(lambda message: pytest.fail("nothing may be sent"))

        async def dial(link: FakeLink = link) -> FakeLink:
            return link

        told = snapshot(start, [mine], entries=entries)
        seat = RemoteSeat(link, dial, told, watch=False, where="t")
        after = seat.known.states[-1]
        assert seat.can_undo() == (offered and after.season == start.season)


# ---------------------------------------------------------------- the journal, line by line


async def test_an_undo_drops_the_last_action_and_says_who_took_it_back() -> None:
    start = start_state()
    mine = core.legal_actions(start)[0]
    table = FakeTable(start, [mine])
    seat, _, heard = await _seat(lambda message: table.answer(message), start, [mine])
    seat.undo()
    await turns()
    assert seat.known.actions == [] and seat.state == start
    assert heard[-1].kind == "rewound" and lines_of(heard[-1:]) == [
        "ann took back their last action."
    ]
    lines, _ = told_beside(seat)
    assert [line.text for line in lines] == ["ann took back their last action."]


async def test_every_entry_is_a_line_in_the_journals_words_and_chat_is_chat() -> None:
    table = FakeTable(start_state())
    table.pace = "live"
    seat, _, heard = await _seat(lambda message: table.answer(message))
    now = time.time()
    entries: list[journal.Any] = [
        journal.Chat(now, 0, "ben", "hi [/]"),
        journal.Pause(now, 0, "ben", now + 600),
        journal.PauseEnd(now, 0, "ben", early=True),
        journal.Away(now, 0, 1, "ben"),
        journal.HandOver(now, 0, "ann", 1, "ben", "normal"),
        journal.Back(now, 0, 1, "ben"),
        journal.HandOver(now, 0, "ben", 1, "ben", None),
        journal.Sit(now, 0, 1, "ben"),
    ]
    for entry in entries:
        seat._receive(table.tell([entry]))
    said = [journal.words(e) or "" for e in entries[1:]]
    assert lines_of(heard) == ["ben: hi [/]", *said]
    assert [u.kind for u in heard] == ["status"] * len(entries)
    assert heard[0].lines[0].name == "ben" and heard[1].lines[0].name is None
    assert list(seat.table.journal) == entries


async def test_a_stand_ins_move_carries_its_mark_and_the_end_follows_it() -> None:
    table = FakeTable(start_state())
    seat, _, heard = await _seat(lambda message: table.answer(message))
    action = seat.legal_actions()[0]
    told = table.play(action, standin="easy")
    end = journal.End(time.time(), 1)
    seat._receive(replace(told, entries=(*told.entries, end)))
    assert [u.kind for u in heard] == ["played", "status"]
    assert heard[0].standin == "easy" and lines_of(heard) == ["The game is over."]
    assert told_beside(seat)[1] == ["easy"]


async def test_a_told_heard_before_the_one_it_follows_waits_for_it() -> None:
    table = FakeTable(start_state())
    seat, _, heard = await _seat(lambda message: table.answer(message))
    first = table.say("ben", "one")
    second = table.say("ben", "two")
    seat._receive(second)
    assert heard == []
    seat._receive(first)
    assert lines_of(heard) == ["ben: one", "ben: two"]


async def test_a_pause_is_said_in_the_rules_words_and_refuses_a_move_until_it_ends() -> None:
    table = FakeTable(start_state())
    table.pace = "live"
    seat, _, heard = await _seat(lambda message: table.answer(message))
    seat._receive(table.pause("ben"))
    now = time.time()
    assert seat.status == rules.waits_for(seat.table.info, seat.state, now)
    paused = rules.sentence(rules.why_paused(seat.table.info, now) or "")
    with pytest.raises(SeatError, match="paused until"):
        seat.play(seat.legal_actions()[0])
    assert seat.table.why_no_pause() == paused
    assert not seat.table.can_resume() and seat.table.can_pause()
    seat._receive(table.resume("ben"))
    assert seat.status is None and lines_of(heard)[-1] == "ben ended their pause: play on."


async def test_a_told_that_never_comes_has_the_table_fetched_again() -> None:
    table = FakeTable(start_state())
    seat, link, _ = await _seat(lambda message: table.answer(message))
    table.say("ben", "lost on the way")
    for n in range(1, EARLY_KEPT + 2):
        seat._receive(table.say("ben", f"line {n}"))
    await turns()
    assert link.queue.get_nowait() is None  # the link closed: run() redials, fetches it all


async def test_a_told_with_no_entry_is_the_table_as_it_stands_unless_out_of_date() -> None:
    table = FakeTable(start_state())
    seat, _, heard = await _seat(lambda message: table.answer(message))
    ben = replace(table.info().seats[1], present=False, away_since=time.time())
    ben_away = replace(table.info(), seats=(table.info().seats[0], ben))
    seat._receive(wire.Told(0, ben_away, 0, ()))
    assert seat.players[1].away == rules.away_words(ben) and [u.kind for u in heard] == ["status"]
    seat._receive(table.say("ben", "back"))
    seat._receive(wire.Told(0, ben_away, 0, ()))  # said before the line: out of date
    assert seat.players[1].away is None and len(heard) == 2


def test_what_followed_an_entry_is_counted_from_the_end_past_left_out_chat() -> None:
    """A snapshot leaves out the oldest chat from anywhere (only their count is known):
    the entries since a given number are still the journal's last ones."""
    start = start_state()
    action = core.legal_actions(start)[0]
    entries: list[journal.Any] = [
        journal.Move(1.0, 0, 0, action),
        journal.Chat(2.0, 1, "ben", "new"),
    ]
    told = replace(snapshot(start, [action], entries=entries), first=3)  # 3 old lines out
    known = KnownTable(told)
    assert known.upto == 5 and known.since(4) == entries[1:] and known.since(0) == entries


# ---------------------------------------------------------------- the connection drops


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
            if seat.known.actions:
                break
        assert seat.known.actions == [action]  # what was played meanwhile is there
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


async def wait_for(done: Callable[[], bool], limit: int = 200) -> None:
    for _ in range(limit):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


async def test_a_reconnect_is_told_what_happened_while_away_as_a_stayer_was() -> None:
    """Ann's connection drops; while she is away ben talks, plays, takes his move back,
    pauses and resumes, and hands her seat to a computer. Back, her seat holds the same
    journal, lines and stand-ins as ben's, who stayed, and her reconnection brings the
    lines she missed, in the order ben heard them."""
    start = start_state()
    table = FakeTable(start)
    while table.state().current_player != 1:  # ann's first decisions: ben's turn
        table.play(core.legal_actions(table.state())[0])
    table.pace = "live"
    links = {"ann": TableLink(table, "ann"), "ben": TableLink(table, "ben")}
    ann_may_come_back = asyncio.Event()
    dialled: list[str] = []

    async def dial_ann() -> TableLink:
        if dialled:  # her connection dropped: a new one, once she may come back
            await ann_may_come_back.wait()
            links["ann"] = TableLink(table, "ann")
        dialled.append("ann")
        return links["ann"]

    async def dial_ben() -> TableLink:
        return links["ben"]

    ann = await RemoteSeat.open(dial_ann, TABLE, watch=False, where="t")
    ben = await RemoteSeat.open(dial_ben, TABLE, watch=False, where="t")
    ann_heard: list[Update] = []
    ben_heard: list[Update] = []
    ann.listen(ann_heard.append)
    ben.listen(ben_heard.append)
    running = [asyncio.get_running_loop().create_task(s.run()) for s in (ann, ben)]
    try:
        await links["ann"].close()  # ann's connection drops
        await wait_for(lambda: ann.link is None)
        before = len(ben_heard)
        ben.table.say("brb?")
        await wait_for(lambda: len(ben_heard) > before)
        assert ben.decides_here(ben.state.current_player)
        played = len(table.actions) + 1
        ben.play(ben.legal_actions()[0])
        await wait_for(lambda: len(ben.known.actions) == played)
        if ben.can_undo():
            ben.undo()
            await wait_for(lambda: len(ben.known.actions) == played - 1)
        ben.table.pause(10)
        await wait_for(lambda: ben.table.can_resume())
        ben.table.resume()
        await wait_for(lambda: not ben.table.can_resume())
        table.hand_over("ben", "normal")  # ann's seat, as the server allows after the wait
        await wait_for(lambda: ben.known.upto == len(table.journal))
        missed = lines_of(ben_heard[before:])
        ann_may_come_back.set()
        await wait_for(lambda: ann.link is not None and ann.known.upto == ben.known.upto)
    finally:
        for runner in running:
            runner.cancel()
    assert list(ann.table.journal) == list(ben.table.journal)
    assert told_beside(ann) == told_beside(ben)
    assert ann.history() == ben.history()
    back = next(u for u in ann_heard if u.note == "Reconnected to the table server.")
    assert back.kind == "rewound" and lines_of([back]) == missed
    assert "ben: brb?" in missed and "ben paused the table until" in " ".join(missed)
    assert ann.table.handed_to == "normal"


# ---------------------------------------------------------------- requests across a drop


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
            self.table.answer(message, self)
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
    back = TableLink(table)

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
            if seat.link is back and not seat.sent:
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
    assert table.actions == [action] and seat.known.actions == [action]
    assert [u.kind for u in heard].count("played") == 1
    assert seat.status is None and seat.unsaved == 0


async def test_a_move_never_answered_is_settled_at_the_reconnect() -> None:
    start = start_state()
    table, action = FakeTable(start), core.legal_actions(start)[0]
    async with across_a_drop(table, DroppedLink(hang=True), lambda s: s.play(action)) as found:
        seat, back, _ = found
        assert seat.status is None  # not "sending…" for ever: the tester's report
    assert len(requests(back, wire.Play)) == 1
    assert table.actions == [action] and seat.known.actions == [action]


async def test_a_move_lost_while_the_table_moved_on_is_not_played_and_the_player_is_told() -> None:
    start = start_state()
    mine, theirs = core.legal_actions(start)[:2]
    table = FakeTable(start)

    def play_then_the_table_moves_on(seat: RemoteSeat) -> None:
        seat.play(mine)
        table.play(theirs)  # ann's seat was played elsewhere meanwhile

    async with across_a_drop(table, DroppedLink(), play_then_the_table_moves_on) as found:
        seat, back, heard = found
    assert requests(back, wire.Play) == []
    assert table.actions == [theirs] and seat.known.actions == [theirs]
    problems = [u.problem for u in heard if u.problem]
    assert problems and "table moved on" in problems[-1] and "not played" in problems[-1]
    assert seat.status is None and seat.unsaved == 0


async def test_a_move_the_server_kept_before_the_drop_counts_once() -> None:
    start = start_state()
    table, action = FakeTable(start), core.legal_actions(start)[0]
    async with across_a_drop(table, DroppedLink(table), lambda s: s.play(action)) as found:
        seat, back, heard = found
    assert requests(back, wire.Play) == []
    assert table.actions == [action] and seat.known.actions == [action]
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
    assert table.actions == [] and seat.known.actions == []
    assert not any(u.problem for u in heard)
    assert seat.status is None


async def test_an_undo_the_server_made_before_the_drop_is_not_sent_again() -> None:
    start = start_state()
    table = FakeTable(start, [core.legal_actions(start)[0]])
    async with across_a_drop(table, DroppedLink(table), lambda s: s.undo()) as found:
        seat, back, heard = found
    assert requests(back, wire.Undo) == [] and table.actions == [] and seat.known.actions == []
    assert not any(u.problem for u in heard) and seat.status is None
    assert "ann took back their last action." in [line.text for line in told_beside(seat)[0]]


async def test_a_chat_line_lost_while_the_table_moved_on_is_not_said_and_the_player_is_told() -> (
    None
):
    start = start_state()
    table = FakeTable(start)

    def say_then_the_table_moves_on(seat: RemoteSeat) -> None:
        seat.table.say("good luck")
        table.play(core.legal_actions(start)[0])

    async with across_a_drop(table, DroppedLink(), say_then_the_table_moves_on) as found:
        _, back, heard = found
    assert requests(back, wire.Say) == [] and not any(
        isinstance(e, journal.Chat) for e in table.journal
    )
    problems = [u.problem for u in heard if u.problem]
    assert problems and "table moved on" in problems[-1] and "good luck" in problems[-1]


def chat_of(seat: RemoteSeat) -> list[str]:
    return [e.text for e in seat.table.journal if isinstance(e, journal.Chat)]


async def test_a_chat_line_lost_with_the_connection_is_said_once() -> None:
    table = FakeTable(start_state())
    async with across_a_drop(table, DroppedLink(), lambda s: s.table.say("good luck")) as found:
        seat, back, heard = found
    assert chat_of(seat) == ["good luck"]
    assert len(requests(back, wire.Say)) == 1 and not any(u.problem for u in heard)


async def test_a_chat_line_the_server_kept_before_the_drop_is_not_said_twice() -> None:
    table = FakeTable(start_state())
    async with across_a_drop(table, DroppedLink(table), lambda s: s.table.say("hi")) as found:
        seat, back, heard = found
    assert requests(back, wire.Say) == [] and chat_of(seat) == ["hi"]
    assert not any(u.problem for u in heard)


async def test_a_hand_over_lost_with_the_connection_is_sent_again_at_the_same_position() -> None:
    table = FakeTable(start_state())
    hand = lambda s: s.table.hand_over("easy")  # noqa: E731
    async with across_a_drop(table, DroppedLink(), hand) as found:
        seat, back, heard = found
    assert [m.level for m in requests(back, wire.HandOver)] == ["easy"]
    assert seat.table.handed_to == "easy" == table.standin
    assert not any(u.problem for u in heard) and seat.status is None


async def test_a_hand_over_the_server_made_before_the_drop_is_not_sent_again() -> None:
    table = FakeTable(start_state())
    hand = lambda s: s.table.hand_over("easy")  # noqa: E731
    async with across_a_drop(table, DroppedLink(table), hand) as found:
        seat, back, heard = found
    assert requests(back, wire.HandOver) == [] and seat.table.handed_to == "easy"
    assert not any(u.problem for u in heard) and seat.status is None


async def test_a_pause_the_server_made_before_the_drop_is_not_asked_again() -> None:
    table = FakeTable(start_state())
    table.pace = "live"
    pause = lambda s: s.table.pause(10)  # noqa: E731
    async with across_a_drop(table, DroppedLink(table), pause) as found:
        seat, back, heard = found
    assert requests(back, wire.Pause) == [] and seat.table.can_resume()
    assert not any(u.problem for u in heard)


async def test_a_pause_lost_with_the_connection_is_asked_again() -> None:
    table = FakeTable(start_state())
    table.pace = "live"
    pause = lambda s: s.table.pause(10)  # noqa: E731
    async with across_a_drop(table, DroppedLink(), pause) as found:
        seat, back, heard = found
    assert len(requests(back, wire.Pause)) == 1 and seat.table.can_resume()
    assert not any(u.problem for u in heard)
