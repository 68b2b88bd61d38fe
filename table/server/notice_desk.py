"""A player's own notices far from the terminal, asked for and changed from the lobby's
``n`` (through a door as well as locally): add a channel (a code goes to it at once),
confirm it with the code, remove it, choose the delay, turn everything off or on.

A channel is written to only once confirmed, except for the one message that carries
its code: so no player can make the server write to someone else's address more than
once per time they add it, and never to a host the server's host did not allow.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Final

from table import protocol_notices as wire
from table.notices import DEFAULT_DELAY, DELAYS, NoticeRefused
from table.notices import words as say
from table.notices.checks import (
    CODE_LIFE,
    CODE_TRIES,
    check_address,
    code_hash,
    new_code,
    resolved,
    split_url,
)
from table.server.rules import Refusal
from table.store.notices import NoticeStore

if TYPE_CHECKING:
    from table.host.notices import NoticeSettings

MAX_CHANNELS: Final = 5
"""Channels one player may have (confirmed or not)."""
CODES_AN_HOUR: Final = 5
"""Codes one player may have sent in an hour (so no one floods an address with them)."""


class NoticeDesk:
    """Answers a player's notice requests (one store thread, like the sender's)."""

    def __init__(
        self,
        store: NoticeStore,
        settings: NoticeSettings,
        wake: Callable[[], None],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.settings = settings
        self.wake = wake
        self.clock = clock
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="notices-desk")
        self.codes_sent: dict[str, list[float]] = {}
        """When each player had a code sent, in the last hour (kept in memory only)."""

    async def _run(self, call: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.thread, call, *args)

    async def answer(self, player: str, message: wire.NoticeRequest) -> wire.NoticeState:
        """Do what ``message`` asks for ``player``; raises :class:`Refusal` in words."""
        said = ""
        match message:
            case wire.NoticesShow():
                pass
            case wire.NoticeAdd(kind=kind, address=address):
                said = await self._add(player, kind, address)
            case wire.NoticeConfirm(channel=channel, code=code):
                done = await self._run(self.store.confirm, player, channel, code_hash(code),
                                       self.clock(), CODE_TRIES)  # fmt: skip
                said = {
                    "confirmed": "Confirmed: notices go there from now on.",
                    "wrong": "That is not the code sent there; try again.",
                    "expired": "That code has expired: remove the address and add it again.",
                    "unknown": "No such address waits for a code (too many wrong codes "
                    "remove it: add it again).",
                }[done]
            case wire.NoticeRemove(channel=channel):
                gone = await self._run(self.store.remove, player, channel)
                said = "Removed." if gone else "No such address."
            case wire.NoticeSet(delay=delay, off=off):
                await self._run(self.store.set_player, player, delay, off)
                said = "Every notice is off." if off else "Notices are on."
        return await self.state(player, message.ref, said)

    async def _add(self, player: str, kind: wire.ChannelKind, address: str) -> str:
        settings = self.settings
        if kind == "email" and settings.relay is None:
            raise Refusal(wire.NO_MAIL_RELAY)
        try:
            address = check_address(kind, address, settings.allow)
            if kind != "email":  # its name must stand for an address the server posts to
                _, host, port, _ = split_url(address)
                await self._run(resolved, host, port, settings.allow)
        except NoticeRefused as exc:
            raise Refusal(str(exc)) from None
        now = self.clock()
        sent = [at for at in self.codes_sent.get(player, []) if at > now - 3600]
        if len(sent) >= CODES_AN_HOUR:
            raise Refusal(f"{CODES_AN_HOUR} codes an hour at most: try again later")
        self.codes_sent[player] = [*sent, now]
        channels = await self._run(self.store.channels, player)
        if len(channels) >= MAX_CHANNELS and all(c.address != address for c in channels):
            raise Refusal(f"{MAX_CHANNELS} addresses at most: remove one first")
        code = new_code()
        subject, body = say.confirm(player, code)
        key = f"{player}.{kind}.{int(now * 1000)}"
        message = (say.message_id("confirm", code_hash(key)[:16]), subject, body)
        await self._run(self.store.add_channel, player, kind, address, code_hash(code),
                        now + CODE_LIFE, message, now)  # fmt: skip
        self.wake()
        return "A code was sent there: type it with c to confirm the address."

    async def state(self, player: str, ref: int, said: str = "") -> wire.NoticeState:
        channels = await self._run(self.store.channels, player)
        delay, off = await self._run(self.store.player, player)
        shown = tuple(
            wire.NoticeChannel(c.id, c.kind, c.address, c.confirmed, c.failing_since, c.last_error)
            for c in channels
        )
        hosts = tuple(sorted(self.settings.allow.hosts))
        relay = self.settings.relay is not None
        return wire.NoticeState(ref, shown, delay, off, DEFAULT_DELAY, DELAYS, relay, hosts, said)

    def close(self) -> None:
        self.thread.shutdown(wait=True)
