"""The server's connections: accepting them within limits, the handshake and who each
is, and the read loop that hands each request on (:mod:`table.server.routing`) and
answers its refusal.

A connection says hello, is granted a player's name (:meth:`Connections.grant`, from the
socket's peer credentials, or from the ticket of a door's session) and then sends
requests, each answered by its ``ref``. What keeps one player from starving the others
lives here too: connections per player and in all, connections still saying hello per
login, a deadline on every request once its first byte arrived, and a client that does
not read is dropped rather than buffered without bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import socket
import struct
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, NamedTuple

from table import protocol as wire
from table.counts import counted, uncount
from table.server import rules
from table.server.log import log, log_once
from table.server.rules import Refusal

if TYPE_CHECKING:
    from table.server.room import Room

HELLO_WITHIN = 10.0
"""Seconds a new connection has to say hello."""
REQUEST_WITHIN = 10.0
"""Seconds a request may take to arrive once its first byte has: a connection that holds
a half-sent request longer is closed."""
SEND_LIMIT = 1024 * 1024
"""Bytes waiting to be sent to one client before it counts as not reading: it is dropped."""


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
    watching: int | None = None
    """The one table a watch link's session may watch (None: a player's connection);
    :func:`table.server.routing.route` refuses it anything else."""

    def send(self, message: wire.ServerMessage) -> bool:
        """Queue ``message``; a client whose backlog is over :data:`SEND_LIMIT` is dropped
        (False), never buffered without bound."""
        if self.writer.is_closing():
            return False
        if self.writer.transport.get_write_buffer_size() > SEND_LIMIT:
            log(f"{self.player}: not reading, dropped")
            self.writer.transport.abort()
            return False
        self.writer.write(_framed(message))
        return True


class Grant(NamedTuple):
    """What a door's ticket grants: its player, and for a watch link's session the one
    table it may watch."""

    player: str
    watching: int | None = None


_last: tuple[wire.ServerMessage | None, bytes] = (None, b"")
"""The last message framed, and its frame."""


def _framed(message: wire.ServerMessage) -> bytes:
    """``message`` as a frame: a change is told to everyone at its table as one message,
    sent to each in turn, so it is encoded once (the last one is kept, by identity)."""
    global _last
    if _last[0] is not message:
        _last = (message, wire.frame(message))
    return _last[1]


Route = Callable[[Client, wire.Request], Awaitable[None]]
"""Answers one request (raising :class:`Refusal` to refuse it)."""


class Connections:
    """Every connection of the server (see the module docstring). ``ticket`` gives the
    :class:`Grant` of a door's ticket (None: no such ticket), ``route`` answers a request,
    ``gone`` forgets a client whose connection ended."""

    def __init__(
        self,
        route: Route,
        gone: Callable[[Client], None],
        ticket: Callable[[str], Grant | None],
        trusted: Sequence[str] = (),
        limits: Limits = Limits(),
    ) -> None:
        self.route = route
        self.gone = gone
        self.ticket = ticket
        self.trusted = frozenset(trusted)
        self.limits = limits
        self.own_login = login_of(os.getuid())
        """The server's own account: a door's sessions run as it (see :meth:`grant`)."""
        self.clients: set[Client] = set()
        self.connections: Counter[str] = Counter()
        """Connections of each player, after their hello."""
        self.left: dict[str, float] = {}
        """When each player's last connection closed (the notices' delay counts from it)."""
        self.since = time.time()
        """When this server began: everyone away before is away since then at most."""
        self.open_connections = 0
        """Every connection accepted and not yet closed, hello said or not."""
        self.greeting: Counter[str] = Counter()
        """Connections of each login that have not said hello yet."""
        self.handlers: set[asyncio.Task[None]] = set()
        self.deadlines = Deadlines()
        self._sweeping: asyncio.Task[None] | None = None

    def begin(self) -> None:
        """The request deadlines start."""
        self._sweeping = asyncio.get_running_loop().create_task(self.deadlines.sweep())

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
            player, watching = self.grant(login, hello)
            if self.connections[player] >= self.limits.connections:
                raise Refusal(
                    f"{player} has {self.connections[player]} connections to this server "
                    "already: close one first"
                )
            client = Client(player, writer, watching=watching)
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
                self.clients.discard(client)
                uncount(self.connections, client.player)
                if not self.connections[client.player]:
                    self.left[client.player] = time.time()
                log(f"{client.player} disconnected")
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

    def grant(self, login: str, hello: wire.Hello) -> Grant:
        """The name a connection plays as (raises :class:`Refusal` saying why not): with a
        ticket, its grant (its player, whatever ``hello.player`` says, and the one table a
        watch link's session may watch); else the login, or the name a trusted account
        gives. A client of another protocol version is told, in one
        line, to update."""
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
            granted = self.ticket(hello.ticket)
            if granted is None:
                raise Refusal("this door session has ended: connect through the door again")
            return granted
        if hello.player is None or hello.player == login:
            return Grant(login)
        if login in self.trusted:
            return Grant(rules.checked_name(hello.player))
        raise Refusal(
            f"login {login!r} plays as {login!r}, not {hello.player!r} "
            "(only a trusted shared account names its players)"
        )

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
            await self.answer(client, message)

    async def answer(self, client: Client, message: wire.ClientMessage) -> None:
        """Answer one request; a refusal or a failure answers it with an error, and the
        connection and every table carry on."""
        if isinstance(message, wire.Hello):
            client.send(wire.Error(0, "hello was already said"))
            return
        try:
            await self.route(client, message)
        except Refusal as exc:
            client.send(wire.Error(message.ref, str(exc), getattr(message, "table", None)))
        except Exception as exc:  # a bug: this request fails, the connection and tables stay
            log(f"{client.player}: {type(message).__name__} failed: {exc!r}")
            client.send(wire.Error(message.ref, "the server failed on this request; it is logged"))

    def close(self, reason: str) -> list[asyncio.Task[None]]:
        """Tell every client why the server stops and close their connections; returns
        the connections' tasks still running (they end by themselves)."""
        for client in list(self.clients):
            client.send(wire.Error(0, reason))
            with contextlib.suppress(OSError, ConnectionError, RuntimeError):
                client.writer.close()
        if self._sweeping is not None:
            self._sweeping.cancel()
        return list(self.handlers)


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

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = min(hard, 65536) if hard != resource.RLIM_INFINITY else 65536
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    room_for = max(16, soft - 64)
    return replace(limits, connections_in_all=min(limits.connections_in_all, room_for))
