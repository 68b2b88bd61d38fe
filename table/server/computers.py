"""Computer players of the table server: decisions in worker processes, taken in turn.

Two lanes, each its own pool of worker processes: ``quick`` for the easy and normal
levels (a few milliseconds a decision) and ``deep`` for the hard level (a search of up to
about two seconds), so that a hard search never holds up a quick move. A third,
``analysis``, judges the decisions of finished games (:mod:`table.server.analysis`): its
workers, one a core, run at a lower priority (:data:`ANALYSIS_NICE`): the scheduler gives a
live table's computers and the players' sessions about nine tenths of a core they share
with one, so an analysis uses what is idle without slowing a live table. In each lane the
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
import contextlib
import functools
import itertools
import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Final

import core
from core.analysis import SIMULATIONS, Judgement
from table.analysis import workers_default
from table.lifeline import die_with
from table.server.log import log

ANALYSIS_NICE: Final = 10
"""How much lower the analysis workers' priority is than the server's (and its computer
players'): a live table's computer then gets nine tenths of a core it shares with one."""
CLOSE_WITHIN: Final = 5.0
"""Seconds a stop waits for the pools' threads to end once the workers are stopped (a
bound against a stuck thread, not a time they take: they end in milliseconds)."""
SIMULATIONS_ENV: Final = "MYKERINOS_ANALYSIS_SIMULATIONS"
"""Tests only: this many simulations a judgement, and the analysis workers at the server's
own priority (a test machine loaded by other tests would starve them), so that a game is
judged in seconds. Never set on a real server: what it judges is kept as if judged in
full, and its analyses would slow its live tables' computers."""


def decide(level: core.Level, seed: int, state: core.GameState) -> core.Action:
    """A computer's action on a public position (runs in a worker process)."""
    from core.ai import make_bot

    return make_bot(level, seed=seed).choose(state)


def judge(
    state: core.GameState, action: core.Action, index: int, seed: int, simulations: int
) -> Judgement | None:
    """Action ``index`` of a finished game judged (runs in a worker process)."""
    from core.analysis import judge

    return judge(state, action, index, seed=seed, simulations=simulations)


def _ready() -> None:
    """A first job, so that a worker is started (and has imported the rules) before the
    first real decision is due."""
    import core.ai  # noqa: F401


def _start_worker(parent: int, nice: int) -> None:
    die_with(parent)
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)


@dataclass(eq=False)
class _Decision:
    """A job of a lane: ``call(*args)`` in a worker, for ``owner``."""

    owner: str
    call: Callable[..., Any]
    args: tuple[Any, ...]
    answer: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Lane:
    """A pool of worker processes whose waiting decisions are served in turn by owner
    (``nice``: how much lower the workers' priority is; ``warm``: start them at once)."""

    def __init__(self, name: str, workers: int, nice: int = 0, warm: bool = True) -> None:
        self.name = name
        self.workers = max(1, workers)
        self.nice = nice
        self.warm = warm
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
            initializer=_start_worker,
            initargs=(os.getpid(), self.nice),
        )
        # Start the workers now, from this thread (the parent-death signal is tied to it);
        # a lane not warmed starts them as its first jobs come, from this thread too.
        self.warming = [pool.submit(_ready) for _ in range(self.workers if self.warm else 0)]
        return pool

    async def decide(
        self, owner: str, level: core.Level, seed: int, state: core.GameState
    ) -> core.Action:
        answer: core.Action = await self.submit(owner, decide, level, seed, state)
        return answer

    def submit(self, owner: str, call: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``call(*args)`` in a worker, in ``owner``'s turn; cancelling the future before
        it starts means it never does (once started, its answer is dropped)."""
        decision = _Decision(owner, call, args)
        self.waiting.setdefault(owner, deque()).append(decision)
        self._start_next()
        return decision.answer

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
                job = self.pool.submit(decision.call, *decision.args)
            except (BrokenProcessPool, RuntimeError) as exc:
                self._finished(decision, None, exc)
                continue
            heard = functools.partial(self._heard, decision, self.pool)
            asyncio.wrap_future(job).add_done_callback(heard)

    def _heard(
        self, decision: _Decision, pool: ProcessPoolExecutor, done: asyncio.Future[Any]
    ) -> None:
        self._finished(decision, done, None, pool)

    def _finished(
        self,
        decision: _Decision,
        done: asyncio.Future[Any] | None,
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
        """Take no more decisions, drop the waiting ones and wait until the pool's own
        thread has ended (stop the workers first, or this waits for their searches)."""
        self.closed = True
        self.pool.shutdown(wait=True, cancel_futures=True)


class Computers:
    """The three lanes (see the module docstring). ``simulations``: of each judgement of
    an analysis (None: :data:`SIMULATIONS`, or the tests' :data:`SIMULATIONS_ENV`)."""

    def __init__(self, deep_workers: int = 1, simulations: int | None = None) -> None:
        self.quick = Lane("quick", 1)
        self.deep = Lane("deep", deep_workers)
        nice = ANALYSIS_NICE
        if simulations is None and os.environ.get(SIMULATIONS_ENV):
            simulations, nice = int(os.environ[SIMULATIONS_ENV]), 0
            log(f"analyses judge with {simulations} simulations, not niced ({SIMULATIONS_ENV})")
        self.simulations = max(1, simulations or SIMULATIONS)
        # One worker a core: their lower priority leaves a shared core to a live table's
        # computers and the players' sessions (see the module).
        self.analysis = Lane("analysis", workers_default(), nice=nice, warm=False)

    async def decide(
        self, owner: str, level: core.Level, seed: int, state: core.GameState
    ) -> core.Action:
        """``level``'s action on the public position ``state``, for a table of ``owner``."""
        lane = self.deep if level == "hard" else self.quick
        return await lane.decide(owner, level, seed, state)

    def judge(
        self, owner: str, state: core.GameState, action: core.Action, index: int, seed: int
    ) -> asyncio.Future[Judgement | None]:
        """Action ``index`` of a finished game, played in ``state``, judged in the analysis
        lane in ``owner``'s turn (cancel the future to give it up)."""
        return self.analysis.submit(owner, judge, state, action, index, seed, self.simulations)

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
        lanes = (self.quick, self.deep, self.analysis)
        for lane in lanes:
            lane.closed = True  # a worker stopped below is not replaced
        for child in multiprocessing.active_children():
            child.terminate()
        # A pool's thread still running at the interpreter's exit races with it: CPython
        # 3.11 then prints an "Exception ignored … Bad file descriptor" traceback on a
        # clean stop (gh-125451, fixed only in later 3.12 and 3.13 releases). With the
        # workers gone the threads end at once; the bound keeps a stuck one from holding
        # the stop.
        ending = threading.Thread(target=_close, args=lanes, name="computers-close", daemon=True)
        ending.start()
        ending.join(CLOSE_WITHIN)


def _close(*lanes: Lane) -> None:
    for lane in lanes:
        lane.close()
