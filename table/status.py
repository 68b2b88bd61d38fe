"""``mykerinos status``: one line naming the tables where it is your turn, fast enough
for a shell prompt or a login message.

Exit status: 0 when it is your turn somewhere, 1 when nowhere, 2 when no server answers.
Put it in ``~/.profile`` (``mykerinos status``) to be told at login; see
``docs/table-server.md``.

To start in a few tens of milliseconds it speaks the protocol with the standard library
only (a blocking socket and ``json``): importing ``table.protocol`` would load the rules
and msgspec's typed decoders, which this one question does not need. The few words of the
protocol it uses are checked against :mod:`table.protocol` by the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import struct
import sys

VERSION = 2
"""``table.protocol.VERSION``."""
TIMEOUT = 2.0
"""Seconds the server has to answer."""
MAX_FRAME = 8 * 1024 * 1024


def _send(sock: socket.socket, message: dict[str, object]) -> None:
    body = json.dumps(message).encode()
    sock.sendall(struct.pack(">I", len(body)) + body)


def _receive(sock: socket.socket) -> dict[str, object]:
    (size,) = struct.unpack(">I", _exactly(sock, 4))
    if size > MAX_FRAME:
        raise ConnectionError("the server sent a frame too long")
    answer = json.loads(_exactly(sock, size))
    if not isinstance(answer, dict):
        raise ConnectionError("the server answered oddly")
    return answer


def _exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the server closed the connection")
        data += chunk
    return data


def my_turns(path: str, player: str | None) -> tuple[str, list[dict[str, object]]]:
    """The name the server knows this terminal by, and the tables where it is that
    player's turn. Raises ``OSError``/``ConnectionError`` when no server answers."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(TIMEOUT)
        sock.connect(path)
        _send(sock, {"t": "hello", "version": VERSION, "player": player})
        welcome = _receive(sock)
        if welcome.get("t") != "welcome":
            raise ConnectionError(str(welcome.get("reason", "the server refused")))
        me = str(welcome["player"])
        _send(sock, {"t": "list", "ref": 1})
        lobby = _receive(sock)
    tables = lobby.get("tables", [])
    mine = []
    for table in tables if isinstance(tables, list) else []:
        turn, seats = table.get("turn"), table.get("seats", [])
        if table.get("status") == "playing" and isinstance(turn, int) and turn < len(seats):
            seat = seats[turn]
            if seat.get("name") == me and not seat.get("computer"):
                mine.append(table)
    return me, mine


def line(me: str, tables: list[dict[str, object]]) -> str:
    """``Your turn at 2 tables: Sunday game (s2), ann, ben (s1)``."""
    if not tables:
        return f"No table is waiting for {me}."
    names = ", ".join(f"{_shown(t.get('title'))} (s{t.get('season')})" for t in tables)
    count = f"{len(tables)} table{'s' * (len(tables) != 1)}"
    return f"Your turn at {count}: {names}"


def _shown(text: object) -> str:
    """``text`` safe on a terminal: a character that does not print as itself is ``?``."""
    return "".join(c if c.isprintable() else "?" for c in str(text))[:60]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="mykerinos status",
        description="Say in one line where it is your turn (exit 0), or that it is nowhere "
        "(exit 1); exit 2 when no table server answers.",
    )
    parser.add_argument("--socket", metavar="PATH", help="the table server's socket")
    parser.add_argument("--player", metavar="NAME", help="your name at a shared account")
    args = parser.parse_args(argv)
    path = args.socket or os.environ.get("MYKERINOS_SOCKET") or _default_socket()
    try:
        me, tables = my_turns(path, args.player)
    except (OSError, ConnectionError, ValueError, KeyError) as exc:
        print(f"mykerinos: no table server at {path} ({exc})", file=sys.stderr)
        return 2
    print(line(me, tables))
    return 0 if tables else 1


def _default_socket() -> str:
    from table.address import socket_path  # platformdirs: only when no path is given

    return str(socket_path())


if __name__ == "__main__":
    sys.exit(main())
