"""What the store holds of a table (:class:`TableRow`, :class:`SeatRow`) and the changes
a server makes to it (:data:`Change`), each a plain value: the room builds them, the
writer hands them to :meth:`table.store.TableStore.commit`, several in one transaction.

A change of a table and the entries it adds to the table's journal are committed
together (a move is an :class:`Append` and a :class:`Noted` :class:`table.journal.Move`),
so the journal never tells of a change the store lacks, nor the store hold one the
journal does not tell.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import core
from core.analysis import Analysis
from table import journal
from table.ladder import Rating
from table.protocol import Pace, SeatKind


@dataclass
class SeatRow:
    """A seat as stored: ``kind`` is ``player`` (``name`` set once someone sits),
    ``open`` (nobody yet: the first to join takes it, becoming ``player``) or ``computer``."""

    kind: SeatKind
    name: str | None
    level: core.Level | None
    colour: core.Colour
    standin: core.Level | None = None
    """A ``player`` seat handed to a computer of this level, until taken back."""


@dataclass
class TableRow:
    """A table and its whole game as stored."""

    id: int
    title: str
    seed: int
    created: float
    updated: float
    seats: list[SeatRow]
    finished: float | None = None
    """When the game's result went into the ladder (None: not over, or not rated yet)."""
    pace: Pace = "days"
    wait: float = 300
    paused_until: float | None = None
    """The end of the pause under way, until its :class:`table.journal.PauseEnd` is
    written (the time alone does not clear it: see :class:`Resumed`)."""
    paused_by: str | None = None
    pauses: set[tuple[str, int]] = field(default_factory=set)
    """(player, season) of each pause taken."""
    actions: list[core.Action] = field(default_factory=list)
    standins: list[core.Level | None] = field(default_factory=list)
    """For each action, the level of the computer stand-in that made it for its player
    (None: made by the seat's own player or computer)."""
    journal: list[journal.Any] = field(default_factory=list)
    """The table's journal (:mod:`table.journal`): entry ``n`` is ``journal[n]``."""
    creator: str | None = None
    """Who created the table (None in a store older than schema 6)."""
    hints: bool = True
    """Whether ``/`` gives its players the hard computer's move (chosen at creation)."""
    damaged: str | None = None
    """Why the stored rows cannot be read (the rows read before the fault are kept)."""
    analysis: Analysis | None = None
    """The computer's analysis of the finished game, as far as it was made (None: none;
    a kept one that does not read is none too: it is made again)."""

    def names(self) -> list[str]:
        """The name each seat plays under: a player's own; a computer's level ("Normal",
        then "Normal 2" for a second of the same level); an open seat's "?"."""
        return seat_names(self.seats)


def seat_names(seats: list[SeatRow]) -> list[str]:
    """See :meth:`TableRow.names` (also what the store's migration replays games with)."""
    names: list[str] = []
    for seat in seats:
        if seat.kind == "computer" and seat.level is not None:
            level = seat.level.capitalize()
            same = sum(1 for name in names if name.split(" ")[0] == level)
            names.append(f"{level} {same + 1}" if same else level)
        else:
            names.append(seat.name or "?")
    return names


# ---------------------------------------------------------------- changes


@dataclass(frozen=True)
class Append:
    """Store action ``seq`` of a table (``standin``: made by a computer standing in)."""

    table: int
    seq: int
    action: core.Action
    standin: core.Level | None = None


@dataclass(frozen=True)
class Truncate:
    """Forget a table's actions from ``seq`` on (an undo)."""

    table: int
    seq: int


@dataclass(frozen=True)
class SitDown:
    """``name`` takes the open seat ``seat``."""

    table: int
    seat: int
    name: str


@dataclass(frozen=True)
class StandIn:
    """Seat ``seat`` is played by a computer of ``level`` (None: by its player again)."""

    table: int
    seat: int
    level: core.Level | None


@dataclass(frozen=True)
class Noted:
    """Entry number ``n`` of a table's journal (one entry is never stored twice, nor out
    of its place: ``n`` is the journal's length before it)."""

    table: int
    n: int
    entry: journal.Any


@dataclass(frozen=True)
class Finished:
    """A game's result went into the ladder at ``at``: the new ratings of its players."""

    table: int
    at: float
    ratings: tuple[Rating, ...]


@dataclass(frozen=True)
class Paused:
    """``name`` paused the table until ``until`` (their pause of ``season``)."""

    table: int
    name: str
    season: int
    until: float


@dataclass(frozen=True)
class Resumed:
    """The pause ``name`` took is over (ended early, or run out and told so): the table is
    no longer paused. The store refuses it for a table ``name`` has not paused."""

    table: int
    name: str


@dataclass(frozen=True)
class Analysed:
    """The analysis of a finished table, as far as it was made (replacing the one kept):
    not a change of its game, and told to nobody but those who asked for it."""

    table: int
    analysis: Analysis


@dataclass(frozen=True)
class TurnBegan:
    """It is ``name``'s turn at the table from ``at`` (the position after ``seq``
    actions): a notice is due to each of their confirmed channels once their delay has
    passed (none if they have none, or turned them off). Committed with the change that
    made it their turn, so a notice is never lost nor due without its turn."""

    table: int
    seq: int
    name: str
    at: float


Change = (
    Append
    | Truncate
    | SitDown
    | StandIn
    | Noted
    | Finished
    | Paused
    | Resumed
    | Analysed
    | TurnBegan
)
"""Every change a server makes to a stored table."""
