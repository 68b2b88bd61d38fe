"""A table in the server's memory, and the one sequence of its changes.

Every change to a table (a player sits or watches, plays, undoes, chats, pauses, hands a
seat over; a computer moves; the game is rated) runs as one step under the room's lock:

    check (the rules of :mod:`table.server.rules`, on the table as it is now)
    → commit (durable in the store, through the writer)
    → change memory
    → tell (the sender's answer, then everyone at the table)

No other change to the same table can come between those steps, so two requests on one
table (an undo racing the next player's move, two players taking the last seat) are
decided one after the other, and nobody is told of a change, in an update or in a
snapshot, before it is on disk. Tables do not wait for each other: each room has its own
lock, and the writer groups the commits of all tables.

A lock per room rather than a task draining a queue per room: the change is then an
ordinary ``async with`` in the request's own task, its refusal is an exception that goes
straight back to the sender, and an idle table costs no task.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

import core
from table import protocol as wire
from table.server import rules
from table.server.rules import Refusal
from table.store import (
    Append,
    Change,
    Chat,
    Paused,
    Resumed,
    SeatRow,
    SitDown,
    StandIn,
    TableRow,
    Truncate,
)


class Listener(Protocol):
    """A connection hearing a table."""

    player: str

    def send(self, message: wire.ServerMessage) -> bool:
        """Queue ``message``; False if the connection is gone (it is then forgotten)."""
        ...


Commit = Callable[[Change], Awaitable[None]]
Clock = Callable[[], float]
Rate = Callable[["Room"], Awaitable[None]]


class Room:
    """One table: its stored row, its real positions, who hears it (see the module
    docstring). ``commit`` makes a change durable; ``clock`` is the time (Unix seconds)."""

    def __init__(
        self, row: TableRow, commit: Commit, clock: Clock = time.time, rate: Rate | None = None
    ) -> None:
        self.row = row
        self.commit = commit
        self.clock = clock
        self.rate = rate
        """Puts a finished game into the ladder (its own turn in the sequence)."""
        self.lock = asyncio.Lock()
        self.states: list[core.GameState] = []
        self.listeners: dict[Listener, tuple[int, ...]] = {}
        """Everyone hearing the table, with the seats each decides for (empty: watching)."""
        self.away_since: dict[int, float] = {}
        self.said: dict[str, list[float]] = {}
        """When each player's recent chat lines were said (the rate limit)."""
        self.damaged = row.damaged
        """Why the table cannot go on (None: it can); a damaged table is read-only."""
        self.stopping = False
        """The server is stopping: no change begins any more."""
        missing = len(row.actions) - len(row.standins)
        row.standins[len(row.actions) :] = [None] * max(0, missing)  # one for each action
        if self.started:
            self._start()

    # ---------------------------------------------------------------- what it is

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def owner(self) -> str:
        """Whose table it is: its creator (the first player, in an older store)."""
        return self.row.creator or next((s.name for s in self.row.seats if s.name), "?")

    @property
    def started(self) -> bool:
        return bool(self.row.seats) and all(s.kind != "open" for s in self.row.seats)

    @property
    def state(self) -> core.GameState | None:
        return self.states[-1] if self.states else None

    @property
    def over(self) -> bool:
        return self.state is not None and core.is_over(self.state)

    def _start(self) -> None:
        """The real game, once every seat is filled (replaying the stored actions as far
        as they replay: a table whose stored actions do not is damaged)."""
        seats = self.row.seats
        names = self.row.names()
        try:
            self.states = [core.new_game(len(seats), self.row.seed, names,
                                         [s.colour for s in seats])]  # fmt: skip
        except (ValueError, core.IllegalActionError) as exc:
            self.damaged = self.damaged or f"its game cannot be set up: {exc}"
            return
        for number, action in enumerate(self.row.actions, 1):
            try:
                self.states.append(core.apply_action(self.states[-1], action))
            except core.IllegalActionError as exc:
                self.damaged = self.damaged or f"action {number} is not legal: {exc.reason or exc}"
                del self.row.actions[number - 1 :]  # shown and exported as far as it replays
                del self.row.standins[number - 1 :]
                return

    def present(self) -> set[int]:
        return {seat for seats in self.listeners.values() for seat in seats}

    def info(self) -> wire.TableInfo:
        """The table's line in the lobby."""
        now, state, present = self.clock(), self.state, self.present()
        names = self.row.names()
        seats = tuple(
            wire.SeatInfo(
                s.colour,
                names[i] if s.kind != "open" else None,
                s.level if s.kind == "computer" else None,
                s.kind == "computer" or i in present,
                None if i in present else self.away_since.get(i),
                s.standin,
            )
            for i, s in enumerate(self.row.seats)
        )
        status: wire.TableStatus
        if self.damaged is not None:
            status = "damaged"
        elif state is None:
            status = "waiting"
        else:
            status = "over" if core.is_over(state) else "playing"
        until = rules.paused_until(self.row, now)
        return wire.TableInfo(
            self.id, self.row.title, seats, status,
            state.current_player if state is not None else None,
            state.season if state is not None else 0,
            self.row.created, self.row.updated, len(self.row.actions), self.row.pace,
            self.row.wait, until, self.row.paused_by if until else None, self.damaged,
            self._paused_this_season(state),
        )  # fmt: skip

    def _paused_this_season(self, state: core.GameState | None) -> tuple[str, ...]:
        """Who has taken their pause of the season under way (the lobby's lines: none)."""
        if state is None or self.row.pace != "live":
            return ()
        return tuple(sorted(name for name, season in self.row.pauses if season == state.season))

    def snapshot(self, ref: int, listener: Listener, note: str | None = None) -> wire.Snapshot:
        """The public history, for a table that has started."""
        start = core.public_start(self.states[0], self.states[-1])
        chat = tuple(_chat_line(c) for c in self.row.chat[-wire.CHAT_KEPT :])
        actions = tuple(self.row.actions)
        seats_here = self.listeners.get(listener, ())
        standins = tuple(self.row.standins) if any(self.row.standins) else ()
        return wire.Snapshot(ref, self.info(), start, actions, seats_here, note, chat, standins)

    def tell(self, message: wire.ServerMessage, skip: Listener | None = None) -> None:
        """``message`` to everyone hearing the table but ``skip``."""
        for listener in list(self.listeners):
            if listener is not skip and not listener.send(message):
                self._drop(listener)

    def _answer(
        self, listener: Listener, answer: wire.ServerMessage, told: wire.ServerMessage
    ) -> None:
        """``answer`` to the sender, ``told`` to everyone else."""
        listener.send(answer)
        self.tell(told, skip=listener)

    def _writable(self) -> None:
        if self.damaged is not None:
            raise Refusal(f"this table is damaged ({self.damaged}): it can only be exported")

    async def _commit(self, change: Change) -> None:
        if self.stopping:
            raise Refusal("the table server is stopping: nothing changed")
        try:
            await self.commit(change)
        except Exception as exc:
            raise Refusal(f"the server could not store that ({exc}); nothing changed") from None

    # ---------------------------------------------------------------- coming and going

    async def enter(
        self, listener: Listener, ref: int, watch: bool, seat: int | None, back: bool = True
    ) -> None:
        """Sit at the table (taking an open seat if the player has none) or watch it;
        ``back``: the player comes back, so a seat a computer plays for them is theirs
        again (not when their terminal only reconnects by itself)."""
        async with self.lock:
            mine = rules.seats_of(self.row, listener.player)
            if not watch and not mine:
                self._writable()
                await self._sit_down(listener.player, rules.open_seat(self.row, seat))
                mine = rules.seats_of(self.row, listener.player)
            if not self.started:
                open_seats = sum(1 for s in self.row.seats if s.kind == "open")
                if watch:
                    raise Refusal(f"the game has not started: {open_seats} seats are still open")
                self.tell(wire.Seats(self.info()))
                raise Refusal(
                    f"the game starts once no seat is open ({open_seats} still open: the "
                    "first who joins takes one); it will be listed as yours"
                )
            if not self.states:
                raise Refusal(f"this table is damaged ({self.damaged}): it can only be exported")
            seats = () if watch else mine
            note = None
            handed = [s for s in seats if self.row.seats[s].standin]
            if handed and back and self.damaged is None:  # theirs at their next decision
                await self._stand_in(handed, None)
                note = f"{listener.player} is back and plays their own seat again."
            self.listeners[listener] = seats
            for seat_here in seats:
                self.away_since.pop(seat_here, None)
            self._answer(
                listener, self.snapshot(ref, listener, note), wire.Seats(self.info(), note)
            )

    async def _sit_down(self, player: str, seat: int) -> None:
        await self._commit(SitDown(self.id, seat, player))
        colour = self.row.seats[seat].colour
        self.row.seats[seat] = SeatRow("player", player, None, colour)
        if self.started:
            self._start()

    def leave(self, listener: Listener) -> None:
        """``listener`` no longer hears the table (its player's seats are away from now).
        Nothing is stored, so it needs no turn in the sequence."""
        if self._drop(listener):
            self.tell(wire.Seats(self.info()))

    def _drop(self, listener: Listener) -> tuple[int, ...]:
        """Forget ``listener``; its seats nobody else decides for are away from now.
        Returns its seats (the caller tells the table, if it can)."""
        seats = self.listeners.pop(listener, ())
        still, now = self.present(), self.clock()
        for seat in seats:
            if seat not in still:
                self.away_since[seat] = now
        return seats

    # ---------------------------------------------------------------- the game

    async def play(self, listener: Listener, ref: int, seq: int, action: core.Action) -> None:
        async with self.lock:
            self._writable()
            rules.check_play(self.row, self.state, self.listeners.get(listener), self.clock())
            await self._apply(seq, action, listener, ref)

    async def computer_moved(self, seat: int, seq: int, action: core.Action) -> bool:
        """A computer's decision for ``seat`` at the position after ``seq`` actions, if
        that is still where the table is and the computer still plays the seat."""
        async with self.lock:
            state = self.state
            if (self.damaged is not None or state is None or state.current_player != seat
                    or not rules.played_by_computer(self.row, seat)
                    or rules.paused_until(self.row, self.clock())):  # fmt: skip
                return False
            seat_row = self.row.seats[seat]
            standin = seat_row.standin if seat_row.kind == "player" else None
            await self._apply(seq, action, None, 0, standin)
            return True

    async def _apply(
        self,
        seq: int,
        action: core.Action,
        listener: Listener | None,
        ref: int,
        standin: core.Level | None = None,
    ) -> None:
        """Check, commit, change, tell: the one way an action enters a game (``standin``:
        made by a computer standing in for the seat's player)."""
        state = self.state
        assert state is not None
        rules.check_seq(self.row, seq)
        try:
            after, events = core.apply_action_with_events(state, action)
        except core.IllegalActionError as exc:
            raise Refusal(exc.reason or str(exc)) from None
        await self._commit(Append(self.id, seq, action, standin))
        self.row.actions.append(action)
        self.row.standins.append(standin)
        self.states.append(after)
        self.row.updated = self.clock()
        public = core.public_view(after)
        played = wire.Played(0, self.id, seq, action, tuple(events), public, standin)
        if listener is not None:
            listener.send(wire.Played(ref, self.id, seq, action, played.events, public, standin))
        self.tell(played, skip=listener)
        if core.is_over(after) and self.rate is not None:
            await self.rate(self)

    async def finish(self) -> None:
        """Rate a game that ended before its result was stored (the server stopped between
        its last action and the rating): in its own turn, like any change."""
        async with self.lock:
            if self.over and self.rate is not None and self.damaged is None:
                await self.rate(self)

    async def undo(self, listener: Listener, ref: int, seq: int) -> None:
        async with self.lock:
            self._writable()
            why = rules.why_no_undo(self.row, self.states, self.listeners.get(listener, ()), seq)
            if why:
                raise Refusal(why)
            last = len(self.row.actions) - 1
            await self._commit(Truncate(self.id, last))
            del self.row.actions[last:], self.row.standins[last:], self.states[last + 1 :]
            note = f"{listener.player} took back their last action."
            listener.send(self.snapshot(ref, listener, note))
            for other in list(self.listeners):
                if other is not listener and not other.send(self.snapshot(0, other, note)):
                    self._drop(other)

    # ---------------------------------------------------------------- life at the table

    async def say(self, listener: Listener, ref: int, text: str) -> None:
        async with self.lock:
            self._writable()
            if listener not in self.listeners:
                raise Refusal("join or watch the table to talk there")
            now = self.clock()
            said = self.said.setdefault(listener.player, [])
            text = rules.chat_text(text, said, now)
            spectator = not self.listeners[listener]
            line = Chat(self.id, now, listener.player, text, spectator, len(self.row.actions))
            await self._commit(line)
            said.append(now)
            self.row.chat.append(line)
            told = wire.Said(self.id, _chat_line(line))
            self._answer(listener, wire.Said(self.id, told.line, ref), told)

    async def pause(self, listener: Listener, ref: int, minutes: int) -> float:
        """Pause a live table for everyone; returns when the pause ends."""
        async with self.lock:
            self._writable()
            if not self.listeners.get(listener):
                raise Refusal("only a player of the table can pause it")
            season = rules.check_pause(self.row, self.state, listener.player, self.clock())
            until = self.clock() + 60 * minutes
            await self._commit(Paused(self.id, listener.player, season, until))
            self.row.pauses.add((listener.player, season))
            self.row.paused_until, self.row.paused_by = until, listener.player
            at = time.strftime("%H:%M", time.localtime(until))
            self._noted(listener, ref, f"{listener.player} paused the table until {at}.")
            return until

    async def resume(self, listener: Listener, ref: int) -> None:
        """End the player's own pause now, for everyone (the computers may play again)."""
        async with self.lock:
            self._writable()
            if not self.listeners.get(listener):
                raise Refusal("only a player of the table can resume it")
            rules.check_resume(self.row, listener.player, self.clock())
            await self._commit(Resumed(self.id, listener.player))
            self.row.paused_until = self.row.paused_by = None
            self._noted(listener, ref, f"{listener.player} ended their pause: play on.")

    async def hand_over(
        self, listener: Listener, ref: int, level: core.Level | None, seat: int | None
    ) -> None:
        """Hand the player's seats to a computer of ``level``, or take them back; at a live
        table, an absent player's ``seat``."""
        async with self.lock:
            self._writable()
            mine = self.listeners.get(listener, ())
            if not mine:
                raise Refusal("only a player of the table can hand over their seat")
            if seat is not None and seat not in mine:
                absent = rules.absent_seat(
                    self.row, seat, level, self.present(), self.away_since, self.clock()
                )
                await self._stand_in([absent], level)
                name = self.row.seats[absent].name
                self._noted(listener, ref,
                    f"{listener.player} handed {name}'s seat to a computer ({level}) while "
                    f"{name} is away; it is theirs again when they come back.")  # fmt: skip
                return
            await self._stand_in(mine, level)
            if level:
                note = (f"{listener.player}'s seat is played by a computer ({level}) until "
                        "they take it back.")  # fmt: skip
            else:
                note = f"{listener.player} plays their own seat again."
            self._noted(listener, ref, note)

    async def _stand_in(self, seats: list[int] | tuple[int, ...], level: core.Level | None) -> None:
        for seat in seats:
            if self.row.seats[seat].standin != level:
                await self._commit(StandIn(self.id, seat, level))
                self.row.seats[seat].standin = level

    def _noted(self, listener: Listener, ref: int, note: str) -> None:
        """Seats changed, said in ``note``: the answer to the sender and the news to all."""
        self._answer(listener, wire.Seats(self.info(), note, ref), wire.Seats(self.info(), note))

    # ---------------------------------------------------------------- computers

    def computer_due(self) -> tuple[int, core.Level, int] | None:
        """(seat, level, seq) if a computer is to decide now, at the position after
        ``seq`` actions."""
        state = self.state
        if (self.damaged is not None or state is None or state.current_player is None
                or rules.paused_until(self.row, self.clock())):  # fmt: skip
            return None
        seat = state.current_player
        level = rules.played_by_computer(self.row, seat)
        if level is None:
            return None
        return seat, level, len(self.row.actions)

    def export(self) -> bytes:
        """The game as an ordinary save (a damaged table: as far as it replays)."""
        from table.server.export import export_save

        if not self.states:
            raise Refusal("the game has not started yet")
        return export_save(self.row, self.states)


def _chat_line(line: Chat) -> wire.ChatLine:
    return wire.ChatLine(line.at, line.name, line.text, line.spectator, line.seq)
