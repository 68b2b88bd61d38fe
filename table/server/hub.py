"""The hub: what every table of a server shares. The rooms (one actor per table:
:mod:`table.server.room`), the writer they commit through, the computer players they
ask, the ladder their finished games go into, the doors' tickets, and the creation of a
new table within a player's limit.

The connections are :mod:`table.server.connections`' (accept, limits, handshake,
identity, the read loop); which room answers a request is :mod:`table.server.routing`'s;
everything that changes a table, and everything that follows a change, is its room's.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import core
from table import ladder
from table import protocol as wire
from table.counts import counted
from table.server import rules
from table.server.actor import Keep
from table.server.analysis import Analyses
from table.server.computers import Computers
from table.server.connections import Client, Connections, Grant, Limits
from table.server.log import log
from table.server.notice_desk import NoticeDesk
from table.server.room import Room
from table.server.routing import route
from table.server.rules import Refusal
from table.server.writer import Writer
from table.store import TableRow

MAX_TABLES_LISTED = 500
"""Tables in one lobby answer (see :meth:`Hub.lobby` for which come first)."""


class Ladder:
    """The server's ladder: the ratings, and finished games going into them one at a time."""

    def __init__(self, ratings: dict[str, ladder.Rating]) -> None:
        self.ratings = ratings
        self._one_at_a_time = asyncio.Lock()

    async def rate(self, names: Sequence[str], final: core.GameState, keep: Keep) -> None:
        """Rate the game that ended at ``final`` (the seats rated as ``names``): ``keep``
        stores the new ratings of its names, or raises, and the ladder stays as it was."""
        async with self._one_at_a_time:
            ratings = ladder.rate([ladder.result(names, final)], self.ratings)
            new: Mapping[str, ladder.Rating] = {name: ratings[name] for name in names}
            await keep(new)
            self.ratings = ratings


class Hub:
    """The server's shared part (see the module docstring)."""

    def __init__(
        self,
        rows: Iterable[TableRow],
        writer: Writer,
        ratings: dict[str, ladder.Rating],
        trusted: Sequence[str] = (),
        computers: Computers | None = None,
        limits: Limits | None = None,
        minute: float = 60.0,
    ) -> None:
        self.writer = writer
        self.ladder = Ladder(ratings)
        self.computers = computers
        self.limits = limits = limits or Limits()
        self.minute = minute
        """Seconds in a minute of a pause (tests only make it shorter)."""
        self._tickets: dict[str, Grant] = {}
        """What each door's session is granted, by its ticket (see :meth:`issue_ticket`)."""
        self.connections = Connections(
            lambda client, message: route(self, client, message),
            self.gone, self._tickets.get, trusted, limits,
        )  # fmt: skip
        self.connected = self.connections.connected
        """Serves one connection (what the server's socket calls)."""
        self.own_login = self.connections.own_login
        judge = computers.judge if computers is not None else None
        self.analyses = Analyses(judge, lambda changes: self.writer.commit(changes))
        """The finished tables' analyses under way (:mod:`table.server.analysis`)."""
        self.rooms: dict[int, Room] = {}
        for row in rows:
            room = self._room(row)
            if room.damaged:
                log(f"table {row.id} is damaged and read-only: {room.damaged}")
        self.notice_desk: NoticeDesk | None = None
        """A player's notices far from the terminal (set by ``mykerinos serve``)."""
        self._creating: Counter[str] = Counter()
        """Tables each player is creating right now (not yet rooms)."""

    def _room(self, row: TableRow) -> Room:
        decide = self.computers.decide if self.computers is not None else None
        room = Room(row, self.writer.commit, rate=self.ladder.rate, decide=decide,
                    minute=self.minute)  # fmt: skip
        self.rooms[row.id] = room
        return room

    async def begin(self) -> None:
        """After a start: the request deadlines start, and each table does what came due
        while the server was down (a pause that ran out, a game over but not rated, a
        computer whose turn it is), the least recent first."""
        self.connections.begin()
        for room in sorted(self.rooms.values(), key=lambda r: r.row.updated):
            await room.wake()

    async def stop(self, reason: str) -> None:
        """Refuse any new change, tell every client why the server stops, close their
        connections, and let the requests under way end by themselves (a change cancelled
        between its commit and its memory would leave the two disagreeing)."""
        running = [task for room in self.rooms.values() for task in room.stop()]
        running += self.analyses.stop_all()
        running += self.connections.close(reason)
        if running:
            await asyncio.wait(running, timeout=2)

    def gone(self, client: Client) -> None:
        """``client``'s connection ended: it hears no table any more, and follows no
        analysis."""
        for room in list(client.rooms):
            room.leave(client)
        self.analyses.gone(client)

    # ---------------------------------------------------------------- doors' tickets

    def issue_ticket(self, player: str, watching: int | None = None) -> str:
        """A new ticket granting ``player`` (a checked name, else :class:`Refusal`): a door
        hands it to the session it starts, whose hello carries it. With ``watching`` (a
        watch link's session), its connections may only watch that one table (see
        :func:`table.server.routing.route`). Kept in memory only: a server's restart ends
        every door's session anyway, the doors living in its process."""
        name = rules.checked_name(player)
        ticket = secrets.token_urlsafe(32)
        self._tickets[ticket] = Grant(name, watching)
        return ticket

    def revoke_ticket(self, ticket: str) -> None:
        """No new hello is granted with ``ticket`` (its session ended); connections it
        opened stay until they close (the door ends the session's process itself)."""
        self._tickets.pop(ticket, None)

    # ---------------------------------------------------------------- tables

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
        """A new table, within the player's limit of tables not yet over; answered by a
        lobby of that one table (the creator then joins it)."""
        rows = rules.seat_rows(message.seats)
        title = rules.checked_title(message.title)
        open_tables = self._creating[client.player] + sum(
            1 for r in self.rooms.values()
            if r.owner == client.player and not r.over and r.damaged is None
        )  # fmt: skip
        rules.check_creator(client.player, rows, open_tables, self.limits.open_tables)
        seed = secrets.randbelow(2**53)
        with counted(self._creating, client.player):  # while stored: creations race otherwise
            row = await self.writer.run(
                self.writer.store.create, title, seed, rows, message.pace, message.wait,
                client.player,
                rules.default_hints(rows) if message.hints is None else message.hints,
                rules.first_to_play(seed, rows),
            )  # fmt: skip
        room = self._room(row)
        log(f"{client.player} created table {row.id} ({rules.table_name(title, rows)!a})")
        client.send(wire.Lobby(message.ref, (room.info(),)))
        await room.wake()  # a table of computers only starts playing at once
