"""Protocol-level players for the server tests: each is one client connection that keeps
every frame it received (to inspect what crossed the socket), rebuilds the table from
them as a client of protocol 3 does (:class:`tests.table_server.history.History`), and
plays a seeded random legal action, decided on the public position it was sent, whenever
one of its seats is to decide."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

import core
from table import journal
from table import protocol as wire
from table.client.connection import Connection, connect
from tests.table_server.history import History

WAIT = 30.0
"""Seconds any one answer may take before a test fails (a hang bound)."""


@dataclass
class Bot:
    """A player at one table, through its own connection."""

    connection: Connection
    rng: random.Random
    table: int = 0
    history: History = field(default_factory=lambda: History(patient=True))
    """The table as told (answers and news come by separate ways: see History.patient)."""
    frames: list[wire.ServerMessage] = field(default_factory=list)

    @classmethod
    async def join(cls, socket: Path, player: str, table: int, seed: int = 0) -> Bot:
        bot = cls(await connect(socket, player), random.Random(seed))
        await bot.enter(wire.Join(bot.connection.new_ref(), table))
        return bot

    async def ask(self, message: wire.ClientMessage) -> wire.ServerMessage:
        """Send ``message`` and return its answer, heard like every frame (a Told taken
        into the table's history, in its place)."""
        answer = await asyncio.wait_for(self.connection.ask(message), WAIT)
        if isinstance(answer, wire.Told):
            self.hear(answer)
        else:
            self.frames.append(answer)
        return answer

    async def enter(self, message: wire.Join | wire.Watch) -> None:
        answer = await self.ask(message)
        assert isinstance(answer, wire.Snapshot), answer
        self.take(answer)

    def take(self, snapshot: wire.Snapshot) -> None:
        self.table = snapshot.table.id
        self.history.take(snapshot)

    @property
    def seats(self) -> tuple[int, ...]:
        return self.history.seats_here

    @property
    def actions(self) -> list[core.Action]:
        return self.history.actions

    @property
    def states(self) -> list[core.GameState]:
        return self.history.states

    @property
    def state(self) -> core.GameState:
        return self.states[-1]

    def hear(self, message: wire.ServerMessage) -> None:
        self.frames.append(message)
        if isinstance(message, wire.Told) and message.table.id == self.table:
            self.history.hear(message)
        elif isinstance(message, wire.Snapshot):
            self.take(message)

    def my_turn(self) -> bool:
        return self.state.current_player in self.seats

    async def play_one(self) -> wire.ServerMessage:
        action = self.rng.choice(core.legal_actions(self.state))
        return await self.ask(wire.Play(self.connection.new_ref(), self.table,
                                        len(self.actions), action))  # fmt: skip

    async def drain(self) -> None:
        """Hear whatever the server has already sent (until 50 ms of quiet)."""
        for _ in range(1000):
            heard = len(self.frames)
            await self.listen(0.05)
            if len(self.frames) == heard:
                return

    async def listen(self, until: float) -> None:
        """Take the unasked messages for up to ``until`` seconds."""
        try:
            message = await asyncio.wait_for(self.connection.unasked(), until)
        except TimeoutError:
            return
        self.hear(message)


async def create(socket: Path, player: str, seats: list[wire.SeatSpec]) -> int:
    """A new table's id (made by ``player``'s own short connection)."""
    connection = await connect(socket, player)
    try:
        answer = await connection.ask(wire.CreateTable(connection.new_ref(), tuple(seats)))
    finally:
        await connection.close()
    assert isinstance(answer, wire.Lobby), answer
    return answer.tables[0].id


async def catch_up(bots: list[Bot]) -> None:
    """Wait until every bot has heard as many actions as the one that heard most."""
    target = max(len(bot.actions) for bot in bots)
    for bot in bots:
        for _ in range(1000):
            if len(bot.actions) >= target:
                break
            await bot.listen(WAIT)
        assert len(bot.actions) >= target, "an action never reached a client"


async def play_to_the_end(bots: list[Bot], limit: int = 5000) -> None:
    """Each bot plays when its seat decides, everyone hears everything, until the game is
    over (bounded by ``limit`` actions)."""
    for _ in range(limit):
        if core.is_over(bots[0].state):
            break
        mover = next((b for b in bots if b.my_turn()), None)
        if mover is None:  # a computer seat decides on the server: wait for its move
            await bots[0].listen(WAIT)
        else:
            before = len(mover.actions)
            answer = await mover.play_one()
            assert played(answer), answer
            # Its own move may wait in its history behind an earlier Told not read yet (a
            # line of chat): read on until it is in, or the catch-up below would aim at a
            # count nobody has reached and this bot would play again at the old position.
            for _ in range(1000):
                if len(mover.actions) > before:
                    break
                await mover.listen(WAIT)
            assert len(mover.actions) > before, "a bot never heard its own move"
        await catch_up(bots)
    assert core.is_over(bots[0].state), "the game did not end"


def played(answer: wire.ServerMessage) -> bool:
    """``answer`` acknowledges a move (a Told of it)."""
    return isinstance(answer, wire.Told) and any(
        isinstance(entry, journal.Move) for entry in answer.entries
    )


def encoded(value: object) -> bytes:
    return msgspec.json.encode(value)
