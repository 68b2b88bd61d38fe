"""``mykerinos status``: one line naming the tables where it is your turn, fast enough
for a shell prompt or a login message.

Exit status: 0 when it is your turn somewhere, 1 when nowhere, 2 when no server answers as
one should: none listens there, it is silent or slow (the whole exchange has
:data:`DEADLINE` seconds), or what it sends is not the protocol (a frame that is not JSON,
or longer than :data:`MAX_FRAME`, a welcome or a list of tables that is not one). Then one
line on stderr names the socket and says why; never a traceback, and never 1, which would
say "not your turn" of a server that said nothing true. Put it in ``~/.profile``
(``mykerinos status``) to be told at login; see ``docs/table-server.md``.

To start in a few tens of milliseconds it speaks the protocol with the standard library
only (a blocking socket and ``json``): importing ``table.protocol`` would load the rules
and msgspec's typed decoders, which this one question does not need. The few words of the
protocol it uses are checked against :mod:`table.protocol` by the tests. For the same
reason it does not import ``saves.text`` (whose package loads the rules): every string of
the server's it prints goes through :func:`shown`, a copy of ``saves.text.shown`` that the
tests keep equal to it, so that names and titles other players chose cannot send escape
sequences to this terminal.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import struct
import sys
import time
import unicodedata

from table.client import TICKET_ENV

VERSION = 3
"""``table.protocol.VERSION``."""
DEADLINE = 2.0
"""Seconds the whole exchange may take: connecting, the hello and the list of tables."""
MAX_FRAME = 1024 * 1024
"""The longest frame read: a lobby of the server's 500 tables is about half of it."""

HEADER = struct.Struct(">I")


class BrokenServer(Exception):
    """Something answered at the socket, but not as a table server does (``str``: how)."""


class Refused(Exception):
    """The server refused the hello or the list (``str``: its reason, shown safely)."""


# ---------------------------------------------------------------- the exchange


def my_turns(
    path: str, player: str | None, ticket: str | None = None, deadline: float | None = None
) -> tuple[str, list[dict[str, object]]]:
    """The name the server knows this terminal by (with a door's ``ticket``: the ticket's
    player), and the tables where it is that player's turn, all within ``deadline`` (a
    ``time.monotonic`` time; None: :data:`DEADLINE` seconds from now). Raises ``OSError``
    when no server answers in time, :class:`Refused` with its reason,
    :class:`BrokenServer` when it answers outside the protocol."""
    deadline = time.monotonic() + DEADLINE if deadline is None else deadline
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(_left(deadline))
        sock.connect(path)
        hello: dict[str, object] = {"t": "hello", "version": VERSION, "player": player}
        if ticket is not None:  # only then: a server before tickets refuses the field
            hello["ticket"] = ticket
        _send(sock, hello, deadline)
        me = _welcome(_receive(sock, deadline))
        _send(sock, {"t": "list", "ref": 1}, deadline)
        tables = _lobby(_receive(sock, deadline))
    return me, [table for table in tables if _is_my_turn(table, me)]


def _left(deadline: float) -> float:
    """Seconds until ``deadline``; ``TimeoutError`` once it has passed."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError(f"the server did not answer within {DEADLINE:g} s")
    return left


def _send(sock: socket.socket, message: dict[str, object], deadline: float) -> None:
    body = json.dumps(message).encode()
    sock.settimeout(_left(deadline))
    sock.sendall(HEADER.pack(len(body)) + body)


def _receive(sock: socket.socket, deadline: float) -> dict[str, object]:
    (size,) = HEADER.unpack(_exactly(sock, HEADER.size, deadline))
    if size > MAX_FRAME:
        raise BrokenServer(f"it sent a frame of {size} bytes, more than {MAX_FRAME}")
    try:
        answer = json.loads(_exactly(sock, size, deadline))
    except (ValueError, RecursionError):
        raise BrokenServer("it sent a frame that is not JSON") from None
    if not isinstance(answer, dict):
        raise BrokenServer("it sent a frame that is not a message")
    return answer


def _exactly(sock: socket.socket, size: int, deadline: float) -> bytes:
    """``size`` bytes, however they are dribbled, before ``deadline``."""
    data = bytearray()
    while len(data) < size:
        sock.settimeout(_left(deadline))
        try:
            chunk = sock.recv(min(size - len(data), 65536))
        except TimeoutError:
            raise TimeoutError(f"the server did not answer within {DEADLINE:g} s") from None
        if not chunk:
            raise ConnectionError("the server closed the connection")
        data += chunk
    return bytes(data)


# ---------------------------------------------------------------- what it said


def _welcome(answer: dict[str, object]) -> str:
    """The name granted by a welcome; a refusal or anything else raises."""
    _refusal(answer)
    if answer.get("t") != "welcome" or not isinstance(answer.get("player"), str):
        raise BrokenServer("it did not answer the hello with a welcome")
    return str(answer["player"])


def _refusal(answer: dict[str, object]) -> None:
    """Raise :class:`Refused` if ``answer`` is the protocol's error."""
    reason = answer.get("reason")
    if answer.get("t") == "error" and isinstance(reason, str):
        raise Refused(shown(reason, REASON_LIMIT))


def _lobby(answer: dict[str, object]) -> list[dict[str, object]]:
    """The tables of a lobby, each checked to hold what :func:`my_turns` and :func:`line`
    read, of the right types."""
    _refusal(answer)
    tables = answer.get("tables")
    if answer.get("t") != "lobby" or not isinstance(tables, list):
        raise BrokenServer("it did not answer the list of tables with a lobby")
    for table in tables:
        if not _is_table(table):
            raise BrokenServer("its list of tables holds something that is not a table")
    return tables


def _is_table(table: object) -> bool:
    if not isinstance(table, dict):
        return False
    seats, turn = table.get("seats"), table.get("turn")
    return (
        isinstance(table.get("title"), str)
        and isinstance(table.get("status"), str)
        and _is_int(table.get("season"))
        and (turn is None or _is_int(turn))
        and isinstance(seats, list)
        and all(_is_seat(seat) for seat in seats)
    )


def _is_seat(seat: object) -> bool:
    return (
        isinstance(seat, dict)
        and isinstance(seat.get("name"), str | None)
        and isinstance(seat.get("computer"), str | None)
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_my_turn(table: dict[str, object], me: str) -> bool:
    turn, seats = table["turn"], table["seats"]
    if table["status"] != "playing" or not isinstance(turn, int) or not isinstance(seats, list):
        return False
    if not 0 <= turn < len(seats):
        return False
    return bool(seats[turn].get("name") == me and not seats[turn].get("computer"))


def line(me: str, tables: list[dict[str, object]]) -> str:
    """``Your turn at 2 tables: Sunday game (s2), ann, ben (s1)``; every word of the
    server's shown safely."""
    if not tables:
        return f"No table is waiting for {shown(me, TITLE_LIMIT)}."
    names = ", ".join(f"{shown(str(t['title']), TITLE_LIMIT)} (s{t['season']})" for t in tables)
    count = f"{len(tables)} table{'s' * (len(tables) != 1)}"
    return f"Your turn at {count}: {names}"


# ---------------------------------------------------------------- showing it safely
# A copy of saves.text's rules (see the module docstring): tests/table_server/
# test_status.py keeps it equal to saves.text.shown.

TITLE_LIMIT = 60
"""Characters of a title or a name printed."""
REASON_LIMIT = 200
"""Characters of a refusal, or of a path, printed."""
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
JOINERS = frozenset({"\u200c", "\u200d"})
BLANK_LOOKALIKES = frozenset(
    {"\u034f", "\u115f", "\u1160", "\u17b4", "\u17b5", "\u180e", "\u2800", "\u3164",
     "\uffa0", "\U00016fe4", "\U0001d159"}
)  # fmt: skip
MARKS = frozenset({"Mn", "Mc", "Me"})
MAX_MARKS_IN_A_ROW = 4


def shown(text: str, limit: int) -> str:
    """``text`` safe on a terminal, as ``saves.text.shown`` makes it: what does not show as
    itself escaped (``\\x1b``, ``\\u202e``), runs of combining marks capped, cut to
    ``limit`` characters."""
    text = text[: limit + 1]
    kept, marks = [], 0
    for char in text:
        marks = marks + 1 if unicodedata.category(char) in MARKS else 0
        if marks <= MAX_MARKS_IN_A_ROW:
            kept.append(char)
    escaped = "".join(
        _escape(char) if _is_hidden(char) and not _joins(kept, index) else char
        for index, char in enumerate(kept)
    )
    return escaped if len(escaped) <= limit else escaped[: limit - 1] + "…"


def _is_hidden(char: str) -> bool:
    return unicodedata.category(char) in HIDDEN_CATEGORIES or char in BLANK_LOOKALIKES


def _joins(chars: list[str], index: int) -> bool:
    """A joiner between two visible characters (an emoji sequence): kept."""
    if chars[index] not in JOINERS or not 0 < index < len(chars) - 1:
        return False
    return not _is_hidden(chars[index - 1]) and not _is_hidden(chars[index + 1])


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


# ---------------------------------------------------------------- the command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="mykerinos status",
        description="Say in one line where it is your turn (exit 0), or that it is nowhere "
        "(exit 1); exit 2 when no table server answers as one should.",
    )
    parser.add_argument("--socket", metavar="PATH", help="the table server's socket")
    parser.add_argument("--player", metavar="NAME", help="your name at a shared account")
    args = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show a title's "é"
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    path = args.socket or os.environ.get("MYKERINOS_SOCKET") or _default_socket()
    where = shown(path, REASON_LIMIT)
    try:
        me, tables = my_turns(path, args.player, os.environ.get(TICKET_ENV))
    except Refused as exc:
        print(f"mykerinos: the table server at {where} refused: {exc}", file=sys.stderr)
        return 2
    except BrokenServer as exc:
        print(f"mykerinos: the table server at {where} is broken: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # TimeoutError and ConnectionError among them
        print(f"mykerinos: no table server at {where} ({_words(exc)})", file=sys.stderr)
        return 2
    print(line(me, tables))
    return 0 if tables else 1


def _words(exc: Exception) -> str:
    words = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return shown(words or type(exc).__name__, REASON_LIMIT)


def _default_socket() -> str:
    from table.address import socket_path  # platformdirs: only when no path is given

    return str(socket_path())


if __name__ == "__main__":
    sys.exit(main())
