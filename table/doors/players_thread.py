"""The players' store (:class:`table.host.players.Players`) for a door, on a thread of its own.

A door answers strangers on the event loop the tables share; a host's ``mykerinos
players …`` may hold the store's write lock for a moment, and SQLite would then block the
caller for up to its busy timeout. Every call goes to one thread, in order, so the loop
never waits and the one connection is never used by two threads at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from table.host.players import Players

T = TypeVar("T")


class PlayersThread:
    """``await store.call(Players.method, *args)``; :meth:`close` when done."""

    def __init__(self, db: Path) -> None:
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="door-players")
        self.players: Players = self._thread.submit(Players, db).result()

    def submit(self, method: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``method(players, *args)`` on the thread; its future (it runs to its end even
        if the one awaiting it is cancelled)."""
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(self._thread, method, self.players, *args)

    async def call(self, method: Callable[..., T], *args: Any) -> T:
        return await self.submit(method, *args)

    def close(self) -> None:
        self._thread.submit(self.players.close).result()
        self._thread.shutdown()
