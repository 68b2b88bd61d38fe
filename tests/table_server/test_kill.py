"""kill -9 of the table server at 20 random moments while bots play on several tables.

Each bot keeps every action it saw acknowledged (its own answers and the broadcasts); when
the connection drops it redials, sits again and checks that the table's history starts
with everything it had seen. After the last restart the games are played to the end, and
every stored game replays legally from its seed."""

from __future__ import annotations

import asyncio
import random

import pytest

import core
from table import protocol as wire
from table.store import TableStore
from tests.table_server.bots import Bot, create

pytestmark = pytest.mark.slow

KILLS = 20
TABLES = 3
NAMES = ["ann", "ben"]


class Survivor:
    """A bot that comes back after each crash of the server."""

    def __init__(self, server, name: str, table: int, seed: int) -> None:
        self.server, self.name, self.table = server, name, table
        self.rng = random.Random(seed)
        self.bot: Bot | None = None
        self.seen: list[core.Action] = []
        """Every action this client saw acknowledged, in order."""

    async def sit(self) -> None:
        for _ in range(200):
            try:
                self.bot = await Bot.join(self.server.socket, self.name, self.table)
            except (OSError, ConnectionError, AssertionError):
                await asyncio.sleep(0.05)
                continue
            stored = self.bot.actions
            assert stored[: len(self.seen)] == self.seen, "an acknowledged action was lost"
            self.seen = list(stored)
            return
        raise AssertionError("could not sit again after the restart")

    async def run(self, stop: asyncio.Event) -> None:
        await self.sit()
        while not stop.is_set():
            bot = self.bot
            assert bot is not None
            if core.is_over(bot.state):
                return
            try:
                if bot.my_turn():
                    action = self.rng.choice(core.legal_actions(bot.state))
                    ref = bot.connection.new_ref()
                    await asyncio.wait_for(bot.ask(
                        wire.Play(ref, bot.table, len(bot.actions), action)), 10)  # fmt: skip
                else:
                    await bot.listen(0.2)
                self.seen = list(bot.actions)
            except (OSError, ConnectionError, TimeoutError):
                await self.sit()


async def test_kill_9_at_random_moments_loses_no_acknowledged_action(server) -> None:
    rng = random.Random(12)
    players = []
    for index in range(TABLES):
        table = await create(server.socket, "ann", [wire.SeatSpec("player", n) for n in NAMES])
        players += [Survivor(server, n, table, 10 * index + i) for i, n in enumerate(NAMES)]
    stop = asyncio.Event()
    runs = [asyncio.create_task(p.run(stop)) for p in players]
    try:
        for _ in range(KILLS):
            await asyncio.sleep(rng.uniform(0.05, 0.4))
            server.kill()
            await asyncio.sleep(rng.uniform(0.0, 0.2))
            server.start()
        await asyncio.wait_for(asyncio.gather(*runs), 300)  # the games go on to the end
    finally:
        stop.set()
        for run in runs:
            run.cancel()
    store = TableStore(server.db)
    try:
        for row in store.tables():
            state = core.new_game(len(row.seats), row.seed, [s.name or "?" for s in row.seats],
                                  [s.colour for s in row.seats])  # fmt: skip
            for action in row.actions:
                state = core.apply_action(state, action)
            assert core.is_over(state)
    finally:
        store.close()
    assert all(p.seen for p in players)
