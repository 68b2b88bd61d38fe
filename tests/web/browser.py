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
and a wait that fails raises an ``AssertionError`` that shows the screen. The screen and
the waits on it are :mod:`tests.screen`'s, as the SSH door's.

The browser is Debian's Chromium (:data:`CHROMIUM`), never a download, with a fresh
profile folder, reaching nothing but loopback.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Browser, BrowserContext, Page, Playwright, WebSocket

from tests.screen import DEFAULT_TIMEOUT, Screen, Watched

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
POLL_MS = 25
"""Milliseconds between two looks at the screen (Playwright delivers the frames then)."""


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


class Socket(Screen):
    """One websocket of the page's: its address, and the screen of the size it asked for,
    fed with the binary frames it received (the terminal's output: :attr:`Screen.received`,
    :attr:`Screen.total`)."""

    def __init__(self, url: str) -> None:
        super().__init__(*_size_of(url))
        self.url = url
        self.texts: list[str] = []
        """Text frames received (meta: pong, open_url…)."""
        self.sent: list[str | bytes] = []
        """Frames the page sent (stdin, resize, ping, focus…)."""
        self.closed = False
        self.error: str | None = None


def _size_of(url: str) -> tuple[int, int]:
    """The ``width`` and ``height`` in a websocket's address (80×24 if absent)."""
    query = parse_qs(urlsplit(url).query)

    def number(name: str, default: int) -> int:
        try:
            return max(1, int(query.get(name, [str(default)])[0]))
        except ValueError:
            return default

    return number("width", 80), number("height", 24)


class Terminal(Watched):
    """A page of a web door and the terminal its websocket draws, read through pyte."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.sockets: list[Socket] = []
        self._focused_on = -1
        """How many websockets the page had opened when the terminal was last focused."""
        page.on("websocket", self._opened)

    # ---------------------------------------------------------------- frames

    def _opened(self, websocket: WebSocket) -> None:
        socket = Socket(websocket.url)
        self.sockets.append(socket)
        websocket.on("framereceived", lambda payload: self._received(socket, payload))
        websocket.on("framesent", lambda payload: self._sent(socket, payload))
        websocket.on("close", lambda _ws: setattr(socket, "closed", True))
        websocket.on("socketerror", lambda error: setattr(socket, "error", str(error)))

    def _received(self, socket: Socket, payload: str | bytes) -> None:
        if isinstance(payload, str):
            socket.texts.append(payload)
            return
        fault = socket.feed(payload)
        if fault:
            socket.texts.append(fault)

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
                if cols > 0 and rows > 0 and (cols, rows) != socket.size:
                    socket.resize(cols, rows)

    @property
    def socket(self) -> Socket | None:
        """The page's latest websocket (None before it opens one)."""
        return self.sockets[-1] if self.sockets else None

    @property
    def size(self) -> tuple[int, int]:
        """The terminal's columns and rows, as the page last told the game."""
        socket = self.socket
        return socket.size if socket is not None else (0, 0)

    # ---------------------------------------------------------------- reading

    def pump(self, ms: int = POLL_MS) -> None:
        """Let Playwright deliver what arrived (frames, events) for ``ms`` milliseconds."""
        self.page.wait_for_timeout(ms)

    def lines(self) -> list[str]:
        """The screen's rows, as shown ([] before a websocket opened)."""
        socket = self.socket
        return socket.lines() if socket is not None else []

    def arrived(self) -> tuple[int, int]:
        """Websockets opened, and bytes the latest received."""
        socket = self.socket
        return (len(self.sockets), socket.total if socket is not None else 0)

    # The waits on the screen (wait_for, wait_gone, wait_quiet) are Watched's.

    def wait_socket(self, count: int = 1, timeout: float = DEFAULT_TIMEOUT) -> Socket:
        """Wait until the page has opened ``count`` websockets in all; the last one."""
        problem = f"never opened websocket {count}"
        self.watch(lambda: len(self.sockets), lambda opened: opened >= count, timeout, problem)
        return self.sockets[-1]

    def wait_closed(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until the page's latest websocket is closed."""
        problem = "the websocket never closed"
        self.watch(lambda: self.socket, lambda s: s is not None and s.closed, timeout, problem)

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
        return f"{problem} within {timeout:g} s (page {address}; {state}); " + self.framed(
            cols, rows
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
