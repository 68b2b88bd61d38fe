"""The hub: connections, who they are, and which room each request goes to.

A connection says hello, is granted a player's name (:func:`grant`, from the socket's
peer credentials, or from the ticket of a door's session) and then sends requests, each
answered by its ``ref``. The hub owns what is shared by every table: the rooms, the
writer, the computer players, the ladder, the doors' tickets, and the limits that keep
one player from starving the others (connections and open tables per player, a deadline
on every request once its first byte arrived). Everything that changes a table is the
room's (:mod:`table.server.room`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import secrets
import socket
import struct
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import assert_never

import core
from table import ladder
from table import protocol as wire
from table.counts import counted, uncount
from table.server import rules
from table.server.computers import Computers
from table.server.log import log, log_once
from table.server.room import Room
from table.server.rules import Refusal
from table.server.writer import Writer
from table.store import Finished, TableRow

HELLO_WITHIN = 10.0
"""Seconds a new connection has to say hello."""
REQUEST_WITHIN = 10.0
"""Seconds a request may take to arrive once its first byte has: a connection that holds
a half-sent request longer is closed."""
SEND_LIMIT = 1024 * 1024
"""Bytes waiting to be sent to one client before it counts as not reading: it is dropped."""
MAX_TABLES_LISTED = 500
"""Tables in one lobby answer (see :meth:`Hub.lobby` for which come first)."""


@dataclass(frozen=True)
class Limits:
    """What one player, and all together, may hold at once (``docs/table-server.md``)."""

    connections: int = 16
    """Connections per player (terminals, status checks, doors' sessions)."""
    open_tables: int = 20
    """Tables a player created that are not over yet."""
    connections_in_all: int = 900
    """Connections in all (kept under the descriptor limit: see :func:`fit_to_descriptors`)."""


@dataclass(eq=False)
class Client:
    """One connection after its hello."""

    player: str
    writer: asyncio.StreamWriter
    rooms: set[Room] = field(default_factory=set)

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


class Hub:
    """The server's shared part (see the module docstring)."""

    def __init__(
        self,
        rows: Iterable[TableRow],
        writer: Writer,
        ratings: dict[str, ladder.Rating],
        trusted: Sequence[str] = (),
        computers: Computers | None = None,
        limits: Limits = Limits(),
    ) -> None:
        self.writer = writer
        self.ratings = ratings
        self.trusted = frozenset(trusted)
        self.own_login = login_of(os.getuid())
        """The server's own account: a door's sessions run as it (see :meth:`grant`)."""
        self._tickets: dict[str, str] = {}
        """The player of each door's session, by its ticket (see :meth:`issue_ticket`)."""
        self.computers = computers
        self.limits = limits
        self.rooms: dict[int, Room] = {}
        for row in rows:
            room = self._room(row)
            if room.damaged:
                log(f"table {row.id} is damaged and read-only: {room.damaged}")
        self.clients: set[Client] = set()
        self.connections: Counter[str] = Counter()
        """Connections of each player, after their hello."""
        self.open_connections = 0
        """Every connection accepted and not yet closed, hello said or not."""
        self.greeting: Counter[str] = Counter()
        """Connections of each login that have not said hello yet."""
        self.handlers: set[asyncio.Task[None]] = set()
        self._turns: dict[int, asyncio.Task[None]] = {}
        """The computer turn under way at each table (one at a time a table)."""
        self._ladder = asyncio.Lock()
        self.deadlines = Deadlines()
        self._sweeping: asyncio.Task[None] | None = None
        self._creating: Counter[str] = Counter()
        """Tables each player is creating right now (not yet rooms)."""

    def _room(self, row: TableRow) -> Room:
        room = Room(row, self.writer.commit, rate=self.rate)
        self.rooms[row.id] = room
        return room

    async def begin(self) -> None:
        """After a start: rate the games over but not rated (the server stopped between),
        and let the computers whose turn it is decide; the request deadlines start."""
        self._sweeping = asyncio.get_running_loop().create_task(self.deadlines.sweep())
        for room in sorted(self.rooms.values(), key=lambda r: r.row.updated):
            if room.over and room.row.finished is None:
                await room.finish()
            self.computers_play(room)

    # ---------------------------------------------------------------- doors' tickets

    def issue_ticket(self, player: str) -> str:
        """A new ticket granting ``player`` (a checked name, else :class:`Refusal`): a door
        hands it to the session it starts, whose hello carries it. Kept in memory only: a
        server's restart ends every door's session anyway, the doors living in its
        process."""
        name = rules.checked_name(player)
        ticket = secrets.token_urlsafe(32)
        self._tickets[ticket] = name
        return ticket

    def revoke_ticket(self, ticket: str) -> None:
        """No new hello is granted with ``ticket`` (its session ended); connections it
        opened stay until they close (the door ends the session's process itself)."""
        self._tickets.pop(ticket, None)

    # ---------------------------------------------------------------- connections

    async def connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve one connection until it ends (the task ends quietly whatever happens)."""
        task = asyncio.current_task()
        if task is not None:
            self.handlers.add(task)
            task.add_done_callback(self.handlers.discard)
        login = "(unknown)"
        client: Client | None = None
        self.open_connections += 1
        try:
            login = peer_login(writer)
            if self.open_connections > self.limits.connections_in_all:
                log_once("full", f"login {login} refused: {self.limits.connections_in_all} "
                                 "connections already")  # fmt: skip
                raise Refusal("the server has as many players as it can take: try again later")
            hello = await self.greet(login, reader, writer)
            if not isinstance(hello, wire.Hello):
                raise wire.ProtocolError("the first message must be a hello")
            player = self.grant(login, hello)
            if self.connections[player] >= self.limits.connections:
                raise Refusal(
                    f"{player} has {self.connections[player]} connections to this server "
                    "already: close one first"
                )
            client = Client(player, writer)
            self.clients.add(client)
            self.connections[player] += 1
            client.send(wire.Welcome(wire.VERSION, player))
            through = " through a door" if hello.ticket is not None else ""
            log(f"{player} connected (login {login}{through})")
            await self.serve(client, reader, writer)
        except Refusal as exc:
            writer.write(wire.frame(wire.Error(0, str(exc))))
            log_once(f"refused {login}", f"login {login} refused: {exc}")
        except wire.ProtocolError as exc:
            writer.write(wire.frame(wire.Error(exc.ref, str(exc))))
            log_once(f"closed {login}", f"login {login}: closed, {exc}")
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        except asyncio.CancelledError:
            pass  # the server is stopping
        finally:
            self.open_connections -= 1
            if client is not None:
                self.gone(client)
            with contextlib.suppress(OSError, ConnectionError, RuntimeError):
                writer.close()

    async def greet(
        self, login: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> wire.ClientMessage:
        """The first message of a connection, within :data:`HELLO_WITHIN` seconds; a login
        may have at most ``limits.connections`` connections waiting to say hello (silent
        ones must not take every place, whatever the limit in all). A trusted account and
        the server's own are not held to it: every player of a shared account comes
        through the one, every door's session through the other, and none of them can
        open a connection of their own."""
        exempt = login in self.trusted or login == self.own_login
        if not exempt and self.greeting[login] >= self.limits.connections:
            raise Refusal(f"login {login} has {self.greeting[login]} connections saying hello")
        with counted(self.greeting, login):
            return await asyncio.wait_for(self.deadlines.read(reader, writer), HELLO_WITHIN)

    async def serve(
        self, client: Client, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """Answer ``client``'s requests, one after another, until it goes."""
        while True:
            try:
                message = await self.deadlines.read(reader, writer)
            except wire.ProtocolError as exc:
                if exc.fatal:
                    raise
                client.send(wire.Error(exc.ref, str(exc)))
                continue
            await self.handle(client, message)

    def grant(self, login: str, hello: wire.Hello) -> str:
        """The name a connection plays as (raises :class:`Refusal` saying why not): with a
        ticket, its player, whatever ``hello.player`` says; else the login, or the name a
        trusted account gives."""
        if hello.version != wire.VERSION:
            raise Refusal(
                f"this server speaks protocol {wire.VERSION}, this mykerinos "
                f"{hello.version}: update mykerinos to play here"
            )
        if hello.ticket is not None:
            # Only the server's own account runs a door's sessions: a ticket from any
            # other login was copied out of one (or guessed), and is not looked at.
            if login != self.own_login:
                raise Refusal(
                    f"login {login!r} sent a door's ticket: tickets come only from the "
                    "door's own sessions"
                )
            player = self._tickets.get(hello.ticket)
            if player is None:
                raise Refusal("this door session has ended: connect through the door again")
            return player
        if hello.player is None or hello.player == login:
            return login
        if login in self.trusted:
            return rules.checked_name(hello.player)
        raise Refusal(
            f"login {login!r} plays as {login!r}, not {hello.player!r} "
            "(only a trusted shared account names its players)"
        )

    def gone(self, client: Client) -> None:
        for room in list(client.rooms):
            room.leave(client)
        self.clients.discard(client)
        uncount(self.connections, client.player)
        log(f"{client.player} disconnected")

    async def stop(self, reason: str) -> None:
        """Refuse any new change, tell every client why the server stops, close their
        connections, and let the requests under way end by themselves (a change cancelled
        between its commit and its memory would leave the two disagreeing)."""
        for room in self.rooms.values():
            room.stopping = True
        for client in list(self.clients):
            client.send(wire.Error(0, reason))
            with contextlib.suppress(OSError, ConnectionError, RuntimeError):
                client.writer.close()
        if self._sweeping is not None:
            self._sweeping.cancel()
        running = [*self.handlers, *self._turns.values()]
        if running:
            await asyncio.wait(running, timeout=2)

    # ---------------------------------------------------------------- requests

    async def handle(self, client: Client, message: wire.ClientMessage) -> None:
        """Answer one request; a refusal or a failure answers it with an error, and the
        connection and every table carry on."""
        if isinstance(message, wire.Hello):
            client.send(wire.Error(0, "hello was already said"))
            return
        try:
            await self.dispatch(client, message)
        except Refusal as exc:
            client.send(wire.Error(message.ref, str(exc), getattr(message, "table", None)))
        except Exception as exc:  # a bug: this request fails, the connection and tables stay
            log(f"{client.player}: {type(message).__name__} failed: {exc!r}")
            client.send(wire.Error(message.ref, "the server failed on this request; it is logged"))

    async def dispatch(self, client: Client, message: wire.Request) -> None:
        ref = message.ref
        match message:
            case wire.ListTables():
                client.send(wire.Lobby(ref, self.lobby(client.player)))
            case wire.CreateTable():
                await self.create(client, message)
            case wire.Join() | wire.Watch():
                room = self.room(message.table)
                seat = message.seat if isinstance(message, wire.Join) else None
                back = message.back if isinstance(message, wire.Join) else False
                await room.enter(client, ref, isinstance(message, wire.Watch), seat, back)
                client.rooms.add(room)
                self.computers_play(room)
            case wire.Play():
                room = self.room(message.table)
                await room.play(client, ref, message.seq, message.action)
                self.computers_play(room)
            case wire.Undo():
                await self.room(message.table).undo(client, ref, message.seq)
            case wire.Say():
                await self.room(message.table).say(client, ref, message.text)
            case wire.Pause():
                room = self.room(message.table)
                until = await room.pause(client, ref, message.minutes)
                delay = max(0.0, until - room.clock()) + 0.05
                asyncio.get_running_loop().call_later(delay, self.computers_play, room)
            case wire.Resume():
                room = self.room(message.table)
                await room.resume(client, ref)
                self.computers_play(room)  # the one whose turn it is need not wait
            case wire.HandOver():
                room = self.room(message.table)
                await room.hand_over(client, ref, message.level, message.seat)
                self.computers_play(room)
            case wire.Leave():
                room = self.room(message.table)
                room.leave(client)
                client.rooms.discard(room)
                client.send(wire.Lobby(ref, ()))
            case wire.Ladder():
                rows = tuple(
                    wire.Standing(r.name, r.mu, r.sigma, r.games, r.wins)
                    for r in ladder.ranked(self.ratings)
                )
                client.send(wire.Standings(ref, rows))
            case wire.Export():
                client.send(wire.Exported(ref, self.room(message.table).export()))
            case _:
                assert_never(message)

    def room(self, table_id: int) -> Room:
        room = self.rooms.get(table_id)
        if room is None:
            raise Refusal(f"there is no table {table_id}")
        return room

    def lobby(self, player: str) -> tuple[wire.TableInfo, ...]:
        """The tables: the player's own (sitting, or kept for them) first, then those with
        a seat still open, then the most recent others, capped; so another player's flood
        of finished tables never hides a player's tables or a seat waiting for them."""

        def order(room: Room) -> tuple[bool, bool, float]:
            mine = any(s.name == player for s in room.row.seats)
            waiting = not room.started and room.damaged is None
            return (not mine, not waiting, -room.row.updated)

        listed = sorted(self.rooms.values(), key=order)[:MAX_TABLES_LISTED]
        return tuple(room.info() for room in listed)

    async def create(self, client: Client, message: wire.CreateTable) -> None:
        rows = rules.seat_rows(message.seats)
        title = rules.table_title(message.title, rows)
        open_tables = self._creating[client.player] + sum(
            1 for r in self.rooms.values()
            if r.owner == client.player and not r.over and r.damaged is None
        )  # fmt: skip
        rules.check_creator(client.player, rows, open_tables, self.limits.open_tables)
        with counted(self._creating, client.player):  # while stored: creations race otherwise
            row = await self.writer.run(
                self.writer.store.create, title, secrets.randbelow(2**53), rows,
                message.pace, message.wait, client.player,
            )  # fmt: skip
        room = self._room(row)
        log(f"{client.player} created table {row.id} ({title!a})")
        client.send(wire.Lobby(message.ref, (room.info(),)))  # the creator then joins
        self.computers_play(room)

    # ---------------------------------------------------------------- the ladder

    async def rate(self, room: Room) -> None:
        """Put a finished game's result into the ladder, once, one game at a time."""
        async with self._ladder:
            state = room.state
            if room.row.finished is not None or state is None:
                return
            names = rules.rated_names(room.row, room.states)
            ratings = ladder.rate([ladder.result(names, state)], self.ratings)
            now = room.clock()
            players = tuple(ratings[name] for name in dict.fromkeys(names))
            try:
                await self.writer.commit(Finished(room.id, now, players))
            except Exception as exc:  # rated at the next start instead
                log(f"table {room.id}: the result could not be stored: {exc}")
                return
            self.ratings, room.row.finished = ratings, now
            log(f"table {room.id} is over")

    # ---------------------------------------------------------------- computers

    def computers_play(self, room: Room) -> None:
        """Start a computer's decision if one is due at ``room`` (one at a time a table)."""
        if self.computers is None or room.id in self._turns or room.stopping:
            return
        due = room.computer_due()
        if due is not None:
            turn = asyncio.get_running_loop().create_task(self._computer_turn(room, *due))
            self._turns[room.id] = turn

    async def _computer_turn(self, room: Room, seat: int, level: core.Level, seq: int) -> None:
        assert self.computers is not None and room.state is not None
        try:
            public = core.public_view(room.state)  # the position after seq actions
            seed = room.row.seed * 8 + seat + seq
            action = await self.computers.decide(room.owner, level, seed, public)
            await room.computer_moved(seat, seq, action)
        except Refusal as exc:
            log(f"table {room.id}: the computer's move was refused: {exc}")
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # this turn itself is cancelled (the server stops)
            log(f"table {room.id}: the computer's decision was lost (its worker stopped)")
        except Exception as exc:
            log(f"table {room.id}: the computer failed: {exc!r}")
        finally:
            del self._turns[room.id]
        self.computers_play(room)  # the next computer, or this one again at the new position


class Deadlines:
    """A deadline on every request once its first byte has arrived: the rest must follow
    within :data:`REQUEST_WITHIN` seconds, or the connection is closed. One sweep a second
    over the requests half read, rather than a timer per request (a request costs a few
    hundred microseconds of the server's time: a timer each was a tenth of it)."""

    def __init__(self) -> None:
        self.begun: dict[asyncio.StreamWriter, float] = {}
        """When the request each connection is reading began (monotonic seconds)."""

    async def read(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> wire.ClientMessage:
        """The next request: waits as long as it takes for its first byte, then for the
        rest under the deadline; a fatal :class:`wire.ProtocolError` if it is too long."""
        first = await reader.readexactly(1)
        self.begun[writer] = time.monotonic()
        try:
            rest = await reader.readexactly(wire.HEADER.size - 1)
            (size,) = wire.HEADER.unpack(first + rest)
            if size > wire.MAX_REQUEST:
                raise wire.ProtocolError(f"a request of {size} bytes is too long", fatal=True)
            body = await reader.readexactly(size)
        finally:
            del self.begun[writer]
        return wire.read_client(body)

    async def sweep(self) -> None:
        """Close, once a second, the connections whose request is late (runs until
        cancelled)."""
        while True:
            await asyncio.sleep(1.0)
            late = time.monotonic() - REQUEST_WITHIN
            for writer, begun in list(self.begun.items()):
                if begun < late:
                    reason = f"a request took more than {REQUEST_WITHIN:.0f} s to arrive"
                    log_once("late request", f"closed a connection: {reason}")
                    with contextlib.suppress(OSError, RuntimeError):
                        writer.write(wire.frame(wire.Error(0, reason)))
                        writer.transport.abort()  # close() waits for a reader that may not read


_LOGINS: dict[int, str] = {}
"""Logins already looked up, by uid (an account's name does not change under a server)."""


def peer_login(writer: asyncio.StreamWriter) -> str:
    """The login behind a Unix socket connection, from its peer credentials; a uid with no
    account is ``uid-<uid>`` (so two such uids are never one player). Raises
    :class:`Refusal` when it cannot be told: looking a login up reads ``/etc/passwd``, and
    with no descriptor left that fails just as a missing account does."""
    sock = writer.get_extra_info("socket")
    try:
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):
        raise Refusal("the server cannot tell who you are on this socket") from None
    _pid, uid, _gid = struct.unpack("3i", creds)
    return login_of(uid)


def login_of(uid: int) -> str:
    """The login of ``uid`` (``uid-<uid>`` for a uid with no account); :class:`Refusal`
    when it cannot be told (see :func:`peer_login`)."""
    if uid not in _LOGINS:
        try:
            _LOGINS[uid] = pwd.getpwuid(uid).pw_name
        except KeyError:
            if not _can_open_files():
                raise Refusal("the server is out of resources: try again in a moment") from None
            return f"uid-{uid}"
    return _LOGINS[uid]


def _can_open_files() -> bool:
    try:
        os.close(os.open(os.devnull, os.O_RDONLY))
    except OSError:
        return False
    return True


def fit_to_descriptors(limits: Limits) -> Limits:
    """``limits`` with as many connections in all as the descriptor limit leaves room
    for (the soft limit is first raised to the hard one), keeping 64 for the store, the
    workers and the logs."""
    import resource
    from dataclasses import replace

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = min(hard, 65536) if hard != resource.RLIM_INFINITY else 65536
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    room_for = max(16, soft - 64)
    return replace(limits, connections_in_all=min(limits.connections_in_all, room_for))
