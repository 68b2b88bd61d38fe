"""Which room, or which part of the hub, answers each request: one ``match`` over every
request type, ending in ``assert_never``, so a request type added to the protocol cannot
go unanswered. A route only finds the room and hands the request on: what follows a
change (a computer's turn, the pause's end, the rating, telling everyone) is the room's
own (:mod:`table.server.room`), whatever the request was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from table import ladder
from table import protocol as wire
from table import protocol_notices as notice

if TYPE_CHECKING:
    from table.server.connections import Client
    from table.server.hub import Hub


async def route(hub: Hub, client: Client, message: wire.Request) -> None:
    """Answer ``client``'s ``message`` (a :class:`table.server.rules.Refusal` refuses it)."""
    ref = message.ref
    if client.watching is not None:
        only_watching(client.watching, message)
    match message:
        case wire.ListTables():
            tables = hub.lobby(client.player)
            if client.watching is not None:  # a watch link's session knows its table only
                tables = tuple(info for info in tables if info.id == client.watching)
            client.send(wire.Lobby(ref, tables))
        case wire.CreateTable():
            await hub.create(client, message)
        case wire.Join():
            room = hub.room(message.table)
            await room.enter(client, ref, False, message.seat, message.back)
            client.rooms.add(room)
        case wire.Watch():
            room = hub.room(message.table)
            await room.enter(client, ref, True, None, False)
            client.rooms.add(room)
        case wire.Play():
            await hub.room(message.table).play(client, ref, message.seq, message.action)
        case wire.Undo():
            await hub.room(message.table).undo(client, ref, message.seq)
        case wire.Say():
            await hub.room(message.table).say(client, ref, message.text)
        case wire.Pause():
            await hub.room(message.table).pause(client, ref, message.minutes)
        case wire.Resume():
            await hub.room(message.table).resume(client, ref)
        case wire.HandOver():
            await hub.room(message.table).hand_over(client, ref, message.level, message.seat)
        case wire.Leave():
            room = hub.room(message.table)
            room.leave(client)
            client.rooms.discard(room)
            client.send(wire.Lobby(ref, ()))
        case wire.Ladder():
            rows = tuple(
                wire.Standing(r.name, r.mu, r.sigma, r.games, r.wins)
                for r in ladder.ranked(hub.ladder.ratings)
            )
            client.send(wire.Standings(ref, rows))
        case wire.Export():
            client.send(wire.Exported(ref, hub.room(message.table).export()))
        case wire.Analyse():
            hub.analyses.analyse(hub.room(message.table), client, message)
        case wire.StopAnalysing():
            hub.analyses.stop(hub.room(message.table), client, ref)
        case (
            notice.NoticesShow() | notice.NoticeAdd() | notice.NoticeConfirm()
            | notice.NoticeRemove() | notice.NoticeSet()
        ):  # fmt: skip
            if hub.notice_desk is None:
                from table.server.rules import Refusal

                raise Refusal("this server sends no notices far from the terminal")
            client.send(await hub.notice_desk.answer(client.player, message))
        case _:
            assert_never(message)


def only_watching(table: int, message: wire.Request) -> None:
    """A watch link's session (:attr:`Client.watching`) may list its table, watch it,
    leave it, export it and have it analysed (what anyone who may replay it may do),
    nothing else: it has no seat, no other table, and no voice (chat is a player's)."""
    from table.server.rules import Refusal

    match message:
        case wire.ListTables():
            return
        case (
            wire.Watch() | wire.Leave() | wire.Export() | wire.Analyse() | wire.StopAnalysing()
        ) if message.table == table:
            return
        case wire.Watch() | wire.Join() | wire.Analyse() | wire.StopAnalysing():
            raise Refusal(f"this link lets you watch table {table} only")
        case _:
            raise Refusal("a watch link only lets you watch: no seat, no chat, no change")
