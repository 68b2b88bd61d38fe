"""The lobby's side of a table server: where it listens, a connection to it, its tables.

:class:`ServerAddress` (:mod:`table.client.server_address`, re-exported here) says where
the server listens and who this terminal's player claims to be; its
:meth:`~ServerAddress.directory` is the lobby's :class:`TableDirectory`
(the tables, creating one, the ladder, sitting or watching), which opens each table on a
connection of its own as a :class:`table.client.seat.RemoteSeat`. Both speak to the server
through a :class:`Link`, the one connection's interface (:mod:`table.client.connection`
is the real one; :mod:`tui.server_text` wraps it so that every server string is shown
safely; the tests script it).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

import msgspec

from table import protocol as wire
from table.client.server_address import ServerAddress as ServerAddress
from table.client.server_address import TableUnavailable as TableUnavailable
from table.protocol_notices import NoticeRequest, NoticeState
from table.seat import SeatError

if TYPE_CHECKING:
    from table.client.analysis import TableAnalysis
    from table.client.seat import RemoteSeat


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


_Reply = TypeVar("_Reply")


def answer(reply: wire.ServerMessage, expected: type[_Reply]) -> _Reply:
    """``reply`` as the ``expected`` answer; a refusal raises :class:`SeatError` (its
    reason), anything else :class:`TableUnavailable`."""
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
        return answer(reply, wire.Lobby).tables

    async def create(
        self,
        seats: Sequence[wire.SeatSpec],
        title: str = "",
        pace: wire.Pace = "days",
        wait: float = 300,
        hints: bool | None = None,
    ) -> wire.TableInfo:
        """Create a table; returns how it stands (playing at once, or waiting for players
        to take its open seats). ``hints``: None leaves it to the server's default rule."""
        request = wire.CreateTable(self.link.new_ref(), tuple(seats), title, pace, wait, hints)
        reply = await self._ask(request)
        (table,) = answer(reply, wire.Lobby).tables
        return table

    async def ladder(self) -> tuple[wire.Standing, ...]:
        """The server's ladder, best first."""
        return answer(await self._ask(wire.Ladder(self.link.new_ref())), wire.Standings).rows

    async def notices(self, request: NoticeRequest) -> NoticeState:
        """The player's notices far from the terminal, after ``request`` (its ref is
        filled in here); raises :class:`SeatError` with the server's refusal (an older
        server's said in words)."""
        from table import protocol_notices as notice

        request = msgspec.structs.replace(request, ref=self.link.new_ref())
        reply = await self._ask(request)
        if isinstance(reply, wire.Error) and reply.reason.startswith("malformed request"):
            raise SeatError("this table server is older: it sends no e-mail or push notices")
        return answer(reply, notice.NoticeState)

    async def sit(self, table: int) -> RemoteSeat:
        """Sit at ``table`` (your seat, or a free one) on a connection of its own."""
        return await self._open(table, watch=False)

    async def watch(self, table: int, *, by_link: bool = False) -> RemoteSeat:
        """Watch ``table`` on a connection of its own; ``by_link``: as a watch link's
        session, which may not chat (the server refuses it)."""
        return await self._open(table, watch=True, by_link=by_link)

    async def analysis(self, table: int) -> TableAnalysis:
        """The analysis of the finished ``table``, with what the server keeps of it already
        (shown at once: see :mod:`table.client.analysis`); raises :class:`SeatError` with
        the server's refusal (a table not over), :class:`TableUnavailable` without it."""
        from table.client.analysis import TableAnalysis, shown_analysis

        reply = await self._ask(wire.Analyse(self.link.new_ref(), table, kept=True))
        if isinstance(reply, wire.Error) and reply.reason.startswith("malformed request"):
            kept = None  # an older server: the analysis says so when asked for
        else:
            analysis = answer(reply, wire.Analysed).analysis
            kept = shown_analysis(analysis) if analysis is not None else None
        return TableAnalysis(self.dial, table, asyncio.get_running_loop(), kept)

    async def _open(self, table: int, *, watch: bool, by_link: bool = False) -> RemoteSeat:
        from table.client.seat import RemoteSeat

        where, keep = self.where, self.keep
        seat = await RemoteSeat.open(self.dial, table, watch=watch, where=where, keep=keep)
        seat.by_watch_link = by_link
        return seat

    async def close(self) -> None:
        with contextlib.suppress(OSError, ConnectionError):
            await self.link.close()
