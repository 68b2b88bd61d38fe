"""Computer players of the table server: decisions in worker processes, taken in turn.

Two lanes, each its own pool of worker processes: ``quick`` for the easy and normal
levels (a few milliseconds a decision) and ``deep`` for the hard level (a search of up to
about two seconds), so that a hard search never holds up a quick move. In each lane the
waiting decisions are taken in turn across *owners* (the player who created the table):
the owner served least recently goes first. One player's many tables of hard computers
therefore delay another table's move by at most the decision already running in each
worker of its lane, plus its own.

The workers are started with ``spawn``: a fresh interpreter that inherits none of the
server's descriptors (not its listening socket, not a client's connection, not the
store), so a worker can never keep them open. Each watches its parent and exits as soon
as the server is gone, even after a ``kill -9`` of the server alone.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import multiprocessing
import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

import core
from table.lifeline import die_with
from table.server.log import log


def decide(level: core.Level, seed: int, state: core.GameState) -> core.Action:
    """A computer's action on a public position (runs in a worker process)."""
    from core.ai import make_bot

    return make_bot(level, seed=seed).choose(state)


def _ready() -> None:
    """A first job, so that a worker is started (and has imported the rules) before the
    first real decision is due."""
    import core.ai  # noqa: F401


@dataclass(eq=False)
class _Decision:
    owner: str
    level: core.Level
    seed: int
    state: core.GameState
    answer: asyncio.Future[core.Action] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Lane:
    """A pool of worker processes whose waiting decisions are served in turn by owner."""

    def __init__(self, name: str, workers: int) -> None:
        self.name = name
        self.workers = max(1, workers)
        self.free = self.workers
        self.waiting: dict[str, deque[_Decision]] = {}
        self.served: dict[str, int] = {}
        """When each owner was last served (a counter): the least recent goes first."""
        self._turns = itertools.count()
        self.closed = False
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=die_with,
            initargs=(os.getpid(),),
        )
        # Start the workers now, from this thread (the parent-death signal is tied to it).
        self.warming = [pool.submit(_ready) for _ in range(self.workers)]
        return pool

    async def decide(
        self, owner: str, level: core.Level, seed: int, state: core.GameState
    ) -> core.Action:
        decision = _Decision(owner, level, seed, state)
        self.waiting.setdefault(owner, deque()).append(decision)
        self._start_next()
        return await decision.answer

    def _start_next(self) -> None:
        while self.free and self.waiting:
            owner = min(self.waiting, key=lambda o: self.served.get(o, -1))
            queue = self.waiting[owner]
            decision = queue.popleft()
            if not queue:
                del self.waiting[owner]
            if decision.answer.done():  # given up on while waiting
                continue
            self.served[owner] = next(self._turns)
            self.free -= 1
            try:
                job = self.pool.submit(decide, decision.level, decision.seed, decision.state)
            except (BrokenProcessPool, RuntimeError) as exc:
                self._finished(decision, None, exc)
                continue
            heard = functools.partial(self._heard, decision, self.pool)
            asyncio.wrap_future(job).add_done_callback(heard)

    def _heard(
        self, decision: _Decision, pool: ProcessPoolExecutor, done: asyncio.Future[core.Action]
    ) -> None:
        self._finished(decision, done, None, pool)

    def _finished(
        self,
        decision: _Decision,
        done: asyncio.Future[core.Action] | None,
        error: BaseException | None,
        pool: ProcessPoolExecutor | None = None,
    ) -> None:
        self.free += 1
        if done is not None and not done.cancelled():
            error = done.exception()
        broken = isinstance(error, BrokenProcessPool) and (pool is None or pool is self.pool)
        if broken and not self.closed:  # once per broken pool, not once per decision in it
            log(f"a {self.name} computer-player worker died; starting new ones")
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = self._new_pool()
        if not decision.answer.done():
            if error is not None:
                decision.answer.set_exception(error)
            elif done is not None and not done.cancelled():
                decision.answer.set_result(done.result())
            else:
                decision.answer.cancel()
        self._start_next()

    def close(self) -> None:
        self.closed = True
        self.pool.shutdown(wait=False, cancel_futures=True)


class Computers:
    """Both lanes (see the module docstring)."""

    def __init__(self, deep_workers: int = 1) -> None:
        self.quick = Lane("quick", 1)
        self.deep = Lane("deep", deep_workers)

    async def decide(
        self, owner: str, level: core.Level, seed: int, state: core.GameState
    ) -> core.Action:
        """``level``'s action on the public position ``state``, for a table of ``owner``."""
        lane = self.deep if level == "hard" else self.quick
        return await lane.decide(owner, level, seed, state)

    async def ready(self, within: float = 10.0) -> None:
        """Once every worker has started and loaded the rules (or ``within`` seconds have
        passed: a decision then waits for its worker instead). The server listens only
        then, so that starting workers never slow its first requests."""
        warming = [asyncio.wrap_future(job) for lane in (self.quick, self.deep)
                   for job in lane.warming]  # fmt: skip
        done, late = await asyncio.wait(warming, timeout=within)
        if late:
            log(f"{len(late)} computer-player workers are slow to start")
        for job in done:
            if job.exception() is not None:
                log(f"a computer-player worker failed to start: {job.exception()!r}")

    def close(self) -> None:
        """Stop every worker now (a running search is not waited for)."""
        self.quick.close()
        self.deep.close()
        for child in multiprocessing.active_children():
            child.terminate()
