"""The real app, in a real pty, against a hostile table server (issue 17): every name, title,
refusal, note and line of chat it sends holds escape sequences (window title, clipboard
write, clear screen, hyperlink, cursor report), U+202E and markup. None of them may reach
the terminal: the raw bytes the app writes must not hold them, and the screen must show
them as escaped text instead (so that the test fails when they are simply dropped, too)."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import core
from table import journal
from table import protocol as wire
from tests.tui.ptyapp import AppInPty

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX ptys")

HANG = 30.0
"""Seconds before a wait counts as a hang (a bound, not a timing)."""

WINDOW_TITLE = "\x1b]0;PWNED\x07"
CLIPBOARD = "\x1b]52;c;SGVsbG8=\x07"
CLEAR = "\x1b[2J"
LINK = "\x1b]8;;http://evil\x07"
CURSOR_REPORT = "\x1b[6n"
RLO = "\u202e"

ME = f"ann{RLO}\u3164"
"""The name the server grants: a bidi override and a blank look-alike."""
FRIEND = f"{CLIPBOARD}ben"
PLAYING = wire.TableInfo(
    1,
    f"{WINDOW_TITLE}one[/]",
    (wire.SeatInfo(core.Colour.BLUE, ME, present=True), wire.SeatInfo(core.Colour.RED, FRIEND)),
    "playing",
    1,
    1,
    0.0,
    2.0,
    0,
)
"""The player's table, where the game screen shows the server's chat and notes."""
WAITING = wire.TableInfo(
    2,
    f"{LINK}two{RLO}",
    (wire.SeatInfo(core.Colour.GREEN, FRIEND), wire.SeatInfo(core.Colour.RED, None)),
    "waiting",
    None,
    0,
    0.0,
    1.0,
    0,
)
"""A table with a free seat, which the server refuses."""
ELSEWHERE_TITLE = f"{CURSOR_REPORT}three"
"""A table that becomes the player's turn once they sit at another one."""
REFUSAL = f"{CLIPBOARD}no seat for you{CLEAR} [/]"
CHAT = journal.Chat(0.0, 0, FRIEND, f"{CLEAR}hello{RLO} [/] {WINDOW_TITLE}")
BACK = journal.Back(0.0, 0, 1, f"{LINK}here")
"""An entry of the journal whose words name a player (a note in the log)."""

RAW_PAYLOADS = [b"\x1b]0;", b"\x1b]52;", CLEAR.encode(), b"\x1b]8;", CURSOR_REPORT.encode(),
                RLO.encode()]  # fmt: skip
"""Bytes the app must never write: each could only come from the server's data (Textual
emits none of them here). The escapes are cut before their ends, as rich drops a BEL, and
an unterminated one swallows what follows."""
SHOWN = [
    b"you play as ann\\u202e\\u3164",  # the lobby's title line
    b"\\x1b]0;PWNED\\x07one[/]: your table",  # the detail of the first table
    b"\\x1b]8;;http://evil\\x07two\\u202e: a seat",  # the detail of the second
    b"\\x1b]52;c;SGVsbG8=\\x07no seat for you\\x1b[2J [/]",  # the refusal of the second
    b"ladder refused [/] \\x1b[6n",  # the ladder's refusal, once read as markup
    b"ann\\u202e\\u3164 (B): choose",  # the player's name in the position
    b"hello\\u202e [/] \\x1b]0;PWNED\\x07",  # a line of chat in the game's log
    b"\\x1b]8;;http://evil\\x07here is back",  # a note of the journal, in the log
    "“\\x1b[6nthree”".encode(),  # the notice of a turn at another table
]
"""What the screen must show instead: the same text, escaped."""


class HostileServer:
    """A table server speaking the protocol, every string it sends hostile; it runs an
    event loop of its own in a thread, on a Unix socket in a short temporary folder."""

    def __init__(self, folder: Path) -> None:
        self.socket = folder / "s"
        self.lists = 0
        self.sat = False
        self.writers: set[asyncio.StreamWriter] = set()
        self.start = core.public_view(
            core.new_game(2, 5, [ME, FRIEND], [core.Colour.BLUE, core.Colour.RED])
        )
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> HostileServer:
        self.thread.start()
        assert self.ready.wait(10), "the fake server did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            asyncio.start_unix_server(self._serve, str(self.socket))
        )
        self.ready.set()
        self.loop.run_forever()

    async def _stop(self) -> None:
        """Every connection closed, so that each one's reader ends as at a hang-up."""
        self.server.close()
        for writer in self.writers:
            writer.close()
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        if others:
            await asyncio.wait(others, timeout=5)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.add(writer)
        with contextlib.suppress(OSError, asyncio.IncompleteReadError, wire.ProtocolError):
            while True:
                request = wire.read_client(await wire.read_body(reader, wire.MAX_REQUEST, "r"))
                for message in self.answer(request):
                    writer.write(wire.frame(message))
                await writer.drain()

    def answer(self, request: wire.ClientMessage) -> list[wire.ServerMessage]:
        """The answer to ``request``, and what the server then says unasked."""
        if isinstance(request, wire.Hello):
            return [wire.Welcome(wire.VERSION, ME)]
        if isinstance(request, wire.ListTables):
            self.lists += 1
            return [wire.Lobby(request.ref, (PLAYING, WAITING, self.elsewhere()))]
        if isinstance(request, wire.Join) and request.table == PLAYING.id:
            self.sat = True
            snapshot = wire.Snapshot(request.ref, PLAYING, self.start, (), (0,), (CHAT,) * 3)
            return [snapshot, wire.Told(0, PLAYING, 3, (BACK,))]
        if isinstance(request, wire.Ladder):
            return [wire.Error(request.ref, f"ladder refused [/] {CURSOR_REPORT}")]
        return [wire.Error(getattr(request, "ref", 0), REFUSAL)]

    def elsewhere(self) -> wire.TableInfo:
        """Someone else's turn until the player sits at the first table, then theirs."""
        seats = (wire.SeatInfo(core.Colour.BLUE, FRIEND), wire.SeatInfo(core.Colour.RED, ME))
        turn = 1 if self.sat else 0
        return wire.TableInfo(3, ELSEWHERE_TITLE, seats, "playing", turn, 1, 0.0, 0.0, 3)


@pytest.fixture
def hostile_server() -> Iterator[HostileServer]:
    """A short folder under /tmp: a Unix socket's path must stay under ~100 bytes."""
    with (
        tempfile.TemporaryDirectory(prefix="myk", dir="/tmp") as folder,
        HostileServer(Path(folder)) as server,
    ):
        yield server


def _app_code(socket: Path) -> str:
    """The real ``mykerinos --socket PATH`` (AppInPty passes ``--save-dir DIR --resume
    game``: the folder is kept, the resume dropped), with turns elsewhere looked for
    every 0.3 s instead of 3 s."""
    return (
        "import sys, tui.shared_tables as t, tui.__main__ as m; t.TURNS_EVERY = 0.3; "
        f"sys.exit(m.main(['--save-dir', sys.argv[2], '--socket', {str(socket)!r}]))"
    )


def test_nothing_a_hostile_server_sends_reaches_the_terminal(
    tmp_path: Path, hostile_server: HostileServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby (titles, names, the granted name), a refusal, the ladder's refusal, the
    game screen (names, note, chat) and the notice of a turn elsewhere."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # default notices
    app = AppInPty(tmp_path, _app_code(hostile_server.socket), new=False)
    try:
        app.wait_for(b"Tables on the server")
        app.quiet()
        app.send(b"\x1b[B\x1b[B")  # down twice: the waiting table, after the player's
        app.wait_for(b"two")
        app.send(b"\r")  # take its seat: refused
        app.wait_for(b"no seat for you")
        app.send(b"L")  # the ladder: refused
        app.wait_for(b"ladder refused")
        app.send(b"\x1b")
        app.wait_for(b"Tables on the server")
        app.quiet()
        end = time.monotonic() + HANG
        while hostile_server.lists < 6:  # the turns elsewhere have been looked at once
            assert time.monotonic() < end, "the app stopped asking for the tables"
            app.drain(0.1)
        app.send(b"\x1b[A\x1b[A")  # up twice: the table where the player sits
        app.wait_for(b"one[/]: your table")
        app.send(b"\r")  # sit there: the game, its chat
        app.wait_for(b"Season")
        app.wait_for("three”".encode())  # the notice of the turn at the third table
        app.quiet()
        screen = app.screen
        assert app.process.poll() is None, screen[-300:]
    finally:
        app.process.kill()
        app.process.wait()
    for payload in RAW_PAYLOADS:
        assert payload not in screen, f"{payload!r} reached the terminal"
    for text in SHOWN:
        assert text in screen, f"{text!r} is not on the screen"
