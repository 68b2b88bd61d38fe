"""One browser tab's game: its own process under Textual's web driver, and its end.

textual-serve's ``AppService`` carries the packets between the tab and the process; the
door starts the process itself (:meth:`Game._open_app_process`, a patch of textual-serve's
internals listed in :mod:`table.doors.web.internals`): a fixed command, never a shell, in
the player's folder, with an environment built from nothing; forked by the doors' warm
process when there is one (:mod:`table.doors.zygote`), else a new interpreter.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import TYPE_CHECKING, Final, cast

from aiohttp import web
from textual_serve.app_service import AppService

from table.doors.admissions import player_home
from table.doors.zygote import start_piped
from table.lifeline import hang_ups_reach_children

if TYPE_CHECKING:
    from table.doors.web.server import WebDoor

END_WITHIN: Final = 1.5
"""Seconds a game has to leave once its tab is gone, before it is killed."""


class Game(AppService):
    """One tab's game: textual-serve's ``AppService`` (its packets to and from the
    process), started as :mod:`tui.web` with a fixed command and an environment built
    from nothing, never a shell."""

    def __init__(
        self,
        door: WebDoor,
        ticket: str,
        player: str,
        tab: web.WebSocketResponse,
        watching: int | None = None,
    ):
        super().__init__(
            "", write_bytes=tab.send_bytes, write_str=tab.send_str, close=self._close_tab,
            download_manager=door.downloads,
        )  # fmt: skip
        self.door = door
        self.ticket = ticket
        self.player = player
        self.tab = tab
        self.watching = watching
        """A watch link's game: the table it opens on, and the only one."""

    async def _close_tab(self) -> None:
        """The game left by itself (its quit key): the page shows "Session ended"."""
        await self.tab.close()

    async def _open_app_process(self, width: int = 80, height: int = 24):  # type: ignore[no-untyped-def]
        """The game's process, as textual-serve's own would be but without a shell or the
        server's environment (a patch of textual-serve's internals: see
        :data:`table.doors.web.internals.APP_PROCESS`, which the door checks at start)."""
        home = player_home(self.door.folder, self.player)
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(home),
            "LANG": "C.UTF-8",
            "MYKERINOS_TICKET": self.ticket,
            "COLUMNS": str(width),
            "ROWS": str(height),
            "TEXTUAL_COLOR_SYSTEM": "truecolor",
            "TEXTUAL_FPS": "60",
        }
        watch = ["--watch", str(self.watching)] if self.watching is not None else []
        args = [
            "--socket", str(self.door.socket), "--save-dir", str(home / "saves"), *watch,
            "--door", "web",  # a table's export is downloaded by the browser
        ]  # fmt: skip
        hang_ups_reach_children()  # its lifeline is SIGHUP (tui.web)
        zygote = self.door.zygote
        forked = await start_piped(zygote, "tui.web", args, env, str(home)) if zygote else None
        # A forked game stands for the Process textual-serve reads: its pid, wait(), pipes.
        process = cast("asyncio.subprocess.Process", forked) if forked else None
        self._process = process = process or await asyncio.create_subprocess_exec(
            sys.executable, "-I", "-m", "tui.web", *args,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=env, cwd=home, close_fds=True,
        )  # fmt: skip
        self._stdin = process.stdin
        return process

    async def end(self) -> None:
        """The tab is gone: ask the game to quit, and make sure it left."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.stop(), END_WITHIN)
        process = self._process
        if process is None:
            return
        # Its output is read no more (the packets' task is over or was cancelled): a game
        # blocked writing a frame its tab never took would not see the quit, and
        # asyncio's wait() returns only once the pipes are closed, which a pipe left
        # full never is, not even after a kill: the tab's admission and ticket were then
        # held for ever (and `serve` never stopped). Read it into nothing meanwhile.
        discarding = [
            asyncio.ensure_future(_discard(stream))
            for stream in (process.stdout, process.stderr)
            if stream is not None
        ]
        try:  # wait for it first: kill() polls, and a poll reaps it behind asyncio's back
            await asyncio.wait_for(process.wait(), END_WITHIN)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(TimeoutError):  # a pipe some other process holds
                await asyncio.wait_for(process.wait(), END_WITHIN)
        finally:
            for task in discarding:
                task.cancel()


async def _discard(stream: asyncio.StreamReader) -> None:
    with contextlib.suppress(Exception):
        while await stream.read(1 << 16):
            pass
