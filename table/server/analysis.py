"""A finished table's analysis, made by the server: a client only asks for it and follows
it, so no client can forge a value, and every player and watcher sees the same one.

Each decision is :func:`core.analysis.judge` run on the table's real position (judge sees
it through ``core.public_view`` itself, and the worker is sent that view only) in the
computers' ``analysis`` lane (:mod:`table.server.computers`: lower priority, one worker
fewer than the cores). The seed is the table's id, so the same table is always judged the
same. Judgements already kept (the same :data:`core.analysis.ANALYSIS_VERSION` and seed)
are never made again.

A table has one analysis under way at a time (a :class:`Job`), which everyone who asks
follows: each follower is told how far it is for the seats they asked (an
:class:`table.protocol.Analysing` as each decision is judged) and gets its
:class:`table.protocol.Analysed` when those are all judged. A follower who stops, or whose
connection goes, stops following; once nobody follows, the job stops, and what was judged
is kept. What is judged is kept in the store (:class:`table.store.Analysed`, replacing the
table's kept analysis) every :data:`KEEP_EVERY` judgements and at the end, through the
writer's commits like every change, and with the table in memory (``row.analysis``) at
once: its export carries it, and a second look is answered from it without a job.

Who may: anyone who may replay the table (every player of the server may watch or export
any table; a watch link's session only its own, :func:`table.server.routing.only_watching`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import core
from core.analysis import ANALYSIS_VERSION, Analysis, Judgement, decisions
from table import protocol as wire
from table.server.log import log, log_once
from table.server.rules import Refusal
from table.server.view import Listener, Table
from table.store import Analysed, Change

KEEP_EVERY: Final = 10
"""Judgements between two writes of an analysis under way (and one at its end)."""
PER_PLAYER: Final = 2
"""Tables one player may have analysed at once (one analysis a table, whoever asked)."""

Judge = Callable[[str, core.GameState, core.Action, int, int], asyncio.Future[Judgement | None]]
"""``judge(owner, public position, action, index, seed)``: a judgement in a worker, in
``owner``'s turn (:meth:`table.server.computers.Computers.judge`); cancel to give it up."""
Commit = Callable[[Sequence[Change]], Awaitable[None]]


@dataclass(eq=False)
class _Follower:
    player: str
    seats: tuple[int, ...]
    wanted: tuple[int, ...]
    """The indexes of the decisions of ``seats``."""


@dataclass(eq=False)
class Job:
    """The analysis under way at one table (see the module docstring)."""

    table: Table
    owner: str
    """Whose turn in the lane the judgements take: the first who asked."""
    judged: dict[int, Judgement]
    seats: set[int]
    """Every seat asked for, now and in the kept analysis."""
    pending: dict[int, asyncio.Future[Judgement | None]] = field(default_factory=dict)
    failed: set[int] = field(default_factory=set)
    """Decisions whose judgement failed (a worker died): left out, the analysis incomplete."""
    followers: dict[Listener, _Follower] = field(default_factory=dict)
    began: float = field(default_factory=time.monotonic)
    fresh: int = 0
    """Judgements made by this job (the pace of what is left)."""


class Analyses:
    """Every table's analysis under way, and who follows each (see the module docstring).
    ``judge`` None: this server makes none (a kept one is still given)."""

    def __init__(self, judge: Judge | None, commit: Commit) -> None:
        self.judge = judge
        self.commit = commit
        self.jobs: dict[int, Job] = {}
        self.asked: dict[tuple[Listener, int], tuple[int, ...]] = {}
        """The seats each connection last asked for at each table (what its stop answers)."""
        self._tasks: set[asyncio.Task[Any]] = set()

    # ---------------------------------------------------------------- requests

    def analyse(self, table: Table, listener: Listener, message: wire.Analyse) -> None:
        """Answer an :class:`table.protocol.Analyse` (a :class:`Refusal` refuses it)."""
        ref, states, actions = message.ref, table.states, table.row.actions
        if not table.over:
            if not table.started or not states:
                raise Refusal("that game has not started: there is nothing to analyse yet")
            raise Refusal(
                "a table being played cannot be analysed: it can be once the game is over"
            )
        if message.kept:
            holds = bool(kept_judgements(table)) or table.row.analysis is None
            self._send(listener, ref, table, table.row.analysis if holds else None)
            return
        players = states[0].player_count
        seats = (
            tuple(range(players)) if message.seats is None else tuple(sorted(set(message.seats)))
        )
        if seats[-1] >= players:
            raise Refusal(f"table {table.id} has {players} seats: there is no seat {seats[-1] + 1}")
        wanted = tuple(decisions(states, actions, seats))
        job = self.jobs.get(table.id)
        judged = job.judged if job is not None else kept_judgements(table)
        self.asked[(listener, table.id)] = seats
        if all(index in judged for index in wanted):
            self._send(listener, ref, table, _analysis(table, seats, wanted, judged))
            return
        if self.judge is None:
            raise Refusal("this table server does not analyse games")
        if job is None:
            if self._following(listener.player) >= PER_PLAYER:
                raise Refusal(
                    f"{PER_PLAYER} games are being analysed for you already: "
                    "wait for one, or stop it"
                )
            seats_kept = table.row.analysis.seats if table.row.analysis is not None else ()
            job = Job(table, listener.player, dict(judged), set(seats_kept))
            self.jobs[table.id] = job
        job.seats.update(seats)
        follower = _Follower(listener.player, seats, wanted)
        job.followers[listener] = follower
        listener.send(self._progress(job, follower, ref))
        for index in wanted:
            if index not in job.judged and index not in job.pending:
                self._submit(job, index)

    def _following(self, player: str) -> int:
        """The tables whose analysis ``player`` follows now."""
        return sum(
            1 for job in self.jobs.values()
            if any(f.player == player for f in job.followers.values())
        )  # fmt: skip

    def stop(self, table: Table, listener: Listener, ref: int) -> None:
        """Answer a :class:`table.protocol.StopAnalysing`: the listener follows the
        table's analysis no more (the job stops once nobody does), and is answered with
        what is judged of the seats it asked for."""
        seats = self.asked.get((listener, table.id))
        if seats is None:
            raise Refusal(f"nothing of table {table.id} is being analysed for you")
        job = self.jobs.get(table.id)
        judged = job.judged if job is not None else kept_judgements(table)
        if job is not None:
            self._unfollow(job, listener)
        wanted = decisions(table.states, table.row.actions, seats)
        self._send(listener, ref, table, _analysis(table, seats, wanted, judged))

    def gone(self, listener: Listener) -> None:
        """``listener``'s connection ended: it follows nothing (an analysis it alone
        followed stops, keeping what is done)."""
        for key in [key for key in self.asked if key[0] is listener]:
            del self.asked[key]
        for job in list(self.jobs.values()):
            self._unfollow(job, listener)

    def _unfollow(self, job: Job, listener: Listener) -> None:
        """``listener`` follows ``job`` no more; nobody does: it stops."""
        if listener in job.followers:
            del job.followers[listener]
            if not job.followers:
                self._end(job)

    def stop_all(self) -> list[asyncio.Task[Any]]:
        """The server stops: every analysis stops, keeping what is done; returns the
        writes still under way."""
        for job in list(self.jobs.values()):
            self._end(job)
        return list(self._tasks)

    # ---------------------------------------------------------------- the job

    def _submit(self, job: Job, index: int) -> None:
        assert self.judge is not None
        table = job.table
        public = core.public_view(table.states[index])
        future = self.judge(job.owner, public, table.row.actions[index], index, table.id)
        job.pending[index] = future
        future.add_done_callback(lambda done: self._heard(job, index, done))

    def _heard(self, job: Job, index: int, done: asyncio.Future[Judgement | None]) -> None:
        """A judgement came (or failed): its followers hear how far it is, or the end."""
        if job.pending.get(index) is not done or done.cancelled():
            return  # given up (the job stopped)
        del job.pending[index]
        error = done.exception()
        judgement = done.result() if error is None else None
        if judgement is None:
            job.failed.add(index)
            log_once("judgement", f"table {job.table.id}: a judgement failed: {error!r}")
        else:
            job.judged[index] = judgement
            job.fresh += 1
        for listener, follower in list(job.followers.items()):
            if index not in follower.wanted:
                continue
            if all(i in job.judged or i in job.failed for i in follower.wanted):
                del job.followers[listener]
                seats, wanted = follower.seats, follower.wanted
                self._send(listener, 0, job.table, _analysis(job.table, seats, wanted, job.judged))
            elif not listener.send(self._progress(job, follower, 0)):
                del job.followers[listener]
        if not job.pending or not job.followers:
            self._end(job)
        elif job.fresh % KEEP_EVERY == 0:
            self._keep(job)

    def _end(self, job: Job) -> None:
        """The job stops: what is still waiting is given up, what is judged kept."""
        for future in job.pending.values():
            future.cancel()
        job.pending.clear()
        if self.jobs.get(job.table.id) is job:
            del self.jobs[job.table.id]
        if job.fresh:
            self._keep(job)
        log(f"table {job.table.id}: {len(job.judged)} decisions judged, kept")

    def _keep(self, job: Job) -> None:
        """What the job has judged, kept with the table: in memory at once (a look at it
        meanwhile is answered from there), then in the store."""
        table = job.table
        seats = tuple(sorted(job.seats))
        wanted = decisions(table.states, table.row.actions, seats)
        table.row.analysis = kept = _analysis(table, seats, wanted, job.judged, every=True)
        task = asyncio.get_running_loop().create_task(self._write(table.id, kept))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _write(self, table: int, analysis: Analysis) -> None:
        try:
            await self.commit([Analysed(table, analysis)])
        except Exception as exc:
            log(f"table {table}: its analysis could not be stored: {exc}")

    def _progress(self, job: Job, follower: _Follower, ref: int) -> wire.Analysing:
        done = sum(1 for index in follower.wanted if index in job.judged)
        total = len(follower.wanted)
        pace = (time.monotonic() - job.began) / job.fresh if job.fresh else None
        left = None if pace is None else round(pace * (total - done), 1)
        return wire.Analysing(ref, job.table.id, done, total, left)

    def _send(self, listener: Listener, ref: int, table: Table, analysis: Analysis | None) -> None:
        """An :class:`table.protocol.Analysed`, unless it is too long to send (a refusal
        in words then)."""
        message = wire.Analysed(ref, table.id, analysis)
        if len(wire.frame(message)) > wire.MAX_FRAME:
            listener.send(wire.Error(ref, "the analysis is too long to send", table.id))
            return
        listener.send(message)


def kept_judgements(table: Table) -> dict[int, Judgement]:
    """The judgements kept with ``table`` that hold now (this version, this seed: the
    table's id), by index."""
    kept = table.row.analysis
    if kept is None or kept.version != ANALYSIS_VERSION or kept.seed != table.id:
        return {}
    actions = len(table.row.actions)
    return {j.index: j for j in kept.decisions if j.index < actions}


def _analysis(
    table: Table,
    seats: tuple[int, ...],
    wanted: Sequence[int],
    judged: dict[int, Judgement],
    every: bool = False,
) -> Analysis:
    """The analysis of ``seats`` (whose decisions are ``wanted``) from ``judged``; with
    ``every``, every judgement (what the table keeps), else those of ``seats`` only."""
    made = sorted(judged) if every else [index for index in wanted if index in judged]
    return Analysis(
        version=ANALYSIS_VERSION,
        seed=table.id,
        seats=seats,
        decisions=tuple(judged[index] for index in made),
        complete=all(index in judged for index in wanted),
    )
