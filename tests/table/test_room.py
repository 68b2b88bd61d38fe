"""One table (:class:`table.server.room.Room`) driven directly: the listeners are fakes
that keep what they are sent, the store is a fake commit that keeps each change (and can
fail, or hold every commit until the test lets it go), and the clock is a number the test
sets. So the room's promises are shown without sockets, processes or sleeps: changes are
decided one after the other, nobody is told of a change before it is stored (the change
and its journal entries in one commit), a change that cannot be stored changes nothing,
each change is told once to everyone (one Told, its ref for the one who asked), a
damaged table is read-only, the time the room is given is the time its rules see, and
what follows a change (the pause's end, the rating, a computer's turn, a player told
away or back) is the room's own."""

from __future__ import annotations

import asyncio
import copy
import random
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

import core
from saves.format import decode
from table import journal
from table import protocol as wire
from table.clock import clock
from table.ladder import Rating
from table.server.actor import Keep
from table.server.room import Room
from table.server.rules import Refusal
from table.store import (
    Append,
    Change,
    Finished,
    Noted,
    Paused,
    Resumed,
    SeatRow,
    SitDown,
    StandIn,
    TableRow,
    Truncate,
    TurnBegan,
)
from tests.table.tables import T0, Ear, refused, told, view

TABLE = 7
SEED = 5
DAMAGED = "this table is damaged ({}): it can only be exported"
NOT_STORED = "the server could not store that (disk full); nothing changed"


# ---------------------------------------------------------------- fakes


class Store:
    """The room's ``commit``: keeps each change (``changes``) and each journal entry
    (``entries``, numbered as the store would keep them). ``failing``: every commit
    raises it; ``hold()``: every commit waits at a gate until the test opens it."""

    def __init__(self) -> None:
        self.changes: list[Change] = []
        self.entries: list[journal.Any] = []
        self.turns: list[tuple[int, TurnBegan]] = []
        """Each person's turn begun, with the number of the commit it was in."""
        self.commits = 0
        self.failing: Exception | None = None
        self.gate: asyncio.Event | None = None
        self.waiting = 0
        """Commits waiting at the gate now."""

    async def __call__(self, changes: Sequence[Change]) -> None:
        if self.gate is not None:
            self.waiting += 1
            await self.gate.wait()
            self.waiting -= 1
        if self.failing is not None:
            raise self.failing
        self.commits += 1
        for change in changes:
            if isinstance(change, Noted):
                assert change.n == len(self.entries), "an entry out of its place"
                self.entries.append(change.entry)
            elif isinstance(change, TurnBegan):  # the notices' (tests/table_notices)
                self.turns.append((self.commits, change))
            else:
                self.changes.append(change)

    def hold(self) -> asyncio.Event:
        self.gate = asyncio.Event()
        return self.gate


class Clock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def settle() -> None:
    """Let every task that can run, run (no time passes)."""
    for _ in range(20):
        await asyncio.sleep(0)


def start(coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    return asyncio.get_running_loop().create_task(coroutine)


# ---------------------------------------------------------------- tables and games


def seats(*names: str | None) -> list[SeatRow]:
    colours = list(core.Colour)
    return [
        SeatRow("player", name, None, colours[i])
        if name
        else SeatRow("open", None, None, colours[i])
        for i, name in enumerate(names)
    ]


def game_until(
    stop: Callable[[list[core.GameState]], bool],
) -> tuple[list[core.GameState], list[core.Action]]:
    """Ann and Ben's game (the table's seed), random legal actions from a seeded random,
    until ``stop(states)``: every real position and the actions between them."""
    chance = random.Random(1)
    states = [core.new_game(2, SEED, ["ann", "ben"], [core.Colour.BLUE, core.Colour.RED])]
    actions: list[core.Action] = []
    while not stop(states):
        assert not core.is_over(states[-1]), "the game ended before the position was found"
        action = chance.choice(core.legal_actions(states[-1]))
        actions.append(action)
        states.append(core.apply_action(states[-1], action))
    return states, actions


def row(
    actions: Sequence[core.Action] = (),
    names: Sequence[str | None] = ("ann", "ben"),
    pace: wire.Pace = "live",
    damaged: str | None = None,
) -> TableRow:
    return TableRow(
        TABLE, "ann, ben", SEED, T0, T0, seats(*names), pace=pace, wait=300,
        actions=list(actions), creator="ann", damaged=damaged,
    )  # fmt: skip


RATING = Rating("?", 30.0, 5.0, 1, 1)
"""What the fake ladder rates every name (its name aside)."""


class Table:
    """A room with its fake store and clock, and who sits there; ``rate``: a fake ladder
    rates its game once over; ``decide``: a computer plays its computers' seats (the
    first legal action)."""

    def __init__(
        self, table: TableRow, rate: bool = False, decide: bool = False, now: float = T0
    ) -> None:
        self.store = Store()
        self.store.entries = list(table.journal)  # as stored before
        self.clock = Clock(now)
        self.rated: list[int] = []
        self.room = Room(table, self.store, self.clock, self.rate if rate else None,
                         self.decide if decide else None)  # fmt: skip
        self.ears: dict[str, Ear] = {}

    async def rate(self, names: Sequence[str], final: core.GameState, keep: Keep) -> None:
        ratings: Mapping[str, Rating] = {name: replace_rating(name) for name in names}
        await keep(ratings)
        self.rated.append(len(self.room.row.actions))

    async def decide(
        self, owner: str, level: core.Level, seed: int, state: core.GameState
    ) -> core.Action:
        await asyncio.sleep(0)
        return core.legal_actions(state)[0]

    async def enter(self, player: str, watch: bool = False) -> Ear:
        ear = Ear(player)
        await self.room.enter(ear, 1, watch, None)
        self.ears[player] = ear
        return ear

    async def everyone(self, *players: str) -> list[Ear]:
        ears = [await self.enter(player) for player in players]
        for ear in ears:
            ear.mark()
        return ears

    def choices(self) -> Sequence[core.Action]:
        """The legal actions at the table's position now."""
        state = self.room.state
        assert state is not None
        return core.legal_actions(state)

    def seat_deciding(self) -> int:
        state = self.room.state
        assert state is not None and state.current_player is not None
        return state.current_player

    def deciding(self) -> Ear:
        return list(self.ears.values())[self.seat_deciding()]

    def memory(self) -> tuple[TableRow, int, dict[int, float], dict[str, list[float]]]:
        """What the room holds (an empty list of a player's chat times is nothing)."""
        room = self.room
        said = {name: list(times) for name, times in room.said.items() if times}
        return copy.deepcopy(room.row), len(room.states), dict(room.away_since), said


def replace_rating(name: str) -> Rating:
    return Rating(name, RATING.mu, RATING.sigma, RATING.games, RATING.wins)


def words(message: wire.ServerMessage) -> list[str | None]:
    """What a Told's entries say (the one wording every terminal shows)."""
    assert isinstance(message, wire.Told), message
    return [journal.words(entry) for entry in message.entries]


def chat_of(room: Room) -> list[journal.Chat]:
    return [entry for entry in room.row.journal if isinstance(entry, journal.Chat)]


def sees_the_table(ear: Ear, room: Room) -> bool:
    """What ``ear`` shows is the table as everyone may see it, position by position (up to
    the order of parcels nobody has seen yet)."""
    shown = view(ear)
    return [core.public_view(s) for s in shown] == [core.public_view(s) for s in room.states]


# ---------------------------------------------------------------- playing


class TestPlay:
    async def test_a_move_is_acknowledged_to_its_player_and_told_to_the_others(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        mover, other = (ann, ben) if table.seat_deciding() == 0 else (ben, ann)
        action = table.choices()[0]
        after, events = core.apply_action_with_events(table.room.states[0], action)

        seat = table.seat_deciding()

        await table.room.play(mover, 42, 0, action)

        move = journal.Move(T0, 0, seat, action)
        assert table.store.changes == [Append(TABLE, 0, action)]
        assert table.store.entries == [move] and table.store.commits == 1  # one transaction
        if after.current_player is not None:  # a person's turn: their notices, in that commit
            name = table.room.names[after.current_player]
            assert table.store.turns[-1] == (1, TurnBegan(TABLE, 1, name, T0))
        assert table.room.row.actions == [action] and table.room.row.journal == [move]
        told = wire.Told(0, table.room.info(), 0, (move,), core.public_view(after), tuple(events))
        assert mover.news() == [replace(told, ref=42)]
        assert other.news() == [told]

    async def test_a_watcher_cannot_play(self):
        table = Table(row())
        await table.everyone("ann", "ben")
        carl = await table.enter("carl", watch=True)
        with refused("it is not your decision"):
            await table.room.play(carl, 1, 0, table.choices()[0])
        assert table.store.changes == []

    async def test_an_illegal_action_is_refused_in_the_rules_words(self):
        states, actions = game_until(lambda s: len(s) == 3)
        table = Table(row(actions))
        await table.everyone("ann", "ben")
        illegal = actions[0]  # that parcel is excavated already
        with pytest.raises(core.IllegalActionError) as rules_say:
            core.apply_action(states[2], illegal)
        with refused(rules_say.value.reason or str(rules_say.value)):
            await table.room.play(table.deciding(), 1, 2, illegal)
        assert table.store.changes == [] and table.room.row.actions == actions


class TestOneChangeAtATime:
    """Every change runs check → commit → change memory → tell under the room's lock."""

    async def test_nobody_hears_of_a_move_before_it_is_stored(self):
        """Not the players, and not a watcher who comes in while the move is being stored:
        they wait, and then see the move in their snapshot."""
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        mover = table.deciding()
        action = table.choices()[0]
        gate = table.store.hold()

        playing = start(table.room.play(mover, 5, 0, action))
        await settle()
        carl = Ear("carl")
        watching = start(table.room.enter(carl, 9, True, None))
        await settle()

        assert table.store.waiting == 1
        assert ann.news() == ben.news() == carl.news() == []
        assert table.room.row.actions == [] and len(table.room.states) == 1
        assert not watching.done()

        gate.set()
        await asyncio.gather(playing, watching)
        assert carl.kinds() == ["Snapshot"]
        snapshot = carl.heard[0]
        assert isinstance(snapshot, wire.Snapshot) and snapshot.actions == (action,)
        assert snapshot.seats_here == ()
        assert all(sees_the_table(ear, table.room) for ear in (ann, ben, carl))

    async def test_an_undo_racing_the_next_players_move_waits_and_is_refused(self):
        """Ann acted; Ben moves (its commit is slow) while Ann takes hers back at the same
        position: the undo is decided only once Ben's move is stored, and is refused."""
        states, actions = game_until(
            lambda s: len(s) >= 2 and s[-2].current_player != s[-1].current_player
        )
        table = Table(row(actions))
        ann, ben = await table.everyone("ann", "ben")
        first, then = (ann, ben) if states[-2].current_player == 0 else (ben, ann)
        seq = len(actions)
        move = table.choices()[0]
        gate = table.store.hold()

        playing = start(table.room.play(then, 2, seq, move))
        await settle()
        undoing = start(table.room.undo(first, 3, seq))
        await settle()
        assert not undoing.done() and first.news() == [] and then.news() == []

        gate.set()
        await playing
        with refused("someone played meanwhile: look again"):
            await undoing
        assert table.store.changes == [Append(TABLE, seq, move)]
        assert table.room.row.actions == [*actions, move]
        assert first.kinds() == then.kinds() == ["Told"]

    async def test_a_move_racing_an_undo_waits_and_is_refused(self):
        """The other way round: Ann's undo is being stored when Ben's move arrives."""
        states, actions = game_until(
            lambda s: len(s) >= 2 and s[-2].current_player != s[-1].current_player
        )
        table = Table(row(actions))
        ann, ben = await table.everyone("ann", "ben")
        first, then = (ann, ben) if states[-2].current_player == 0 else (ben, ann)
        seq = len(actions)
        gate = table.store.hold()

        undoing = start(table.room.undo(first, 3, seq))
        await settle()
        playing = start(table.room.play(then, 2, seq, core.legal_actions(states[-1])[0]))
        await settle()
        assert not playing.done() and first.news() == then.news() == []

        gate.set()
        await undoing
        with refused("it is not your decision"):
            await playing
        assert table.store.changes == [Truncate(TABLE, seq - 1)]
        assert table.room.row.actions == actions[:-1]
        assert [sees_the_table(ear, table.room) for ear in (ann, ben)] == [True, True]

    async def test_two_moves_at_one_position_count_once(self):
        """Ann sends a move from two terminals at once: the first counts, the second was
        made at a position that is gone."""
        states, _ = game_until(lambda s: True)
        table = Table(row())
        await table.everyone("ann", "ben")
        here, there = Ear(table.deciding().player), Ear(table.deciding().player)
        for ear in (here, there):
            await table.room.enter(ear, 1, False, None)
        first, second = core.legal_actions(states[0])[:2]
        assert core.apply_action(states[0], first).current_player == states[0].current_player
        gate = table.store.hold()

        moves = [
            start(table.room.play(here, 1, 0, first)),
            start(table.room.play(there, 1, 0, second)),
        ]
        await settle()
        assert table.store.waiting == 1
        gate.set()
        results = await asyncio.gather(*moves, return_exceptions=True)

        assert results[0] is None
        assert isinstance(results[1], Refusal)
        assert str(results[1]) == "someone played meanwhile: look again"
        assert table.store.changes == [Append(TABLE, 0, first)]

    async def test_two_joins_of_the_last_seat_seat_one_player(self):
        table = Table(row(names=("ann", None)))
        gate = table.store.hold()
        carl, dave = Ear("carl"), Ear("dave")
        joins = [start(table.room.enter(carl, 1, False, None)),
                 start(table.room.enter(dave, 1, False, None))]  # fmt: skip
        await settle()
        assert table.store.waiting == 1 and carl.heard == dave.heard == []
        gate.set()
        results = await asyncio.gather(*joins, return_exceptions=True)

        assert results[0] is None
        assert isinstance(results[1], Refusal)
        assert str(results[1]) == "there is no seat for you at this table: watch it instead"
        assert table.store.changes == [SitDown(TABLE, 1, "carl")]
        assert [s.name for s in table.room.row.seats] == ["ann", "carl"]
        assert carl.kinds() == ["Snapshot"] and dave.heard == []


class TestUndo:
    async def test_a_player_takes_back_their_own_move_and_everyone_sees_it(self):
        states, actions = game_until(lambda s: len(s) == 2)
        table = Table(row(actions))
        ann, ben = await table.everyone("ann", "ben")
        carl = await table.enter("carl", watch=True)
        for ear in (ann, ben, carl):
            ear.mark()
        mover = [ann, ben][states[0].current_player or 0]

        await table.room.undo(mover, 8, 1)

        undone = journal.Undo(T0, 0, mover.player)
        assert table.store.changes == [Truncate(TABLE, 0)] and table.store.entries == [undone]
        assert table.room.row.actions == [] and len(table.room.states) == 1
        for ear in (ann, ben, carl):
            (news,) = ear.news()
            assert isinstance(news, wire.Told) and news.entries == (undone,)
            assert news.ref == (8 if ear is mover else 0)
            assert words(news) == [f"{mover.player} took back their last action."]
            assert sees_the_table(ear, table.room)

    async def test_a_finished_and_rated_game_cannot_be_taken_back(self):
        _, actions = game_until(lambda s: core.is_over(s[-1]))
        table = Table(row(actions[:-1]), rate=True)
        await table.everyone("ann", "ben")
        mover = table.deciding()
        await table.room.play(mover, 1, len(actions) - 1, actions[-1])
        assert table.room.over and table.rated == [len(actions)]
        with refused("the game is over: its last action stands"):
            await table.room.undo(mover, 2, len(actions))
        assert table.room.over and table.rated == [len(actions)]
        assert table.store.changes[0] == Append(TABLE, len(actions) - 1, actions[-1])
        assert [type(change) for change in table.store.changes] == [Append, Finished]


# ---------------------------------------------------------------- a commit that fails


class TestFailingCommit:
    """A change the store refuses changes nothing in memory, tells nobody, and the player
    is told in words."""

    @staticmethod
    async def ready() -> tuple[Table, Ear, Ear]:
        _, actions = game_until(lambda s: len(s) == 2)
        table = Table(row(actions))
        ann, ben = await table.everyone("ann", "ben")
        table.store.failing = OSError("disk full")
        return table, ann, ben

    @pytest.mark.parametrize("change", ["play", "undo", "say", "pause", "hand over"])
    async def test_nothing_changes(self, change):
        table, ann, ben = await self.ready()
        room, before = table.room, table.memory()
        mover = table.deciding()
        requests = {
            "play": lambda: room.play(mover, 1, 1, table.choices()[0]),
            "undo": lambda: room.undo([ann, ben][room.states[0].current_player or 0], 1, 1),
            "say": lambda: room.say(ann, 1, "hello"),
            "pause": lambda: room.pause(ann, 1, 10),
            "hand over": lambda: room.hand_over(ann, 1, "normal", None),
        }
        with refused(NOT_STORED):
            await requests[change]()
        assert table.memory() == before
        assert ann.news() == ben.news() == []
        assert table.store.changes == []

    async def test_the_same_request_goes_through_once_the_store_is_back(self):
        table, ann, ben = await self.ready()
        action = table.choices()[0]
        with refused(NOT_STORED):
            await table.room.play(table.deciding(), 1, 1, action)
        table.store.failing = None
        await table.room.play(table.deciding(), 2, 1, action)
        assert table.store.changes == [Append(TABLE, 1, action)]
        assert [sees_the_table(ear, table.room) for ear in (ann, ben)] == [True, True]

    async def test_a_seat_not_stored_stays_open(self):
        table = Table(row(names=("ann", None)))
        table.store.failing = OSError("disk full")
        carl = Ear("carl")
        with refused(NOT_STORED):
            await table.room.enter(carl, 1, False, None)
        assert table.room.row.seats[1].kind == "open" and not table.room.started
        assert carl not in table.room.listeners

    async def test_a_chat_line_not_stored_does_not_count_against_the_rate(self):
        table, ann, _ = await self.ready()
        with refused(NOT_STORED):
            await table.room.say(ann, 1, "lost")
        table.store.failing = None
        for n in range(5):
            await table.room.say(ann, 1, f"line {n}")
        assert [line.text for line in chat_of(table.room)] == [f"line {n}" for n in range(5)]

    async def test_coming_back_not_stored_leaves_the_player_away(self):
        table = Table(row())
        _, ben = await table.everyone("ann", "ben")
        await table.room.hand_over(ben, 1, "normal", None)
        table.room.leave(ben)
        await settle()  # ben is told away
        table.store.failing = OSError("disk full")
        again = Ear("ben")
        with refused(NOT_STORED):
            await table.room.enter(again, 1, False, None)
        assert again not in table.room.listeners
        assert table.room.away_since == {1: T0} and table.room.told_away == {1}


# ---------------------------------------------------------------- a damaged table


class TestDamaged:
    """A table whose stored rows cannot go on is read-only: watched and exported as far as
    it replays, every change refused saying why."""

    @staticmethod
    async def refuses_every_change(table: Table, reason: str) -> None:
        ann = await table.enter("ann")
        room, message = table.room, DAMAGED.format(reason)
        action = table.choices()[0] if room.state else None
        assert action is not None
        requests = [
            room.play(ann, 1, len(room.row.actions), action),
            room.undo(ann, 1, len(room.row.actions)),
            room.say(ann, 1, "hello"),
            room.pause(ann, 1, 10),
            room.hand_over(ann, 1, "normal", None),
            room.enter(Ear("carl"), 1, False, None),
        ]
        for request in requests:
            with refused(message):
                await request
        seat = table.seat_deciding()
        assert not await room.computer_moved(seat, len(room.row.actions), action)
        assert room.computer_due() is None
        assert table.store.changes == []

    async def test_a_table_read_damaged_is_read_only(self):
        _, actions = game_until(lambda s: len(s) == 6)
        table = Table(row(actions, damaged="seat 3 is missing"))
        info = table.room.info()
        assert (info.status, info.damaged) == ("damaged", "seat 3 is missing")
        carl = await table.enter("carl", watch=True)
        assert sees_the_table(carl, table.room) and len(view(carl)) == 6
        await self.refuses_every_change(table, "seat 3 is missing")
        save = decode(Path("table-7.json"), table.room.export())
        assert save.actions == actions

    async def test_a_stored_action_that_is_not_legal_damages_the_table_from_there(self):
        states, actions = game_until(lambda s: len(s) == 6)
        illegal = actions[0]  # that parcel is excavated already
        with pytest.raises(core.IllegalActionError):
            core.apply_action(states[3], illegal)
        table = Table(row([*actions[:3], illegal, *actions[3:]]))
        room = table.room

        assert room.damaged is not None and room.damaged.startswith("action 4 is not legal: ")
        assert room.info().status == "damaged"
        assert room.row.actions == actions[:3] and room.states == states[:4]
        await self.refuses_every_change(table, room.damaged)
        assert decode(Path("table-7.json"), room.export()).actions == actions[:3]


# ---------------------------------------------------------------- the clock


class TestClock:
    """The room reads the time from the clock it is given, and nowhere else."""

    async def test_a_pause_holds_the_game_until_it_ends(self):
        table = Table(row())
        ann, _ = await table.everyone("ann", "ben")
        until = await table.room.pause(ann, 4, 10)

        assert until == T0 + 600
        assert table.store.changes == [Paused(TABLE, "ann", 1, T0 + 600)]
        at = clock(until)
        (answer,) = ann.news()
        assert isinstance(answer, wire.Told) and answer.ref == 4
        assert words(answer) == [f"ann paused the table until {at}."]
        assert table.room.info().paused_until == T0 + 600

        action = table.choices()[0]
        table.clock.now = T0 + 599.9
        with refused(f"the table is paused until {at} (ann)"):
            await table.room.play(table.deciding(), 1, 0, action)
        table.clock.now = T0 + 600
        await table.room.play(table.deciding(), 1, 0, action)
        assert table.room.row.actions == [action]
        # the pause is told over when it was due, before the move that came after it
        seat = table.room.states[0].current_player or 0
        assert table.store.entries[1:] == [
            journal.PauseEnd(T0 + 600, 0, "ann", early=False),
            journal.Move(T0 + 600, 0, seat, action),
        ]
        assert table.store.changes[1:] == [Resumed(TABLE, "ann"), Append(TABLE, 0, action)]
        assert table.room.info().paused_until is None

    async def test_once_a_season(self):
        table = Table(row())
        ann, _ = await table.everyone("ann", "ben")
        await table.room.pause(ann, 1, 1)
        table.clock.now = T0 + 3600
        with refused("you have paused this table once this season already"):
            await table.room.pause(ann, 1, 1)

    async def test_a_pause_never_shortens_one_under_way(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        await table.room.pause(ann, 1, 30)
        table.clock.now = T0 + 10
        with refused("the table is paused until", whole=False):
            await table.room.pause(ben, 1, 1)
        assert table.room.row.paused_until == T0 + 1800

    async def test_an_absent_seat_is_handed_over_after_the_wait(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        table.room.leave(ben)
        await settle()
        assert table.room.info().seats[1].away_since == T0
        assert ann.kinds() == ["Told"] and words(ann.news()[0]) == [
            f"ben left the table at {clock(T0)}."
        ]

        table.clock.now = T0 + 299
        with refused("that player has been away less than the table's wait: 1 s more"):
            await table.room.hand_over(ann, 1, "normal", 1)
        assert table.store.changes == []
        table.clock.now = T0 + 300
        await table.room.hand_over(ann, 2, "normal", 1)

        assert table.store.changes == [StandIn(TABLE, 1, "normal")]
        assert table.room.row.seats[1].standin == "normal"
        answer = ann.heard[-1]
        assert isinstance(answer, wire.Told) and answer.ref == 2
        assert words(answer) == [
            "ann handed ben's seat to a computer (normal) while ben is away; it is theirs "
            "again when they come back."
        ]

        again = Ear("ben")
        await table.room.enter(again, 3, False, None)
        assert table.store.changes[-1] == StandIn(TABLE, 1, None)
        assert table.room.row.seats[1].standin is None
        snapshot = again.heard[0]
        assert isinstance(snapshot, wire.Snapshot)
        back = ["ben is back at the table.", "ben plays their own seat again."]
        assert [journal.words(entry) for entry in snapshot.journal[-2:]] == back
        assert words(ann.heard[-1]) == back  # one Told, for the table's log
        assert told(ann).journal == list(snapshot.journal)

    async def test_a_present_player_keeps_their_seat(self):
        table = Table(row())
        ann, _ = await table.everyone("ann", "ben")
        table.clock.now = T0 + 10**6
        with refused("that player is here (or has not come yet): only an absent seat"):
            await table.room.hand_over(ann, 1, "normal", 1)

    async def test_after_a_kill_a_player_who_had_played_is_away_from_the_restart(self):
        """A server killed (kill -9) cannot tell anyone away: at its restart a player who
        had played was taken for one who never came ("not here yet") for good, so a live
        table waited at their turn however long they stayed away."""
        table = Table(row())
        ears = await table.everyone("ann", "ben")

        def movers() -> set[int]:
            return {m.seat for m in table.room.row.journal if isinstance(m, journal.Move)}

        for n in range(20):  # until each has played (an action may be a step of a turn)
            if movers() == {0, 1}:
                break
            await table.room.play(ears[table.seat_deciding()], n, n, table.choices()[0])
        assert movers() == {0, 1}

        restarted = Table(copy.deepcopy(table.room.row), now=T0 + 100)  # read from the store
        assert [s.away_since for s in restarted.room.info().seats] == [T0 + 100, T0 + 100]
        ann = await restarted.enter("ann")
        assert [s.away_since for s in restarted.room.info().seats] == [None, T0 + 100]
        restarted.clock.now = T0 + 100 + 299
        with refused("that player has been away less than the table's wait: 1 s more"):
            await restarted.room.hand_over(ann, 1, "normal", 1)
        restarted.clock.now = T0 + 100 + 300
        await restarted.room.hand_over(ann, 2, "normal", 1)
        assert restarted.room.row.seats[1].standin == "normal"

    async def test_after_a_kill_a_friend_who_never_came_is_still_waited_for(self):
        table = Table(row(names=("ann", "ben", "cleo")))
        ann, _ = await table.everyone("ann", "ben")  # cleo never comes
        await table.room.say(ann, 1, "where is cleo?")
        restarted = Table(copy.deepcopy(table.room.row), now=T0 + 100)
        assert [s.away_since for s in restarted.room.info().seats] == [T0 + 100, None, None]
        restarted.clock.now = T0 + 10**6
        ben = await restarted.enter("ben")
        with refused("that player is here (or has not come yet): only an absent seat"):
            await restarted.room.hand_over(ben, 2, "normal", 2)

    async def test_a_table_that_waits_for_everyone_hands_over_nobody(self):
        table = Table(row(pace="days"))
        ann, ben = await table.everyone("ann", "ben")
        table.room.leave(ben)
        await settle()
        table.clock.now = T0 + 10**6
        with refused("this table waits for everyone", whole=False):
            await table.room.hand_over(ann, 1, "normal", 1)

    async def test_a_player_dropped_while_being_told_is_away(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        ben.closed = True
        await table.room.say(ann, 1, "still there?")  # telling ben fails: ben is dropped
        table.room.leave(ben)  # what the hub does once the connection ends
        await settle()
        table.clock.now = T0 + 300
        await table.room.hand_over(ann, 2, "normal", 1)
        assert table.room.row.seats[1].standin == "normal"

    async def test_chat_five_lines_in_ten_seconds(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        for n in range(5):
            table.clock.now = T0 + n
            await table.room.say(ann, n, f"line {n}")
        table.clock.now = T0 + 9.9
        with refused("slow down: at most 5 lines in 10 seconds"):
            await table.room.say(ann, 9, "too soon")
        await table.room.say(ben, 10, "ben may still talk")
        table.clock.now = T0 + 10.1
        await table.room.say(ann, 11, "now")

        assert [line.text for line in chat_of(table.room)] == [
            *(f"line {n}" for n in range(5)), "ben may still talk", "now",
        ]  # fmt: skip
        assert table.store.entries[-1] == journal.Chat(T0 + 10.1, 0, "ann", "now", False)
        assert table.store.changes == []  # a line of chat is an entry of the journal alone
        said = [m for m in ben.heard if isinstance(m, wire.Told)]
        texts = [(m.ref, e.text) for m in said for e in m.entries if isinstance(e, journal.Chat)]
        assert texts[-2:] == [(10, "ben may still talk"), (0, "now")]


# ---------------------------------------------------------------- what follows a change


class TestFollowUps:
    """What follows a change is the room's own: whatever asked for the change, the pause
    is told over when it runs out, a game over is rated, a computer whose turn it is
    plays; and a player's leaving and coming back are told once, as they happen."""

    async def test_a_pause_that_runs_out_is_told_over_by_the_rooms_own_turn(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        await table.room.pause(ann, 1, 10)
        ann.mark()
        ben.mark()
        table.clock.now = T0 + 599
        await table.room.wake()  # the timer fired early: nothing is over yet
        assert ann.news() == [] and table.room.row.paused_until == T0 + 600
        table.clock.now = T0 + 601
        await table.room.wake()  # what the pause's timer runs

        over = journal.PauseEnd(T0 + 600, 0, "ann", early=False)
        assert table.store.entries[-1] == over
        assert table.store.changes[-1] == Resumed(TABLE, "ann")
        for ear in (ann, ben):
            (news,) = ear.news()
            assert isinstance(news, wire.Told) and news.ref == 0
            assert words(news) == ["ann's pause is over: play on."]
            assert news.table.paused_until is None
        await table.room.wake()
        assert ann.news() == [ann.news()[0]]  # told once

    async def test_a_pause_that_ran_out_while_the_server_was_down_is_told_at_its_start(self):
        paused = row()
        paused.paused_until, paused.paused_by = T0 - 60, "ben"
        table = Table(paused)
        await table.room.wake()  # the server's start
        assert table.store.entries == [journal.PauseEnd(T0 - 60, 0, "ben", early=False)]
        assert table.room.row.paused_until is None

    async def test_a_pause_under_way_is_timed_by_the_room(self):
        table = Table(row())
        ann, _ = await table.everyone("ann", "ben")
        await table.room.pause(ann, 1, 10)
        timer = table.room._pause_timer
        assert timer is not None and not timer.cancelled()
        await table.room.resume(ann, 2)
        assert timer.cancelled() and table.room._pause_timer is None

    async def test_the_last_move_is_followed_by_the_end_and_the_rating(self):
        _, actions = game_until(lambda s: core.is_over(s[-1]))
        table = Table(row(actions[:-1]), rate=True)
        ann, ben = await table.everyone("ann", "ben")
        mover = table.deciding()
        await table.room.play(mover, 1, len(actions) - 1, actions[-1])

        assert table.rated == [len(actions)]
        rated = (journal.Rated("ann", RATING.mu, 1), journal.Rated("ben", RATING.mu, 1))
        end = journal.End(T0, len(actions), rated)
        assert table.store.entries[-1] == end
        finished = table.store.changes[-1]
        assert isinstance(finished, Finished) and [r.name for r in finished.ratings] == [
            "ann",
            "ben",
        ]
        for ear in (ann, ben):
            move, rating = ear.news()
            assert isinstance(move, wire.Told) and isinstance(rating, wire.Told)
            assert rating.entries == (end,) and rating.ref == 0 and rating.n == move.n + 1
        assert table.room.row.finished == T0
        await table.room.wake()
        assert table.rated == [len(actions)]  # once

    async def test_a_game_over_but_not_rated_is_rated_at_the_start(self):
        _, actions = game_until(lambda s: core.is_over(s[-1]))
        table = Table(row(actions), rate=True)
        await table.room.wake()
        assert table.rated == [len(actions)] and isinstance(table.store.entries[-1], journal.End)

    async def test_a_computer_plays_its_turn_whatever_asked_for_the_change(self):
        """Ann hands her seat over (a request that is not a move): the computer that now
        plays it is called by the room, and its move is told as a stand-in's."""
        table = Table(row(), decide=True)
        ann, ben = await table.everyone("ann", "ben")
        seat = table.seat_deciding()
        player = [ann, ben][seat]
        await table.room.hand_over(player, 1, "easy", None)
        for _ in range(50):
            await settle()
            if table.room.row.actions:
                break
        assert table.room.row.actions and table.room.row.standins[0] == "easy"
        moves = [e for e in table.store.entries if isinstance(e, journal.Move)]
        assert moves[0].seat == seat and moves[0].standin == "easy"
        assert sees_the_table(ann, table.room) and sees_the_table(ben, table.room)
        await table.room.hand_over(player, 2, None, None)
        for task in table.room.stop():
            await task

    async def test_leaving_is_told_once_the_last_terminal_of_the_seat_goes(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        second = Ear("ben")
        await table.room.enter(second, 2, False, None)
        table.room.leave(ben)
        await settle()
        assert ann.news() == []  # ben is still here, on his other terminal
        table.room.leave(second)
        await settle()
        (away,) = ann.news()
        assert words(away) == [f"ben left the table at {clock(T0)}."]
        assert isinstance(away, wire.Told) and not away.table.seats[1].present
        assert table.store.entries == [journal.Away(T0, 0, 1, "ben")]

    async def test_who_leaves_a_finished_table_is_no_event_of_its_game(self):
        _, actions = game_until(lambda s: core.is_over(s[-1]))
        table = Table(row(actions))
        ann, ben = await table.everyone("ann", "ben")
        table.room.leave(ben)
        await settle()
        (news,) = ann.news()
        assert isinstance(news, wire.Told) and news.entries == ()  # the view alone
        assert not news.table.seats[1].present and table.store.entries == []

    async def test_a_terminal_that_redials_at_once_is_never_told_gone(self):
        table = Table(row())
        _, ben = await table.everyone("ann", "ben")
        table.room.leave(ben)
        again = Ear("ben")
        await table.room.enter(again, 2, False, None, back=False)  # before the Away's turn
        await settle()
        assert table.store.entries == [] and table.room.told_away == set()

    async def test_a_watcher_comes_and_goes_untold(self):
        table = Table(row())
        ann, _ = await table.everyone("ann", "ben")
        carl = await table.enter("carl", watch=True)
        table.room.leave(carl)
        await settle()
        assert ann.news() == [] and table.store.entries == []

    async def test_who_was_away_before_a_restart_is_told_back(self):
        """The journal says ben left: after a restart he is still away (since then), his
        seat may be handed over after the wait, and his return is told."""
        left = row()
        left.journal = [journal.Away(T0 - 400, 0, 1, "ben")]
        table = Table(left)
        ann = await table.enter("ann")
        assert table.room.info().seats[1].away_since == T0 - 400
        await table.room.hand_over(ann, 1, "easy", 1)  # away longer than the wait
        ben = await table.enter("ben")
        snapshot = ben.heard[0]
        assert isinstance(snapshot, wire.Snapshot)
        assert [type(e) for e in snapshot.journal] == [
            journal.Away, journal.HandOver, journal.Back, journal.HandOver,
        ]  # fmt: skip
        assert table.room.row.seats[1].standin is None

    async def test_a_player_sitting_in_an_open_seat_is_in_the_journal(self):
        table = Table(row(names=("ann", None)))
        carl = Ear("carl")
        await table.room.enter(carl, 1, False, None)
        snapshot = carl.heard[0]
        assert isinstance(snapshot, wire.Snapshot)
        assert snapshot.journal == (journal.Sit(T0, 0, 1, "carl"),)
        assert [journal.words(e) for e in snapshot.journal] == ["carl took seat 2."]


class TestSnapshot:
    async def test_a_snapshot_carries_the_journal_and_leaves_out_only_old_chat(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        await table.room.pause(ann, 1, 10)
        for n in range(wire.CHAT_KEPT + 3):
            table.clock.now = T0 + 2.5 * n  # within the pause, and the rate of chat
            await table.room.say(ben, 1, f"line {n}")
        await table.room.resume(ann, 2)
        carl = await table.enter("carl", watch=True)
        snapshot = carl.heard[0]
        assert isinstance(snapshot, wire.Snapshot)
        assert snapshot.first == 3  # the three oldest lines of chat
        kept = [e for e in snapshot.journal if isinstance(e, journal.Chat)]
        assert [line.text for line in kept] == [f"line {n}" for n in range(3, wire.CHAT_KEPT + 3)]
        assert isinstance(snapshot.journal[0], journal.Pause)  # every other entry is there
        assert isinstance(snapshot.journal[-1], journal.PauseEnd)
        assert snapshot.first + len(snapshot.journal) == len(table.room.row.journal)
        await table.room.say(ann, 3, "and one more")
        (news,) = carl.news()[1:]
        assert isinstance(news, wire.Told)
        assert news.n == snapshot.first + len(snapshot.journal)  # numbered as the table's
