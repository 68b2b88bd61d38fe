"""`mykerinos status` against a real server: where it is your turn, in one line, with the
exit status a shell prompt can test; and against broken, silent and hostile ones, run as
the command it is: exit 2 and one line on stderr, in bounded time, and nothing printed
that a terminal would obey."""

from __future__ import annotations

import json
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pytest

import core
import saves.text
from table import protocol as wire
from table.client import status
from tests.table_server.bots import Bot, create

ROOT = Path(__file__).resolve().parents[2]
HANG = 10.0
"""Seconds before `mykerinos status` counts as hung (a bound, not a timing)."""


def run(server, player: str, capsys) -> tuple[int, str]:
    code = status.main(["--socket", str(server.socket), "--player", player])
    return code, capsys.readouterr().out.strip()


async def test_status_names_the_tables_where_it_is_your_turn(server, capsys) -> None:
    assert run(server, "ann", capsys) == (1, "No table is waiting for ann.")
    seats = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben")]
    tables = [await create(server.socket, "ann", seats) for _ in range(5)]
    seen = [await Bot.join(server.socket, "ann", table) for table in tables]
    for player, seat in (("ann", 0), ("ben", 1)):
        waiting = sum(1 for bot in seen if bot.state.current_player == seat)
        code, words = run(server, player, capsys)
        if waiting:
            assert code == 0 and words.startswith(f"Your turn at {waiting} table")
            assert words.count("ann, ben (s1)") == waiting
        else:
            assert (code, words) == (1, f"No table is waiting for {player}.")


def test_status_without_a_server_says_so_with_status_2(tmp_path, capsys) -> None:
    assert status.main(["--socket", str(tmp_path / "none.sock")]) == 2
    assert "no table server" in capsys.readouterr().err


def test_the_few_protocol_words_status_uses_are_the_protocol_s() -> None:
    """status speaks the protocol with the standard library: its words must be these."""
    assert status.VERSION == wire.VERSION
    hello = msgspec.json.decode(wire.frame(wire.Hello(wire.VERSION, "ann"))[4:])
    assert hello == {"t": "hello", "version": status.VERSION, "player": "ann"}
    assert msgspec.json.decode(wire.frame(wire.ListTables(1))[4:]) == {"t": "list", "ref": 1}
    assert wire.Welcome.__struct_config__.tag == "welcome"
    assert wire.Lobby.__struct_config__.tag == "lobby"
    assert wire.Error.__struct_config__.tag == "error"


def test_the_longest_lobby_fits_in_a_frame_status_reads() -> None:
    """The server lists at most 500 tables; with every text as long as the protocol lets
    it be, in 4-byte characters, they fit in status's cap (itself under the protocol's)."""
    seat = wire.SeatInfo(core.Colour.BLUE, "😀" * 40, "hard", True, 1e9, "hard")
    table = wire.TableInfo(2**62, "😀" * 60, (seat,) * 4, "playing", 3, 4, 1e9, 1e9, 10**6,
                           "live", 86400.0, 1e9, "😀" * 40)  # fmt: skip
    assert len(wire.frame(wire.Lobby(2**31, (table,) * 500))) < status.MAX_FRAME
    assert status.MAX_FRAME <= wire.MAX_FRAME


# ---------------------------------------------------------------- broken and hostile servers

Behaviour = Callable[[socket.socket], None]
"""What a fake server does with one connection, after reading its hello."""


def frame(message: object) -> bytes:
    return frame_of(json.dumps(message).encode())


def frame_of(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def welcome(name: str = "ann") -> bytes:
    return frame({"t": "welcome", "version": status.VERSION, "player": name})


def read_frame(conn: socket.socket) -> None:
    (size,) = struct.unpack(">I", conn.recv(4, socket.MSG_WAITALL))
    conn.recv(size, socket.MSG_WAITALL)


class FakeServer:
    """A Unix socket in a short folder under /tmp whose every connection is handed, after
    its hello, to ``behaviour`` in a thread."""

    def __init__(self, folder: str, behaviour: Behaviour) -> None:
        self.path = str(Path(folder) / "s")
        self.behaviour = behaviour
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        with self.listener, self.listener.accept()[0] as conn:
            try:
                read_frame(conn)
                self.behaviour(conn)
                self.done.wait(HANG)  # the connection stays open: status must end it
            except OSError:
                pass

    def close(self) -> None:
        self.done.set()
        self.thread.join(HANG)


@pytest.fixture
def fake() -> Iterator[Callable[[Behaviour], FakeServer]]:
    servers: list[FakeServer] = []
    with tempfile.TemporaryDirectory(prefix="myk", dir="/tmp") as folder:

        def start(behaviour: Behaviour) -> FakeServer:
            servers.append(FakeServer(folder, behaviour))
            return servers[-1]

        yield start
        for server in servers:
            server.close()


def run_status(path: str) -> subprocess.CompletedProcess[bytes]:
    """`mykerinos status --socket PATH`, as a shell runs it; fails if it hangs."""
    command = [sys.executable, "-m", "table.client.status", "--socket", path, "--player", "ann"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, timeout=HANG, check=False)


def silent(conn: socket.socket) -> None:
    """Reads the hello, answers nothing."""


def dribbling(conn: socket.socket) -> None:
    """A true welcome, one byte every half second."""
    for byte in welcome():
        conn.sendall(bytes([byte]))
        time.sleep(0.5)


def raw(data: bytes) -> Behaviour:
    return lambda conn: conn.sendall(data)


def after_welcome(answer: bytes, name: str = "ann") -> Behaviour:
    """A welcome as ``name``; then ``answer`` to the list of tables."""

    def behaviour(conn: socket.socket) -> None:
        conn.sendall(welcome(name))
        read_frame(conn)
        conn.sendall(answer)

    return behaviour


def lobby_of(*tables: object, name: str = "ann") -> Behaviour:
    return after_welcome(frame({"t": "lobby", "ref": 1, "tables": list(tables)}), name)


def table(title: object = "Sunday", turn: object = 0, seats: object = None) -> dict[str, object]:
    seats = [{"colour": "blue", "name": "ann"}] if seats is None else seats
    return {"id": 1, "title": title, "seats": seats, "status": "playing", "turn": turn,
            "season": 2, "created": 0.0, "updated": 0.0, "actions": 3}  # fmt: skip


BROKEN: dict[str, Behaviour] = {
    "silent": silent,
    "dribbling": dribbling,
    "garbage": raw(frame_of(b"\xffnot json")),
    "nested deeper than json goes": raw(frame_of(b"[" * 100_000 + b"]" * 100_000)),
    "a list": raw(frame([1, 2])),
    "huge length": raw(struct.pack(">I", 2**31) + b"{"),
    "closed at once": lambda conn: conn.shutdown(socket.SHUT_RDWR),
    "not a welcome": raw(frame({"t": "lobby", "ref": 0, "tables": []})),
    "a welcome without a name": raw(frame({"t": "welcome", "version": 2, "player": 7})),
    "a welcome for a lobby": after_welcome(welcome()),
    "a lobby without tables": after_welcome(frame({"t": "lobby", "ref": 1})),
    "a title not text": lobby_of(table(title=["x"])),
    "a turn not a number": lobby_of(table(turn="0")),
    "a turn that is a boolean": lobby_of(table(turn=True)),
    "seats not a list": lobby_of(table(seats="ann")),
    "a seat not a seat": lobby_of(table(seats=[["ann"]])),
    "a name not text": lobby_of(table(seats=[{"name": 1}])),
    "a table not a table": lobby_of("table"),
    "a table without a title": lobby_of({k: v for k, v in table().items() if k != "title"}),
}


@pytest.mark.parametrize("behaviour", BROKEN.values(), ids=BROKEN.keys())
def test_a_broken_or_silent_server_is_exit_2_and_one_line(fake, behaviour) -> None:
    """Never 1 (that would say "not your turn"), never a traceback, within the hang bound
    whatever the server dribbles: the whole exchange has one deadline."""
    server = fake(behaviour)
    result = run_status(server.path)
    err = result.stderr.decode()
    assert result.returncode == 2, (result.stdout, err)
    assert result.stdout == b"" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("mykerinos: ") and server.path in err


HOSTILE = ["\x1b]0;PWNED\x07", "\x1b]52;c;SGVsbG8=\x07", "\x1b[2J", "\u202e", "\x9b6n"]
"""Window title, clipboard write, clear screen, right-to-left override, an 8-bit CSI."""


def _plain(output: bytes) -> bool:
    return b"\x1b" not in output and "\u202e".encode() not in output and b"\xc2\x9b" not in output


def test_hostile_titles_and_names_are_printed_escaped(fake) -> None:
    """A lobby where it is the player's turn at tables titled with escape sequences."""
    tables = [table(title=f"t{i}{evil}") for i, evil in enumerate(HOSTILE)]
    result = run_status(fake(lobby_of(*tables)).path)
    assert result.returncode == 0, result.stderr
    assert _plain(result.stdout) and b"t0\\x1b]0;PWNED\\x07 (s2)" in result.stdout


def test_a_seat_without_a_name_is_nobody_s(fake) -> None:
    """An open seat may leave its name out: it is nobody's turn there."""
    result = run_status(fake(lobby_of(table(seats=[{"colour": "blue"}]))).path)
    assert (result.returncode, result.stdout) == (1, b"No table is waiting for ann.\n")


def test_a_hostile_name_is_printed_escaped(fake) -> None:
    """The name the server grants, when it is nowhere that player's turn."""
    result = run_status(fake(lobby_of(name="".join(HOSTILE))).path)
    assert result.returncode == 1, result.stderr
    assert _plain(result.stdout) and result.stdout.startswith(b"No table is waiting for \\x1b")


def test_a_hostile_refusal_is_exit_2_and_printed_escaped(fake) -> None:
    server = fake(raw(frame({"t": "error", "ref": 0, "reason": "".join(HOSTILE)})))
    result = run_status(server.path)
    assert result.returncode == 2 and _plain(result.stderr)
    assert b"refused: \\x1b]0;PWNED" in result.stderr


SAMPLES = [
    *HOSTILE,
    "Zoë 👩\u200d🚀 ❤\ufe0f",
    "\u200dAnn\u200d",
    "Z" + "\u0300" * 9 + "\u3164" + "\u0301" * 3,
    "x" * 100,
    "\U0001d159\U00016fe4\u034f\u2800",
    "".join(chr(c) for c in range(0, 0x3000, 7)),
]


@pytest.mark.parametrize("limit", [1, 5, 60, 200])
def test_status_shows_text_as_saves_text_does(limit: int) -> None:
    """status keeps a copy of saves.text's rules (to start fast): the copy is the same."""
    assert status.BLANK_LOOKALIKES == saves.text.BLANK_LOOKALIKES
    assert status.MAX_MARKS_IN_A_ROW == saves.text.MAX_MARKS_IN_A_ROW
    for text in SAMPLES:
        assert status.shown(text, limit) == saves.text.shown(text, limit), text
