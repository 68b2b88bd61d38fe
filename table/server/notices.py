"""The sender of notices far from the terminal: it drains the store's outbox
(:mod:`table.store.notices`), judging each due turn notice against the table as it is
now (:mod:`table.notices.when`), and delivers each message (:mod:`table.notices.delivery`).

- At least once, each message once to a receiver that drops repeats: a message is
  marked sent after it was delivered, and every try of it carries the same id.
- One in-flight delivery per channel, each in a thread and bounded by a timeout, so one
  player's dead mail server delays no other player's notices and no table (the tables
  never wait for the sender: their rows are written in their own commits).
- A failed try is tried again after a backoff that doubles (``backoff``, then twice
  that… up to :data:`MAX_BACKOFF`); the channel shows as failing since its first
  failure until one goes through.
- Several tables waiting for one player at once go to each channel as one digest, at
  most one a day (the others wait for the next day's).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Final

from table.notices import NoticeRefused
from table.notices import words as say
from table.notices.delivery import DeliveryFailed, Message, deliver
from table.notices.when import Facts, judge
from table.server.log import log
from table.store.notices import NoticeStore, OutboxRow

if TYPE_CHECKING:
    from table.host.notices import NoticeSettings
    from table.server.hub import Hub

MAX_BACKOFF: Final = 6 * 3600.0
DAY: Final = 86400.0
TIMEOUT: Final = 90.0
"""Seconds one delivery may take in all (its connection's own steps time out sooner)."""


class Sender:
    """See the module docstring. ``clock`` is the time; ``tick`` the longest sleep
    between looks at the outbox (a new row due sooner wakes it: :meth:`wake`)."""

    def __init__(
        self,
        store: NoticeStore,
        settings: NoticeSettings,
        facts: Callable[[OutboxRow], Facts],
        table_name: Callable[[int], str],
        clock: Callable[[], float] = time.time,
        tick: float = 30.0,
        backoff: float = 60.0,
    ) -> None:
        self.store = store
        self.settings = settings
        self.facts = facts
        self.table_name = table_name
        self.clock = clock
        self.tick = tick
        self.backoff = backoff
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="notices-store")
        self.lines = ThreadPoolExecutor(16, thread_name_prefix="notices-send")
        self.busy: set[int] = set()
        """Channels with a delivery in flight."""
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self.stopping = False

    async def _store(self, call: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.thread, call, *args)

    def wake(self) -> None:
        """Look at the outbox now (a new row may be due sooner than the next tick)."""
        self._wake.set()

    async def run(self) -> None:
        """Until :meth:`stop`: each round sends what is due, then sleeps until the next
        row is due (at most ``tick``)."""
        while not self.stopping:
            self._wake.clear()
            try:
                await self.round()
                next_due = await self._store(self.store.next_due)
            except Exception as exc:  # the store's trouble: tried again next tick
                log(f"notices: the outbox could not be read: {exc}")
                next_due = None
            pause = self.tick
            if next_due is not None:
                pause = min(pause, max(0.05, next_due - self.clock()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), pause)

    def stop(self) -> list[asyncio.Task[Any]]:
        self.stopping = True
        self._wake.set()
        return list(self._tasks)

    def close(self) -> None:
        self.lines.shutdown(wait=False, cancel_futures=True)
        self.thread.shutdown(wait=True)

    async def round(self) -> None:
        """Everything due now, channel by channel (a channel busy is left for later)."""
        now = self.clock()
        rows: list[OutboxRow] = await self._store(self.store.due, now)
        by_channel: dict[int, list[OutboxRow]] = {}
        for row in rows:
            if row.channel not in self.busy:
                by_channel.setdefault(row.channel, []).append(row)
        for channel, pending in by_channel.items():
            for message, ids, digest in await self._plan(pending, now):
                self.busy.add(channel)
                task = asyncio.get_running_loop().create_task(
                    self._send(pending[0], message, ids, digest)
                )
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
                break  # one in flight a channel: the rest next round

    async def _plan(
        self, rows: list[OutboxRow], now: float
    ) -> list[tuple[Message, list[int], bool]]:
        """The messages to send to one channel now: its confirmations, then its turn
        notices still due (one, or a digest of several); the rest dropped or put off."""
        plans: list[tuple[Message, list[int], bool]] = []
        for row in rows:
            if row.kind == "confirm":
                plans.append((Message(row.message_id, row.subject or "", row.body or "",
                                      "confirm"), [row.id], False))  # fmt: skip
        turns = [row for row in rows if row.kind == "turn"]
        going: list[OutboxRow] = []
        for row in turns:
            verdict, why, until = ("drop", "the channel is not confirmed", None)
            if row.confirmed:
                verdict, why, until = judge(self.facts(row), now, row.since, row.due - row.since)
            if verdict == "drop":
                await self._store(self.store.dropped, [row.id], why, now)
            elif verdict == "wait":
                await self._store(self.store.later, [row.id], until or now + self.tick)
            else:
                going.append(row)
        if not going:
            return plans
        first = going[0]
        batch = kept = next((r.batch for r in going if r.batch is not None), None)
        if batch is None and len(going) > 1:
            last = first.last_digest
            if last is not None and now - last < DAY:
                await self._store(self.store.later, [r.id for r in going], last + DAY)
                return plans
            batch = say.message_id("digest", f"{first.channel}.{first.id}")
            await self._store(self.store.batched, [r.id for r in going], batch)
        if batch is not None:
            going = [r for r in going if r.batch in (None, batch)]
            joining = [r.id for r in going if r.batch is None]
            if joining and kept is not None:  # kept in it, so that a retry is the same
                await self._store(self.store.batched, joining, batch)
        waiting = [self._waiting(r) for r in going]
        if batch is None:
            subject, body = say.turn(first.name, waiting[0], self.settings.come_back)
            plans.append((Message(first.message_id, subject, body, "turn", (waiting[0].table,)),
                          [first.id], False))  # fmt: skip
        else:
            back = self.settings.come_back  # a digest whose other tables moved on: one left
            subject, body = (say.digest(first.name, waiting, back) if len(waiting) > 1
                             else say.turn(first.name, waiting[0], back))  # fmt: skip
            tables = tuple(w.table for w in waiting)
            plans.append((Message(batch, subject, body, "digest", tables),
                          [r.id for r in going], True))  # fmt: skip
        return plans

    def _waiting(self, row: OutboxRow) -> say.Waiting:
        name = self.table_name(row.table or 0)
        return say.Waiting(row.table or 0, name, row.since)

    async def _send(self, row: OutboxRow, message: Message, ids: list[int], digest: bool) -> None:
        """One delivery, then its row marked (sent, or failed and tried again later)."""
        loop = asyncio.get_running_loop()
        settings = self.settings
        try:
            job = loop.run_in_executor(self.lines, deliver, row.channel_kind, row.address,
                                       message, settings.relay, settings.allow)  # fmt: skip
            await asyncio.wait_for(job, TIMEOUT)
        except (DeliveryFailed, NoticeRefused, TimeoutError, OSError) as exc:
            error = str(exc) or "no answer in time"
            attempts = row.attempts + 1
            later = self.clock() + min(self.backoff * 2 ** (attempts - 1), MAX_BACKOFF)
            try:
                await self._store(self.store.failed, ids, row.channel, error, later, self.clock())
            except Exception as store_error:
                log(f"notices: a failure could not be kept: {store_error}")
            log(f"notices: {message.id} to {row.name}'s {row.channel_kind} failed "
                f"(try {attempts}): {error!a}")  # fmt: skip
        else:
            try:
                await self._store(self.store.sent, ids, row.channel, self.clock(), digest)
            except Exception as store_error:  # sent again later, the same id: dropped there
                log(f"notices: {message.id} sent but not marked: {store_error}")
            log(f"notices: {message.id} sent to {row.name}'s {row.channel_kind}")
        finally:
            self.busy.discard(row.channel)
            self._wake.set()


def table_name_of(hub: Hub, table: int) -> str:
    room = hub.rooms.get(table)
    return room.info().title if room is not None else f"table {table}"


def facts_of(hub: Hub, row: OutboxRow) -> Facts:
    """What the server knows now of ``row``'s table and player."""
    room = hub.rooms.get(row.table or 0)
    state = room.state if room is not None else None
    turn_still = standin = False
    paused = None
    if room is not None and state is not None and state.current_player is not None:
        seat = room.row.seats[state.current_player]
        turn_still = (
            room.damaged is None and len(room.row.actions) == row.seq and seat.name == row.name
        )
        standin = seat.standin is not None
        paused = room.row.paused_until
    connections = hub.connections
    away = None
    if not connections.connections[row.name]:
        away = connections.left.get(row.name, connections.since)
    return Facts(turn_still, standin, paused, away, off=False)
