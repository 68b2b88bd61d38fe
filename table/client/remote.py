"""The remote seat: a game kept by the table server, played from this terminal.

:class:`TableDirectory` is the lobby's view of one server (its tables, creating one,
sitting or watching); :class:`RemoteSeat` is the game screen's :class:`table.seat.GameSeat`
for one table. The server is the authority: :meth:`RemoteSeat.play` checks the action with
``core`` on the public position (so a refusal is immediate and in words), sends it, and
the listeners hear it when the server acknowledges it as durable. Everything shown comes
from the server's frames; the order of the undealt parcels is never known here.

A connection that drops (the server restarted, the network went) is redialled by
:meth:`RemoteSeat.run`, with the status saying "reconnecting…"; once back, the table's
whole history is fetched again, so nothing is lost or doubled. A request the drop left
unanswered (a move, an undo, a hand-over, a pause, a line of chat) is then settled against
that history: done if the server kept it before the drop, sent again if the table still
stands where it was made, otherwise not made, and the player is told so in words.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from msgspec.structs import replace

import core
from core.explain import describe_action
from table import protocol as wire
from table.seat import LegalActions, Listener, Player, SeatError, Update

REDIAL_EVERY = (0.2, 0.5, 1.0, 2.0)
"""Seconds between attempts to reconnect, growing to the last and staying there."""


class TableUnavailable(Exception):
    """The server cannot be reached or refused the request; ``str`` is one sentence."""


class Link(Protocol):
    """One connection to the server, after the hello (the client of ``table.client``)."""

    @property
    def player(self) -> str:
        """The name the server granted this connection."""
        ...

    async def ask(self, message: wire.ClientMessage) -> wire.ServerMessage:
        """Send a request (its ``ref`` filled in) and return the server's answer to it."""
        ...

    async def unasked(self) -> wire.ServerMessage:
        """The next message the server sent unasked; raises ``ConnectionError`` once the
        connection is gone."""
        ...

    def new_ref(self) -> int: ...

    async def close(self) -> None: ...


Dial = Callable[[], Awaitable[Link]]
"""Opens a new connection (raises ``OSError`` or ``ConnectionError`` if it cannot)."""

Keep = Callable[[str, bytes], str]
"""Stores an exported game's save-file bytes under a name; returns the sentence to show,
raises :class:`SeatError` saying why not."""

DIAL_TIMEOUT = 2.0
"""Seconds to reach the server before playing on this machine instead."""

CLOCK_SLACK = 2.0
"""Seconds by which the server's time of a chat line may precede its sending here (both
read this machine's clock, the server at a later moment)."""

Request = wire.Play | wire.Undo | wire.HandOver | wire.Pause | wire.Resume | wire.Say
"""What the seat asks of its table and hears the answer to later."""


@dataclass(frozen=True)
class ServerAddress:
    """Where the table server listens, and who this terminal's player claims to be (None:
    the login name; a shared game account names its players, see ``--trust-account``); in
    a door's session, the ticket the door gave it, sent on every dial (it is a secret:
    never in a repr)."""

    socket: Path
    player: str | None = None
    ticket: str | None = field(default=None, repr=False)

    async def dial(self) -> Link:
        from table.client.connection import connect

        connecting = connect(self.socket, self.player, self.ticket)
        return await asyncio.wait_for(connecting, DIAL_TIMEOUT)

    async def directory(self, keep: Keep | None = None) -> TableDirectory:
        """The server's lobby (its games exported through ``keep``); raises
        :class:`TableUnavailable` saying why not."""
        from table.client.connection import Refused

        try:
            link = await self.dial()
        except Refused as exc:  # before OSError, its base: the server said no
            raise TableUnavailable(f"The table server refused this terminal: {exc}") from None
        except (OSError, TimeoutError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "no answer"
            raise TableUnavailable(f"No table server at {self.socket} ({reason}).") from None
        return TableDirectory(link, self.dial, str(self.socket), keep)


_Reply = TypeVar("_Reply")


def _answer(reply: wire.ServerMessage, expected: type[_Reply]) -> _Reply:
    if isinstance(reply, wire.Error):
        raise SeatError(reply.reason)
    if not isinstance(reply, expected):
        raise TableUnavailable(f"The server answered oddly ({type(reply).__name__}).")
    return reply


class TableDirectory:
    """The lobby's side of one server: its tables, and doors to them."""

    def __init__(self, link: Link, dial: Dial, where: str, keep: Keep | None = None) -> None:
        self.link = link
        self.dial = dial
        self.keep = keep
        self.where = where
        """The socket, for messages."""

    @property
    def player(self) -> str:
        return self.link.player

    async def _ask(self, message: wire.ClientMessage) -> wire.ServerMessage:
        try:
            return await self.link.ask(message)
        except (OSError, ConnectionError):
            pass
        try:  # once more on a fresh connection: the server may have restarted
            self.link = await self.dial()
            return await self.link.ask(message)
        except (OSError, ConnectionError):
            raise TableUnavailable(f"The table server at {self.where} does not answer.") from None

    async def tables(self) -> tuple[wire.TableInfo, ...]:
        reply = await self._ask(wire.ListTables(self.link.new_ref()))
        return _answer(reply, wire.Lobby).tables

    async def create(
        self,
        seats: Sequence[wire.SeatSpec],
        title: str = "",
        pace: wire.Pace = "days",
        wait: float = 300,
    ) -> wire.TableInfo:
        """Create a table; returns how it stands (playing at once, or waiting for players
        to take its open seats)."""
        request = wire.CreateTable(self.link.new_ref(), tuple(seats), title, pace, wait)
        reply = await self._ask(request)
        (table,) = _answer(reply, wire.Lobby).tables
        return table

    async def ladder(self) -> tuple[wire.Standing, ...]:
        """The server's ladder, best first."""
        return _answer(await self._ask(wire.Ladder(self.link.new_ref())), wire.Standings).rows

    async def sit(self, table: int) -> RemoteSeat:
        """Sit at ``table`` (your seat, or a free one) on a connection of its own."""
        return await RemoteSeat.open(
            self.dial, table, watch=False, where=self.where, keep=self.keep
        )

    async def watch(self, table: int) -> RemoteSeat:
        return await RemoteSeat.open(self.dial, table, watch=True, where=self.where, keep=self.keep)

    async def close(self) -> None:
        with contextlib.suppress(OSError, ConnectionError):
            await self.link.close()


def away_words(seat: wire.SeatInfo) -> str | None:
    if seat.present or seat.computer or seat.name is None:
        return None
    if seat.away_since is None:
        return "not here yet"
    return "away since " + time.strftime("%H:%M", time.localtime(seat.away_since))


@dataclass(eq=False)
class _Sent:
    """A request on its way, with what it means: the table's history and position when
    it was made (to settle it if the connection drops before its answer)."""

    request: Request
    link: Link
    history: tuple[core.Action, ...]
    before: core.GameState
    at: float
    """When it was sent (``time.time()``)."""
    task: asyncio.Task[None] | None = None


class RemoteSeat:
    """A :class:`table.seat.GameSeat` over a table of the server."""

    def __init__(
        self,
        link: Link,
        dial: Dial,
        snapshot: wire.Snapshot,
        *,
        watch: bool,
        where: str,
        keep: Keep | None = None,
    ) -> None:
        """``keep(name, data)`` stores an exported game (save-file bytes) on this machine
        and returns what to tell the player; without it, nothing can be exported here."""
        self.keep = keep
        self.link: Link | None = link
        self.dial = dial
        self.watching = watch
        self.where = where
        self._listeners: list[Listener] = []
        self._sent: list[_Sent] = []
        """Requests not answered yet, oldest first: at most one that is not chat."""
        self._legal = LegalActions()
        core.use_cards(core.DEFAULT_CARDS)  # the server plays the built-in deck, whatever ran here
        self._take(snapshot)

    @classmethod
    async def open(
        cls, dial: Dial, table: int, *, watch: bool, where: str, keep: Keep | None = None
    ) -> RemoteSeat:
        try:
            link = await dial()
            snapshot = await cls._enter(link, table, watch)
        except (OSError, ConnectionError):
            raise TableUnavailable(f"The table server at {where} does not answer.") from None
        return cls(link, dial, snapshot, watch=watch, where=where, keep=keep)

    @staticmethod
    async def _enter(link: Link, table: int, watch: bool, back: bool = True) -> wire.Snapshot:
        """Sit at or watch ``table`` (``back`` False: reconnecting by itself)."""
        ref = link.new_ref()
        request = wire.Watch(ref, table) if watch else wire.Join(ref, table, back=back)
        return _answer(await link.ask(request), wire.Snapshot)

    def _take(self, snapshot: wire.Snapshot) -> None:
        self.chat: list[wire.ChatLine] = list(snapshot.chat)
        self.info = snapshot.table
        self.seats_here = frozenset(snapshot.seats_here)
        self.actions = list(snapshot.actions)
        self.states = core.replay(snapshot.start, snapshot.actions)
        self.standins: list[core.Level | None] = list(snapshot.standins) or [None] * len(
            self.actions
        )

    # ---------------------------------------------------------------- what it shows

    @property
    def name(self) -> str:
        return f"table {self.info.id}"

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def state(self) -> core.GameState:
        return self.states[-1]

    @property
    def players(self) -> Sequence[Player]:
        return tuple(
            Player(s.name or "(open)", s.colour, s.computer or s.standin, away_words(s))
            for s in self.info.seats
        )

    @property
    def status(self) -> str | None:
        if self.link is None:
            return "reconnecting…"
        until = self._paused_until()
        if until is not None:
            at = time.strftime("%H:%M", time.localtime(until))
            if self.can_resume():
                return f"PAUSED until {at} (P resumes)"
            return f"PAUSED until {at} ({self.info.paused_by})"
        if self.watching:
            return "WATCHING"
        return "sending…" if self._busy else None

    @property
    def _busy(self) -> bool:
        """Whether a move, undo, hand-over or pause is on its way (one at a time)."""
        return any(not isinstance(sent.request, wire.Say) for sent in self._sent)

    @property
    def unsaved(self) -> int:
        return 1 if self._busy else 0

    @property
    def saved_note(self) -> str:
        return f"The game is kept by the table server ({self.name}); come back to it any time."

    def flush(self) -> None:
        """Nothing to do: an action is either acknowledged (durable) or was never played."""

    def decides_here(self, seat: int | None) -> bool:
        return (
            seat is not None
            and not self.watching
            and self.link is not None
            and seat in self.seats_here
            and not self.info.seats[seat].standin
        )

    def legal_actions(self) -> tuple[core.Action, ...]:
        return self._legal.of(self.state)

    def history(self) -> tuple[Sequence[core.GameState], Sequence[core.Action]]:
        return list(self.states), list(self.actions)

    # ---------------------------------------------------------------- playing

    def play(self, action: core.Action) -> None:
        if not self.decides_here(self.state.current_player):
            raise SeatError(self._why_not_here())
        if self._busy:
            raise SeatError("Your last action is still on its way to the server.")
        if self._paused_until() is not None:  # said here, not after the server's refusal
            raise SeatError(self._paused_words())
        core.apply_action(self.state, action)  # raises IllegalActionError, in words
        self._send(wire.Play(0, self.info.id, len(self.actions), action))

    def _why_not_here(self) -> str:
        if self.link is None:
            return "The table server is out of reach: reconnecting…"
        if self.watching:
            return "You are watching this table; only its players act."
        return "It is not your decision: wait for your turn."

    def _send(self, request: Request) -> None:
        """Send ``request`` as meant for the table as it stands now; its answer (Played,
        Snapshot, Seats, Said or Error) is told when it comes, or, if the connection drops
        first, :meth:`_settle` settles it after the reconnect."""
        link = self.link
        assert link is not None  # decides_here, can_undo… checked it
        request = replace(request, ref=link.new_ref())
        sent = _Sent(request, link, tuple(self.actions), self.state, time.time())
        self._sent.append(sent)
        sent.task = asyncio.get_running_loop().create_task(self._await(sent))
        if not isinstance(request, wire.Say):
            self._tell_status()  # "sending…"

    async def _await(self, sent: _Sent) -> None:
        try:
            reply = await sent.link.ask(sent.request)
        except (OSError, ConnectionError):
            # The request waits for the reconnect; closing the dead link makes sure run()
            # hears of the drop and redials, whichever noticed it first.
            with contextlib.suppress(OSError, ConnectionError):
                await sent.link.close()
            return
        if sent not in self._sent:
            return  # settled at a reconnect meanwhile
        self._sent.remove(sent)
        if isinstance(reply, wire.Error):
            said = isinstance(sent.request, wire.Say)
            problem = f"Not said: {reply.reason}" if said else reply.reason
            self._tell(Update("status", self.state, problem=problem))
        else:
            self._receive(reply)

    def can_undo(self) -> bool:
        """Your own last action, while nobody has acted since and no parcels were dealt;
        never one a computer standing in for you made, nor the game's last (the server's
        rule, ``why_no_undo``: it has the last word and says why not)."""
        if self.watching or self.link is None or not self.actions:
            return False
        before, after = self.states[-2], self.states[-1]
        if core.is_over(after) or any(self.standins[-1:]):
            return False
        return before.current_player in self.seats_here and before.season == after.season

    def undo(self) -> None:
        if not self.can_undo():
            raise SeatError(
                "At a shared table you may take back only your own last action, before the "
                "next player acts or new parcels are dealt."
            )
        if self._busy:
            raise SeatError("Your last action is still on its way to the server.")
        self._send(wire.Undo(0, self.info.id, len(self.actions)))

    def can_redo(self) -> bool:
        return False

    def redo(self) -> None:
        raise SeatError("There is no redo at a shared table.")

    def save_as(self, name: str) -> str:
        """Export the table's game to a save ``name`` on this machine (it replays there
        and can be resumed alone); the outcome comes as a status update."""
        if self.keep is None or self.link is None:
            raise SeatError("The game cannot be exported from here now.")
        link, keep = self.link, self.keep
        asyncio.get_running_loop().create_task(self._export(link, keep, name))
        return f"Exporting the game to a save named {name!r}…"

    async def _export(self, link: Link, keep: Keep, name: str) -> None:
        try:
            answer = await link.ask(wire.Export(link.new_ref(), self.info.id))
            note = keep(name, _answer(answer, wire.Exported).save)
        except (OSError, ConnectionError):
            self._tell(Update("status", self.state, problem="The export failed: no server."))
        except (SeatError, TableUnavailable) as exc:
            self._tell(Update("status", self.state, problem=f"The export failed: {exc}"))
        else:
            self._tell(Update("status", self.state, note=note))

    def can_take_over(self) -> bool:
        return False

    @property
    def handed_to(self) -> str | None:
        """The level of the computer playing this terminal's seat, None if nobody does."""
        return next((self.info.seats[s].standin for s in sorted(self.seats_here)), None)

    def can_say(self) -> bool:
        return self.link is not None

    def say(self, text: str) -> None:
        if self.link is None:
            raise SeatError("The table server is out of reach: reconnecting…")
        self._send(wire.Say(0, self.info.id, text[: wire.MAX_CHAT]))

    def can_hand_over(self) -> bool:
        over = core.is_over(self.state)  # nothing left to decide
        return not self.watching and self.link is not None and bool(self.seats_here) and not over

    def hand_over(self, level: core.Level | None, seat: int | None = None) -> None:
        """Let a computer of ``level`` play this terminal's seat (None: take it back), or
        at a live table the seat of a player away longer than the wait; the table is told,
        and the log says so."""
        if not self.can_hand_over():
            raise SeatError("Only a player of the table can hand over a seat.")
        if self._busy:
            raise SeatError("Your last request is still on its way to the server.")
        self._send(wire.HandOver(0, self.info.id, level, seat))

    def absent_seats(self) -> list[tuple[int, str]]:
        """At a live table, the seats (and names) of players away longer than its wait,
        which a present player may hand to a computer."""
        if self.info.pace != "live" or self.watching:
            return []
        now = time.time()
        return [
            (i, s.name)
            for i, s in enumerate(self.info.seats)
            if s.name and not s.present and not s.computer and not s.standin
            and s.away_since is not None and now - s.away_since >= self.info.wait
            and i not in self.seats_here
        ]  # fmt: skip

    def can_pause(self) -> bool:
        return (
            self.info.pace == "live"
            and bool(self.seats_here)
            and self.link is not None
            and not core.is_over(self.state)
        )

    def why_no_pause(self) -> str | None:
        """Why the server would refuse a pause now, told from the table as last heard:
        a live game in progress, a player of it, once per player per season, never while
        a pause runs. The server has the last word."""
        if self.link is None:
            return "The table server is out of reach: reconnecting…"
        if self.info.pace != "live":
            return "This table waits for everyone: only a live table is paused."
        if not self.seats_here:
            return "Only a player of the table can pause it."
        if core.is_over(self.state):
            return "The game is over: there is nothing to pause."
        if self._paused_until() is not None:
            return self._paused_words()
        if self.link.player in self.info.paused_this_season:
            return "You have paused this table once this season already."
        if self._busy:
            return "Your last request is still on its way to the server."
        return None

    def pause(self, minutes: int) -> None:
        """Pause the live table for everyone (once per player per season; the server
        says when not)."""
        why = self.why_no_pause()
        if why is not None:
            raise SeatError(why)
        self._send(wire.Pause(0, self.info.id, minutes))

    def can_resume(self) -> bool:
        return (
            self.link is not None
            and bool(self.seats_here)
            and self.info.paused_by == self.link.player
            and self._paused_until() is not None
        )

    def resume(self) -> None:
        """End this player's pause now; the table is told (the log says so)."""
        if not self.can_resume():
            raise SeatError("Only the player who paused the table can resume it, while paused.")
        if self._busy:
            raise SeatError("Your last request is still on its way to the server.")
        self._send(wire.Resume(0, self.info.id))

    def _paused_until(self) -> float | None:
        """When the pause under way ends (None: the table is not paused)."""
        until = self.info.paused_until
        return until if until is not None and until > time.time() else None

    def _paused_words(self) -> str:
        """The pause under way, in a sentence (what the server would answer, and how it
        ends sooner)."""
        at = time.strftime("%H:%M", time.localtime(self._paused_until() or time.time()))
        if self.can_resume():
            return f"You paused the table until {at}: P resumes it now."
        return f"The table is paused until {at} ({self.info.paused_by}): wait for it."

    def take_over(self) -> None:
        raise SeatError("A shared table cannot be taken over.")

    # ---------------------------------------------------------------- the stream

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _tell(self, update: Update) -> None:
        for listener in self._listeners:
            listener(update)

    def _tell_status(self) -> None:
        self._tell(Update("status", self.state))

    def _receive(self, message: wire.ServerMessage) -> None:
        """Apply one message from the server to what this seat shows."""
        if isinstance(message, wire.Played):
            if message.table != self.info.id or message.seq != len(self.actions):
                return  # already known (an answer and a broadcast of one action) or stale
            before = self.state
            self.actions.append(message.action)
            self.standins.append(message.standin)
            self.states.append(message.state)
            self._tell(Update("played", message.state, before, message.action, message.events,
                              standin=message.standin))  # fmt: skip
        elif isinstance(message, wire.Snapshot):
            if message.table.id == self.info.id:
                self._take(message)
                self._tell(Update("rewound", self.state, note=message.note))
        elif isinstance(message, wire.Said):
            if message.table == self.info.id:
                self.chat.append(message.line)
                self._tell(Update("status", self.state, chat=message.line))
        elif isinstance(message, wire.Seats):
            if message.table.id == self.info.id:
                self.info = message.table
                self._tell(Update("status", self.state, note=message.note))
        elif isinstance(message, wire.Error):
            self._tell(Update("status", self.state, problem=message.reason))

    async def run(self) -> None:
        """Hear the table until cancelled; redial when the connection drops."""
        while True:
            link = self.link
            if link is None:
                await self._redial()
                continue
            try:
                message = await link.unasked()
            except (OSError, ConnectionError):
                self.link = None
                self._tell_status()
                continue
            self._receive(message)

    async def _redial(self) -> None:
        refused = None
        for attempt in range(10**9):
            await asyncio.sleep(REDIAL_EVERY[min(attempt, len(REDIAL_EVERY) - 1)])
            try:
                link = await self.dial()
            except (OSError, ConnectionError, TableUnavailable):
                continue
            try:
                snapshot = await self._enter(link, self.info.id, self.watching, back=False)
            except (OSError, ConnectionError, SeatError, TableUnavailable) as exc:
                with contextlib.suppress(OSError, ConnectionError):
                    await link.close()  # one connection at a time, never a pile of them
                if isinstance(exc, SeatError) and str(exc) != refused:
                    refused = str(exc)  # the server is back but says no: say why, once
                    self._tell(Update("status", self.state, problem=refused))
                continue
            self.link = link
            self._take(snapshot)
            self._tell(Update("rewound", self.state, note="Reconnected to the table server."))
            self._settle(link)
            return

    # ---------------------------------------------------------------- after a drop

    def _settle(self, link: Link) -> None:
        """Settle, oldest first, the requests the drop left unanswered, against the history
        just fetched: one the server kept before the drop counts as done (never twice);
        one made at the table's present position (the same history) and still allowed
        there is sent again on ``link``; any other is not made, and the player is told."""
        for sent in [s for s in self._sent if s.link is not link]:
            self._sent.remove(sent)
            if sent.task is not None:
                sent.task.cancel()  # an answer the dead connection will never bring
            if self._was_kept(sent, link.player):
                note = "Your move was played." if isinstance(sent.request, wire.Play) else None
                self._tell(Update("status", self.state, note=note))
            elif tuple(self.actions) == sent.history and self._may_send(sent.request):
                self._send(sent.request)
            else:
                self._tell(Update("status", self.state, problem=self._not_made(sent)))

    def _was_kept(self, sent: _Sent, player: str) -> bool:
        """Whether the table as fetched again shows ``sent`` done by the server."""
        request, seq, info = sent.request, len(sent.history), self.info
        if isinstance(request, wire.Play):  # its seq taken, by this very action
            return self.actions[: seq + 1] == [*sent.history, request.action]
        if isinstance(request, wire.Undo):  # the action it took back is gone
            return tuple(self.actions[:seq]) != sent.history
        if isinstance(request, wire.HandOver):
            seats = sorted(self.seats_here) if request.seat is None else [request.seat]
            return bool(seats) and all(info.seats[s].standin == request.level for s in seats)
        if isinstance(request, wire.Pause):
            return info.paused_by == player and (info.paused_until or 0.0) > sent.at
        if isinstance(request, wire.Resume):  # no pause of theirs runs any more
            return info.paused_by != player or self._paused_until() is None
        text = request.text.strip()
        return any(
            line.name == player and line.text == text and line.at >= sent.at - CLOCK_SLACK
            for line in self.chat
        )

    def _may_send(self, request: Request) -> bool:
        """Whether ``request`` is still allowed at the present position."""
        if isinstance(request, wire.Play):
            legal = request.action in self.legal_actions()
            return legal and self.decides_here(self.state.current_player)
        if isinstance(request, wire.Undo):
            return self.can_undo()
        if isinstance(request, wire.HandOver):
            return self.can_hand_over()
        if isinstance(request, wire.Pause):
            return self.why_no_pause() is None
        if isinstance(request, wire.Resume):
            return self.can_resume()
        return self.can_say()

    def _not_made(self, sent: _Sent) -> str:
        """Why ``sent`` was not made after the reconnect, and what it was, in words."""
        request = sent.request
        if isinstance(request, wire.Play):
            what = f"your move was not played ({describe_action(sent.before, request.action)})"
        elif isinstance(request, wire.Undo):
            what = "your last action was not taken back"
        elif isinstance(request, wire.HandOver):
            handed = "handed to the computer" if request.level else "taken back from the computer"
            what = f"your seat was not {handed}"
        elif isinstance(request, wire.Pause):
            what = "the table was not paused"
        elif isinstance(request, wire.Resume):
            what = "the table was not resumed"
        else:
            what = f"your line was not said ({request.text.strip()})"
        if tuple(self.actions) != sent.history:
            return f"The table moved on while you were disconnected: {what}."
        return f"After the reconnect this is no longer allowed: {what}."

    def hurry(self) -> None:
        """Computer players move on the server, at its pace."""

    def hold(self, held: bool) -> None:
        """Nothing is played here on its own, so there is nothing to hold."""

    def close(self) -> None:
        link, self.link = self.link, None
        if link is not None:
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().create_task(_leave(link, self.info.id))


async def _leave(link: Link, table: int) -> None:
    with contextlib.suppress(OSError, ConnectionError):
        await link.ask(wire.Leave(link.new_ref(), table))
    with contextlib.suppress(OSError, ConnectionError):
        await link.close()
