"""A finished game analysed on every core: :func:`analyse` runs :func:`core.analysis.judge`
for each decision in worker processes and reports its progress.

The workers are started with ``spawn``: a fresh interpreter that inherits none of this
process's descriptors (a door session's terminal, a table server's socket, a save's lock),
and each dies with this process (:func:`table.lifeline.die_with`), even after a kill -9.
They run at a lower priority (``os.nice``), so that the game's own screen stays quick.
Stopping (``stop``) terminates them at once and keeps the decisions already judged.

Blocking: call it from a thread (the screens do, through a Textual thread worker).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

import core
from core.analysis import ANALYSIS_VERSION, Analysis, Judgement, decisions, judge

NICE: Final = 5
"""How much lower the workers' priority is than the process that starts them."""
POLL: Final = 0.1
"""Seconds between two looks at ``stop`` while waiting for a judgement."""


@dataclass(frozen=True, slots=True)
class Progress:
    """How far an analysis is: decisions judged of all, seconds spent and left (None
    until a first judgement gives a pace)."""

    done: int
    total: int
    elapsed: float
    left: float | None


def _start_worker(parent: int, cards: str | None) -> None:
    from table.lifeline import die_with

    die_with(parent)
    with contextlib.suppress(OSError):
        os.nice(NICE)
    if cards is not None:
        core.use_cards(core.parse_cards(cards))


def _judge(job: tuple[core.GameState, core.Action, int, int]) -> Judgement | None:
    state, action, index, seed = job
    return judge(state, action, index, seed=seed)


def workers_default() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def analyse(
    start: core.GameState,
    actions: Sequence[core.Action],
    *,
    seats: Sequence[int] | None = None,
    seed: int = 0,
    kept: Analysis | None = None,
    cards: str | None = None,
    workers: int | None = None,
    progress: Callable[[Progress], None] | None = None,
    stop: threading.Event | None = None,
) -> Analysis:
    """The analysis of the game ``start`` then ``actions`` for ``seats`` (everyone by
    default): ``kept``'s judgements of this version are reused, the others made with
    ``workers`` processes (every core by default). ``cards`` is the game's cards file when
    not the built-in deck. ``progress`` is called (in this thread) after each judgement;
    ``stop`` set ends it at once, with ``complete`` False and what was done kept."""
    states = core.replay(start, actions)
    chosen = tuple(sorted(set(range(start.player_count) if seats is None else seats)))
    wanted = decisions(states, actions, chosen)
    judged: dict[int, Judgement] = {}
    if kept is not None and kept.version == ANALYSIS_VERSION and kept.seed == seed:
        judged = {j.index: j for j in kept.decisions if j.index in set(wanted)}
    todo = [index for index in wanted if index not in judged]
    began = time.monotonic()

    def tell() -> None:
        if progress is None:
            return
        elapsed = time.monotonic() - began
        fresh = _made(judged, todo)
        left = elapsed / fresh * (len(todo) - fresh) if fresh else None
        progress(Progress(len(judged), len(wanted), elapsed, left))

    tell()
    jobs = [(states[index], actions[index], index, seed) for index in todo]
    for judgement in _run(jobs, cards, workers or workers_default(), stop):
        judged[judgement.index] = judgement
        tell()
    kept_ones = tuple(judged[index] for index in sorted(judged))
    return Analysis(
        version=ANALYSIS_VERSION,
        seed=seed,
        seats=chosen,
        decisions=kept_ones,
        complete=len(kept_ones) == len(wanted),
    )


def _made(judged: dict[int, Judgement], todo: list[int]) -> int:
    return sum(1 for index in todo if index in judged)


def _run(
    jobs: list[tuple[core.GameState, core.Action, int, int]],
    cards: str | None,
    workers: int,
    stop: threading.Event | None,
) -> Iterator[Judgement]:
    """Each job's judgement as it comes (in any order), until done or ``stop``."""
    if not jobs:
        return
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(
        min(workers, len(jobs)), initializer=_start_worker, initargs=(os.getpid(), cards)
    )
    try:
        results = pool.imap_unordered(_judge, jobs)
        for _ in jobs:
            while True:
                if stop is not None and stop.is_set():
                    return
                try:
                    judgement = results.next(timeout=POLL)
                except multiprocessing.TimeoutError:
                    continue
                break
            if judgement is not None:
                yield judgement
    finally:
        pool.terminate()
        pool.join()


class AnalysisSource(Protocol):
    """Where a screen gets a finished game's analysis: made here (a game of this machine,
    kept in its save) or at the table server (a shared table's, kept in its store)."""

    @property
    def kept(self) -> Analysis | None:
        """The analysis already kept with the game (shown at once), if any."""

    def run(
        self,
        seats: tuple[int, ...] | None,
        progress: Callable[[Progress], None],
        stop: threading.Event,
    ) -> Analysis:
        """Analyse (reusing what is kept), blocking: call it from a thread; ``progress``
        is called from that thread. Returns once complete, or at once when ``stop`` is
        set (``complete`` False, what was done kept). Raises :class:`AnalysisRefused`
        with a sentence for the player when it cannot be done."""
        ...


class AnalysisRefused(Exception):
    """The analysis cannot be made: the message is a sentence for the player."""
