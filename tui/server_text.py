"""What a table server says, made safe to draw before any screen reads it.

A server is another program, perhaps another person's, and the names, titles and chat it
relays were typed by other players: every string of every message it sends (titles,
names, chat, refusals, the entries of a table's journal, the words of the log, the
players' names inside a position) goes through :func:`saves.text.shown` here, at the one
door server data comes in by: the :class:`table.client.directory.Link`.
:class:`ShownServer` wraps the links it dials, so the lobby's
:class:`~table.client.directory.TableDirectory`, every
:class:`table.client.seat.RemoteSeat` and their redials all read through
:class:`ShownLink`; a refusal of the hello is shown the same way.

The text stays plain text: the screens draw it as ``rich.text.Text`` or with markup off,
so a ``[/]`` in a name is shown as written.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeVar, cast

import msgspec

from saves.text import shown
from table import protocol as wire
from table.client.connection import Refused
from table.client.directory import Link, ServerAddress

_Value = TypeVar("_Value")


def shown_message(value: _Value) -> _Value:
    """``value`` (a message, or anything inside one) with every string in it shown safely
    (see :func:`saves.text.shown`); the same object when nothing needed it. Enum members
    (colours) are kept: they are not the server's words."""
    if isinstance(value, enum.Enum):
        return value
    if isinstance(value, str):
        safe = shown(value)
        return value if safe == value else cast(_Value, safe)
    if isinstance(value, tuple):
        items = tuple(shown_message(item) for item in value)
        changed = any(new is not old for new, old in zip(items, value, strict=True))
        return cast(_Value, items) if changed else value
    if isinstance(value, msgspec.Struct):
        fields = {name: getattr(value, name) for name in value.__struct_fields__}
        changes = {name: shown_message(old) for name, old in fields.items()}
        changes = {name: new for name, new in changes.items() if new is not fields[name]}
        return msgspec.structs.replace(value, **changes) if changes else value
    return value


class ShownLink:
    """A :class:`table.client.directory.Link` whose every answer, update and error is shown
    safely."""

    def __init__(self, link: Link) -> None:
        self.link = link

    @property
    def player(self) -> str:
        return shown(self.link.player)

    async def ask(self, message: wire.ClientMessage) -> wire.ServerMessage:
        try:
            return shown_message(await self.link.ask(message))
        except ConnectionError as exc:
            raise ConnectionError(shown(str(exc))) from None

    async def unasked(self) -> wire.ServerMessage:
        try:
            return shown_message(await self.link.unasked())
        except ConnectionError as exc:
            raise ConnectionError(shown(str(exc))) from None

    def new_ref(self) -> int:
        return self.link.new_ref()

    async def close(self) -> None:
        await self.link.close()


@dataclass(frozen=True)
class ShownServer(ServerAddress):
    """A :class:`table.client.directory.ServerAddress` whose connections are :class:`ShownLink` s,
    and whose refusals quote the server safely."""

    async def dial(self) -> Link:
        try:
            link = await super().dial()
        except Refused as exc:
            raise Refused(shown(str(exc))) from None
        except ConnectionError as exc:
            if type(exc) is not ConnectionError:
                raise  # the system's own words (ConnectionRefusedError…), not the server's
            raise ConnectionError(shown(str(exc))) from None
        return ShownLink(link)


def shown_server(address: ServerAddress) -> ShownServer:
    """``address``, its server's words shown safely."""
    if isinstance(address, ShownServer):
        return address
    return ShownServer(address.socket, address.player, address.ticket)
