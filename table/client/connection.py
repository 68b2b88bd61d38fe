"""One client connection to the table server: frames in and out, answers matched to
requests by ``ref``, everything else queued as unasked (see :mod:`table.protocol`).

:func:`connect` dials the socket and says hello; the result is a
:class:`table.client.directory.Link` for the lobby and the remote seat, and a plain asyncio client
for tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from pathlib import Path

from table import protocol as wire

HELLO_TIMEOUT = 3.0
"""Seconds the server has to answer the hello."""


class Refused(ConnectionError):
    """The server answered the hello with a refusal (``str``: its reason)."""


class Connection:
    """A connection after a successful hello (made by :func:`connect`)."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, player: str
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.player = player
        """The name the server granted."""
        self._refs = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[wire.ServerMessage]] = {}
        self._unasked: asyncio.Queue[wire.ServerMessage | None] = asyncio.Queue()
        self._reading = asyncio.get_running_loop().create_task(self._read_all())
        self.closed_reason: str | None = None

    def new_ref(self) -> int:
        return next(self._refs)

    async def ask(self, message: wire.ClientMessage) -> wire.ServerMessage:
        """Send ``message`` (its ``ref`` from :meth:`new_ref`) and wait for the answer
        carrying that ``ref``; raises ``ConnectionError`` if the connection ends first."""
        ref: int = getattr(message, "ref", 0)
        future: asyncio.Future[wire.ServerMessage] = asyncio.get_running_loop().create_future()
        self._waiting[ref] = future
        try:
            await self.send(message)
            return await future
        finally:
            self._waiting.pop(ref, None)

    async def send(self, message: wire.ClientMessage) -> None:
        if self.closed_reason is not None:
            raise ConnectionError(self.closed_reason)
        self.writer.write(wire.frame(message))
        await self.writer.drain()

    async def unasked(self) -> wire.ServerMessage:
        """The next message nobody asked for (an update); ``ConnectionError`` at the end."""
        message = await self._unasked.get()
        if message is None:
            self._unasked.put_nowait(None)  # every later call ends too
            raise ConnectionError(self.closed_reason or "closed")
        return message

    async def _read_all(self) -> None:
        try:
            while True:
                message = await read_message(self.reader)
                ref = getattr(message, "ref", 0)
                future = self._waiting.get(ref) if ref else None
                if future is not None and not future.done():
                    future.set_result(message)
                else:
                    self._unasked.put_nowait(message)
        except (OSError, ConnectionError, asyncio.IncompleteReadError, wire.ProtocolError) as exc:
            self._end(str(exc) or "the server closed the connection")
        except asyncio.CancelledError:
            self._end("closed here")
            raise

    def _end(self, reason: str) -> None:
        if self.closed_reason is None:
            self.closed_reason = reason
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ConnectionError(reason))
        self._unasked.put_nowait(None)

    async def close(self) -> None:
        self._reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reading
        self.writer.close()
        with contextlib.suppress(OSError, ConnectionError):
            await self.writer.wait_closed()


async def read_message(reader: asyncio.StreamReader) -> wire.ServerMessage:
    """One frame from the server, decoded; raises on a short read or a bad frame."""
    return wire.read_server(await wire.read_body(reader, wire.MAX_FRAME, "frame from the server"))


async def connect(path: Path, player: str | None = None, ticket: str | None = None) -> Connection:
    """Dial the server at ``path`` and say hello as ``player`` (None: the login name), or
    with the ``ticket`` a door gave its session (the server then grants the ticket's
    player). Raises :class:`Refused` with the server's reason, ``ConnectionError`` for a server
    that does not say hello, ``OSError`` when nothing listens there."""
    reader, writer = await asyncio.open_unix_connection(str(path), limit=wire.MAX_FRAME)
    try:
        writer.write(wire.frame(wire.Hello(wire.VERSION, player, ticket)))
        await writer.drain()
        answer = await asyncio.wait_for(read_message(reader), HELLO_TIMEOUT)
    except (TimeoutError, asyncio.IncompleteReadError, wire.ProtocolError) as exc:
        writer.close()
        raise ConnectionError(f"the server did not say hello ({exc or 'no answer'})") from None
    except BaseException:
        writer.close()
        raise
    if isinstance(answer, wire.Error):
        writer.close()
        raise Refused(answer.reason)
    if not isinstance(answer, wire.Welcome):
        writer.close()
        raise ConnectionError(f"the server answered the hello with {type(answer).__name__}")
    return Connection(reader, writer, answer.player)
