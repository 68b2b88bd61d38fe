"""After a drop: the requests a lost connection left unanswered, settled against the
table as fetched again.

A request of the remote seat (a move, an undo, a hand-over, a pause or its end, a line of
chat) is kept as :class:`Sent` with what it meant: the history and the journal's length
when it was made. If the connection drops before its answer, :func:`settle` looks, once
back, at the history and the journal just fetched: a request the server kept before the
drop counts as done (never twice), one made at the table's present position and still
allowed there is sent again, and any other is not made, the player being told so in
words. The journal says exactly what was kept: an undo, a pause, a hand-over or a line
of chat made after the request was sent, by this player.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, assert_never

import core
from core.explain import describe_action
from table import journal
from table import protocol as wire
from table.seat import Update

if TYPE_CHECKING:
    from table.client.directory import Link
    from table.client.known import KnownTable
    from table.client.seat import RemoteSeat

Request = wire.Play | wire.Undo | wire.HandOver | wire.Pause | wire.Resume | wire.Say
"""What the seat asks of its table and hears the answer to later."""


@dataclass(eq=False)
class Sent:
    """A request on its way, with what it means: the table's history and position when it
    was made, and the number of the journal's next entry then (what the server did with
    it is in the entries from there on)."""

    request: Request
    link: Link
    history: tuple[core.Action, ...]
    before: core.GameState
    told_upto: int
    task: asyncio.Task[None] | None = None


def settle(seat: RemoteSeat, link: Link) -> None:
    """Settle, oldest first, the requests of ``seat`` made on another connection than
    ``link`` (the one just opened), against the table just fetched: kept, sent again on
    ``link``, or not made and said."""
    for sent in [s for s in seat.sent if s.link is not link]:
        seat.sent.remove(sent)
        if sent.task is not None:
            sent.task.cancel()  # an answer the dead connection will never bring
        if was_kept(seat.known, sent, link.player):
            note = "Your move was played." if isinstance(sent.request, wire.Play) else None
            seat.tell(Update("status", seat.state, note=note))
        elif tuple(seat.known.actions) == sent.history and may_send(seat, sent.request):
            seat.send(sent.request)
        else:
            seat.tell(Update("status", seat.state, problem=not_made(seat.known, sent)))


def was_kept(known: KnownTable, sent: Sent, player: str) -> bool:
    """Whether the table as fetched again shows ``sent`` done by the server: its move in
    its place in the history, or its entry in the journal after it was sent."""
    request, seq = sent.request, len(sent.history)
    if isinstance(request, wire.Play):
        return known.actions[: seq + 1] == [*sent.history, request.action]
    return any(_answers(request, entry, seq, player) for entry in known.since(sent.told_upto))


def _answers(request: Request, entry: journal.Any, seq: int, player: str) -> bool:
    """Whether ``entry`` is what ``request`` (made by ``player`` with ``seq`` actions
    played) asked for."""
    match request, entry:
        case wire.Undo(), journal.Undo():
            return entry.player == player and entry.seq == seq - 1
        case wire.HandOver(), journal.HandOver():
            seat = request.seat is None or entry.seat == request.seat
            return entry.by == player and entry.level == request.level and seat
        case wire.Pause(), journal.Pause():
            return entry.player == player
        case wire.Resume(), journal.PauseEnd():
            return entry.player == player  # ended early or run out: no pause of theirs runs
        case wire.Say(), journal.Chat():
            return entry.name == player and entry.text == request.text.strip()
    return False


def may_send(seat: RemoteSeat, request: Request) -> bool:
    """Whether ``request`` is still allowed at the present position."""
    table = seat.table
    match request:
        case wire.Play():
            legal = request.action in seat.legal_actions()
            return legal and seat.decides_here(seat.state.current_player)
        case wire.Undo():
            return seat.can_undo()
        case wire.HandOver():
            return table.why_no_hand_over(request.level, request.seat) is None
        case wire.Pause():
            return table.why_no_pause() is None
        case wire.Resume():
            return table.can_resume()
        case wire.Say():
            return table.can_say()
        case _ as never:
            assert_never(never)


def not_made(known: KnownTable, sent: Sent) -> str:
    """Why ``sent`` was not made after the reconnect, and what it was, in words."""
    match sent.request:
        case wire.Play(action=action):
            what = f"your move was not played ({describe_action(sent.before, action)})"
        case wire.Undo():
            what = "your last action was not taken back"
        case wire.HandOver(level=level):
            handed = "handed to the computer" if level else "taken back from the computer"
            what = f"your seat was not {handed}"
        case wire.Pause():
            what = "the table was not paused"
        case wire.Resume():
            what = "the table was not resumed"
        case wire.Say(text=text):
            what = f"your line was not said ({text.strip()})"
        case _ as never:
            assert_never(never)
    if tuple(known.actions) != sent.history:
        return f"The table moved on while you were disconnected: {what}."
    return f"After the reconnect this is no longer allowed: {what}."
