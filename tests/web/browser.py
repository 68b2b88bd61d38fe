"""Headless Chromium driven by Playwright, and what its terminal shows, read through pyte.

The page of a web door (textual-serve's page and xterm.js) opens a websocket to
``…/ws?width=W&height=H``, sends JSON text messages (``["stdin", data]``,
``["resize", {"width": W, "height": H}]``, ``["ping", x]``, ``["focus"]``…) and receives
the terminal's output as binary frames. :class:`Terminal` listens to every websocket its
page opens, through Playwright (``page.on("websocket")``, ``framereceived``,
``framesent``), and feeds the binary frames to a ``pyte`` screen of the terminal's size:
first the size in the websocket's address, then each ``resize`` the page sends. So a test
reads what the player sees (:meth:`Terminal.screen_text`, :meth:`Terminal.wait_for`), from
what the page received, not from a screenshot. A new websocket (a reload, the page's
"Back to the game") starts a new screen, as xterm.js's own screen is then redrawn.

Playwright's sync API hands its events over only while one of its calls runs: every wait
here polls with ``page.wait_for_timeout``, which lets the frames in. Every wait is bounded,
and a wait that fails raises an ``AssertionError`` that shows the screen.

The browser is Debian's Chromium (:data:`CHROMIUM`), never a download, with a fresh
profile folder, reaching nothing but loopback.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

import pyte
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, WebSocket

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # No name resolves but loopback's: a page asking for a font elsewhere (textual-serve's
    # own page does) fails at once instead of waiting on a resolver that cannot answer.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]
VIEWPORT = (1000, 600)
"""The page's size in pixels unless told otherwise: 111×28 cells with textual.js's font."""
DEFAULT_TIMEOUT = 15.0
"""Seconds a wait may take unless told otherwise (a bound against hangs, not a timing)."""
POLL_MS = 25
"""Milliseconds between two looks at the screen (Playwright delivers the frames then)."""
KEEP_OUTPUT = 1 << 20
"""Bytes of a websocket's output kept (the last ones), for reports."""


@contextmanager
def chromium(playwright: Playwright) -> Iterator[Browser]:
    """Debian's Chromium, headless, closed at the end. Playwright starts it on a fresh
    profile folder of its own (a temporary user-data-dir, removed when it closes); each
    :func:`new_player` is a new context in it: cookies and storage of its own."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, timeout=30_000)
    try:
        yield browser
    finally:
        browser.close()


@dataclass
class Socket:
    """One websocket of the page's: its address, the size it asked for, what it received."""

    url: str
    screen: pyte.Screen
    stream: pyte.ByteStream
    received: bytearray = field(default_factory=bytearray)
    """Binary frames (the terminal's output), the last :data:`KEEP_OUTPUT` bytes."""
    total: int = 0
    """Bytes of binary frames received in all."""
    texts: list[str] = field(default_factory=list)
    """Text frames received (meta: pong, open_url…)."""
    sent: list[str | bytes] = field(default_factory=list)
    """Frames the page sent (stdin, resize, ping, focus…)."""
    closed: bool = False
    error: str | None = None


def _size_of(url: str) -> tuple[int, int]:
    """The ``width`` and ``height`` in a websocket's address (80×24 if absent)."""
    query = parse_qs(urlsplit(url).query)

    def number(name: str, default: int) -> int:
        try:
            return max(1, int(query.get(name, [str(default)])[0]))
        except ValueError:
            return default

    return number("width", 80), number("height", 24)


class Terminal:
    """A page of a web door and the terminal its websocket draws, read through pyte."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.sockets: list[Socket] = []
        self._focused_on = -1
        """How many websockets the page had opened when the terminal was last focused."""
        page.on("websocket", self._opened)

    # ---------------------------------------------------------------- frames

    def _opened(self, websocket: WebSocket) -> None:
        cols, rows = _size_of(websocket.url)
        screen = pyte.Screen(cols, rows)
        socket = Socket(websocket.url, screen, pyte.ByteStream(screen))
        self.sockets.append(socket)
        websocket.on("framereceived", lambda payload: self._received(socket, payload))
        websocket.on("framesent", lambda payload: self._sent(socket, payload))
        websocket.on("close", lambda _ws: setattr(socket, "closed", True))
        websocket.on("socketerror", lambda error: setattr(socket, "error", str(error)))

    def _received(self, socket: Socket, payload: str | bytes) -> None:
        if isinstance(payload, str):
            socket.texts.append(payload)
            return
        socket.total += len(payload)
        socket.received += payload
        if len(socket.received) > KEEP_OUTPUT:
            del socket.received[: len(socket.received) - KEEP_OUTPUT]
        try:
            socket.stream.feed(payload)
        except Exception as exc:  # the emulator's fault must not hide what the test sees
            socket.texts.append(f"[pyte could not read the output: {exc!r}]")

    def _sent(self, socket: Socket, payload: str | bytes) -> None:
        socket.sent.append(payload)
        if not isinstance(payload, str):
            return
        try:
            message = json.loads(payload)
        except ValueError:
            return
        if isinstance(message, list) and len(message) == 2 and message[0] == "resize":
            size = message[1]
            if isinstance(size, dict):
                cols, rows = int(size.get("width", 0)), int(size.get("height", 0))
                if cols > 0 and rows > 0 and (cols, rows) != self.size_of(socket):
                    socket.screen.resize(rows, cols)

    @staticmethod
    def size_of(socket: Socket) -> tuple[int, int]:
        return socket.screen.columns, socket.screen.lines

    @property
    def socket(self) -> Socket | None:
        """The page's latest websocket (None before it opens one)."""
        return self.sockets[-1] if self.sockets else None

    @property
    def size(self) -> tuple[int, int]:
        """The terminal's columns and rows, as the page last told the game."""
        socket = self.socket
        return self.size_of(socket) if socket is not None else (0, 0)

    # ---------------------------------------------------------------- reading

    def pump(self, ms: int = POLL_MS) -> None:
        """Let Playwright deliver what arrived (frames, events) for ``ms`` milliseconds."""
        self.page.wait_for_timeout(ms)

    def lines(self) -> list[str]:
        """The screen's rows, as shown ([] before a websocket opened)."""
        socket = self.socket
        return list(socket.screen.display) if socket is not None else []

    def screen_text(self) -> str:
        """The screen, one row per line, trailing blanks dropped."""
        return "\n".join(line.rstrip() for line in self.lines()).rstrip("\n")

    def wait_for(
        self,
        text: str | Callable[[str], bool],
        timeout: float = DEFAULT_TIMEOUT,
        *,
        what: str | None = None,
    ) -> str:
        """Wait until ``text`` is on one row of the screen (or, given a function of the
        screen's text, until it holds); the screen's text then. On timeout, an
        ``AssertionError`` showing the screen and the websocket's state."""
        check: Callable[[str], bool]
        if callable(text):
            check = text
        else:
            needle = text
            check = lambda screen: any(needle in row for row in screen.split("\n"))  # noqa: E731
        end = time.monotonic() + timeout
        while True:
            screen = self.screen_text()
            if check(screen):
                return screen
            if time.monotonic() > end:
                raise AssertionError(self.report(f"never saw {what or repr(text)}", timeout))
            self.pump()

    def wait_gone(self, text: str, timeout: float = DEFAULT_TIMEOUT) -> str:
        """Wait until ``text`` is on no row of the screen."""
        return self.wait_for(lambda screen: text not in screen, timeout, what=f"{text!r} gone")

    def wait_quiet(self, quiet: float = 0.3, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until the page has received nothing for ``quiet`` seconds (its screen
        settled, as when a person acts on it)."""
        end = time.monotonic() + timeout

        def received() -> tuple[int, int]:
            socket = self.socket
            return (len(self.sockets), socket.total if socket is not None else 0)

        seen, since = received(), time.monotonic()
        while time.monotonic() - since < quiet:
            if time.monotonic() > end:
                raise AssertionError(self.report(f"never quiet for {quiet:g} s", timeout))
            self.pump()
            if received() != seen:
                seen, since = received(), time.monotonic()

    def wait_socket(self, count: int = 1, timeout: float = DEFAULT_TIMEOUT) -> Socket:
        """Wait until the page has opened ``count`` websockets in all; the last one."""
        end = time.monotonic() + timeout
        while len(self.sockets) < count:
            if time.monotonic() > end:
                raise AssertionError(self.report(f"never opened websocket {count}", timeout))
            self.pump()
        return self.sockets[-1]

    def wait_closed(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until the page's latest websocket is closed."""
        end = time.monotonic() + timeout
        while not (self.socket is not None and self.socket.closed):
            if time.monotonic() > end:
                raise AssertionError(self.report("the websocket never closed", timeout))
            self.pump()

    def report(self, problem: str, timeout: float) -> str:
        """``problem``, the page's address, its websockets, and the screen."""
        cols, rows = self.size
        socket = self.socket
        if socket is None:
            state = "no websocket opened"
        else:
            state = (
                f"websocket {len(self.sockets)} {socket.url} "
                f"{'closed' if socket.closed else 'open'}"
                f"{f' ({socket.error})' if socket.error else ''}, {socket.total} bytes received, "
                f"last text frames received {socket.texts[-3:]}, last sent {socket.sent[-3:]}"
            )
        try:
            address = self.page.url
        except Exception:  # a closed page
            address = "?"
        return (
            f"{problem} within {timeout:g} s (page {address}; {state}); "
            f"the {cols}×{rows} screen:\n" + "─" * cols + f"\n{self.screen_text()}\n" + "─" * cols
        )

    # ---------------------------------------------------------------- typing

    def focus(self) -> None:
        """Give the terminal the keyboard: xterm.js's input element is focused (a click
        would also reach the game, as a mouse click where it lands)."""
        self.page.locator("#terminal textarea").first.focus(timeout=DEFAULT_TIMEOUT * 1000)
        self._focused_on = len(self.sockets)

    def press(self, key: str) -> None:
        """Press one key by Playwright's name ("Enter", "ArrowLeft", "Escape", "c")."""
        if self._focused_on != len(self.sockets):  # never, or before a reload
            self.focus()
        self.page.keyboard.press(key)

    def type(self, text: str) -> None:
        """Type ``text``, one key after the other."""
        if self._focused_on != len(self.sockets):  # never, or before a reload
            self.focus()
        self.page.keyboard.type(text)


def new_player(
    browser: Browser, viewport: tuple[int, int] = VIEWPORT
) -> tuple[BrowserContext, Page, Terminal]:
    """A new context (cookies of its own: one player), its page, and the page's terminal."""
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(DEFAULT_TIMEOUT * 1000)
    page = context.new_page()
    return context, page, Terminal(page)
