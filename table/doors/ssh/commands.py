"""The commands an SSH door session runs instead of the game: ``status`` and
``export TABLE``.

``ssh -p PORT host status`` prints the player's status line, as ``mykerinos status`` does
on the host. ``ssh -p PORT host export TABLE > game.json`` writes table ``TABLE``'s game,
as an ordinary save file (the JSON the game's Ctrl+S exports), to the guest's own standard
output: a guest through the door can never reach the host's folders, so this is how they
get an export where they are. Any table the lobby lists may be exported (every player may
watch any table); the door asks the table server for it with the session's ticket, like
any client of the player's. A table that does not exist is one line on stderr and exit
status 1; a malformed command or a server that does not answer, exit status 2. Nothing
but the save's bytes ever reaches stdout, and every word that reaches stderr is escaped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from saves.text import printable
from table import protocol as wire
from table.client.connection import Refused, connect

if TYPE_CHECKING:
    from table.doors.ssh.server import Door

EXPORT_WITHIN: Final = 10.0
"""Seconds an export may take (connecting, the hello, the table's save)."""
MAX_TABLE_DIGITS: Final = 9
"""Digits of a table's number worth asking the server about."""
USAGE: Final = (
    "only `status` and `export TABLE` can be run here (TABLE: a table's number, as the "
    "lobby shows it); connect without a command to play"
)

Write = Callable[[bytes], None]


async def run_command(
    door: Door,
    player: str,
    command: str,
    out: Write,
    err: Write,
    started: Callable[[asyncio.subprocess.Process], None],
) -> int:
    """Run ``command`` as ``player``'s, its output through ``out`` and ``err``; returns
    the exit status (``started`` is given a process the session ends if the client goes)."""
    words = command.split()
    if words == ["status"]:
        with door.admitted(player) as ticket:
            return await door.status(ticket, out, err, started)
    if len(words) == 2 and words[0] == "export":
        table = words[1]
        if not (table.isascii() and table.isdigit() and len(table) <= MAX_TABLE_DIGITS):
            _say(err, f"export TABLE: TABLE is a table's number, not {printable(table[:20])!r}")
            return 2
        with door.admitted(player) as ticket:
            return await export(door.socket, ticket, int(table), out, err)
    _say(err, f"{USAGE} (not {printable(command[:60])!r})")
    return 2


async def export(socket: Path, ticket: str, table: int, out: Write, err: Write) -> int:
    """Table ``table``'s game as a save file, through ``out``, asked of the server at
    ``socket`` as the ``ticket``'s player: 0 once written; 1, said on ``err``, when the
    server refuses (no such table); 2 when it does not answer as it should."""
    try:
        reply = await asyncio.wait_for(_ask(socket, ticket, table), EXPORT_WITHIN)
    except Refused as exc:
        _say(err, f"the table server refused: {printable(str(exc))}")
        return 2
    except (OSError, ConnectionError, TimeoutError):
        _say(err, "the table server did not answer; try again in a moment")
        return 2
    if isinstance(reply, wire.Error):
        _say(err, printable(reply.reason))
        return 1
    if not isinstance(reply, wire.Exported):
        _say(err, "the table server answered oddly; try again in a moment")
        return 2
    out(reply.save)
    return 0


async def _ask(socket: Path, ticket: str, table: int) -> wire.ServerMessage:
    connection = await connect(socket, None, ticket)
    try:
        return await connection.ask(wire.Export(connection.new_ref(), table))
    finally:
        await connection.close()


def _say(err: Write, line: str) -> None:
    err(f"mykerinos: {line}\r\n".encode())
