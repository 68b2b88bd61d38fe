"""The web door's reliance on textual-serve's internals, where it has no public way.

- A tab's game (:class:`~table.doors.web.game.Game`): textual-serve documents only its
  ``Server``, which runs one app for anyone who opens the page; the door needs its own
  sign-in, origin checks and bounds in front, so it drives textual-serve's
  ``AppService`` (one app process and its packets) itself.
- The game's process (:meth:`Game._open_app_process
  <table.doors.web.game.Game._open_app_process>`): textual-serve's public way to start
  an app is a shell command run with a copy of the server's whole environment plus
  ``TEXTUAL_DRIVER``; the door starts a fixed command without a shell, in the player's
  folder, with an environment built from nothing, the ticket in it (a ticket on a command
  line would show in ``ps`` to every user of the host).
- Its page's files (``static/js/textual.js``, ``static/css/xterm.css``): the door serves
  its own page around textual-serve's terminal script, from textual-serve's package.

aiohttp is not patched: the bound on connections wraps the protocol each connection gets
from the app runner's :class:`aiohttp.web.Server`, which aiohttp documents as a protocol
factory for ``loop.create_server`` (see :mod:`table.doors.web.connections`).

:data:`PATCHES` lists what each relies on; :meth:`WebDoor.start
<table.doors.web.server.WebDoor.start>` checks them before it listens.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import textual_serve

from table.doors.internals import Patch, check, first, has_signature, uses

CHECKED = "textual-serve 1.1.3"
STATIC: Final = Path(textual_serve.__file__).parent / "static"
PAGE_FILES: Final = ("js/textual.js", "css/xterm.css")
"""textual-serve's files the door's page loads (see :func:`table.doors.web.pages.game`)."""

SERVICE = "textual_serve.app_service"
APP_SERVICE = Patch(
    name="a tab's game",
    where="table.doors.web.game.Game, a subclass of AppService, and WebDoor._read_tab",
    library="textual-serve",
    checked=CHECKED,
    relies_on="AppService (textual-serve documents only its Server, which signs nobody "
    "in): its keywords write_bytes, write_str, close, download_manager, and its coroutines "
    "start(width, height), stop(), send_bytes(data), set_terminal_size(width, height), "
    "focus() and blur()",
    missing=lambda: first(
        has_signature(
            SERVICE,
            "AppService.__init__",
            ["self", "command", "write_bytes", "write_str", "close", "download_manager", "debug"],
        ),
        has_signature(SERVICE, "AppService.start", ["self", "width", "height"], coroutine=True),
        has_signature(SERVICE, "AppService.stop", ["self"], coroutine=True),
        has_signature(SERVICE, "AppService.send_bytes", ["self", "data"], coroutine=True),
        has_signature(
            SERVICE, "AppService.set_terminal_size", ["self", "width", "height"], coroutine=True
        ),
        has_signature(SERVICE, "AppService.focus", ["self"], coroutine=True),
        has_signature(SERVICE, "AppService.blur", ["self"], coroutine=True),
    ),
)
APP_PROCESS = Patch(
    name="the game's process of a tab",
    where="table.doors.web.game.Game._open_app_process",
    library="textual-serve",
    checked=CHECKED,
    relies_on="AppService._open_app_process(width, height), which start() awaits for the "
    "app's process, and the _process and _stdin it sets, which run(), stop() and stdin "
    "read",
    missing=lambda: first(
        has_signature(
            SERVICE, "AppService._open_app_process", ["self", "width", "height"], coroutine=True
        ),
        uses(SERVICE, "AppService.start", "_open_app_process"),
        uses(SERVICE, "AppService.run", "_process"),
        uses(SERVICE, "AppService.stdin.fget", "_stdin"),
    ),
)
PAGE = Patch(
    name="the door's page",
    where="table.doors.web.pages.game, served from table.doors.web.server.STATIC",
    library="textual-serve",
    checked=CHECKED,
    relies_on=f"the files {', '.join(f'static/{name}' for name in PAGE_FILES)} in "
    "textual-serve's package",
    missing=lambda: first(
        *(f"static/{name} is gone" for name in PAGE_FILES if not (STATIC / name).is_file())
    ),
)
PATCHES = (APP_SERVICE, APP_PROCESS, PAGE)


def check_textual_serve() -> None:
    """Raise :class:`~table.doors.internals.LibraryChanged` when this textual-serve lacks
    what the door relies on."""
    check(PATCHES)
