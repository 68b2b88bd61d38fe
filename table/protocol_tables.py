"""What a table looks like on the wire (a part of :mod:`table.protocol`, which gives every
name here as its own): a seat asked for at the creation, a seat and a table as everyone
sees them, in the lobby and in every :class:`table.protocol.Told`."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

import core
from core.levels import Level

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]

Pace = Literal["days", "live"]
"""``days``: no clock, the table waits for everyone; ``live``: a player away longer than
the table's wait may have their seat handed to a computer by a present player."""


SeatKind = Literal["player", "open", "computer"]
"""``player``: a named person (the creator, or reserved for a friend); ``open``: the first
who joins takes it; ``computer``: a computer player of ``level``."""


class SeatSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat of a table being created."""

    kind: SeatKind
    name: Name | None = None
    """The player for a ``player`` seat."""
    level: Level | None = None
    """The computer's level for a ``computer`` seat."""
    colour: core.Colour | None = None
    """None: the first colour no other seat has."""


class SeatInfo(msgspec.Struct, frozen=True):
    """A seat as everyone sees it."""

    colour: core.Colour
    name: str | None  # who sits there; None for an open seat not yet taken
    computer: Level | None = None
    present: bool = False
    """A client of this player is connected to the table now (computers: always)."""
    away_since: float | None = None
    """When the player's last client left (Unix time); None if present or never came."""
    standin: Level | None = None
    """A player's seat handed to a computer of this level (until they take it back)."""


TableStatus = Literal["waiting", "playing", "over", "damaged"]
"""``damaged``: the stored table cannot go on (``TableInfo.damaged`` says why); it can be
watched and exported as far as it replays."""


class TableInfo(msgspec.Struct, frozen=True):
    """A line of the lobby."""

    id: int
    title: str
    seats: tuple[SeatInfo, ...]
    status: TableStatus
    turn: int | None
    """The seat deciding now (None before the start and after the end)."""
    season: int
    created: float
    updated: float
    actions: int
    pace: Pace = "days"
    wait: float = 300
    paused_until: float | None = None
    paused_by: str | None = None
    damaged: str | None = None
    """Why a damaged table cannot go on."""
    paused_this_season: tuple[str, ...] = ()
    """The players who have paused the table in the current season (once each): a client
    can tell a pause that would be refused before asking for it."""
    hints: bool = True  # whether ``/`` shows the hard computer's move (chosen at creation)
