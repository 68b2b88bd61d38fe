"""The table server: one authority for the games several terminals share.

``mykerinos serve`` (or ``python -m table.server``) listens on a Unix socket (see
:mod:`table.address`) and keeps its tables in a :class:`table.store.TableStore`. Every
action a client sends is checked with ``core`` on the real position, committed to the
store, and only then acknowledged to its sender and sent to everyone at the table; clients
only ever see public positions (:mod:`table.public`). Computer seats decide in a worker
process, on the public position, so a long search never holds up the event loop.

Identity is the login behind the socket (``SO_PEERCRED``). A login named with
``--trust-account`` (a shared game account whose ``authorized_keys`` pins ``--player``)
may name its player; any other login plays as itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import pwd
import secrets
import signal
import socket
import struct
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from msgspec.structs import replace

import core
from table import ladder
from table import protocol as wire
from core.public import public_start
from table.store import (
    Append,
    Change,
    Chat,
    Finished,
    Paused,
    SeatRow,
    SitDown,
    StandIn,
    StoreError,
    TableRow,
    TableStore,
    Truncate,
)

HELLO_WITHIN = 30.0
"""Seconds a new connection has to say hello."""
SEND_LIMIT = 1024 * 1024
"""Bytes waiting to be sent to one client before it counts as not reading: it is dropped."""
CHAT_LINES = 5
CHAT_WINDOW = 10.0
"""A player may say at most CHAT_LINES lines in CHAT_WINDOW seconds at one table."""
MAX_TABLES_LISTED = 500
"""Tables in one lobby answer (the most recent)."""


def log(words: str) -> None:
    """One line per connection and table event, on stderr."""
    print(time.strftime("%H:%M:%S ") + words, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- computer players


def decide(level: str, seed: int, state: core.GameState) -> core.Action:
    """A computer's action on a public position (runs in the worker process)."""
    from core.ai import make_bot

    return make_bot(level, seed=seed).choose(state)


# ---------------------------------------------------------------- one connection


@dataclass(eq=False)
class Client:
    """One connection after its hello."""

    player: str
    writer: asyncio.StreamWriter
    tables: set[int] = field(default_factory=set)

    def send(self, message: wire.ServerMessage) -> bool:
        """Queue ``message``; a client whose backlog is over :data:`SEND_LIMIT` is dropped
        (False), never buffered without bound."""
        if self.writer.is_closing():
            return False
        if self.writer.transport.get_write_buffer_size() > SEND_LIMIT:
            log(f"{self.player}: not reading, dropped")
            self.writer.transport.abort()
            return False
        self.writer.write(wire.frame(message))
        return True


# ---------------------------------------------------------------- one table


@dataclass(eq=False)
class Table:
    """A table in memory: its stored row, the real positions, who is here."""

    row: TableRow
    states: list[core.GameState] = field(default_factory=list)
    clients: dict[Client, tuple[int, ...]] = field(default_factory=dict)
    """Everyone hearing the table, with the seats each decides for (empty: watching)."""
    away_since: dict[int, float] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def started(self) -> bool:
        return all(s.kind != "open" for s in self.row.seats)

    def start(self) -> None:
        """The real game, once every seat is filled (replaying the stored actions)."""
        seats = self.row.seats
        state = core.new_game(
            len(seats), self.row.seed, [s.name or "?" for s in seats], [s.colour for s in seats]
        )
        self.states = [state]
        for action in self.row.actions:
            self.states.append(core.apply_action(self.states[-1], action))

    @property
    def state(self) -> core.GameState | None:
        return self.states[-1] if self.states else None

    def played_by_computer(self, seat: int) -> str | None:
        """The level of the computer playing ``seat`` (its own or a stand-in), else None."""
        row = self.row.seats[seat]
        return row.level if row.kind == "computer" else row.standin

    def seats_of(self, player: str) -> tuple[int, ...]:
        return tuple(
            i for i, s in enumerate(self.row.seats) if s.kind == "player" and s.name == player
        )

    def info(self) -> wire.TableInfo:
        state = self.state
        present = {seat for seats in self.clients.values() for seat in seats}
        seats = tuple(
            wire.SeatInfo(
                s.colour,
                s.name,
                s.level if s.kind == "computer" else None,  # type: ignore[arg-type]
                s.kind == "computer" or i in present,
                None if i in present else self.away_since.get(i),
                s.standin,  # type: ignore[arg-type]
            )
            for i, s in enumerate(self.row.seats)
        )
        if state is None:
            status: wire.TableStatus = "waiting"
        else:
            status = "over" if core.is_over(state) else "playing"
        return wire.TableInfo(
            self.id,
            self.row.title,
            seats,
            status,
            state.current_player if state is not None else None,
            state.season if state is not None else 0,
            self.row.created,
            self.row.updated,
            len(self.row.actions),
            self.row.pace,  # type: ignore[arg-type]
            self.row.wait,
            self.paused_until(),
            self.row.paused_by if self.paused_until() else None,
        )

    def paused_until(self) -> float | None:
        """When a pause under way ends (None: not paused)."""
        until = self.row.paused_until
        return until if until is not None and until > time.time() else None

    def snapshot(self, ref: int, client: Client, note: str | None = None) -> wire.Snapshot:
        """The public history, for a table that has started."""
        start = public_start(self.states[0], self.states[-1])
        seats_here = self.clients.get(client, ())
        chat = tuple(chat_line(c) for c in self.row.chat[-wire.CHAT_KEPT :])
        return wire.Snapshot(
            ref, self.info(), start, tuple(self.row.actions), seats_here, note, chat
        )


# ---------------------------------------------------------------- the server


class Server:
    """The tables and the connections (see the module docstring)."""

    def __init__(
        self, store: TableStore, trusted: Sequence[str] = (), workers: Executor | None = None
    ) -> None:
        self.store = store
        self.trusted = frozenset(trusted)
        self.workers = workers
        self.tables: dict[int, Table] = {}
        self.writer_thread = ThreadPoolExecutor(1, thread_name_prefix="store")
        self._pending: list[tuple[Change, asyncio.Future[None]]] = []
        self._committing: asyncio.Task[None] | None = None
        self._thinking: set[int] = set()
        self._said: dict[tuple[str, int], list[float]] = {}
        self.ratings = store.ratings()
        self.commit_delay = 0.0
        for row in store.tables():
            table = Table(row)
            if table.started:
                table.start()
            self.tables[row.id] = table

    # ---------------------------------------------------------------- the store

    async def commit(self, change: Change) -> None:
        """Make ``change`` durable. Changes arriving while a commit runs share the next one
        (group commit): nobody is told before their change is on disk."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((change, future))
        if self._committing is None or self._committing.done():
            self._committing = asyncio.get_running_loop().create_task(self._commit_all())
        await future

    async def _commit_all(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            batch, self._pending = self._pending, []
            if self.commit_delay:
                await asyncio.sleep(self.commit_delay)
            try:
                await loop.run_in_executor(
                    self.writer_thread, self.store.commit, [change for change, _ in batch]
                )
            except Exception as exc:  # the whole batch failed: each is told, nothing kept
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            for _, future in batch:
                if not future.done():
                    future.set_result(None)

    # ---------------------------------------------------------------- connections

    async def connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        login = peer_login(writer)
        client: Client | None = None
        try:
            hello = await asyncio.wait_for(read_request(reader), HELLO_WITHIN)
            if not isinstance(hello, wire.Hello):
                raise wire.ProtocolError("the first message must be a hello")
            player = self.grant(login, hello)
            client = Client(player, writer)
            client.send(wire.Welcome(wire.VERSION, player))
            log(f"{player} connected (login {login})")
            while True:
                try:
                    message = await read_request(reader)
                except wire.ProtocolError as exc:
                    if "too long" in str(exc):
                        raise
                    client.send(wire.Error(exc.ref, str(exc)))
                    continue
                await self.handle(client, message)
        except Refusal as exc:
            writer.write(wire.frame(wire.Error(0, str(exc))))
            log(f"login {login} refused: {exc}")
        except wire.ProtocolError as exc:
            writer.write(wire.frame(wire.Error(0, str(exc))))
            log(f"login {login}: closed, {exc}")
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            if client is not None:
                self.gone(client)
            with contextlib.suppress(OSError, ConnectionError):
                writer.close()

    def grant(self, login: str, hello: wire.Hello) -> str:
        """The name a connection plays as (raises :class:`Refusal` saying why not)."""
        if hello.version != wire.VERSION:
            raise Refusal(
                f"this server speaks protocol {wire.VERSION}, the client {hello.version}: "
                "update mykerinos"
            )
        if hello.player is None or hello.player == login:
            return login
        if login in self.trusted:
            from saves import check_player_name

            try:
                return check_player_name(hello.player)
            except ValueError as exc:
                raise Refusal(f"{hello.player!r} cannot be a player's name: {exc}") from None
        raise Refusal(
            f"login {login!r} plays as {login!r}, not {hello.player!r} "
            "(only a trusted shared account names its players)"
        )

    def gone(self, client: Client) -> None:
        for table_id in list(client.tables):
            self.leave(client, self.tables[table_id])
        log(f"{client.player} disconnected")

    def leave(self, client: Client, table: Table) -> None:
        seats = table.clients.pop(client, ())
        client.tables.discard(table.id)
        still = {s for other in table.clients.values() for s in other}
        now = time.time()
        for seat in seats:
            if seat not in still:
                table.away_since[seat] = now
        if seats:
            self.tell(table, wire.Seats(table.info()))

    def tell(self, table: Table, message: wire.ServerMessage, skip: Client | None = None) -> None:
        for client in list(table.clients):
            if client is not skip and not client.send(message):
                table.clients.pop(client, None)

    # ---------------------------------------------------------------- requests

    async def handle(self, client: Client, message: wire.ClientMessage) -> None:
        if isinstance(message, wire.Hello):
            client.send(wire.Error(0, "hello was already said"))
            return
        ref = message.ref
        try:
            if isinstance(message, wire.ListTables):
                client.send(wire.Lobby(ref, self.lobby(client.player)))
            elif isinstance(message, wire.CreateTable):
                await self.create(client, message)
            elif isinstance(message, wire.Join | wire.Watch):
                await self.enter(client, message)
            elif isinstance(message, wire.Play):
                await self.play(client, message)
            elif isinstance(message, wire.Undo):
                await self.undo(client, message)
            elif isinstance(message, wire.Ladder):
                rows = tuple(
                    wire.Standing(r.name, r.mu, r.sigma, r.games, r.wins)
                    for r in ladder.ranked(self.ratings)
                )
                client.send(wire.Standings(ref, rows))
            elif isinstance(message, wire.Say):
                await self.say(client, message)
            elif isinstance(message, wire.Pause):
                await self.pause(client, message)
            elif isinstance(message, wire.HandOver):
                await self.hand_over(client, message)
            elif isinstance(message, wire.Leave):
                self.leave(client, self.table(message.table))
                client.send(wire.Lobby(ref, ()))
            else:
                client.send(wire.Exported(ref, self.export(self.table(message.table))))
        except Refusal as exc:
            client.send(wire.Error(ref, str(exc), getattr(message, "table", None)))
        except Exception as exc:  # a bug: this request fails, the connection and tables stay
            log(f"{client.player}: {type(message).__name__} failed: {exc!r}")
            client.send(wire.Error(ref, "the server failed on this request; it is logged"))

    def table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise Refusal(f"there is no table {table_id}")
        return table

    def lobby(self, player: str) -> tuple[wire.TableInfo, ...]:
        """Tables this player sits at or could: all of them, newest first, capped."""
        newest = sorted(self.tables.values(), key=lambda t: -t.row.updated)
        return tuple(t.info() for t in newest[:MAX_TABLES_LISTED])

    async def create(self, client: Client, message: wire.CreateTable) -> None:
        rows = seat_rows(message.seats)
        title = message.title.strip() or default_title(rows)
        if any(not c.isprintable() for c in title):
            raise Refusal("a table's title may hold only printable characters")
        if client.player not in {s.name for s in rows if s.kind == "player"}:
            raise Refusal("keep a seat for yourself at a table you create")
        row = await asyncio.get_running_loop().run_in_executor(
            self.writer_thread,
            self.store.create,
            title,
            secrets.randbelow(2**53),
            rows,
            message.pace,
            message.wait,
        )
        table = Table(row)
        self.tables[row.id] = table
        log(f"{client.player} created table {row.id} ({title})")
        if table.started:
            table.start()
        client.send(wire.Lobby(message.ref, (table.info(),)))  # the creator then joins
        self.computers_play(table)

    def sit(self, client: Client, table: Table) -> None:
        table.clients[client] = table.seats_of(client.player)
        client.tables.add(table.id)
        for seat in table.clients[client]:
            table.away_since.pop(seat, None)

    async def enter(self, client: Client, message: wire.Join | wire.Watch) -> None:
        table = self.table(message.table)
        if isinstance(message, wire.Join) and not table.seats_of(client.player):
            await self.take_open_seat(client, table, message.seat)
        if not table.started:
            open_seats = sum(1 for s in table.row.seats if s.kind == "open")
            self.tell(table, wire.Seats(table.info()))
            raise Refusal(
                f"the game starts when every seat is taken ({open_seats} still open); "
                "it will be listed as yours"
            )
        back = None
        if isinstance(message, wire.Watch):
            table.clients[client] = ()
            client.tables.add(table.id)
        else:
            self.sit(client, table)
            handed = [s for s in table.clients[client] if table.row.seats[s].standin]
            if handed:  # back at the table: the seat is theirs again at their next decision
                await self.set_standin(table, handed, None, client.player)
                back = f"{client.player} is back and plays their own seat again."
        log(f"{client.player} {'watches' if isinstance(message, wire.Watch) else 'sits at'} "
            f"table {table.id}")  # fmt: skip
        client.send(table.snapshot(message.ref, client, back))
        self.tell(table, wire.Seats(table.info(), back), skip=client)
        self.computers_play(table)

    async def say(self, client: Client, message: wire.Say) -> None:
        """A line of chat: checked (no character that would not show as itself), limited
        in rate, stored with the game, then told to everyone at the table."""
        from saves.text import hidden_character

        table = self.table(message.table)
        if client not in table.clients:
            raise Refusal("join or watch the table to talk there")
        text = message.text.strip()
        if not text:
            raise Refusal("say something")
        hidden = hidden_character(text)
        if hidden is not None:
            raise Refusal(f"the message contains {hidden}, which is not allowed")
        now = time.time()
        said = self._said.setdefault((client.player, table.id), [])
        said[:] = [t for t in said if now - t < CHAT_WINDOW]
        if len(said) >= CHAT_LINES:
            raise Refusal(f"slow down: at most {CHAT_LINES} lines in {CHAT_WINDOW:.0f} seconds")
        said.append(now)
        line = Chat(table.id, now, client.player, text, spectator=not table.clients[client])
        await self.commit(line)
        table.row.chat.append(line)
        client.send(wire.Said(table.id, chat_line(line), message.ref))
        self.tell(table, wire.Said(table.id, chat_line(line)), skip=client)

    async def pause(self, client: Client, message: wire.Pause) -> None:
        """A live table paused for everyone, once per player per season."""
        table = self.table(message.table)
        state = table.state
        if not table.clients.get(client):
            raise Refusal("only a player of the table can pause it")
        if table.row.pace != "live" or state is None or core.is_over(state):
            raise Refusal("only a live game in progress can be paused")
        if (client.player, state.season) in table.row.pauses:
            raise Refusal("you have paused this table once this season already")
        until = time.time() + 60 * message.minutes
        await self.commit(Paused(table.id, client.player, state.season, until))
        table.row.pauses.add((client.player, state.season))
        table.row.paused_until, table.row.paused_by = until, client.player
        at = time.strftime("%H:%M", time.localtime(until))
        note = f"{client.player} paused the table until {at}."
        log(f"table {table.id}: {note}")
        client.send(wire.Seats(table.info(), note, message.ref))
        self.tell(table, wire.Seats(table.info(), note), skip=client)
        asyncio.get_running_loop().call_later(
            60 * message.minutes + 0.05, self.computers_play, table
        )

    async def hand_over(self, client: Client, message: wire.HandOver) -> None:
        """Hand the client's seats to a computer of ``message.level``, or take them back."""
        table = self.table(message.table)
        seats = table.clients.get(client, ())
        if not seats:
            raise Refusal("only a player of the table can hand over their seat")
        if message.seat is not None and message.seat not in seats:
            absent = absent_seat(table, message.seat, message.level)
            await self.set_standin(table, [absent], message.level, client.player)
            name = table.row.seats[absent].name
            note = (
                f"{client.player} handed {name}'s seat to a computer ({message.level}) while "
                f"{name} is away; it is theirs again when they come back."
            )
            log(f"table {table.id}: {note}")
            client.send(wire.Seats(table.info(), note, message.ref))
            self.tell(table, wire.Seats(table.info(), note), skip=client)
            self.computers_play(table)
            return
        await self.set_standin(table, seats, message.level, client.player)
        note = (
            f"{client.player}'s seat is played by a computer ({message.level}) until they "
            "take it back."
            if message.level
            else f"{client.player} plays their own seat again."
        )
        log(f"table {table.id}: {note}")
        client.send(wire.Seats(table.info(), note, message.ref))
        self.tell(table, wire.Seats(table.info(), note), skip=client)
        self.computers_play(table)

    async def set_standin(
        self, table: Table, seats: Sequence[int], level: str | None, player: str
    ) -> None:
        for seat in seats:
            if table.row.seats[seat].standin != level:
                await self.commit(StandIn(table.id, seat, level))
                table.row.seats[seat].standin = level

    async def take_open_seat(self, client: Client, table: Table, wanted: int | None) -> None:
        seats = table.row.seats
        free = [i for i, s in enumerate(seats) if s.kind == "open"]
        if wanted is not None and wanted not in free:
            raise Refusal(f"seat {wanted + 1} is not free")
        if not free:
            raise Refusal("there is no seat for you at this table: watch it instead")
        seat = wanted if wanted is not None else free[0]
        await self.commit(SitDown(table.id, seat, client.player))
        seats[seat] = SeatRow("player", client.player, None, seats[seat].colour)
        if table.started:
            table.start()
            log(f"table {table.id} starts")

    async def play(self, client: Client, message: wire.Play) -> None:
        table = self.table(message.table)
        state = table.state
        if state is None:
            raise Refusal("the game has not started: a seat is still free")
        seat = state.current_player
        if seat is None:
            raise Refusal("the game is over")
        if seat not in table.clients.get(client, ()):
            raise Refusal("it is not your decision" if client in table.clients else
                          "sit at the table first")  # fmt: skip
        if table.played_by_computer(seat):
            raise Refusal("a computer plays your seat now: take it back first")
        refuse_if_paused(table)
        await self.apply(table, message.seq, message.action, client, message.ref)

    async def apply(
        self, table: Table, seq: int, action: core.Action, client: Client | None, ref: int
    ) -> None:
        """Check, commit, then tell: the one way an action enters a game."""
        state = table.state
        assert state is not None
        if seq != len(table.row.actions):
            raise Refusal("someone played meanwhile: look again")
        try:
            after, events = core.apply_action_with_events(state, action)
        except core.IllegalActionError as exc:
            raise Refusal(exc.reason or str(exc)) from None
        table.row.actions.append(action)  # claimed at once: a second request finds seq taken
        table.states.append(after)
        try:
            await self.commit(Append(table.id, seq, action))
        except Exception as exc:
            del table.row.actions[seq:], table.states[seq + 1 :]
            log(f"table {table.id}: could not store action {seq}: {exc}")
            raise Refusal("the server could not store the action; nothing was played") from None
        table.row.updated = time.time()
        public = public_view(after)
        played = wire.Played(0, table.id, seq, action, tuple(events), public)
        if client is not None:
            client.send(replace(played, ref=ref))
        self.tell(table, played, skip=client)
        if core.is_over(after):
            log(f"table {table.id} is over")
            await self.finish(table)
        self.computers_play(table)

    async def finish(self, table: Table) -> None:
        """Put a finished game's result into the ladder (once; again after a crash that
        came between its last action and this)."""
        state = table.state
        if table.row.finished is not None or state is None or not core.is_over(state):
            return
        names = [
            ladder.computer_name(s.level or "normal") if s.kind == "computer" else s.name or "?"
            for s in table.row.seats
        ]
        ratings = ladder.rate([ladder.result(names, state)], self.ratings)
        now = time.time()
        players = tuple(ratings[name] for name in dict.fromkeys(names))
        await self.commit(Finished(table.id, now, players))
        self.ratings, table.row.finished = ratings, now

    async def undo(self, client: Client, message: wire.Undo) -> None:
        table = self.table(message.table)
        why = why_no_undo(table, client, message.seq)
        if why:
            raise Refusal(why)
        seq = len(table.row.actions) - 1
        await self.commit(Truncate(table.id, seq))
        del table.row.actions[seq:], table.states[seq + 1 :]
        note = f"{client.player} took back their last action."
        log(f"table {table.id}: {note}")
        client.send(table.snapshot(message.ref, client, note))
        for other in list(table.clients):
            if other is not client:
                other.send(table.snapshot(0, other, note))

    def export(self, table: Table) -> bytes:
        from table.export import export_save

        if table.state is None:
            raise Refusal("the game has not started yet")
        return export_save(table.row, table.states)

    # ---------------------------------------------------------------- computers

    def computers_play(self, table: Table) -> None:
        """Start the computer's decision if one is to decide (once per table at a time)."""
        state = table.state
        if state is None or table.id in self._thinking or table.paused_until():
            return
        seat = state.current_player
        if seat is None or not table.played_by_computer(seat):
            return
        self._thinking.add(table.id)
        asyncio.get_running_loop().create_task(self._computer_turn(table, seat))

    async def _computer_turn(self, table: Table, seat: int) -> None:
        level = table.played_by_computer(seat) or "normal"
        seq = len(table.row.actions)
        public = public_view(table.states[-1])
        try:
            action = await asyncio.get_running_loop().run_in_executor(
                self.workers, decide, level, table.row.seed * 8 + seat + seq, public
            )
            self._thinking.discard(table.id)
            if len(table.row.actions) == seq and table.played_by_computer(seat):
                await self.apply(table, seq, action, None, 0)
        except Refusal as exc:
            log(f"table {table.id}: the computer's move was refused: {exc}")
        except Exception as exc:
            log(f"table {table.id}: the computer failed: {exc!r}")
        finally:
            self._thinking.discard(table.id)
        self.computers_play(table)


def chat_line(line: Chat) -> wire.ChatLine:
    return wire.ChatLine(line.at, line.name, line.text, line.spectator)


class Refusal(Exception):
    """A request refused; ``str`` is the reason a player reads."""


def refuse_if_paused(table: Table) -> None:
    until = table.paused_until()
    if until is not None:
        at = time.strftime("%H:%M", time.localtime(until))
        raise Refusal(f"the table is paused until {at} ({table.row.paused_by})")


def absent_seat(table: Table, seat: int, level: str | None) -> int:
    """``seat``, if a present player may hand it to a computer now (a live table, its
    player away longer than the table's wait); raises :class:`Refusal` saying why not."""
    if level is None:
        raise Refusal("only its player takes a seat back")
    if table.row.pace != "live":
        raise Refusal("this table waits for everyone: nobody's seat is handed over for them")
    if not 0 <= seat < len(table.row.seats) or table.row.seats[seat].kind != "player":
        raise Refusal("that is not a player's seat")
    refuse_if_paused(table)
    present = {s for seats in table.clients.values() for s in seats}
    since = table.away_since.get(seat)
    if seat in present or since is None:
        raise Refusal("that player is here (or has not come yet): only an absent seat")
    left = table.row.wait - (time.time() - since)
    if left > 0:
        raise Refusal(f"that player has been away less than the table's wait: {left:.0f} s more")
    return seat


def why_no_undo(table: Table, client: Client, seq: int) -> str | None:
    """Why ``client`` may not take back the table's last action (None: they may). Board
    Game Arena's rule: your own last action, until the next player acts or new parcels
    are dealt."""
    if client not in table.clients or not table.clients[client]:
        return "only the table's players may undo"
    if seq != len(table.row.actions):
        return "someone played meanwhile: look again"
    if not table.row.actions:
        return "nothing has been played yet"
    before, after = table.states[-2], table.states[-1]
    mover = before.current_player
    if mover not in table.clients[client]:
        who = table.row.seats[mover].name if mover is not None else "nobody"
        return f"the last action was {who}'s, not yours: only your own can be taken back"
    if after.season != before.season:
        return "new parcels were dealt since: that action cannot be taken back"
    return None


def public_view(state: core.GameState) -> core.GameState:
    from core.public import public_view as view

    return view(state)


def default_title(rows: Sequence[SeatRow]) -> str:
    """``ann, ben, computer (normal)``; an open seat is ``open seat``."""
    words = []
    for row in rows:
        if row.kind == "computer":
            words.append(f"computer ({row.level})")
        else:
            words.append(row.name or "open seat")
    return ", ".join(words)


def seat_rows(specs: Sequence[wire.SeatSpec]) -> list[SeatRow]:
    """The stored seats of a table being created, colours filled in; raises Refusal."""
    taken = {s.colour for s in specs if s.colour is not None}
    if len(taken) != sum(1 for s in specs if s.colour is not None):
        raise Refusal("two seats have the same colour")
    free = [c for c in core.Colour if c not in taken]
    rows = []
    for spec in specs:
        colour = spec.colour or free.pop(0)
        if spec.kind == "player" and not spec.name:
            raise Refusal("a seat kept for a player needs the player's name")
        if spec.kind == "computer" and spec.level is None:
            raise Refusal("a computer seat needs a level")
        rows.append(SeatRow(spec.kind, spec.name if spec.kind == "player" else None,
                            spec.level if spec.kind == "computer" else None, colour))  # fmt: skip
    names = [r.name.lower() for r in rows if r.name]
    if len(set(names)) != len(names):
        raise Refusal("a player sits at most once at a table")
    return rows


async def read_request(reader: asyncio.StreamReader) -> wire.ClientMessage:
    return wire.read_client(await wire.read_body(reader, wire.MAX_REQUEST, "request"))


def peer_login(writer: asyncio.StreamWriter) -> str:
    """The login behind a Unix socket connection, from its peer credentials."""
    sock = writer.get_extra_info("socket")
    try:
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", creds)
        return pwd.getpwuid(uid).pw_name
    except (OSError, KeyError, AttributeError):
        return f"uid-{os.getuid()}"


# ---------------------------------------------------------------- the command


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="mykerinos serve", description="Run the Mykerinos table server."
    )
    parser.add_argument("--socket", metavar="PATH", help="the Unix socket to listen on")
    parser.add_argument("--db", metavar="PATH", help="the store (an SQLite file)")
    parser.add_argument(
        "--trust-account", metavar="LOGIN", action="append", default=[],
        help="a shared game account whose clients name their players (repeatable)",
    )  # fmt: skip
    parser.add_argument("--workers", type=int, default=1, help="computer-player processes")
    # Tests only: each commit sleeps this long first, so that requests interleave.
    parser.add_argument("--commit-delay", type=float, default=0.0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def default_db() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("mykerinos", appauthor=False)) / "tables.db"


async def serve(args: argparse.Namespace) -> int:
    from table.address import socket_path

    path = socket_path(args.socket)
    try:
        store = TableStore(Path(args.db) if args.db else default_db())
    except (StoreError, OSError) as exc:
        print(f"mykerinos serve: {exc}", file=sys.stderr)
        return 1
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if path.exists():
        if await _answers(path):
            print(f"mykerinos serve: a server already listens on {path}", file=sys.stderr)
            return 1
        path.unlink()  # left by a server that was killed
    with ProcessPoolExecutor(max(1, args.workers)) as workers:
        server = Server(store, args.trust_account, workers)
        server.commit_delay = args.commit_delay
        # Listen under a temporary name, then rename: the socket appears only once it
        # accepts, so a client that finds it is never refused by a server still starting.
        starting = path.with_name(f".{path.name}.{os.getpid()}")
        starting.unlink(missing_ok=True)
        listening = await asyncio.start_unix_server(server.connected, str(starting), limit=2**17)
        os.replace(starting, path)
        log(f"serving {len(server.tables)} tables on {path} (store {store.path})")
        for table in sorted(server.tables.values(), key=lambda t: t.row.updated):
            await server.finish(table)  # a game over but not rated (a crash came between)
            server.computers_play(table)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(number, stop.set)
        async with listening:
            await stop.wait()
        log("stopping")
        path.unlink(missing_ok=True)
        store.close()
    return 0


async def _answers(path: Path) -> bool:
    try:
        _reader, writer = await asyncio.open_unix_connection(str(path))
    except OSError:
        return False
    writer.close()
    return True


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(serve(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
