"""The table's rules at the policy level, as a hypothesis state machine: players and a
watcher at one :class:`table.server.room.Room` play (right or wrong player, current or
stale position), undo, chat, hand their seat to a computer and take it back, leave and
come back, and computers move; a fake store keeps every change the room commits.

After every step: the store holds exactly the room's actions (the moves acknowledged,
less those an acknowledged undo took back) and its journal, the room's positions are the
replay of those actions, and every connection hearing the table shows its public
positions and the journal as stored since it came; a refused request told nobody
anything and changed nothing. Each request's outcome is also checked against the rule it
is under (who may play now, whose last action may be taken back)."""

from __future__ import annotations

import asyncio
import copy
import random
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import core
from table import journal
from table import protocol as wire
from table.server.room import Room
from table.server.rules import CHAT_LINES, CHAT_WINDOW, Refusal
from table.store import Append, Change, Noted, SeatRow, StandIn, TableRow, Truncate, TurnBegan
from tests.table.tables import T0, Ear, told, view
from tests.table_server.history import has

TABLE = 3
NAMES = ("ann", "ben", "cleo")
WATCHER = "wes"
LINES = ("gg", "hmm", "nice survey", "  back soon  ")


def random_game(start: core.GameState, most: int, seed: int) -> list[core.Action]:
    """Up to ``most`` random legal actions from ``start`` (fewer if the game ends)."""
    chance, state = random.Random(seed), start
    actions: list[core.Action] = []
    while len(actions) < most and not core.is_over(state):
        actions.append(chance.choice(core.legal_actions(state)))
        state = core.apply_action(state, actions[-1])
    return actions


async def leaving(room: Room, ear: Ear) -> None:
    """``ear`` leaves the table (as the hub has it when a connection ends), and its
    player's leaving is told, in its own turn."""
    room.leave(ear)
    for _ in range(20):
        await asyncio.sleep(0)


async def at_once(*requests: Coroutine[Any, Any, Any]) -> list[Any]:
    """Run ``requests`` side by side: each one's result, or the exception it raised."""
    return await asyncio.gather(*requests, return_exceptions=True)


@dataclass
class Stored:
    """What the fake store holds of the table, changed only by committed changes."""

    actions: list[core.Action] = field(default_factory=list)
    standins: dict[int, core.Level | None] = field(default_factory=dict)
    journal: list[journal.Any] = field(default_factory=list)
    log: list[Change] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)
    """Changes a real store would refuse or keep wrong (the room turns a failing commit
    into a refusal, so they are kept here for the invariant, not only raised)."""

    def commit(self, change: Change) -> None:
        if change.table != TABLE:
            self.faults.append(f"{change} is for another table")
        if isinstance(change, Append):
            if change.seq != len(self.actions):
                self.faults.append(f"{change} stored out of order")
                raise ValueError("UNIQUE constraint failed: actions.table_id, actions.seq")
            self.actions.append(change.action)
        elif isinstance(change, Truncate):
            if change.seq != len(self.actions) - 1:
                self.faults.append(f"{change} takes back other than the last action")
            del self.actions[change.seq :]
        elif isinstance(change, StandIn):
            self.standins[change.seat] = change.level
        elif isinstance(change, Noted):
            if change.n != len(self.journal):
                self.faults.append(f"{change} stored out of its place")
            self.journal.append(change.entry)
        elif isinstance(change, TurnBegan):  # a person's turn, after the action it follows
            if change.seq != len(self.actions):
                self.faults.append(f"{change} is not the turn the table stands at")
        else:
            self.faults.append(f"{change} was not asked for")
        self.log.append(change)


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.stored = Stored()
        self.now = T0
        self.acknowledged: list[core.Action] = []
        """The moves acknowledged, less those an acknowledged undo took back."""
        self.here: dict[str, bool] = {}
        self.said: dict[str, list[float]] = {}
        self.ears: dict[str, Ear] = {}
        self.refs = 0

    # ---------------------------------------------------------------- the table

    async def commit(self, changes: Sequence[Change]) -> None:
        await asyncio.sleep(0)  # another request may come in while a change is stored
        for change in changes:
            self.stored.commit(change)

    def run(self, coroutine: Coroutine[Any, Any, Any]) -> tuple[Any, str | None]:
        """Run one request to its end: (its result, None), or (None, the refusal)."""
        try:
            return self.loop.run_until_complete(coroutine), None
        except Refusal as refusal:
            return None, str(refusal)

    def ref(self) -> int:
        self.refs += 1
        return self.refs

    @initialize(
        players=st.integers(2, 3),
        seed=st.integers(0, 2**31),
        played=st.sampled_from([0, 0, 5, 20, 60, 200]),
    )
    def sit_down(self, players: int, seed: int, played: int) -> None:
        """A table of ``players`` (and a watcher), as stored after up to ``played`` random
        actions (the whole game, for a large number)."""
        colours = list(core.Colour)
        seats = [SeatRow("player", NAMES[i], None, colours[i]) for i in range(players)]
        self.players = NAMES[:players]
        self.start = core.new_game(players, seed, list(self.players), colours[:players])
        actions = random_game(self.start, played, seed)
        self.stored.actions, self.acknowledged = list(actions), list(actions)
        row = TableRow(TABLE, "test", seed, T0, T0, seats, pace="live", actions=list(actions))
        self.room = Room(row, self.commit, lambda: self.now)
        for name in (*self.players, WATCHER):
            ear = self.ears[name] = Ear(name)
            self.run(self.room.enter(ear, self.ref(), name == WATCHER, None))
            self.here[name] = True

    def teardown(self) -> None:
        self.loop.close()

    @property
    def position(self) -> core.GameState:
        state = self.room.state
        assert state is not None
        return state

    def seat_of(self, name: str) -> int | None:
        return self.players.index(name) if name in self.players else None

    def refused_quietly(self, refusal: str | None, before: tuple[Any, ...]) -> None:
        """A refusal is a sentence, and nothing changed and nobody was told anything."""
        assert refusal, "a refusal says why"
        assert self.memory() == before, f"refused ({refusal}), yet the table changed"

    def memory(self) -> tuple[Any, ...]:
        return (
            copy.deepcopy(self.room.row),
            len(self.room.states),
            {name: len(ear.heard) for name, ear in self.ears.items()},
            len(self.stored.log),
        )

    # ---------------------------------------------------------------- the game

    @rule(
        data=st.data(),
        right=st.sampled_from([True, True, True, False]),
        stale=st.sampled_from([0, 0, 0, -1, 1]),
    )
    def play(self, data: st.DataObject, right: bool, stale: int) -> None:
        state, seq = self.position, max(0, len(self.room.row.actions) + stale)
        deciding = state.current_player
        if right and deciding is not None:
            name = self.players[deciding]
        else:
            name = data.draw(st.sampled_from([*self.players, WATCHER]), label="who")
        legal = core.legal_actions(state) if not core.is_over(state) else ()
        if not legal:
            legal = core.legal_actions(self.room.states[-2])
        action = data.draw(st.sampled_from(legal), label="action")
        seat = self.seat_of(name)
        may = (
            self.here[name]
            and seat is not None
            and seat == deciding
            and self.room.row.seats[seat].standin is None
            and seq == len(self.room.row.actions)
        )
        before, ear = self.memory(), self.ears[name]
        _, refusal = self.run(self.room.play(ear, self.ref(), seq, action))
        assert (refusal is None) == may, f"{name} at seq {seq}: {refusal or 'played'}"
        if refusal is not None:
            self.refused_quietly(refusal, before)
            return
        self.acknowledged.append(action)
        answer = ear.heard[-1]
        assert isinstance(answer, wire.Told) and answer.ref == self.refs
        assert has(answer, journal.Move)

    @rule(
        mine=st.sampled_from([True, True, False]),
        anyone=st.sampled_from([*NAMES, WATCHER]),
        stale=st.sampled_from([0, 0, -1, 1]),
    )
    def undo(self, mine: bool, anyone: str, stale: int) -> None:
        """By the player of the last action (mostly), or by anyone."""
        actions, states = self.room.row.actions, self.room.states
        last = states[-2].current_player if len(states) > 1 else None
        who = self.players[last] if mine and last is not None else anyone
        if who not in self.ears:
            return
        seq = max(0, len(actions) + stale)
        seat = self.seat_of(who)
        may = (
            self.here[who]
            and seat is not None
            and seq == len(actions) > 0
            and states[-2].current_player == seat
            and not core.is_over(states[-1])
            and states[-1].season == states[-2].season
            and self.room.row.standins[-1] is None  # not a move a computer made for them
        )
        before = self.memory()
        _, refusal = self.run(self.room.undo(self.ears[who], self.ref(), seq))
        assert (refusal is None) == may, f"{who}'s undo at seq {seq}: {refusal or 'done'}"
        if refusal is not None:
            self.refused_quietly(refusal, before)
            return
        self.acknowledged.pop()
        for name, ear in self.ears.items():
            if self.here[name]:
                undone = ear.heard[-1]
                assert isinstance(undone, wire.Told)
                assert undone.ref == (self.refs if name == who else 0)
                assert undone.entries == (journal.Undo(self.now, len(self.acknowledged), who),)

    @rule(data=st.data(), undo_first=st.booleans())
    def move_races_undo(self, data: st.DataObject, undo_first: bool) -> None:
        """The player deciding moves while the last action's player takes it back, both at
        the position now: one of them at most is done, the other was made at a position
        that is gone."""
        state, states, seq = self.position, self.room.states, len(self.room.row.actions)
        deciding = state.current_player
        last = states[-2].current_player if len(states) > 1 else None
        if deciding is None or last is None or core.is_over(state):
            return
        action = data.draw(st.sampled_from(core.legal_actions(state)), label="action")
        mover, undoer = self.ears[self.players[deciding]], self.ears[self.players[last]]
        requests = [self.room.play(mover, self.ref(), seq, action),
                    self.room.undo(undoer, self.ref(), seq)]  # fmt: skip
        if undo_first:
            requests.reverse()
        results = self.loop.run_until_complete(at_once(*requests))
        done = [r for r in results if not isinstance(r, BaseException)]
        assert all(isinstance(r, Refusal) for r in results if isinstance(r, BaseException))
        assert len(done) <= 1, "a move and the undo of the action before it both counted"
        if len(self.room.row.actions) == seq + 1:
            self.acknowledged.append(action)
        elif len(self.room.row.actions) == seq - 1:
            self.acknowledged.pop()
        else:
            assert len(self.room.row.actions) == seq and not done

    @precondition(lambda self: self.room.computer_due() is not None)
    @rule(data=st.data())
    def computer_moves(self, data: st.DataObject) -> None:
        due = self.room.computer_due()
        assert due is not None
        seat, _level, seq = due
        assert seq == len(self.room.row.actions)
        action = data.draw(st.sampled_from(core.legal_actions(self.position)), label="computer")
        moved, refusal = self.run(self.room.computer_moved(seat, seq, action))
        assert moved and refusal is None
        self.acknowledged.append(action)

    # ---------------------------------------------------------------- life at the table

    @rule(who=st.sampled_from([*NAMES, WATCHER]), line=st.sampled_from(LINES))
    def say(self, who: str, line: str) -> None:
        if who not in self.ears:
            return
        said = [t for t in self.said.get(who, []) if self.now - t < CHAT_WINDOW]
        may = self.here[who] and len(said) < CHAT_LINES
        before = self.memory()
        _, refusal = self.run(self.room.say(self.ears[who], self.ref(), line))
        assert (refusal is None) == may, f"{who} says {line!r}: {refusal or 'said'}"
        if refusal is not None:
            self.refused_quietly(refusal, before)
            return
        self.said[who] = [*said, self.now]
        seq = len(self.room.row.actions)
        line_said = journal.Chat(self.now, seq, who, line.strip(), who == WATCHER)
        assert self.stored.journal[-1] == line_said

    @rule(seconds=st.sampled_from([0.5, 1.0, 3.0, 9.9, 10.1, 400.0]))
    def time_passes(self, seconds: float) -> None:
        self.now += seconds

    @rule(who=st.sampled_from(NAMES), level=st.sampled_from([None, "easy", "hard"]))
    def hand_over(self, who: str, level: core.Level | None) -> None:
        if who not in self.players:
            return
        before = self.memory()
        _, refusal = self.run(self.room.hand_over(self.ears[who], self.ref(), level, None))
        if not self.here[who]:
            assert refusal == "only a player of the table can hand over their seat"
            self.refused_quietly(refusal, before)
            return
        if core.is_over(self.position):
            assert refusal == "the game is over: there is nothing left to decide"
            self.refused_quietly(refusal, before)
            return
        assert refusal is None
        assert self.room.row.seats[self.players.index(who)].standin == level

    @rule(who=st.sampled_from([*NAMES, WATCHER]))
    def leave(self, who: str) -> None:
        if who not in self.ears or not self.here[who]:
            return
        self.loop.run_until_complete(leaving(self.room, self.ears[who]))
        self.here[who] = False
        seat = self.seat_of(who)
        if seat is not None:
            assert self.room.away_since[seat] == self.now
            # told away in the journal while the game is on (once over, no event of it)
            assert (seat in self.room.told_away) == (not core.is_over(self.position))

    @rule(who=st.sampled_from([*NAMES, WATCHER]))
    def come_back(self, who: str) -> None:
        if who not in self.ears or self.here[who]:
            return
        ear = self.ears[who]
        _, refusal = self.run(self.room.enter(ear, self.ref(), who == WATCHER, None))
        assert refusal is None
        self.here[who] = True
        answer = ear.heard[-1]
        assert isinstance(answer, wire.Snapshot) and answer.ref == self.refs
        seat = self.seat_of(who)
        if seat is not None:  # back: the seat is theirs again
            assert self.room.row.seats[seat].standin is None
            assert seat not in self.room.away_since

    # ---------------------------------------------------------------- after every step

    @invariant()
    def the_store_holds_the_rooms_actions(self) -> None:
        if not self.ears:
            return
        assert self.stored.faults == []
        assert self.stored.actions == self.room.row.actions
        assert self.stored.actions == self.acknowledged
        assert self.stored.journal == self.room.row.journal
        for seat, level in self.stored.standins.items():
            assert self.room.row.seats[seat].standin == level

    @invariant()
    def the_positions_replay_the_actions(self) -> None:
        if not self.ears:
            return
        assert core.replay(self.start, self.room.row.actions) == self.room.states

    @invariant()
    def everyone_hearing_sees_the_table(self) -> None:
        """Position by position, up to the order of parcels nobody has seen yet; the
        position now exactly as its public view."""
        if not self.ears:
            return
        public = [core.public_view(s) for s in self.room.states]
        for name, ear in self.ears.items():
            if self.here[name]:
                shown = view(ear)
                assert shown[-1] == public[-1], f"{name} sees another position"
                assert [core.public_view(s) for s in shown] == public, f"{name}'s history"
                heard = told(ear)
                stored = self.room.row.journal
                assert heard.journal == stored[len(stored) - len(heard.journal) :], (
                    f"{name}'s journal is not the table's"
                )


TableMachine.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestTable = TableMachine.TestCase
