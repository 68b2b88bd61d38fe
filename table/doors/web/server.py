"""The web door's HTTP side: sign-in, the page, the websocket that runs a game.

Every route checks who is asking before anything costs: no session, no game process; a
websocket or a form from another origin, refused (403). See :mod:`table.doors.web` for the
whole picture.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import re
from pathlib import Path
from socket import gethostname
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from textual_serve.download_manager import DownloadManager

from saves.text import printable
from table.doors.admissions import DoorFull
from table.doors.options import WEB_URL_FILE
from table.doors.players_thread import PlayersThread
from table.doors.ssh.gate import WrongCodes
from table.doors.web import pages
from table.doors.web.connections import Connections, Counted, same_address
from table.doors.web.game import Game
from table.doors.web.internals import STATIC, check_textual_serve
from table.host.players import Players, PlayersError, token_hash, watched_table, who
from table.server.log import log

if TYPE_CHECKING:
    from table.doors.admissions import Admissions
    from table.doors.zygote import Zygote

COOKIE: Final = "mykerinos"
SESSION_DAYS: Final = 30
FORM_LIMIT: Final = 16 * 1024
"""Bytes of a sign-in form (a code is 19 characters)."""
MESSAGE_LIMIT: Final = 64 * 1024
"""Bytes of one websocket message from a browser (keys, a resize)."""
SIZE_LIMIT: Final = 500
"""Columns or rows a browser may ask for."""
CLOSE_WITHIN: Final = 2.0
"""Seconds a tab has to take its last words and its close: a browser that stopped
reading never takes them (aiohttp waits for room in the socket without end), and its
connection is then dropped."""
SESSIONS_CHECKED_EVERY: Final = 10.0
"""Seconds between checks that each open tab's session is still valid: a host's
``mykerinos players remove`` closes that player's tabs within this time."""
QUIET_WITHIN: Final = 10.0
"""Seconds a connection may go without a whole request (silent, half sent, idle): closed."""
OWN_STATIC: Final = Path(__file__).parent / "static"
STOPPING: Final = b"the table server is stopping; connect again in a moment"
"""The close reason every tab hears when the server stops (the SSH door's words): the
page's "Session ended" dialog shows it."""


class WebDoor:
    """The web door of one table server."""

    def __init__(
        self,
        admissions: Admissions,
        socket: Path,
        db: Path,
        public_url: str | None = None,
        proxy: str | None = None,
        zygote: Zygote | None = None,
    ) -> None:
        self.admissions = admissions
        self.zygote = zygote
        """The warm process that forks the games (None: each is a new interpreter)."""
        self.socket = socket
        self.db = db
        self.folder = db.parent
        self.proxied = public_url
        """``--web-url``, behind a proxy: it names the origin, the cookie's path, the scheme
        (None: the browser's own ``Host`` does, over plain http)."""
        self.public_url = public_url
        """What players open: ``--web-url``, else this machine's name and port (once
        listening)."""
        self.proxy = proxy
        """``--web-proxy``: the address of the one reverse proxy whose ``X-Forwarded-For``
        the door believes (None: nobody's)."""
        self.wrong = WrongCodes()
        self.tabs: dict[web.WebSocketResponse, tuple[str, str]] = {}
        """Each open game tab: (its session token, its player)."""
        self._transports: dict[web.WebSocketResponse, asyncio.Transport | None] = {}
        """Each open tab's connection, dropped when it does not take its close."""
        self._runner: web.AppRunner | None = None
        self._store: PlayersThread | None = None
        self._watching: asyncio.Task[None] | None = None
        self.downloads = DownloadManager()
        """Files the games offer (textual-serve's; the game offers none yet)."""
        self.connections = Connections(proxy=proxy)
        self._listening: asyncio.Server | None = None

    # ---------------------------------------------------------------- start and stop

    async def start(self, host: str | None, port: int) -> None:
        """Listen on ``host``:``port`` (raises ``OSError`` when it cannot, or
        :class:`~table.doors.internals.LibraryChanged` when textual-serve lacks what the
        door relies on)."""
        check_textual_serve()
        logging.getLogger("textual-serve").setLevel(logging.CRITICAL)
        logging.getLogger("aiohttp").setLevel(logging.CRITICAL)
        self._store = PlayersThread(self.db)
        app = web.Application(client_max_size=FORM_LIMIT, middlewares=[self._headers])
        app.add_routes([
            web.get("/", self.index),
            web.get("/join", self.join),
            web.post("/signin", self.sign_in),
            web.get("/signout", self.sign_out_page),
            web.post("/signout", self.sign_out),
            web.get("/ws", self.play),
            web.get("/favicon.ico", _no_icon),
            web.static("/static", STATIC),
            web.static("/door", OWN_STATIC),
        ])  # fmt: skip
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, keepalive_timeout=QUIET_WITHIN
        )
        await self._runner.setup()
        serve = self._runner.server
        assert serve is not None
        # aiohttp's Server is the protocol factory for loop.create_server (its documented
        # low-level use): each connection is counted before aiohttp is given it.
        self._listening = await asyncio.get_running_loop().create_server(
            lambda: Counted(self.connections, serve), host, port, backlog=128
        )
        sockets = self._listening.sockets
        bound = sockets[0].getsockname()[1] if sockets else port
        if self.public_url is None:
            self.public_url = f"http://{_url_host(host)}:{bound}/"
        with contextlib.suppress(OSError):  # a hint for `mykerinos invite --web`
            (self.folder / WEB_URL_FILE).write_text(self.public_url + "\n", encoding="utf-8")
        self._watching = asyncio.get_running_loop().create_task(self._watch_sessions())
        log(f"web door on {host or '*'}:{bound}, players open {self.public_url}")

    async def stop(self) -> None:
        """Close every tab (their games leave), stop listening."""
        if self._watching is not None:
            self._watching.cancel()
        await asyncio.gather(*(self._shut(tab, message=STOPPING) for tab in self.tabs))
        if self._listening is not None:
            self._listening.close()
        if self._runner is not None:
            await self._runner.cleanup()  # closes the connections aiohttp was given
            self._runner = None
        if self._store is not None:
            self._store.close()
            self._store = None

    # ---------------------------------------------------------------- pages

    async def index(self, request: web.Request) -> web.Response:
        player, _token = await self._signed_in(request)
        if player is None:
            return _html(pages.sign_in())
        return _html(pages.game(self._websocket_url(request)))

    async def join(self, request: web.Request) -> web.Response:
        """The link ``invite --web`` prints: the sign-in page with its code filled in (a
        link previewer that opens it uses nothing up; the button does)."""
        return _html(pages.sign_in(code=request.query.get("code", "")[:64]))

    async def sign_in(self, request: web.Request) -> web.Response:
        self._same_origin(request)
        address = self._address(request)
        # The form first: a bound checked before it came would let every sign-in that
        # sent its headers, then waited, past it (twenty tried twenty codes).
        form = await request.post()
        wait = self.wrong.blocked(address)
        if wait:
            minutes = int(wait // 60) + 1
            return _html(pages.sign_in(problem=f"Too many wrong codes from your address: "
                                       f"try again in {minutes} minutes."), status=429)  # fmt: skip
        code = str(form.get("code", ""))[:64]
        assert self._store is not None
        # Counted wrong from the moment the store looks at it, forgiven if right: ten
        # sign-ins sent at once would otherwise all pass the check above before any
        # answer came back.
        counted = self.wrong.add(address)
        try:
            player, token = await self._store.call(Players.redeem_web, code)
        except PlayersError as exc:
            reason = str(exc)[:1].upper() + str(exc)[1:]
            return _html(pages.sign_in(code, f"{reason}."), status=403)
        self.wrong.forgive(address, counted)
        log(f"web door: {who(player)} signed in from {printable(address)}")
        response = web.HTTPSeeOther("./")
        response.set_cookie(
            COOKIE, token, max_age=SESSION_DAYS * 86400, path=self._cookie_path(),
            httponly=True, samesite="Strict", secure=self._secure(),
        )  # fmt: skip
        raise response

    async def sign_out_page(self, request: web.Request) -> web.Response:
        return _html(pages.sign_out())

    async def sign_out(self, request: web.Request) -> web.Response:
        self._same_origin(request)
        token = request.cookies.get(COOKIE, "")
        if token and self._store is not None:
            await self._store.call(Players.end_web_session, token)
        await asyncio.gather(*(
            self._shut(tab, message=b"signed out")
            for tab, (tab_token, _player) in self.tabs.items() if tab_token == token
        ))  # fmt: skip
        response = _html(pages.signed_out())
        response.del_cookie(COOKIE, path=self._cookie_path())
        return response

    # ---------------------------------------------------------------- the game

    async def play(self, request: web.Request) -> web.StreamResponse:
        """A signed-in tab's websocket: the game in a process of its own, as long as the
        tab stays (closing it ends the game, and the table shows the player away)."""
        self._same_origin(request)
        player, token = await self._signed_in(request)
        if player is None:
            raise web.HTTPForbidden(text="sign in first")
        tab = web.WebSocketResponse(heartbeat=15, max_msg_size=MESSAGE_LIMIT)
        await tab.prepare(request)
        self._transports[tab] = request.transport
        width = _size(request.query.get("width"), 80)
        height = _size(request.query.get("height"), 24)
        watching = watched_table(player)  # a watch link's browser: a guest of that table
        name = player if watching is None else f"guest {token_hash(token)[:4]}"
        try:
            with self.admissions.admitted(name, watching) as ticket:
                self.connections.plays(request.transport)
                self.tabs[tab] = (token, player)
                game = Game(self, ticket, name, tab, watching)
                await game.start(width, height)
                try:
                    await self._read_tab(tab, game)
                finally:
                    await game.end()
        except DoorFull as exc:
            await self._shut(tab, said=f"\r\nmykerinos: {exc}\r\n".encode())
        finally:
            self.tabs.pop(tab, None)
            await self._shut(tab)
            self._transports.pop(tab, None)
        return tab

    async def _shut(
        self, tab: web.WebSocketResponse, said: bytes = b"", message: bytes = b""
    ) -> None:
        """Close ``tab`` (``said`` shown in its terminal first) within
        :data:`CLOSE_WITHIN` seconds, else drop its connection: whoever closes it (the
        door stopping, a sign-out, the session watch) must not wait on a browser that
        stopped reading, nor leave its socket and the frames queued for it behind."""
        try:
            async with asyncio.timeout(CLOSE_WITHIN):
                if said and not tab.closed:
                    await tab.send_bytes(said)
                await tab.close(message=message)
        except Exception:  # TimeoutError, or the connection already gone
            pass
        transport = self._transports.get(tab)
        if transport is not None and transport.get_write_buffer_size():
            transport.abort()  # closed or not, what it still holds will never be read

    async def _read_tab(self, tab: web.WebSocketResponse, game: Game) -> None:
        """What the page sends: keys, a new size, a ping (textual-serve's messages)."""
        async for message in tab:
            if message.type != WSMsgType.TEXT:
                continue
            try:  # ["stdin", keys], ["resize", {…}], ["ping", x], ["focus"], ["blur"]
                kind, *rest = json.loads(message.data)
            except (ValueError, TypeError, RecursionError):
                return  # not the page's: the tab goes
            data = rest[0] if rest else None
            if kind == "stdin" and isinstance(data, str):
                await game.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                await game.set_terminal_size(
                    _size(data.get("width"), 80), _size(data.get("height"), 24)
                )
            elif kind == "ping":
                await tab.send_json(["pong", str(data)[:64]])
            elif kind == "blur":
                await game.blur()
            elif kind == "focus":
                await game.focus()

    async def _watch_sessions(self) -> None:
        """Close the tabs whose session ended (signed out elsewhere, expired, the
        player removed by the host); see :data:`SESSIONS_CHECKED_EVERY`."""
        while True:
            await asyncio.sleep(SESSIONS_CHECKED_EVERY)
            if self._store is None:
                continue
            for tab, (token, player) in list(self.tabs.items()):
                try:
                    still = await self._store.call(Players.web_player, token)
                except Exception as exc:  # a busy or failing store: look again later
                    log(f"web door: cannot check the sessions: {exc!r}")
                    break
                if still != player:
                    log(f"web door: {who(player)}'s session ended: their tab closes")
                    await self._shut(
                        tab,
                        said=b"\r\nmykerinos: your session has ended\r\n",
                        message=b"your session has ended",
                    )

    # ---------------------------------------------------------------- who is asking

    async def _signed_in(self, request: web.Request) -> tuple[str | None, str]:
        token = request.cookies.get(COOKIE, "")
        if not token or self._store is None:
            return None, ""
        return await self._store.call(Players.web_player, token), token

    def _origin(self, request: web.Request) -> str:
        """The door's own origin: that of ``--web-url``, else the one the browser used
        (``Host``): a page of another site is not of it, whatever it claims to be."""
        if self.proxied:
            parts = urlsplit(self.proxied)
            return f"{parts.scheme}://{parts.netloc}"
        return f"http://{_host(request)}"

    def _same_origin(self, request: web.Request) -> None:
        origin = request.headers.get("Origin")
        if origin is None and request.method == "GET" and "Upgrade" not in request.headers:
            return
        if origin != self._origin(request):
            raise web.HTTPForbidden(text="not from this door's own page")

    def _websocket_url(self, request: web.Request) -> str:
        base = self.proxied or f"http://{_host(request)}/"
        scheme, rest = base.split(":", 1)
        return f"{'wss' if scheme == 'https' else 'ws'}:{rest}ws"

    def _cookie_path(self) -> str:
        return urlsplit(self.proxied).path or "/" if self.proxied else "/"

    def _secure(self) -> bool:
        return bool(self.proxied and self.proxied.startswith("https:"))

    def _address(self, request: web.Request) -> str:
        """Who to hold to the wrong-code bound and name in the log: the peer, or when the
        peer is the proxy of ``--web-proxy``, the address it forwarded for (the last of
        ``X-Forwarded-For``, the one the proxy adds itself) if that is an IP address.
        Anyone else's ``X-Forwarded-For`` is their own text: believed, it let a client
        choose a new address for each wrong code, and wrote what it liked in the log."""
        peer = request.remote or "?"
        if self.proxy is None or not same_address(peer, self.proxy):
            return peer
        forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
        try:
            return str(ipaddress.ip_address(forwarded))
        except ValueError:
            return peer  # a proxy that forwarded no address: counted as itself

    @web.middleware
    async def _headers(self, request: web.Request, handler):  # type: ignore[no-untyped-def]
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            response = exc
            _secure_headers(response, self._websocket_origin(request))
            raise
        _secure_headers(response, self._websocket_origin(request))
        return response

    def _websocket_origin(self, request: web.Request) -> str:
        url = self._websocket_url(request)
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc}"


async def _no_icon(_request: web.Request) -> web.Response:
    """What a browser asks for on its own: nothing to show (not a 404 in its console)."""
    return web.Response(status=204)


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


def _secure_headers(response: web.StreamResponse, websocket_origin: str) -> None:
    headers = response.headers
    headers["Content-Security-Policy"] = pages.CSP.format(websocket=websocket_origin)
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "same-origin"  # "no-referrer" makes a form's Origin "null"
    headers.setdefault("Cache-Control", "no-store")


def _size(value: object, default: int) -> int:
    with contextlib.suppress(ValueError):
        return max(1, min(int(str(value)), SIZE_LIMIT))
    return default


_HOST: Final = re.compile(r"(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
"""A ``Host`` a browser sends: a name or address, maybe a port."""


def _host(request: web.Request) -> str:
    """The ``Host`` the browser used, when it is one: it goes into the page's websocket
    address and the Content-Security-Policy, and anything else (``a; script-src *``
    rewrote the policy's directives, ``[`` made every response a 500 without one) is
    no browser's; ``invalid`` then, which matches no origin and connects nowhere."""
    host = request.host
    return host if _HOST.fullmatch(host) else "invalid"


def _url_host(host: str | None) -> str:
    if host in (None, "", "0.0.0.0", "::"):
        return gethostname()
    return f"[{host}]" if ":" in host else host
