"""The web door (issue 20) end to end: ``mykerinos serve --web 127.0.0.1:0`` on a
temporary store, reached with Debian's headless Chromium (/usr/bin/chromium, driven by
Playwright, never a downloaded browser), against the same game started locally in a pty
(bench/ptyprobe.py) on the same server's socket. Prints figures, asserts none; every
comparison is between two figures of the same run. Read as bench_door.py, its SSH twin.

The screen is read from what the page receives: every binary frame of the page's
websocket (the terminal's output) is fed to a pyte screen of the terminal's size. The
frames are recorded in the page itself, with the page's clock (see :data:`PAGE_SCRIPT`).

0. A check first: what the page sends when its terminal is clicked (``["focus"]``), and
   whether the door keeps the tab and its game (it closed them until 266d9e4). If it
   does not, the page's own ``["focus"]`` and ``["blur"]`` are sent as ``["focus",
   null]`` and ``["blur", null]`` in the parts below (said in the output), so that keys
   can be measured at all.
1. Opening the link to the settled lobby, at 80×24: seconds from opening the link that
   ``mykerinos invite NAME --web`` printed (its sign-in form), through pressing Sign in,
   until the lobby (its title, then its list of tables) is on the page's screen and no
   frame came for 0.3 s; against ``mykerinos --socket`` started in a pty of the same size
   as the same player (the server trusts this login), interleaved, after one warm-up each;
   medians and spread of RUNS runs, each a new browser context and a new invitation.
2. Key press to the changed frame in the lobby (3 tables, Down and Up in turn, after a
   click on the terminal): from the key's ``keydown`` in the page to the first binary frame
   after it (and from the key leaving on the websocket; and from Playwright's call),
   against the local pty: from the key written to the first byte read.
3. Bytes per cursor move (binary frames' payload after each move until quiet 0.15 s),
   against the local pty's bytes (the same game in truecolor, as the door's, and in 256
   colours, as bench_door's local game); and what an idle lobby sends. The click's bytes
   and those of 2 moves after it are said apart (its repaint may come with the first).
4. SESSIONS browser sessions at the lobby at once (each its own player and browser
   context, started 4 at a time), on a server of its own: PSS and RSS of their game
   processes (the server's children running ``tui.web``), the server's RSS before, with
   them and after they closed, their CPU while idle, Chromium's own memory (not the
   door's); the time for one more (the 21st of 20) to reach its lobby against the first
   one on the empty door (medians of RUNS); whether every game left within 5 s of the
   contexts closing. The memory is read SETTLE seconds after the last lobby (2 s; longer
   where the host runs Linux's same-page merging, KSM: see bench_door.py).

Everything runs on this machine's cores: Chromium, the door, the games and this script
share them (the load average is printed at the start and the end). The server's log is
searched for errors after each part.

Run: .venv/bin/python bench/bench_web.py [--runs 5] [--sessions 20] [--moves 20] [--quick]
     [--settle SECONDS] [--cold]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pyte
from bench_door import (  # bench/, this script's folder, is first on sys.path
    Door,
    Probe,
    alive,
    children,
    clean_environment,
    command_line,
    cpu,
    make_tables,
    memory,
    print_memory,
    reach_lobby,
    same_page_merging,
    spread,
)
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError
from ptyprobe import ProbeError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from table.doors.options import WEB_URL_FILE  # noqa: E402 - after the path, like the others
from table.host.players import Players  # noqa: E402

MYKERINOS = str(Path(sys.executable).parent / "mykerinos")
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # No name resolves but loopback's (as in tests/web): nothing leaves this machine.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]  # fmt: skip
HOST = "127.0.0.1"
VIEWPORT = (725, 505)
"""The page's size: 80×24 cells with textual-serve's font (Roboto Mono, 16 px), as
bench_door's terminals. The local game gets whatever size the page's terminal has."""
PLAYER = "ann"
"""The player of parts 1 to 3, in the browser (by her invitations) and locally (named by
this login, a trusted account): both see the very same lobby."""
TABLES = 3
LOBBY = "Tables on the server"
LISTED = "a seat is free"
"""The lobby's detail line once its list of tables is drawn (the cursor on one)."""
SETTLED = 0.3
"""Seconds without a frame after which a first frame is settled."""
MOVE_QUIET = 0.15
"""Seconds without a frame after which a cursor move is drawn (as bench_door.py)."""
BEFORE_MOVE = 0.3
"""Seconds without a frame before each key (what came meanwhile is counted as idle)."""
WARM_MOVES = 2
"""Moves not counted, before the others: the click's repaint may come with the first."""
IDLE = 2.5
"""Seconds an idle lobby is watched (the lobby asks for the list every 2 s)."""
BATCH = 4
"""Sessions started at once in part 4."""
CLOSED_WITHIN = 5.0
"""Seconds within which every game must have left once the contexts closed."""
POLL = 0.025
"""Seconds between two looks at a page's record (a cost on the shared cores, never in a
figure: the times come from the page's clock)."""
START_LIMIT = 30.0
LOBBY_LIMIT = 60.0
KEY_LIMIT = 10.0
GONE_LIMIT = 10.0
PAGE_LIMIT = 20.0
"""Bounds on the waits (never timings: a wait that reaches one stops the bench)."""
MB = 1024 * 1024

PAGE_SCRIPT = """
(() => {
  const rewrite = REWRITE;
  const log = {frames: [], sends: [], keys: [], opened: [], closed: [], rewritten: 0};
  window.__bench = log;
  const latin1 = (bytes) => {
    let text = "";
    for (let i = 0; i < bytes.length; i += 8192) {
      text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
    }
    return text;
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      log.opened.push({t: performance.now(), url: String(url)});
      this.addEventListener("message", (event) => {
        const t = performance.now();
        if (typeof event.data === "string") {
          log.frames.push({t, text: event.data});
        } else if (event.data instanceof ArrayBuffer) {
          log.frames.push({t, data: latin1(new Uint8Array(event.data))});
        }
      });
      this.addEventListener("close", (event) => {
        log.closed.push({t: performance.now(), code: event.code, reason: event.reason});
      });
    }
    send(data) {
      if (rewrite && (data === '["focus"]' || data === '["blur"]')) {
        data = data.slice(0, -1) + ",null]";
        log.rewritten += 1;
      }
      log.sends.push({t: performance.now(), data: String(data)});
      return super.send(data);
    }
  };
  window.addEventListener("keydown", (event) => {
    log.keys.push({t: performance.now(), key: event.key});
  }, true);
})();
"""
"""Installed in every page before its own scripts (``add_init_script``): the page's
websocket records, with ``performance.now()``, each frame it receives (binary payloads as
Latin-1 text, for pyte), each message it sends, and each ``keydown`` (on the window, in
the capture phase: before xterm.js sees it). This is the clock of the figures.

Why not Playwright's own events (``page.on("websocket")``, ``framereceived``): its sync
API hands them over only while one of its calls runs, so their time in this script is
that of the next poll (25 ms apart here, more with 20 pages), too coarse for a key that
is drawn in a few ms; the page's clock has 0.1 ms steps and runs in the very event that
receives the frame. A frame's time on this script's clock (to time from a Playwright
call, or from opening the link across the page's navigations) is its page time moved by
the offset of the poll that read it: the middle of that ``evaluate`` call, on both
clocks (within half its round trip, about 1 ms)."""

DRAIN = """
() => {
  const log = window.__bench;
  if (!log) return null;
  const out = {frames: log.frames.splice(0), sends: log.sends.splice(0),
               keys: log.keys.splice(0), opened: log.opened.splice(0),
               closed: log.closed.splice(0), rewritten: log.rewritten};
  out.now = performance.now();
  return out;
}
"""


# ---------------------------------------------------------------- the browser's side


@dataclass(frozen=True)
class Event:
    """Something the page recorded: ``t`` on the page's clock and ``at`` on this
    script's (``time.monotonic``), in seconds."""

    t: float
    at: float
    size: int = 0
    """A binary frame's payload bytes."""
    what: str = ""
    """A message sent; a key's name; a close's code and reason."""


@dataclass
class Socket:
    """One websocket of a page: when it opened, what it received, its screen (pyte)."""

    url: str
    opened: Event
    screen: Any
    stream: Any
    frames: list[Event] = field(default_factory=list)
    """Binary frames: the terminal's output."""
    texts: list[str] = field(default_factory=list)
    """Text frames: textual-serve's meta messages (pong…)."""
    closed: Event | None = None

    @property
    def total(self) -> int:
        return sum(f.size for f in self.frames)

    def text(self) -> str:
        return "\n".join(str(line).rstrip() for line in self.screen.display)


class Tab:
    """One player's browser: a context of its own (cookies), one page, its record."""

    def __init__(self, browser: Browser, rewrite_focus: bool) -> None:
        width, height = VIEWPORT
        self.context: BrowserContext = browser.new_context(
            viewport={"width": width, "height": height}
        )
        self.closed = False
        self.context.set_default_timeout(PAGE_LIMIT * 1000)
        self.context.add_init_script(PAGE_SCRIPT.replace("REWRITE", json.dumps(rewrite_focus)))
        self.page: Page = self.context.new_page()
        self.sockets: list[Socket] = []
        self.sends: list[Event] = []
        self.keys: list[Event] = []
        self.rewritten = 0
        self.polled_at = 0.0

    @property
    def socket(self) -> Socket | None:
        """The page's latest websocket (None before it opened one)."""
        return self.sockets[-1] if self.sockets else None

    def poll(self) -> None:
        """Take what the page recorded since the last poll."""
        raw: Any = None
        for _attempt in range(50):
            before = time.monotonic()
            try:
                raw = self.page.evaluate(DRAIN)
            except PlaywrightError as exc:  # between two documents (a navigation)
                if "destroyed" not in str(exc) and "navigat" not in str(exc):
                    raise
                time.sleep(0.01)
                continue
            self.polled_at = (before + time.monotonic()) / 2
            break
        else:
            raise ProbeError("the page never stayed on one document")
        if raw is None:
            return
        offset = self.polled_at - float(raw["now"]) / 1000
        self.rewritten = int(raw["rewritten"])
        happened: list[tuple[float, int, dict[str, Any]]] = []
        for order, kind in enumerate(("opened", "sends", "frames", "keys", "closed")):
            happened.extend((float(e["t"]) / 1000, order, {**e, "kind": kind}) for e in raw[kind])
        for t, _order, entry in sorted(happened, key=lambda h: (h[0], h[1])):
            self._take(entry, t, t + offset)

    def _take(self, entry: dict[str, Any], t: float, at: float) -> None:
        kind, socket = entry["kind"], self.socket
        if kind == "opened":
            url = str(entry["url"])
            query = parse_qs(urlsplit(url).query)
            cols, rows = int(query["width"][0]), int(query["height"][0])
            screen = pyte.Screen(cols, rows)
            self.sockets.append(Socket(url, Event(t, at), screen, pyte.ByteStream(screen)))
        elif kind == "keys":
            self.keys.append(Event(t, at, what=str(entry["key"])))
        elif kind == "sends":
            data = str(entry["data"])
            self.sends.append(Event(t, at, what=data))
            if socket is not None and data.startswith('["resize"'):
                size = json.loads(data)[1]
                cols, rows = int(size["width"]), int(size["height"])
                if (cols, rows) != (socket.screen.columns, socket.screen.lines):
                    socket.screen.resize(rows, cols)
        elif kind == "frames" and socket is not None:
            if "text" in entry:
                socket.texts.append(str(entry["text"]))
            else:
                payload = str(entry["data"]).encode("latin-1")
                socket.frames.append(Event(t, at, size=len(payload)))
                socket.stream.feed(payload)
        elif kind == "closed" and socket is not None:
            socket.closed = Event(t, at, what=f"{entry['code']} {entry['reason']}".strip())

    def text(self) -> str:
        socket = self.socket
        return socket.text() if socket is not None else ""

    def size(self) -> tuple[int, int]:
        socket = self.socket
        return (socket.screen.columns, socket.screen.lines) if socket is not None else (0, 0)

    def received(self) -> int:
        return sum(s.total for s in self.sockets)

    def quiet_for(self) -> float:
        """Seconds since the page's last binary frame, as of the last poll."""
        socket = self.socket
        if socket is None or not socket.frames:
            return 0.0
        return self.polled_at - socket.frames[-1].at

    def at_lobby(self) -> bool:
        """The lobby with its list on screen, and no frame for :data:`SETTLED` s."""
        text = self.text()
        return LOBBY in text and LISTED in text and self.quiet_for() >= SETTLED

    def wait_quiet(self, gap: float, since: float = 0.0) -> int:
        """Until no frame came for ``gap`` seconds, counted from ``since`` at the
        earliest (an action's moment: what it causes takes a little while to come);
        bounded. The bytes that came meanwhile."""
        start, deadline = self.received(), time.monotonic() + LOBBY_LIMIT
        self.poll()
        while min(self.quiet_for(), self.polled_at - since) < gap:
            if time.monotonic() > deadline:
                raise ProbeError(f"never quiet for {gap:g} s: {self.state()}")
            time.sleep(POLL)
            self.poll()
        return self.received() - start

    def state(self) -> str:
        """For an error: the page's address, its websocket, the screen's end."""
        socket = self.socket
        try:
            address = self.page.url
        except PlaywrightError:
            address = "?"
        if socket is None:
            return f"page {address}, no websocket"
        closed = f"closed ({socket.closed.what})" if socket.closed else "open"
        return (
            f"page {address}, websocket {closed}, {socket.total} bytes, text frames "
            f"{socket.texts[-3:]}, screen {socket.text()[-300:]!r}"
        )

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(PlaywrightError):
                self.context.close()


@dataclass(frozen=True)
class Opening:
    """One browser's way in: seconds from opening the link (``page.goto``'s call)."""

    form: float
    """The link's page (the sign-in form) loaded."""
    signin: float
    """Sign in pressed (the click's call)."""
    socket: float
    """The game page's websocket created."""
    first: float
    """Its first binary frame received."""
    lobby: float
    """Its last frame before the settled lobby."""


class Signing:
    """A tab on its way from the link to the lobby: the link opened, Sign in pressed."""

    def __init__(self, tab: Tab, link: str) -> None:
        self.tab = tab
        self.started = time.monotonic()
        tab.page.goto(link, wait_until="load")
        self.form = time.monotonic()
        self.clicked = time.monotonic()
        tab.page.locator("#sign-in").click()

    def done(self) -> Opening | None:
        """The opening once the lobby is settled (None before); raises if the tab closed."""
        tab = self.tab
        tab.poll()
        socket = tab.socket
        if socket is not None and socket.closed is not None:
            raise ProbeError(f"the websocket closed before the lobby: {tab.state()}")
        if socket is None or not tab.at_lobby():
            return None
        return Opening(
            self.form - self.started, self.clicked - self.started, socket.opened.at - self.started,
            socket.frames[0].at - self.started, socket.frames[-1].at - self.started,
        )  # fmt: skip


def open_lobbies(signings: Sequence[Signing], failed: list[str] | None = None) -> list[Opening]:
    """Until each of ``signings`` shows its settled lobby (bounded); their openings. With
    ``failed``, a tab that fails is said there and the others go on; else it raises."""
    deadline = time.monotonic() + LOBBY_LIMIT
    found: dict[int, Opening] = {}
    waiting = set(range(len(signings)))
    while waiting:
        for i in sorted(waiting):
            try:
                opening = signings[i].done()
            except ProbeError as exc:
                if failed is None:
                    raise
                failed.append(str(exc))
                waiting.discard(i)
                continue
            if opening is not None:
                found[i] = opening
                waiting.discard(i)
        if waiting and time.monotonic() > deadline:
            late = [
                f"no lobby within {LOBBY_LIMIT:g} s: {signings[i].tab.state()}" for i in waiting
            ]
            if failed is None:
                raise ProbeError(late[0])
            failed.extend(late)
            break
        if waiting:
            time.sleep(POLL)
    return [found[i] for i in sorted(found)]


CHROMIUM_SEEN: set[int] = set()
"""Every Chromium process seen, to be sure none is left at the end."""


def chromium_processes() -> set[int]:
    """Chromium's processes (below this script, through Playwright's driver)."""
    found = {
        p for p in children(os.getpid())
        if "chrom" in Path(command_line(p).split(" ")[0]).name and alive(p)
    }  # fmt: skip
    CHROMIUM_SEEN.update(found)
    return found


def chromium_pss() -> int:
    return sum(memory(p, "Pss") for p in chromium_processes())


def launch(playwright: Any) -> Browser:
    browser: Browser = playwright.chromium.launch(
        executable_path=CHROMIUM, args=ARGS, timeout=START_LIMIT * 1000
    )
    chromium_processes()
    return browser


# ---------------------------------------------------------------- the local side


class Local(Probe):
    """The game started locally in a pty (bench_door's probe) of the page's size, its
    output fed to a pyte screen as the page's is."""

    def __init__(self, command: Sequence[str], size: tuple[int, int], env: Mapping[str, str]):
        super().__init__(command, size=size, env=env)
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.fed = 0

    def _pump(self, deadline: float) -> bool | None:
        wrote = super()._pump(deadline)
        if wrote:
            self.stream.feed(bytes(self.output[self.fed :]))
            self.fed = len(self.output)
        return wrote

    def text(self) -> str:
        return "\n".join(str(line).rstrip() for line in self.screen.display)

    def lobby(self) -> float:
        """Until the settled lobby is on screen: seconds from the start to its last write."""
        return reach_lobby(self).lobby

    def wait_quiet(self, gap: float) -> int:
        """Until nothing was written for ``gap`` seconds (bounded); the bytes meanwhile."""
        start, deadline = len(self.output), time.monotonic() + LOBBY_LIMIT
        while time.monotonic() - self.last_write < gap:
            if self._pump(self.last_write + gap) is False or time.monotonic() > deadline:
                raise ProbeError(f"the local game never went quiet: {self.text()[-300:]!r}")
        return len(self.output) - start

    def move(self, key: str) -> tuple[float, int]:
        """Send ``key``: seconds to the first byte read, and the bytes until quiet."""
        self.key(key)
        deadline = self.since + KEY_LIMIT
        while len(self.output) == self.mark:
            if self._pump(deadline) is False or time.monotonic() > deadline:
                raise ProbeError(f"nothing was written after {key!r}")
        first = self.last_write - self.since
        self.wait_quiet(MOVE_QUIET)
        return first, len(self.output) - self.mark


# ---------------------------------------------------------------- the door


class WebDoor(Door):
    """``mykerinos serve --web 127.0.0.1:0`` on a store of its own in ``folder``;
    bench_door's SSH door for the rest (its stop, its search for processes left)."""

    GAME = "tui.web"
    PROBLEMS = re.compile(r"traceback|error|exception|failed|unknown child|warning|killed", re.I)

    def __init__(self, folder: Path, sessions: int, cold: bool = False) -> None:
        super().__init__(folder, cold)
        self.url = ""
        self.sessions = sessions

    def start(self) -> None:
        """Start the server and wait for its socket and its web door's URL (written once
        the door listens); :meth:`stop` ends it, even when this failed."""
        url_file = self.folder / WEB_URL_FILE
        url_file.unlink(missing_ok=True)
        web = ["--web", f"{HOST}:0", "--sessions", str(max(100, self.sessions + 10))]
        if not self.serve(web, lambda: self.socket.exists() and self.url_in(url_file)):
            raise ProbeError(f"the server never listened: {self.log.read_text()}")
        self.url = url_file.read_text().strip()

    @staticmethod
    def url_in(url_file: Path) -> bool:
        return url_file.exists() and bool(url_file.read_text().strip())

    def invite_cli(self, name: str) -> str:
        """``mykerinos invite NAME --web``: its link (line 2), checked against its code
        (line 1) and the door's URL."""
        done = subprocess.run(
            [MYKERINOS, "invite", name, "--web", "--db", str(self.db)],
            capture_output=True, text=True, timeout=START_LIMIT, check=False,
        )  # fmt: skip
        lines = done.stdout.splitlines()
        if done.returncode != 0 or len(lines) < 2:
            raise ProbeError(f"invite {name} --web: {done.stdout.strip()} {done.stderr.strip()}")
        code, link = lines[0].strip(), lines[1].strip()
        if not link.startswith(self.url) or not link.endswith(code):
            raise ProbeError(f"invite {name} --web: a link {link!r} not of {self.url}")
        return link

    def invite(self, name: str) -> str:
        """The same link, made with the API ``invite --web`` uses (30 starts of the command
        would cost a quarter of a minute)."""
        with Players(self.db) as players:
            return f"{self.url}join?code={players.invite(name)}"

    def problems(self) -> list[str]:
        """The log's lines that say something went wrong."""
        lines = self.log.read_text(errors="replace").splitlines()
        return [line for line in lines if self.PROBLEMS.search(line)]


def create_tables(door: WebDoor, count: int = TABLES) -> None:
    """bench_door's tables (``count`` of its MAKER's, each with a seat open), in a thread
    of its own: Playwright's sync API keeps an event loop of its own in this one."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, make_tables(door.socket, count)).result(START_LIMIT)


def local_env(truecolor: bool = True) -> dict[str, str]:
    """The local game's terminal: truecolor (``COLORTERM``) as the door gives its games
    (``TEXTUAL_COLOR_SYSTEM=truecolor``), or the 256 colours of bench_door's."""
    return {"COLORTERM": "truecolor"} if truecolor else {}


# ---------------------------------------------------------------- sessions


def browser_session(door: WebDoor, browser: Browser, link: str, rewrite: bool) -> Opening:
    """A new context opens ``link`` until its lobby; then it closes, and its game must go."""
    before = door.games()
    tab = Tab(browser, rewrite)
    try:
        [opening] = open_lobbies([Signing(tab, link)])
    finally:
        new = door.games() - before
        tab.close()
    _seconds, left = door.wait_gone(new)
    if left:
        print(
            f"  !! {len(left)} game process(es) still there {GONE_LIMIT:g} s after the tab closed"
        )
    return opening


def local_session(door: WebDoor, size: tuple[int, int]) -> float:
    term = Local(door.local_argv(), size, local_env())
    try:
        return term.lobby()
    finally:
        term.close()


def focus_check(door: WebDoor, browser: Browser) -> bool:
    """Part 0: the page as it is, its terminal clicked. Whether the door closed the tab."""
    before = door.games()
    tab = Tab(browser, rewrite_focus=False)
    new: set[int] = set()
    try:
        open_lobbies([Signing(tab, door.invite_cli(PLAYER))])
        new = door.games() - before
        socket = tab.socket
        assert socket is not None
        sent = len(tab.sends)
        clicked = time.monotonic()
        tab.page.locator("#terminal").click()
        while time.monotonic() - clicked < 3.0 and socket.closed is None:
            time.sleep(POLL)
            tab.poll()
        running = any(alive(p) for p in new)
        messages = [s.what for s in tab.sends[sent:] if not s.what.startswith('["stdin"')]
    finally:
        new |= door.games() - before
        tab.close()
    gone, left = door.wait_gone(new)
    closed = socket.closed
    said = ", ".join(messages) or "no message"
    if closed is None:
        game = "its game ran on" if running else "!! but its game had gone"
        print(f"0. the terminal clicked, the page sent {said}: the tab stayed open, {game}")
        return False
    print(f"0. the terminal clicked, the page sent {said}")
    focus = next((s for s in tab.sends[sent:] if s.what.startswith('["focus"')), None)
    after = f" {(closed.t - focus.t) * 1000:.0f} ms after the focus message" if focus else ""
    game = f"left in {gone:.1f} s" if not left else f"is still there after {GONE_LIMIT:g} s"
    print(
        f"   !! and the door closed the tab (websocket close {closed.what}){after}; its game {game}"
    )
    print('   Below, the page sends ["focus", null] and ["blur", null] instead.')
    return True


def first_frame(
    door: WebDoor, browser: Browser, runs: int, rewrite: bool, cold: WebDoor
) -> tuple[int, int]:
    """Part 1: the door (its games forked by its warm process), the same door with each
    game a new interpreter (``cold``, another server: as before issue 29), and the game
    started locally, interleaved; returns the page's terminal size."""
    warm = Tab(browser, rewrite)  # the size, and a warm-up: caches, the door's imports
    before = door.games()
    try:
        open_lobbies([Signing(warm, door.invite_cli(PLAYER))])
        size = warm.size()
    finally:
        new = door.games() - before
        warm.close()
    door.wait_gone(new)
    browser_session(cold, browser, cold.invite_cli(PLAYER), rewrite)
    local_session(door, size)
    sides = {"forked": door, "new interpreter": cold}
    through: dict[str, list[Opening]] = {side: [] for side in sides}
    local: list[float] = []
    for _ in range(runs):  # interleaved, so that all see the same load
        for side, server in sides.items():
            through[side].append(
                browser_session(server, browser, server.invite_cli(PLAYER), rewrite)
            )
        local.append(local_session(door, size))
    med = statistics.median
    print(f"1. the link to the settled lobby, {size[0]}×{size[1]}, {runs} runs, median (min–max):")
    print(f"   local (pty), start → lobby {spread(local)}")
    for side, openings in through.items():
        lobby = [o.lobby for o in openings]
        signed = [o.lobby - o.signin for o in openings]
        print(
            f"   game {side}: browser, link opened → lobby {spread(lobby)}; Sign in pressed "
            f"→ lobby {spread(signed)}"
        )
        print(
            f"     of which: the sign-in form {spread([o.form for o in openings])}, Sign in → "
            f"websocket {spread([o.socket - o.signin for o in openings])}, → first frame "
            f"{spread([o.first - o.socket for o in openings])}, → settled "
            f"{spread([o.lobby - o.first for o in openings])}"
        )
        print(
            f"     ratios of the medians: link → lobby / local {med(lobby) / med(local):.2f}, "
            f"Sign in → lobby / local {med(signed) / med(local):.2f}"
        )
    return size


@dataclass
class Moves:
    """One side's cursor moves: seconds to the first frame or byte, bytes until quiet."""

    first: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    idle: int = 0
    """Bytes over :data:`IDLE` seconds of an idle lobby."""
    between: int = 0
    """Bytes that came between the moves (not after a key)."""
    click: int = 0
    """Browser: bytes after the click on the terminal."""
    warm: list[int] = field(default_factory=list)
    """Bytes of the :data:`WARM_MOVES` first moves, not counted."""
    sent: list[float] = field(default_factory=list)
    """Browser: from the key leaving on the websocket to the first frame."""
    called: list[float] = field(default_factory=list)
    """Browser: from Playwright's ``keyboard.press`` call to the first frame…"""
    keydown: list[float] = field(default_factory=list)
    """…and to the key's ``keydown`` in the page."""


def key_name(i: int) -> str:
    return "ArrowDown" if i % 2 == 0 else "ArrowUp"


def browser_moves(door: WebDoor, browser: Browser, count: int, rewrite: bool) -> Moves:
    result = Moves()
    before = door.games()
    tab = Tab(browser, rewrite)
    try:
        open_lobbies([Signing(tab, door.invite_cli(PLAYER))])
        socket = tab.socket
        assert socket is not None
        clicked = time.monotonic()
        tab.page.locator("#terminal").click()  # its middle: an empty row of the lobby
        result.click = tab.wait_quiet(BEFORE_MOVE, since=clicked)
        for i in range(WARM_MOVES + count):
            if i == WARM_MOVES:
                result.idle = idle(tab)
            result.between += tab.wait_quiet(BEFORE_MOVE)
            frames, keys, sends = len(socket.frames), len(tab.keys), len(tab.sends)
            called = time.monotonic()
            tab.page.keyboard.press(key_name(i))
            while True:
                tab.poll()
                new = socket.frames[frames:]
                if tab.socket is not socket or socket.closed is not None:
                    raise ProbeError(f"the tab closed after a key: {tab.state()}")
                if new and tab.polled_at - new[-1].at >= MOVE_QUIET:
                    break
                if time.monotonic() - called > KEY_LIMIT:
                    raise ProbeError(f"no frame after {key_name(i)}: {tab.state()}")
                time.sleep(POLL)
            keydown = next(k for k in tab.keys[keys:] if k.what == key_name(i))
            sent = next(s for s in tab.sends[sends:] if s.what.startswith('["stdin"'))
            after = [f for f in new if f.t >= sent.t]
            if not after:
                raise ProbeError(f"only frames from before the key: {tab.state()}")
            result.between += sum(f.size for f in new if f.t < sent.t)
            if i < WARM_MOVES:
                result.warm.append(sum(f.size for f in after))
                continue
            result.first.append(after[0].t - keydown.t)
            result.sent.append(after[0].t - sent.t)
            result.called.append(after[0].at - called)
            result.keydown.append(keydown.at - called)
            result.sizes.append(sum(f.size for f in after))
    finally:
        new_games = door.games() - before
        tab.close()
    door.wait_gone(new_games)
    return result


def idle(tab: Tab) -> int:
    """Bytes to the page over :data:`IDLE` seconds."""
    start, watched = tab.received(), time.monotonic()
    while time.monotonic() - watched < IDLE:
        time.sleep(POLL)
        tab.poll()
    return tab.received() - start


def local_moves(door: WebDoor, size: tuple[int, int], count: int, truecolor: bool) -> Moves:
    result = Moves()
    term = Local(door.local_argv(), size, local_env(truecolor))
    try:
        term.lobby()
        for i in range(WARM_MOVES + count):
            if i == WARM_MOVES:
                watched, start = time.monotonic(), len(term.output)
                while time.monotonic() - watched < IDLE:
                    term._pump(watched + IDLE)
                result.idle = len(term.output) - start
            result.between += term.wait_quiet(BEFORE_MOVE)
            first, size_ = term.move("down" if i % 2 == 0 else "up")
            if i < WARM_MOVES:
                result.warm.append(size_)
                continue
            result.first.append(first)
            result.sizes.append(size_)
    finally:
        term.close()
    return result


def sizes(label: str, values: Sequence[int]) -> str:
    return (
        f"   {label}: mean {statistics.mean(values):.0f}, median {statistics.median(values):.0f}, "
        f"min {min(values)}, max {max(values)}"
    )


def keys_and_bytes(
    door: WebDoor, browser: Browser, size: tuple[int, int], count: int, rewrite: bool
) -> None:
    """Parts 2 and 3, from the same moves."""
    web = browser_moves(door, browser, count, rewrite)
    local = local_moves(door, size, count, truecolor=True)
    plain = local_moves(door, size, count, truecolor=False)
    med = statistics.median
    print(
        f"2. key press to the changed frame in the lobby ({TABLES} tables, {count} moves, "
        f"Down/Up), median (min–max):"
    )
    print(
        f"   browser, keydown in the page → first frame {spread(web.first)}; the key sent "
        f"on the websocket → first frame {spread(web.sent)}"
    )
    print(
        f"   (from Playwright's press() call → first frame {spread(web.called)}, of which "
        f"→ keydown {spread(web.keydown)})"
    )
    print(f"   local (pty), key written → first byte read {spread(local.first)}")
    print(
        f"   ratio of the medians keydown → frame / local {med(web.first) / med(local.first):.2f}"
    )
    print(f"3. bytes per cursor move ({count} moves):")
    print(sizes("browser (binary frames' payload)", web.sizes))
    print(sizes("local, truecolor as the door's games", local.sizes))
    print(sizes("local, 256 colours (bench_door's)", plain.sizes))
    print(
        f"   ratios of the means: browser / local truecolor "
        f"{statistics.mean(web.sizes) / statistics.mean(local.sizes):.3f}, browser / local "
        f"256 colours {statistics.mean(web.sizes) / statistics.mean(plain.sizes):.3f}"
    )
    print(
        f"   an idle lobby over {IDLE:g} s: {web.idle} bytes to the browser, {local.idle} "
        f"local; between the moves (not after a key): {web.between} and {local.between}"
    )
    print(
        f"   not counted: the click on the terminal {web.click} bytes to the browser, then "
        f"{WARM_MOVES} moves {'+'.join(map(str, web.warm))} bytes (locally "
        f"{'+'.join(map(str, local.warm))})"
    )


def crowd(
    playwright: Any,
    folder: Path,
    sessions: int,
    runs: int,
    rewrite: bool,
    cold: bool = False,
    settle: float = 2.0,
) -> None:
    """Part 4, on a server of its own and a browser of its own (``cold``: each game a new
    interpreter); the memory is read ``settle`` seconds after the last lobby."""
    door = WebDoor(folder, sessions, cold)
    tabs: list[Tab] = []
    browser: Browser | None = None
    try:
        door.start()
        create_tables(door)
        browser = launch(playwright)
        time.sleep(1.0)
        chromium_empty = chromium_pss()
        rss_start = door.rss()
        browser_session(door, browser, door.invite("warm"), rewrite)  # a warm-up, as in part 1
        rss_before = door.rss()
        firsts = [
            browser_session(door, browser, door.invite("first"), rewrite).lobby for _ in range(runs)
        ]

        started = time.monotonic()
        refused: list[str] = []
        arrivals: list[float] = []
        for i in range(0, sessions, BATCH):
            names = [f"p{n:03d}" for n in range(i, min(i + BATCH, sessions))]
            batch = [Tab(browser, rewrite) for _ in names]
            tabs.extend(batch)
            signings = [
                Signing(tab, door.invite(name)) for tab, name in zip(batch, names, strict=True)
            ]
            arrivals.extend(o.lobby for o in open_lobbies(signings, refused))
        took = time.monotonic() - started
        games = door.games()
        if not games:
            raise ProbeError("no game process found among the server's children")
        time.sleep(settle)  # the last ones finish their start (KSM merges)
        pss = [memory(p, "Pss") for p in games]
        rss = [memory(p, "Rss") for p in games]
        rss_with = door.rss()
        warm_pss = door.warm_pss()
        chromium_with = chromium_pss()
        renderers = [p for p in chromium_processes() if "--type=renderer" in command_line(p)]

        idle_from = time.monotonic()
        for tab in tabs:
            tab.poll()
        received = sum(t.received() for t in tabs)
        cpu_before = sum(cpu(p) for p in games), cpu(door.pid)
        watch_from = time.monotonic()
        while time.monotonic() - watch_from < 3 * IDLE:
            time.sleep(0.2)
        for tab in tabs:
            tab.poll()
        window = time.monotonic() - watch_from
        games_cpu = (sum(cpu(p) for p in games) - cpu_before[0]) / window
        server_cpu = (cpu(door.pid) - cpu_before[1]) / window
        sent = (sum(t.received() for t in tabs) - received) / window

        lasts = [
            browser_session(door, browser, door.invite("last"), rewrite).lobby for _ in range(runs)
        ]
        rss_later = [memory(p, "Rss") for p in games]
        rss_with_later = door.rss()
        idle_for = time.monotonic() - idle_from

        closing = time.monotonic()
        for tab in tabs:
            tab.close()
        closed = time.monotonic()
        left_in_time: set[int] = set()
        while any(alive(p) for p in games) and time.monotonic() - closed < GONE_LIMIT:
            time.sleep(0.02)
            if time.monotonic() - closed <= CLOSED_WITHIN:
                left_in_time = {p for p in games if alive(p)}
        gone_in = time.monotonic() - closed
        left = {p for p in games if alive(p)}
        others = door.games()
        time.sleep(2.0)
        rss_after = door.rss()
        chromium_after = chromium_pss()
    finally:
        for tab in tabs:
            tab.close()
        if browser is not None:
            with contextlib.suppress(PlaywrightError):
                browser.close()
        stray = door.stop()
    n, opened = len(games), len(tabs)
    how = "each a new interpreter (as before issue 29)" if cold else "forked by the warm process"
    print(
        f"4. {sessions} browser sessions at the lobby, {how} ({n} game processes found), started "
        f"{BATCH} at a time in {took:.1f} s (each from its link: median "
        f"{statistics.median(arrivals or [0.0]):.2f} s); {opened - len(arrivals)} never "
        f"showed the lobby"
    )
    for line in refused[:5]:
        print(f"   | {line[:400]}")
    print_memory(pss, rss, (rss_start, rss_before, rss_with, rss_after), n, warm_pss)
    print(
        f"   over {idle_for:.0f} s at the lobby: games' RSS in all {sum(rss) / MB:.1f} MB → "
        f"{sum(rss_later) / MB:.1f} MB, server's {rss_with / MB:.1f} MB → "
        f"{rss_with_later / MB:.1f} MB"
    )
    print(
        f"   idle over {window:.1f} s: games {games_cpu * 100:.1f} % of a core in all, "
        f"server {server_cpu * 100:.1f} %; {sent / 1024:.2f} KB/s to the browsers in all"
    )
    print(
        f"   Chromium's own memory (not the door's), PSS of all its processes: "
        f"{chromium_empty / MB:.0f} MB with no page, {chromium_with / MB:.0f} MB with "
        f"{opened} contexts ({(chromium_with - chromium_empty) / max(opened, 1) / MB:.0f} MB "
        f"each; {len(renderers)} renderer processes), {chromium_after / MB:.0f} MB after"
    )
    print(
        f"   time to the lobby from the link, {runs} runs: first session on the empty door "
        f"{spread(firsts)}, one more with {sessions} open {spread(lasts)}: ratio of the "
        f"medians {statistics.median(lasts) / statistics.median(firsts):.2f}"
    )
    print(
        f"   after the {len(tabs)} contexts closed (closing took {closed - closing:.2f} s): "
        f"games gone in {gone_in:.2f} s, {len(left_in_time)} left after {CLOSED_WITHIN:g} s "
        f"({len(left)} after {GONE_LIMIT:g} s); other game processes then: {len(others)}; "
        f"processes of the server left at its stop: {len(stray)}"
    )
    report_problems(door)


def report_problems(door: WebDoor) -> None:
    problems = door.problems()
    print(f"   lines of the server's log saying something went wrong: {len(problems)}")
    for line in problems[:5]:
        print(f"   | {line[:300]}")


# ---------------------------------------------------------------- main


def stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    """SIGTERM as Ctrl-C: every ``finally`` runs, so nothing started here is left."""
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def no_chromium_left() -> Iterator[None]:
    """At the end, any Chromium process seen still there (Playwright ends them) is killed."""
    try:
        yield
    finally:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(alive(p) for p in CHROMIUM_SEEN):
            time.sleep(0.05)
        for pid in CHROMIUM_SEEN:
            if alive(pid):
                print(f"   !! Chromium process {pid} left: killed")
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="runs of each timing (default 5)")
    parser.add_argument("--sessions", type=int, default=20, help="browser sessions (default 20)")
    parser.add_argument("--moves", type=int, default=20, help="cursor moves (default 20)")
    parser.add_argument("--quick", action="store_true", help="2 runs, 8 sessions, 6 moves")
    parser.add_argument(
        "--settle", type=float, default=2.0,
        help="seconds idle before part 4 reads the memory (default 2; for KSM, a few minutes)",
    )  # fmt: skip
    parser.add_argument(
        "--cold", action="store_true",
        help="part 4 again with each game a new interpreter (as before issue 29)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.quick:
        args.runs, args.sessions, args.moves = 2, 8, 6
    if not os.access(CHROMIUM, os.X_OK):
        print(f"bench_web: skipped, it needs Debian's Chromium ({CHROMIUM})")
        return
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load}; {sys.executable}")
    print(f"{same_page_merging()}; part 4 reads the memory {args.settle:g} s after the last lobby")
    with (
        tempfile.TemporaryDirectory(prefix="myk-bw-", dir="/tmp") as name,
        clean_environment(Path(name) / "env"),
        no_chromium_left(),
        sync_playwright() as playwright,
    ):
        folder = Path(name)
        (folder / "one").mkdir()
        (folder / "cold").mkdir()
        door = WebDoor(folder / "one", sessions=10)
        cold = WebDoor(folder / "cold", sessions=10, cold=True)
        browser: Browser | None = None
        try:
            for server in (door, cold):
                server.start()
                create_tables(server)
            browser = launch(playwright)
            print(
                f"Chromium {browser.version}, Playwright {version('playwright')}, "
                f"textual-serve {version('textual-serve')}; runs {args.runs}, sessions "
                f"{args.sessions}, moves {args.moves}"
            )
            rewrite = focus_check(door, browser)
            size = first_frame(door, browser, args.runs, rewrite, cold)
            keys_and_bytes(door, browser, size, args.moves, rewrite)
        finally:
            if browser is not None:
                with contextlib.suppress(PlaywrightError):
                    browser.close()
            stray = door.stop() | cold.stop()
        if stray:
            print(f"   !! {len(stray)} process(es) of the server were left at its stop")
        report_problems(door)
        for how in ("forked", "cold") if args.cold else ("forked",):
            (folder / f"many-{how}").mkdir()
            crowd(playwright, folder / f"many-{how}", args.sessions, args.runs, rewrite,
                  cold=how == "cold", settle=args.settle)  # fmt: skip
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at the end {load}")


def version(package: str) -> str:
    from importlib.metadata import version as installed

    return installed(package)


if __name__ == "__main__":
    main()
