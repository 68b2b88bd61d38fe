"""Where the table server listens, and who dials it: :class:`ServerAddress`.

Apart from :mod:`table.client.directory` (which re-exports it) because every start of the
game makes one, only to look whether the server's socket is there: this module imports
nothing of the protocol, which a game on this machine never needs (issue 29: the
protocol's messages cost a fifth of a first start's imports).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from table.client.directory import Keep, Link, TableDirectory

DIAL_TIMEOUT = 2.0
"""Seconds to reach the server before playing on this machine instead."""


class TableUnavailable(Exception):
    """The server cannot be reached or refused the request; ``str`` is one sentence."""


@dataclass(frozen=True)
class ServerAddress:
    """Where the table server listens, and who this terminal's player claims to be (None:
    the login name; a shared game account names its players, see ``--trust-account``); in
    a door's session, the ticket the door gave it, sent on every dial (it is a secret:
    never in a repr)."""

    socket: Path
    player: str | None = None
    ticket: str | None = field(default=None, repr=False)

    async def dial(self) -> Link:
        from table.client.connection import connect

        connecting = connect(self.socket, self.player, self.ticket)
        return await asyncio.wait_for(connecting, DIAL_TIMEOUT)

    async def directory(self, keep: Keep | None = None) -> TableDirectory:
        """The server's lobby (its games exported through ``keep``); raises
        :class:`TableUnavailable` saying why not."""
        from table.client.connection import Refused
        from table.client.directory import TableDirectory

        try:
            link = await self.dial()
        except Refused as exc:  # before OSError, its base: the server said no
            raise TableUnavailable(f"The table server refused this terminal: {exc}") from None
        except (OSError, TimeoutError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "no answer"
            raise TableUnavailable(f"No table server at {self.socket} ({reason}).") from None
        return TableDirectory(link, self.dial, str(self.socket), keep)
