"""A shared table's analysis, from this terminal: the server makes it (a client could
forge values), this terminal asks for it and follows it.

:class:`TableAnalysis` is the :class:`table.analysis.AnalysisSource` of one finished
table: the screens call its blocking :meth:`~TableAnalysis.run` from a thread, which asks
the server on a connection of its own (:class:`table.protocol.Analyse`), hands each
:class:`table.protocol.Analysing` to ``progress`` in that thread, and returns the
:class:`table.protocol.Analysed`. ``stop`` set sends a
:class:`table.protocol.StopAnalysing` (answered with what is judged so far); a refusal,
or a connection that drops, raises :class:`table.analysis.AnalysisRefused` in words.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Final

from core.analysis import Analysis, Judgement
from saves.text import shown
from table import protocol as wire
from table.analysis import AnalysisRefused, Progress
from table.client.directory import Dial, Link, TableUnavailable

POLL: Final = 0.1
"""Seconds between two looks at ``stop`` while the server judges."""
OLDER_SERVER: Final = (
    "This table server cannot analyse games: it is older than this mykerinos "
    "(its host can update it)."
)
GONE: Final = "The table server is out of reach: the analysis stopped."

_Event = Progress | Analysis | AnalysisRefused


class TableAnalysis:
    """The analysis of the finished ``table`` (see the module docstring): ``dial`` opens
    a connection on ``loop`` (the app's, where the connection lives), ``kept`` is what
    the server had kept when this was made (None: nothing, or not asked yet)."""

    def __init__(
        self,
        dial: Dial,
        table: int,
        loop: asyncio.AbstractEventLoop,
        kept: Analysis | None = None,
    ) -> None:
        self.dial = dial
        self.table = table
        self.loop = loop
        self._kept = kept
        self.note: str | None = None
        """Nothing to add: the server checks what it keeps."""

    @property
    def kept(self) -> Analysis | None:
        """The analysis the server keeps with the table, as last heard here."""
        return self._kept

    def run(
        self,
        seats: tuple[int, ...] | None,
        progress: Callable[[Progress], None],
        stop: threading.Event,
    ) -> Analysis:
        """The analysis of ``seats`` (None: everyone's), blocking: call it from a thread
        other than the loop's; ``progress`` is called in that thread."""
        events: queue.Queue[_Event] = queue.Queue()
        began = time.monotonic()
        follow = self._follow(seats, events, stop, began)
        future = asyncio.run_coroutine_threadsafe(follow, self.loop)

        def ended(done: object) -> None:  # a failure of the coroutine itself, in words
            if future.cancelled():
                events.put(AnalysisRefused(GONE))
            elif future.exception() is not None:
                events.put(AnalysisRefused(f"The analysis failed: {future.exception()}"))

        future.add_done_callback(ended)
        while True:
            try:
                event = events.get(timeout=POLL)
            except queue.Empty:
                if self.loop.is_closed():  # the app ended under the analysis
                    raise AnalysisRefused(GONE) from None
                continue
            if isinstance(event, AnalysisRefused):
                raise event
            if isinstance(event, Analysis):
                if self._kept is None or len(event.decisions) >= len(self._kept.decisions):
                    self._kept = event  # the server keeps at least this now
                return event
            progress(event)

    async def _follow(
        self,
        seats: tuple[int, ...] | None,
        events: queue.Queue[_Event],
        stop: threading.Event,
        began: float,
    ) -> None:
        """Ask, follow and stop, on a connection of its own (closed at the end: were it
        the last to follow, the server's job stops with it)."""
        try:
            link = await self.dial()
        except (OSError, ConnectionError, TableUnavailable):
            events.put(AnalysisRefused(GONE))
            return
        try:
            events.put(await self._exchange(link, seats, events, stop, began))
        except (OSError, ConnectionError):
            events.put(AnalysisRefused(GONE))
        except AnalysisRefused as refused:
            events.put(refused)
        finally:
            with contextlib.suppress(OSError, ConnectionError):
                await link.close()

    async def _exchange(
        self,
        link: Link,
        seats: tuple[int, ...] | None,
        events: queue.Queue[_Event],
        stop: threading.Event,
        began: float,
    ) -> Analysis:
        reply = await link.ask(wire.Analyse(link.new_ref(), self.table, seats))
        while True:
            if isinstance(reply, wire.Analysed) and reply.table == self.table:
                return _analysis(reply)
            if isinstance(reply, wire.Analysing) and reply.table == self.table:
                events.put(Progress(reply.done, reply.total, time.monotonic() - began, reply.left))
            elif isinstance(reply, wire.Error) and reply.ref != 0:
                raise AnalysisRefused(_refusal(reply.reason))
            reply = await self._next(link, stop)

    async def _next(self, link: Link, stop: threading.Event) -> wire.ServerMessage:
        """The next message about the analysis; once ``stop`` is set, the answer to the
        stop (what is judged so far)."""
        hearing = asyncio.ensure_future(link.unasked())
        try:
            while not stop.is_set():
                done, _ = await asyncio.wait({hearing}, timeout=POLL)
                if done:
                    return hearing.result()
        finally:
            hearing.cancel()
        return await link.ask(wire.StopAnalysing(link.new_ref(), self.table))


def _analysis(reply: wire.Analysed) -> Analysis:
    if reply.analysis is None:
        raise AnalysisRefused("The table server has no analysis of this game.")
    return shown_analysis(reply.analysis)


def shown_analysis(analysis: Analysis) -> Analysis:
    """``analysis`` with every notation in it shown safely (they are the server's words:
    :func:`saves.text.shown`), the keys of each judgement's values too."""
    return Analysis(
        version=analysis.version,
        seed=analysis.seed,
        seats=analysis.seats,
        decisions=tuple(_shown_judgement(j) for j in analysis.decisions),
        complete=analysis.complete,
    )


def _shown_judgement(j: Judgement) -> Judgement:
    return Judgement(
        index=j.index,
        season=j.season,
        seat=j.seat,
        played=shown(j.played),
        best=shown(j.best),
        loss=j.loss,
        values={shown(notation): value for notation, value in j.values.items()},
        margins=j.margins,
        exact=j.exact,
    )


def _refusal(reason: str) -> str:
    """The server's refusal as a sentence (an older server does not know the request)."""
    if reason.startswith("malformed request"):
        return OLDER_SERVER
    reason = shown(reason)
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")
