"""What only a shared table has, from this terminal: the :class:`table.seat.SharedTable`
of a :class:`table.client.seat.RemoteSeat`.

The table as last told, its journal and the seats this terminal decides for are the
seat's (:mod:`table.client.known`); chat, the pause and hand-overs are requests the seat
sends. Whether a key applies and why a request would be refused is asked of
:mod:`table.rules`, the rules the server enforces, with this machine's time; the server
still has the last word (the table may have changed on the way), and says it as a
refusal.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from msgspec.structs import replace

import core
from table import journal, rules
from table import protocol as wire
from table.seat import SeatError

if TYPE_CHECKING:
    from table.client.analysis import TableAnalysis
    from table.client.seat import RemoteSeat

OUT_OF_REACH = "The table server is out of reach: reconnecting…"
ON_ITS_WAY = "Your last request is still on its way to the server."


class RemoteTable:
    """The shared table a :class:`~table.client.seat.RemoteSeat` plays at."""

    def __init__(self, seat: RemoteSeat) -> None:
        self._seat = seat

    @property
    def info(self) -> wire.TableInfo:
        return self._seat.known.info

    @property
    def seats_here(self) -> frozenset[int]:
        return self._seat.known.seats_here

    @property
    def journal(self) -> Sequence[journal.Any]:
        return self._seat.known.journal

    def _player(self) -> str:
        """This terminal's player (raises :class:`SeatError` while out of reach)."""
        link = self._seat.link
        if link is None:
            raise SeatError(OUT_OF_REACH)
        return link.player

    def _send(self, request: wire.Say | wire.Pause | wire.Resume | wire.HandOver) -> None:
        if self._seat.busy and not isinstance(request, wire.Say):
            raise SeatError(ON_ITS_WAY)
        self._seat.send(request)

    # ---------------------------------------------------------------- chat

    def can_say(self) -> bool:
        return self._seat.link is not None and not self._seat.by_watch_link

    def say(self, text: str) -> None:
        self._player()
        self._send(wire.Say(0, self.info.id, text[: wire.MAX_CHAT]))

    # ---------------------------------------------------------------- the pause

    def can_pause(self) -> bool:
        """A pause is a thing here when the rules would grant it were no pause running and
        none taken this season (those two are said when P is pressed)."""
        link = self._seat.link
        if link is None:
            return False
        fresh = replace(self.info, paused_until=None, paused_by=None, paused_this_season=())
        here = sorted(self.seats_here)
        return rules.why_no_pause(fresh, self._seat.state, link.player, here, time.time()) is None

    def why_no_pause(self) -> str | None:
        try:
            player = self._player()
        except SeatError as exc:
            return str(exc)
        here = sorted(self.seats_here)
        why = rules.why_no_pause(self.info, self._seat.state, player, here, time.time())
        if why is not None:
            return rules.sentence(why)
        if self._seat.busy:
            return ON_ITS_WAY
        return None

    def pause(self, minutes: int) -> None:
        why = self.why_no_pause()
        if why is not None:
            raise SeatError(why)
        self._send(wire.Pause(0, self.info.id, minutes))

    def can_resume(self) -> bool:
        link = self._seat.link
        return (
            link is not None
            and bool(self.seats_here)
            and rules.why_no_resume(self.info, link.player, time.time()) is None
        )

    def resume(self) -> None:
        why = rules.why_no_resume(self.info, self._player(), time.time())
        if why is not None:
            raise SeatError(rules.sentence(why))
        self._send(wire.Resume(0, self.info.id))

    # ---------------------------------------------------------------- hand-over

    def can_hand_over(self) -> bool:
        return self._seat.link is not None and self.why_no_hand_over() is None

    def why_no_hand_over(
        self, level: core.Level | None = "normal", seat: int | None = None
    ) -> str | None:
        """Why handing this terminal's seat (or ``seat``, an absent player's) to a computer
        of ``level`` (None: taking it back) would be refused now, in a sentence."""
        info, here = self.info, sorted(self.seats_here)
        why = rules.why_no_hand_over(info, self._seat.state, here)
        if why is None and seat is not None:
            why = rules.why_not_absent(info, seat, level, time.time())
        return None if why is None else rules.sentence(why)

    def hand_over(self, level: core.Level | None, seat: int | None = None) -> None:
        """Let a computer of ``level`` play this terminal's seat (None: take it back), or
        at a live table the seat of a player away longer than the wait; the table's
        journal says it to everyone."""
        self._player()
        why = self.why_no_hand_over(level, seat)
        if why is not None:
            raise SeatError(why)
        self._send(wire.HandOver(0, self.info.id, level, seat))

    def absent_seats(self) -> list[tuple[int, str]]:
        if self._seat.link is None:
            return []
        return rules.absent_seats(self.info, sorted(self.seats_here), time.time())

    @property
    def handed_to(self) -> core.Level | None:
        """The level of the computer playing this terminal's seat, None if nobody does."""
        return next((self.info.seats[s].standin for s in sorted(self.seats_here)), None)

    # ---------------------------------------------------------------- the analysis

    def analysis(self) -> TableAnalysis:
        """The finished game's analysis, made by the server (call it from the event
        loop; its ``run`` from a thread): see :mod:`table.client.analysis`."""
        import asyncio

        from table.client.analysis import TableAnalysis

        return TableAnalysis(self._seat.dial, self.info.id, asyncio.get_running_loop())
