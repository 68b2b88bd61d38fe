"""The remote seat: a game kept by the table server, played from this terminal.

:class:`RemoteSeat` is the game screen's :class:`table.seat.GameSeat` for one table, and
its :attr:`~RemoteSeat.table` the :class:`table.seat.SharedTable` (chat, the pause,
hand-overs: :mod:`table.client.shared`). The server is the authority: :meth:`RemoteSeat.play`
checks the action with ``core`` on the public position (so a refusal is immediate and in
words), sends it, and the listeners hear it when the server tells the table of it, as an
entry of the table's journal (:mod:`table.client.known` keeps both). Everything shown
comes from the server's frames; the order of the undealt parcels is never known here.

A connection that drops (the server restarted, the network went) is redialled by
:meth:`RemoteSeat.run`, with the status saying "reconnecting…"; once back, the table's
whole history and journal are fetched again, so nothing is lost or doubled, and what was
told while away is in the log as for everyone who stayed. A request the drop left
unanswered is then settled against them (:mod:`table.client.settle`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence

from msgspec.structs import replace

import core
from table import journal, rules
from table import protocol as wire
from table.client.directory import Dial, Keep, Link, TableUnavailable, answer
from table.client.known import KnownTable, OutOfStep
from table.client.settle import Request, Sent, settle
from table.client.shared import ON_ITS_WAY, OUT_OF_REACH, RemoteTable
from table.seat import LegalActions, Listener, Player, SeatError, Update

REDIAL_EVERY = (0.2, 0.5, 1.0, 2.0)
"""Seconds between attempts to reconnect, growing to the last and staying there."""


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
        self.by_watch_link = False
        """Watching as a watch link's session: no chat either (the server refuses it)."""
        self.where = where
        self.known = KnownTable(snapshot)
        self.table = RemoteTable(self)
        self.sent: list[Sent] = []
        """Requests not answered yet, oldest first: at most one that is not chat."""
        self._listeners: list[Listener] = []
        self._legal = LegalActions()
        core.use_cards(core.DEFAULT_CARDS)  # the server plays the built-in deck, whatever ran here

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
        return answer(await link.ask(request), wire.Snapshot)

    # ---------------------------------------------------------------- what it shows

    @property
    def name(self) -> str:
        return f"table {self.known.info.id}"

    @property
    def title(self) -> str:
        return self.known.info.title

    @property
    def state(self) -> core.GameState:
        return self.known.states[-1]

    @property
    def players(self) -> Sequence[Player]:
        return tuple(
            Player(s.name or "(open)", s.colour, s.computer or s.standin, rules.away_words(s))
            for s in self.known.info.seats
        )

    @property
    def status(self) -> str | None:
        """Reconnecting, the table's pause (what it waits for, :func:`table.rules.waits_for`),
        watching, or a request on its way."""
        if self.link is None:
            return "reconnecting…"
        now = time.time()
        if rules.paused_until(self.known.info, now) is not None:
            waits = rules.waits_for(self.known.info, self.state, now) or "paused"
            return f"{waits}: P resumes" if self.table.can_resume() else waits
        if self.watching:
            return "WATCHING"
        return "sending…" if self.busy else None

    @property
    def busy(self) -> bool:
        """Whether a move, undo, hand-over or pause is on its way (one at a time)."""
        return any(not isinstance(sent.request, wire.Say) for sent in self.sent)

    @property
    def unsaved(self) -> int:
        return 1 if self.busy else 0

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
            and seat in self.known.seats_here
            and not self.known.info.seats[seat].standin
        )

    def legal_actions(self) -> tuple[core.Action, ...]:
        return self._legal.of(self.state)

    def history(self) -> tuple[Sequence[core.GameState], Sequence[core.Action]]:
        return list(self.known.states), list(self.known.actions)

    @property
    def elsewhere(self) -> None:
        """The server holds the game: no window of this machine does."""
        return None

    # ---------------------------------------------------------------- playing

    def play(self, action: core.Action) -> None:
        if not self.decides_here(self.state.current_player):
            raise SeatError(self._why_not_here())
        if self.busy:
            raise SeatError(ON_ITS_WAY)
        paused = rules.why_paused(self.known.info, time.time())
        if paused is not None:  # said here, not after the server's refusal
            raise SeatError(rules.sentence(paused))
        core.apply_action(self.state, action)  # raises IllegalActionError, in words
        self.send(wire.Play(0, self.known.info.id, len(self.known.actions), action))

    def _why_not_here(self) -> str:
        if self.link is None:
            return OUT_OF_REACH
        if self.watching:
            return "You are watching this table; only its players act."
        return "It is not your decision: wait for your turn."

    def can_undo(self) -> bool:
        return self.why_no_undo() is None

    def why_no_undo(self) -> str | None:
        """Why this terminal may not take back the table's last action now, in a sentence
        (:func:`table.rules.why_no_undo`, with the journal's stand-ins)."""
        if self.link is None:
            return OUT_OF_REACH
        known = self.known
        here = () if self.watching else sorted(known.seats_here)
        why = rules.why_no_undo(known.info, known.states, known.standins(), here,
                                len(known.actions))  # fmt: skip
        return None if why is None else rules.sentence(why)

    def undo(self) -> None:
        why = self.why_no_undo()
        if why is not None:
            raise SeatError(why)
        if self.busy:
            raise SeatError(ON_ITS_WAY)
        self.send(wire.Undo(0, self.known.info.id, len(self.known.actions)))

    def can_redo(self) -> bool:
        """Never: an undo at a shared table is an event of its journal, not a step back."""
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
            reply = await link.ask(wire.Export(link.new_ref(), self.known.info.id))
            note = keep(name, answer(reply, wire.Exported).save)
        except (OSError, ConnectionError):
            self.tell(Update("status", self.state, problem="The export failed: no server."))
        except (SeatError, TableUnavailable) as exc:
            self.tell(Update("status", self.state, problem=f"The export failed: {exc}"))
        else:
            self.tell(Update("status", self.state, note=note))

    # ---------------------------------------------------------------- requests

    def send(self, request: Request) -> None:
        """Send ``request`` as meant for the table as it stands now; its answer (a Told,
        or an Error) is heard when it comes, or, if the connection drops first,
        :func:`table.client.settle.settle` settles it after the reconnect."""
        link = self.link
        if link is None:
            raise SeatError(OUT_OF_REACH)
        request = replace(request, ref=link.new_ref())
        known = self.known
        sent = Sent(request, link, tuple(known.actions), self.state, known.upto)
        self.sent.append(sent)
        sent.task = asyncio.get_running_loop().create_task(self._await(sent))
        if not isinstance(request, wire.Say):
            self.tell(Update("status", self.state))  # "sending…"

    async def _await(self, sent: Sent) -> None:
        try:
            reply = await sent.link.ask(sent.request)
        except (OSError, ConnectionError):
            # The request waits for the reconnect; closing the dead link makes sure run()
            # hears of the drop and redials, whichever noticed it first.
            with contextlib.suppress(OSError, ConnectionError):
                await sent.link.close()
            return
        if sent not in self.sent:
            return  # settled at a reconnect meanwhile
        self.sent.remove(sent)
        if isinstance(reply, wire.Error):
            said = isinstance(sent.request, wire.Say)
            refusal = f"Not said: {reply.reason}" if said else reply.reason
            self.tell(Update("status", self.state, refusal=refusal))
        else:
            self._receive(reply)

    # ---------------------------------------------------------------- the stream

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def tell(self, update: Update) -> None:
        for listener in self._listeners:
            listener(update)

    def _receive(self, message: wire.ServerMessage) -> None:
        """Apply one message from the server to what this seat shows."""
        match message:
            case wire.Told():
                try:
                    updates = self.known.hear(message)
                except OutOfStep:
                    self._fetch_again()
                    return
                for update in updates:
                    self.tell(update)
            case wire.Snapshot() if message.table.id == self.known.info.id:
                self._take(message)
            case wire.Error():
                self.tell(Update("status", self.state, problem=message.reason))
            case _:
                pass  # another table's, or an answer nobody waits for any more

    def _take(self, snapshot: wire.Snapshot, note: str | None = None) -> None:
        """The table as ``snapshot`` has it; what its journal holds that was not known
        here (told while away) comes with the update, already in the log rebuilt."""
        told_upto = self.known.upto
        self.known = KnownTable(snapshot)
        new = journal.told_lines(self.known.since(told_upto))
        self.tell(Update("rewound", self.state, lines=new, note=note))

    def _fetch_again(self) -> None:
        """What was heard does not follow what is known: drop the connection, so that
        :meth:`run` redials and fetches the whole table again."""
        link = self.link
        if link is not None:
            asyncio.get_running_loop().create_task(_close(link))

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
                self.tell(Update("status", self.state))
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
                info = self.known.info
                snapshot = await self._enter(link, info.id, self.watching, back=False)
            except (OSError, ConnectionError, SeatError, TableUnavailable) as exc:
                await _close(link)  # one connection at a time, never a pile of them
                if isinstance(exc, SeatError) and str(exc) != refused:
                    refused = str(exc)  # the server is back but says no: say why, once
                    self.tell(Update("status", self.state, problem=refused))
                continue
            self.link = link
            self._take(snapshot, note="Reconnected to the table server.")
            settle(self, link)
            return

    def hurry(self) -> None:
        """Computer players move on the server, at its pace."""

    def hold(self, held: bool) -> None:
        """Nothing is played here on its own, so there is nothing to hold."""

    def close(self) -> None:
        link, self.link = self.link, None
        if link is not None:
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().create_task(_leave(link, self.known.info.id))


async def _close(link: Link) -> None:
    with contextlib.suppress(OSError, ConnectionError):
        await link.close()


async def _leave(link: Link, table: int) -> None:
    with contextlib.suppress(OSError, ConnectionError):
        await link.ask(wire.Leave(link.new_ref(), table))
    await _close(link)
