"""A table's actor: the one sequence of its changes, and everything that follows each.

Every change to a table (a player sits or watches, comes or goes, plays, undoes, chats,
pauses, hands a seat over; a computer moves; a pause runs out; the game is rated) runs as
one turn of the table (:meth:`Actor._turn`, under the table's lock; the requests players
make are :mod:`table.server.room`'s, each such a turn):

    what time has done meanwhile (a pause that ran out is told over)
    → check (:mod:`table.rules`, shared with the clients, on the view ``info()``, and the
      server's own :mod:`table.server.rules`, on the table as it is now)
    → commit (the change and its journal entries, durable in one transaction)
    → change memory
    → tell (one :class:`table.protocol.Told`: the sender's with its ``ref``, everyone
      else's with ref 0)
    → follow-ups (:meth:`Actor._follow_up`: the pause's timer, the rating of a game just
      over, the computer whose turn it is)

No other change to the same table can come between those steps, so two requests on one
table (an undo racing the next player's move, two players taking the last seat) are
decided one after the other, and nobody is told of a change, in a Told or in a snapshot,
before it is on disk. Every change runs the same follow-ups, so a new request cannot
forget one. Tables do not wait for each other: each room has its own lock, and the
writer groups the commits of all tables.

A lock per room rather than a task draining a queue per room: the change is then an
ordinary ``async with`` in the request's own task, its refusal is an exception that goes
straight back to the sender, and an idle table costs no task (its pause's timer and its
computer's decision are tasks only while they run).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

import core
from table import journal
from table import protocol as wire
from table import rules as shared
from table.ladder import Rating
from table.server import rules
from table.server.log import log, log_once
from table.server.rules import Refusal
from table.server.view import Clock, Listener, Table
from table.store import Append, Change, Finished, Resumed, TableRow, TurnBegan
from table.store.changes import Noted

Commit = Callable[[Sequence[Change]], Awaitable[None]]
Keep = Callable[[Mapping[str, Rating]], Awaitable[None]]
Rate = Callable[[Sequence[str], core.GameState, Keep], Awaitable[None]]
"""Puts a finished game into the ladder: ``rate(names, final, keep)`` computes the new
ratings of the names the seats are rated under and hands them to ``keep``, which stores
them (and the game's end) or raises, leaving the ladder as it was."""
Decide = Callable[[str, core.Level, int, core.GameState], Awaitable[core.Action]]
"""A computer's decision: ``decide(owner, level, seed, public position)``."""

PAUSE_MARGIN = 0.05
"""Seconds after a pause's end its timer fires (so that the end has passed by every
clock that judges it)."""


class Actor(Table):
    """One table's turns and what follows them (see the module docstring): the requests
    players make are :class:`table.server.room.Room`'s. ``commit`` makes changes durable
    (all of them, or none); ``rate`` puts a finished game into the ladder; ``decide``
    asks a computer player (None: no computer ever moves here); ``minute`` is how long a
    minute of a pause lasts, in seconds (tests only make it shorter)."""

    def __init__(
        self,
        row: TableRow,
        commit: Commit,
        clock: Clock = time.time,
        rate: Rate | None = None,
        decide: Decide | None = None,
        minute: float = 60.0,
    ) -> None:
        super().__init__(row, clock)
        self.commit = commit
        self.rate = rate
        self.decide = decide
        self.minute = minute
        """Seconds in a minute of a pause (tests only make it shorter)."""
        self.lock = asyncio.Lock()
        self.stopping = False
        """The server is stopping: no change begins any more."""
        self.thinking: asyncio.Task[None] | None = None
        """The computer's decision under way (one at a time a table)."""
        self._pause_timer: asyncio.TimerHandle | None = None
        self._timed: float | None = None
        """The pause end the timer is set for."""
        self._tasks: set[asyncio.Task[Any]] = set()

    # ---------------------------------------------------------------- the turn

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """One turn of the table: what time has done first, then the change (the block),
        then what follows it (not after a refusal: nothing changed)."""
        async with self.lock:
            await self._catch_up()
            yield
            await self._follow_up()

    async def wake(self) -> None:
        """A turn with no change of its own: what is due now is done (a pause that ran
        out is told over, a game over but not rated is rated, a computer whose turn it is
        starts deciding). The server's start calls it for every table; the pause's
        timer calls it at the pause's end."""
        async with self._turn():
            pass

    def stop(self) -> list[asyncio.Task[Any]]:
        """No change begins any more (the server is stopping); returns what still runs
        (a change under way ends by itself: cancelled between its commit and its memory,
        the two would disagree)."""
        self.stopping = True
        if self._pause_timer is not None:
            self._pause_timer.cancel()
        return list(self._tasks)

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _writable(self) -> None:
        if self.damaged is not None:
            raise Refusal(f"this table is damaged ({self.damaged}): it can only be exported")

    async def _store(self, changes: Sequence[Change], entries: Sequence[journal.Any]) -> int:
        """Commit ``changes`` and ``entries`` (appended to the journal) in one transaction,
        and add the entries to the journal in memory; returns the first one's number.
        Nothing at all: nothing is committed."""
        n = len(self.row.journal)
        if changes or entries:
            if self.stopping:
                raise Refusal("the table server is stopping: nothing changed")
            noted = [Noted(self.id, n + i, entry) for i, entry in enumerate(entries)]
            try:
                await self.commit([*changes, *noted])
            except Exception as exc:
                raise Refusal(f"the server could not store that ({exc}); nothing changed") from None
            self.row.journal.extend(entries)
        return n

    def _tell(
        self,
        n: int,
        entries: Sequence[journal.Any],
        answer: tuple[Listener, int] | None = None,
        state: core.GameState | None = None,
        events: Sequence[core.Event] = (),
        skip: Listener | None = None,
    ) -> None:
        """The change as one Told: to ``answer``'s listener with its request's ref, to
        everyone else hearing the table but ``skip`` with ref 0 (not at all when the
        change added nothing to the journal and only answers a request)."""
        told = wire.Told(0, self.info(), n, tuple(entries), state, tuple(events))
        asker = None
        if answer is not None:
            asker, ref = answer
            if not asker.send(replace(told, ref=ref)):
                self.leave(asker)
            if not entries:
                return
        for listener in list(self.listeners):
            if listener is not asker and listener is not skip and not listener.send(told):
                self.leave(listener)

    # ---------------------------------------------------------------- leaving

    def leave(self, listener: Listener) -> None:
        """``listener`` no longer hears the table; its player's seats nobody else decides
        for are away from now, which the journal tells in the table's next turn."""
        seats = self.listeners.pop(listener, ())
        still, now = self.present(), self.clock()
        gone = [seat for seat in seats if seat not in still]
        for seat in gone:
            self.away_since[seat] = now
        if gone and not self.stopping:
            self._spawn(self._gone_away(gone, now))

    async def _gone_away(self, seats: Sequence[int], at: float) -> None:
        """Tell the seats' players away (an :class:`journal.Away` each), if they still
        are and were not told so already (a terminal that redialled at once is never told
        gone); at a table whose game is over (or damaged), only the table's view."""
        try:
            async with self._turn():
                present = self.present()
                away = [s for s in seats if s not in present and s not in self.told_away]
                if not away:
                    return
                entries: list[journal.Any] = []
                if self.damaged is None and not self.over:  # else only the view changes
                    names, seq = self.names, len(self.row.actions)
                    entries = [journal.Away(at, seq, seat, names[seat]) for seat in away]
                n = await self._store((), entries)
                self.told_away.update(away if entries else ())
                self._tell(n, entries)
        except Refusal as exc:
            if not self.stopping:
                log(f"table {self.id}: a player's leaving was not told: {exc}")

    # ---------------------------------------------------------------- moves

    async def computer_moved(self, seat: int, seq: int, action: core.Action) -> bool:
        """A computer's decision for ``seat`` at the position after ``seq`` actions, if
        that is still where the table is and the computer still plays the seat."""
        async with self._turn():
            if self.computer_due() != (seat, rules.played_by_computer(self.row, seat), seq):
                return False
            seat_row = self.row.seats[seat]
            standin = seat_row.standin if seat_row.kind == "player" else None
            await self._move(seq, action, None, standin)
            return True

    async def _move(
        self,
        seq: int,
        action: core.Action,
        answer: tuple[Listener, int] | None,
        standin: core.Level | None = None,
    ) -> None:
        """The one way an action enters a game (``standin``: made by a computer standing
        in for the seat's player): an :class:`Append` and its :class:`journal.Move`."""
        state = self.state
        assert state is not None and state.current_player is not None
        rules.check_seq(self.row, seq)
        try:
            after, events = core.apply_action_with_events(state, action)
        except core.IllegalActionError as exc:
            raise Refusal(exc.reason or str(exc)) from None
        now = self.clock()
        move = journal.Move(now, seq, state.current_player, action, standin)
        changes = [Append(self.id, seq, action, standin), *self._turn_began(after, seq + 1, now)]
        n = await self._store(changes, [move])
        self.row.actions.append(action)
        self.row.standins.append(standin)
        self.states.append(after)
        self.row.updated = now
        self._tell(n, [move], answer, core.public_view(after), events)

    def _turn_began(self, after: core.GameState, seq: int, now: float) -> list[Change]:
        """A :class:`TurnBegan` if the position after ``seq`` actions is a person's turn
        (not a computer's, nor a stand-in's): committed with the move, it queues the
        player's notices far from the terminal (:mod:`table.store.notices`)."""
        seat = after.current_player
        if seat is None:
            return []
        seat_row = self.row.seats[seat]
        if seat_row.kind != "player" or seat_row.name is None or seat_row.standin is not None:
            return []
        return [TurnBegan(self.id, seq, seat_row.name, now)]

    # ---------------------------------------------------------------- what follows

    async def _catch_up(self) -> None:
        """What time has done since the last turn: a pause that ran out is told over
        (when it was due), before anything else happens at the table."""
        until, by = self.row.paused_until, self.row.paused_by
        if until is None or until > self.clock() or self.damaged is not None or self.stopping:
            return
        entry = journal.PauseEnd(until, len(self.row.actions), by or "?", early=False)
        try:
            n = await self._store([Resumed(self.id, by or "")], [entry])
        except Refusal as exc:
            log_once(f"pause {self.id}", f"table {self.id}: the pause's end was not told: {exc}")
            return
        self.row.paused_until = self.row.paused_by = None
        self._tell(n, [entry])

    async def _follow_up(self) -> None:
        """After every turn, what follows: the pause's timer, the rating of a game just
        over, the computer whose turn it is."""
        if self.damaged is not None or self.stopping:
            return
        self._time_the_pause()
        if self.over and self.row.finished is None and self.rate is not None:
            await self._rate()
        self._call_the_computer()

    def _time_the_pause(self) -> None:
        until = self.row.paused_until
        if self._pause_timer is not None and until == self._timed:
            return
        if self._pause_timer is not None:
            self._pause_timer.cancel()
            self._pause_timer = None
        self._timed = until
        if until is not None:
            delay = max(0.0, until - self.clock()) + PAUSE_MARGIN
            self._pause_timer = asyncio.get_running_loop().call_later(delay, self._pause_due)

    def _pause_due(self) -> None:
        self._pause_timer = None
        if not self.stopping:
            self._spawn(self.wake())

    async def _rate(self) -> None:
        """Put the finished game into the ladder with its :class:`journal.End`, in this
        turn; a result that cannot be stored is rated at the next start instead."""
        assert self.rate is not None
        names = rules.rated_names(self.row, self.states)

        async def keep(ratings: Mapping[str, Rating]) -> None:
            now = self.clock()
            players = tuple(ratings[name] for name in dict.fromkeys(names))
            rated = tuple(journal.Rated(name, ratings[name].mu, ratings[name].games)
                          for name in names)  # fmt: skip
            end = journal.End(now, len(self.row.actions), rated)
            n = await self._store([Finished(self.id, now, players)], [end])
            self.row.finished = now
            self._tell(n, [end])

        try:
            await self.rate(names, self.states[-1], keep)
        except Exception as exc:
            log(f"table {self.id}: the result could not be stored: {exc}")
        else:
            log(f"table {self.id} is over")

    def computer_due(self) -> tuple[int, core.Level, int] | None:
        """(seat, level, seq) if a computer is to decide now, at the position after
        ``seq`` actions."""
        state = self.state
        if self.damaged is not None or state is None or state.current_player is None:
            return None
        if self.row.paused_until is not None and shared.paused_until(self.info(), self.clock()):
            return None
        seat = state.current_player
        level = rules.played_by_computer(self.row, seat)
        if level is None:
            return None
        return seat, level, len(self.row.actions)

    def _call_the_computer(self) -> None:
        """Start the computer's decision if one is due (one at a time a table)."""
        if self.decide is None or self.thinking is not None or self.stopping:
            return
        due = self.computer_due()
        if due is not None:
            self.thinking = self._spawn(self._think(*due))

    async def _think(self, seat: int, level: core.Level, seq: int) -> None:
        assert self.decide is not None and self.state is not None
        try:
            public = core.public_view(self.state)  # the position after seq actions
            seed = self.row.seed * 8 + seat + seq
            action = await self.decide(self.owner, level, seed, public)
            await self.computer_moved(seat, seq, action)
        except Refusal as exc:
            log(f"table {self.id}: the computer's move was refused: {exc}")
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # this turn itself is cancelled (the server stops)
            log(f"table {self.id}: the computer's decision was lost (its worker stopped)")
        except Exception as exc:
            log(f"table {self.id}: the computer failed: {exc!r}")
        finally:
            self.thinking = None
        self._call_the_computer()  # the next computer, or this one again at the new position
