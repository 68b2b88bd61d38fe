"""Who may hold a session through a door right now: the bounds on sessions per player
and in all, the ticket that names each session's player to the table server, and the
player's own folder on the host.

One :class:`Admissions` serves every door of a server, so a player's sessions are counted
together whether they came by SSH or by browser.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from table.counts import counted
from table.doors.options import DoorLimits

if TYPE_CHECKING:
    from table.server.hub import Hub


class DoorFull(Exception):
    """A bound on sessions was reached; ``str`` tells the newcomer why."""


class Admissions:
    """Sessions open through the doors, per player, within ``limits``."""

    def __init__(self, hub: Hub, limits: DoorLimits | None = None) -> None:
        self.hub = hub
        self.limits = limits or DoorLimits()
        self.open: Counter[str] = Counter()
        """Sessions of each player admitted and not yet over."""

    @contextlib.contextmanager
    def admitted(self, player: str, watching: int | None = None) -> Iterator[str]:
        """A session of ``player`` within the bounds, and its ticket for the hub (revoked
        when the block ends; with ``watching``, it lets the session watch that table
        only); raises :class:`DoorFull` saying why not."""
        if self.open[player] >= self.limits.sessions_per_player:
            raise DoorFull(
                f"you have {self.open[player]} sessions open through the doors already: "
                "close one first"
            )
        if self.open.total() >= self.limits.sessions:
            raise DoorFull("the doors have as many players as they can take: try again later")
        with counted(self.open, player):
            ticket = self.hub.issue_ticket(player, watching)
            try:
                yield ticket
            finally:
                self.hub.revoke_ticket(ticket)


def player_home(folder: Path, player: str) -> Path:
    """``player``'s own folder beside the store (their exported games, their settings,
    the table they last sat at), with its ``saves`` folder made: named by a digest, so
    that no name can reach outside ``folder/door``."""
    digest = hashlib.sha256(player.encode("utf-8")).hexdigest()[:24]
    home = folder / "door" / digest
    (home / "saves").mkdir(parents=True, exist_ok=True, mode=0o700)
    return home
