"""A finished game analysed on every core: :func:`analyse` runs :func:`core.analysis.judge`
for each decision in worker processes and reports its progress.

The workers are started with ``spawn``: a fresh interpreter that inherits none of this
process's descriptors (a door session's terminal, a table server's socket, a save's lock),
and each dies with this process (:func:`table.lifeline.die_with`), even after a kill -9.
They run at a lower priority (``os.nice``), so that the game's own screen stays quick,
and ignore Ctrl+C (the terminal sends it to the whole process group: the one that started
them decides, and stops them). Stopping (``stop``) terminates them at once and keeps the
decisions already judged.

Blocking: call it from a thread (the screens do, through a Textual thread worker). On
Linux the workers are killed when the *thread* that started them ends (the parent-death
signal is per thread): :func:`analyse` ends its workers before it returns anyway.

:class:`SessionAnalysis` is the :class:`AnalysisSource` of a game of this machine (a
``saves.Session``; a local game screen builds it from ``LocalSeat.session``): the analysis
kept in the save first, then made and kept there.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import resource_tracker
from multiprocessing.pool import Pool
from typing import TYPE_CHECKING, Final, Protocol

import core
from core.analysis import ANALYSIS_VERSION, Analysis, Judgement, decisions, judge

if TYPE_CHECKING:
    import saves

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
    _quiet_streams()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to act on
    with contextlib.suppress(OSError):
        os.nice(NICE)
    if cards is not None:
        core.use_cards(core.parse_cards(cards))


def _quiet_streams() -> None:
    """Standard input, output and error on /dev/null: a spawned process keeps its
    parent's, which for a game is its terminal (a door's pty), where a worker's word
    would be drawn over the screen and its open descriptor would keep the pty alive."""
    nowhere = os.open(os.devnull, os.O_RDWR)
    for stream in (0, 1, 2):
        os.dup2(nowhere, stream)
    os.close(nowhere)


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
    ``stop`` set ends it at once, with ``complete`` False and what was done kept (a stop
    set before the call starts no process). A worker that dies (killed, out of memory)
    or a judgement that fails raises :class:`AnalysisRefused` holding what was done
    (``partial``).

    The result holds ``seats``' decisions only: ``saves`` merges it with what is kept."""
    states = core.replay(start, actions)
    chosen = tuple(sorted(set(range(start.player_count) if seats is None else seats)))
    wanted = decisions(states, actions, chosen)
    judged: dict[int, Judgement] = {}
    if kept is not None and kept.version == ANALYSIS_VERSION and kept.seed == seed:
        asked = set(wanted)
        judged = {j.index: j for j in kept.decisions if j.index in asked}
    todo = [index for index in wanted if index not in judged]
    began = time.monotonic()

    def tell() -> None:
        if progress is None:
            return
        elapsed = time.monotonic() - began
        fresh = _made(judged, todo)
        left = elapsed / fresh * (len(todo) - fresh) if fresh else None
        progress(Progress(len(judged), len(wanted), elapsed, left))

    def done() -> Analysis:
        kept_ones = tuple(judged[index] for index in sorted(judged))
        return Analysis(
            version=ANALYSIS_VERSION,
            seed=seed,
            seats=chosen,
            decisions=kept_ones,
            complete=len(kept_ones) == len(wanted),
        )

    tell()
    jobs = [(states[index], actions[index], index, seed) for index in todo]
    try:
        for judgement in _run(jobs, cards, workers or workers_default(), stop):
            judged[judgement.index] = judgement
            tell()
    except _WorkerDied as exc:
        raise AnalysisRefused(str(exc), done()) from None
    return done()


def _made(judged: dict[int, Judgement], todo: list[int]) -> int:
    return sum(1 for index in todo if index in judged)


def _run(
    jobs: list[tuple[core.GameState, core.Action, int, int]],
    cards: str | None,
    workers: int,
    stop: threading.Event | None,
) -> Iterator[Judgement]:
    """Each job's judgement as it comes (in any order), until done or ``stop``; raises
    :class:`_WorkerDied` when a worker ended before its job was done (the pool would
    wait for it for ever) or a judgement raised."""
    if not jobs or (stop is not None and stop.is_set()):
        return
    before = set(multiprocessing.active_children())
    pool = start_pool(min(workers, len(jobs)), cards)
    # The pool's workers (a job is lost with one that dies: the pool would wait for ever),
    # found through the public list of this process's children.
    started = [child for child in multiprocessing.active_children() if child not in before]
    try:
        results = pool.imap_unordered(_judge, jobs)
        for _ in jobs:
            while True:
                if stop is not None and stop.is_set():
                    return
                try:
                    judgement = results.next(timeout=POLL)
                except multiprocessing.TimeoutError:
                    if any(worker.exitcode is not None for worker in started):
                        raise _WorkerDied(WORKER_DIED) from None
                    continue
                except Exception as exc:  # raised by judge in a worker: a bug, said
                    raise _WorkerDied(f"{JUDGE_FAILED} ({type(exc).__name__})") from None
                break
            if judgement is not None:
                yield judgement
    finally:
        pool.terminate()
        pool.join()


def start_pool(workers: int, cards: str | None) -> Pool:
    """``workers`` spawned processes ready to judge: fresh interpreters that inherit no
    descriptor of this process, die with it, run at a lower priority, ignore Ctrl+C and
    play with ``cards`` (a cards file's text; None: the built-in deck). The caller
    terminates it."""
    # multiprocessing's resource tracker (started with the first pool) is handed
    # ``sys.stderr.fileno()``: under Textual that is a capture whose number is -1, and the
    # spawn fails ("bad value(s) in fds_to_keep"); and a real terminal would get its
    # warnings drawn over the game. It gets /dev/null instead.
    with open(os.devnull, "w") as nowhere, contextlib.redirect_stderr(nowhere):
        resource_tracker.ensure_running()
    context = multiprocessing.get_context("spawn")
    return context.Pool(workers, initializer=_start_worker, initargs=(os.getpid(), cards))


class AnalysisSource(Protocol):
    """Where a screen gets a finished game's analysis: made here (a game of this machine,
    kept in its save) or at the table server (a shared table's, kept in its store)."""

    @property
    def kept(self) -> Analysis | None:
        """The analysis already kept with the game (shown at once), if any."""

    @property
    def note(self) -> str | None:
        """A sentence to show beside the analysis, or None: why a kept one was left out
        (it did not fit its game), or why a new one could not be kept."""

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
    """The analysis cannot be made: the message is a sentence for the player.
    ``partial`` is what was judged before it failed, if anything was (to keep)."""

    def __init__(self, message: str, partial: Analysis | None = None) -> None:
        super().__init__(message)
        self.partial = partial


class _WorkerDied(Exception):
    """A worker process ended in the middle of the analysis, or its judgement failed."""


WORKER_DIED: Final = (
    "A worker process of the analysis ended before its work was done (killed, or out of "
    "memory?); what was judged is kept."
)
JUDGE_FAILED: Final = "A decision could not be judged; what was judged is kept"
NOT_FINISHED: Final = "a game can be analysed once it is over"


class SessionAnalysis:
    """The :class:`AnalysisSource` of a game of this machine: a ``saves.Session`` (a local
    game screen has it as ``LocalSeat.session``; a replay of a saved game, from
    ``SaveStore.watch``). What is kept comes from the save (checked on load); what is made
    is kept in it, merged with the rest, even when stopped part-way."""

    def __init__(self, session: saves.Session, *, workers: int | None = None) -> None:
        self.session = session
        self.workers = workers
        """Worker processes (None: every core)."""
        self.note: str | None = session.analysis_problem
        """A sentence to show beside the analysis, or None: why the kept one was left out
        (it did not fit the game), or why the new one could not be kept with it."""

    @property
    def kept(self) -> Analysis | None:
        return self.session.analysis

    def run(
        self,
        seats: tuple[int, ...] | None,
        progress: Callable[[Progress], None],
        stop: threading.Event,
    ) -> Analysis:
        """See :meth:`AnalysisSource.run`; returns the whole analysis kept now (every
        player's judged decisions, not only ``seats``'). Refused for a game not over."""
        session = self.session
        if not session.finished:
            raise AnalysisRefused(f"The game is not finished: {NOT_FINISHED}.")
        kept = session.analysis
        states, actions = session.states(), list(session.actions)
        try:
            made = analyse(
                states[0],
                actions,
                seats=seats,
                seed=0 if kept is None else kept.seed,
                kept=kept,
                cards=session.cards,
                workers=self.workers,
                progress=progress,
                stop=stop,
            )
        except AnalysisRefused as exc:
            if exc.partial is not None:
                self._keep(exc.partial)
            raise
        return self._keep(made)

    def _keep(self, made: Analysis) -> Analysis:
        import saves
        from saves.analysis import merged

        session = self.session
        try:
            return session.keep_analysis(made)
        except saves.SaveError as exc:
            self.note = f"The analysis is shown but could not be kept with the game: {exc}"
        return merged(session.analysis, made, session.actions, session.states())
