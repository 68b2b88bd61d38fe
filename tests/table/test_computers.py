"""The table server's computer players, taken in turn: which decision runs next, with the
worker processes replaced by an executor whose jobs this test finishes by hand."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Executor, Future
from typing import Any

import core
from table.server.computers import Computers, Lane


class HandPool(Executor):
    """Runs nothing by itself: each submitted job waits until the test finishes it."""

    def __init__(self) -> None:
        self.jobs: list[tuple[tuple[Any, ...], Future[Any]]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.jobs.append((args, future))
        return future

    def finish(self, index: int = 0) -> int:
        """Finish the ``index``-th job still running; returns its seed."""
        running = [(args, f) for args, f in self.jobs if not f.done()]
        args, future = running[index]
        future.set_result(core.legal_actions(args[2])[0])
        return int(args[1])

    def running(self) -> list[int]:
        """The seeds of the jobs submitted and not finished, oldest first."""
        return [int(args[1]) for args, future in self.jobs if not future.done()]


class HandLane(Lane):
    def _new_pool(self) -> HandPool:  # type: ignore[override]
        self.hand = HandPool()
        return self.hand


STATE = core.public_view(core.new_game(3, 1))


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_second_owner_is_served_before_the_first_owners_next_decision() -> None:
    """One player's many tables of computers: another player's decision is next as soon
    as the one running ends, not after all of theirs."""
    lane = HandLane("deep", 1)
    flood = [asyncio.create_task(lane.decide("mallory", "hard", seed, STATE)) for seed in range(4)]
    await settle()
    victim = asyncio.create_task(lane.decide("ann", "hard", 100, STATE))
    await settle()
    assert lane.hand.running() == [0]  # one worker: mallory's first is under way
    lane.hand.finish()
    await settle()
    assert lane.hand.running() == [100]  # ann's, before mallory's second
    lane.hand.finish()
    await settle()
    assert victim.result() == core.legal_actions(STATE)[0]
    assert lane.hand.running() == [1]
    for _ in range(3):
        lane.hand.finish()
        await settle()
    assert all(task.done() for task in flood)


async def test_owners_take_turns_whatever_the_order_they_asked_in() -> None:
    lane = HandLane("deep", 1)
    asked = [
        asyncio.create_task(lane.decide(owner, "hard", seed, STATE))
        for owner, seeds in (("a", (1, 2, 3)), ("b", (11, 12)), ("c", (21,)))
        for seed in seeds
    ]
    await settle()
    order = []
    while lane.hand.running():
        order.append(lane.hand.finish())
        await settle()
    assert order == [1, 11, 21, 2, 12, 3]
    assert all(task.done() for task in asked)


async def test_quick_levels_never_wait_behind_a_hard_search() -> None:
    computers = Computers.__new__(Computers)
    computers.quick, computers.deep = HandLane("quick", 1), HandLane("deep", 1)
    hard = asyncio.create_task(computers.decide("mallory", "hard", 1, STATE))
    easy = asyncio.create_task(computers.decide("ann", "easy", 2, STATE))
    await settle()
    assert computers.deep.hand.running() == [1] and computers.quick.hand.running() == [2]
    computers.quick.hand.finish()
    await settle()
    assert easy.done()  # while the hard search still runs
    assert computers.deep.hand.running() == [1] and not hard.done()


async def test_a_decision_given_up_while_waiting_is_never_started() -> None:
    lane = HandLane("deep", 1)
    first = asyncio.create_task(lane.decide("a", "hard", 1, STATE))
    waiting = asyncio.create_task(lane.decide("b", "hard", 2, STATE))
    await settle()
    waiting.cancel()
    await settle()
    lane.hand.finish()
    await settle()
    assert first.done() and lane.hand.running() == []


async def test_a_broken_pool_is_replaced_once_and_the_waiting_decision_runs_there() -> None:
    """Both workers die: both running decisions fail, the pool is started again once, and
    the decision that was waiting runs there (a second restart used to cancel it)."""
    from concurrent.futures.process import BrokenProcessPool

    lane = HandLane("deep", 2)
    broken = lane.hand
    asked = [asyncio.create_task(lane.decide(owner, "hard", seed, STATE))
             for owner, seed in (("a", 1), ("b", 2), ("c", 3))]  # fmt: skip
    await settle()
    assert broken.running() == [1, 2]
    for _, job in broken.jobs:
        job.set_exception(BrokenProcessPool("a worker died"))
    await settle()
    assert lane.hand is not broken and lane.hand.running() == [3]
    assert all(isinstance(task.exception(), BrokenProcessPool) for task in asked[:2])
    lane.hand.finish()
    await settle()
    assert asked[2].result() == core.legal_actions(STATE)[0]


async def test_a_stop_leaves_none_of_the_pools_threads_running() -> None:
    """Real workers: once the computers are closed, no thread of theirs is left to race
    the interpreter's exit (on CPython 3.11 that race printed a traceback on a clean
    SIGTERM stop of the server)."""
    before = set(threading.enumerate())
    computers = Computers()
    await computers.ready()
    assert await computers.decide("ann", "easy", 1, STATE) in core.legal_actions(STATE)
    assert set(threading.enumerate()) - before  # the pools do run threads of their own
    computers.close()
    assert set(threading.enumerate()) - before == set()
