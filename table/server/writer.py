"""The store's one writer: changes from every table, made durable in groups.

Each change a room makes (one or several store changes that stand or fall together: a
move and its journal entry) goes through :meth:`Writer.commit`, which returns once it is
on disk. Changes that arrive while a commit runs share the next one (group commit: one
fsync for many tables). A group that fails is tried again one room's change at a time, so
that one table's failing change (a full disk is everyone's, a refused row only its own)
never fails another table's. The store's calls block, so they run in one thread.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from table.server.log import log
from table.store import Change, TableStore

P = ParamSpec("P")
R = TypeVar("R")


class Writer:
    """Group commit of :class:`table.store.Change` into one :class:`TableStore`."""

    def __init__(self, store: TableStore, delay: float = 0.0) -> None:
        self.store = store
        self.delay = delay
        """Seconds each commit waits first (tests only: it makes requests interleave)."""
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="store")
        self._pending: list[tuple[Sequence[Change], asyncio.Future[None]]] = []
        self._committing: asyncio.Task[None] | None = None

    async def commit(self, changes: Sequence[Change]) -> None:
        """Make ``changes`` durable, all of them or none; raises the store's error if they
        could not be (then nothing of them was stored)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((changes, future))
        if self._committing is None or self._committing.done():
            self._committing = loop.create_task(self._commit_all())
        await future

    async def run(self, call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``call(*args, **kwargs)`` on the store, in the writer's thread (a commit, or a
        table's creation)."""
        job = functools.partial(call, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self.thread, job)

    async def _commit_all(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            if self.delay:
                await asyncio.sleep(self.delay)
            try:
                await self.run(self.store.commit, [c for changes, _ in batch for c in changes])
            except Exception as exc:
                if len(batch) == 1:
                    _settle(batch[0][1], exc)
                    continue
                for changes, future in batch:  # one at a time: a bad one fails alone
                    try:
                        await self.run(self.store.commit, changes)
                    except Exception as alone:
                        _settle(future, alone)
                    else:
                        _settle(future, None)
                continue
            for _, future in batch:
                _settle(future, None)

    def close(self) -> None:
        self.thread.shutdown(wait=True)


def _settle(future: asyncio.Future[None], error: Exception | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        log(f"could not store a change: {error}")
        future.set_exception(error)
