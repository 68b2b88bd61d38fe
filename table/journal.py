"""A shared table's journal: every event its players are told of, in one stored order.

The server appends to it inside the table's one sequence of changes (the same commit as
the change itself) and sends each new entry to everyone at the table; a snapshot carries
it whole. So the live log, a reconnect's catch-up, a watcher's view, the replay, the
export and the turn notices are all read from one sequence, and every terminal shows the
same lines in the same order, before and after a reconnect.

An entry is a frozen msgspec Struct tagged by its kind (``"k"``); it carries when it
happened (``at``, Unix seconds) and where it stands among the moves (``seq``: how many
actions the game had when it happened; a :class:`Move` is action number ``seq`` itself).
Entries are stored and sent as they are, so a field added later must have a default.

:func:`words` says an entry other than a move in a sentence, the one wording every
client shows (a move is said by ``core``'s events, with :func:`standin_mark`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

import msgspec

import core
from core.levels import Level
from saves.format import TableLine
from table.clock import clock

Text = Annotated[str, msgspec.Meta(max_length=400)]
Name = Annotated[str, msgspec.Meta(max_length=40)]


class Entry(msgspec.Struct, frozen=True, tag_field="k", forbid_unknown_fields=False):
    """What every entry has: when it happened and how many actions the game had then."""

    at: float
    seq: Annotated[int, msgspec.Meta(ge=0)]


class Move(Entry, frozen=True, tag="move"):
    """Action number ``seq`` was played for ``seat``; ``standin``: by a computer of that
    level standing in for the seat's player (None: the seat's own player or computer)."""

    seat: int
    action: core.Action
    standin: Level | None = None


class Undo(Entry, frozen=True, tag="undo"):
    """``player`` took back their last action: the game has ``seq`` actions again."""

    player: Name


class Chat(Entry, frozen=True, tag="chat"):
    """A line of chat (``spectator``: said by someone watching, not playing)."""

    name: Name
    text: Text
    spectator: bool = False


class Pause(Entry, frozen=True, tag="pause"):
    """``player`` paused the table for everyone until ``until``."""

    player: Name
    until: float


class PauseEnd(Entry, frozen=True, tag="pause-end"):
    """The pause ``player`` took is over: they ended it early (``early``), or it ran out
    (then ``at`` is when it was due to end)."""

    player: Name
    early: bool = False


class HandOver(Entry, frozen=True, tag="hand-over"):
    """``by`` handed seat ``seat`` (its player ``name``) to a computer of ``level``; None:
    the seat's player takes it back (``by`` is then that player)."""

    by: Name
    seat: int
    name: Name
    level: Level | None = None


class Sit(Entry, frozen=True, tag="sit"):
    """``name`` took the open seat ``seat``."""

    seat: int
    name: Name


class Away(Entry, frozen=True, tag="away"):
    """The last terminal of seat ``seat``'s player (``name``) left the table."""

    seat: int
    name: Name


class Back(Entry, frozen=True, tag="back"):
    """Seat ``seat``'s player (``name``) is at the table again after being away."""

    seat: int
    name: Name


class Rated(msgspec.Struct, frozen=True):
    """How one name of a finished game went into the ladder."""

    name: Name
    """The name rated: the player, or the computer level that stood in for most of their
    decisions (``computer (normal)``)."""
    mu: float
    games: int


class End(Entry, frozen=True, tag="end"):
    """The game is over and went into the ladder: ``rated`` in seat order."""

    rated: tuple[Rated, ...] = ()


Any = Move | Undo | Chat | Pause | PauseEnd | HandOver | Sit | Away | Back | End
"""Every kind of entry (what a journal holds)."""

ENCODER = msgspec.json.Encoder()
DECODER: msgspec.json.Decoder[Any] = msgspec.json.Decoder(Any)


def standin_mark(level: Level | None) -> str:
    """What follows a move made by a stand-in in the log: `` (computer, normal)``."""
    return f" (computer, {level})" if level else ""


def words(entry: Any) -> str | None:
    """The sentence every terminal shows for ``entry`` (None for a :class:`Move`, which
    ``core``'s events say, and for a :class:`Chat`, which is shown as the line said)."""
    match entry:
        case Move() | Chat():
            return None
        case Undo(player=player):
            return f"{player} took back their last action."
        case Pause(player=player, until=until):
            return f"{player} paused the table until {clock(until)}."
        case PauseEnd(player=player, early=True):
            return f"{player} ended their pause: play on."
        case PauseEnd(player=player):
            return f"{player}'s pause is over: play on."
        case HandOver(by=by, name=name, level=None):
            if by == name:
                return f"{name} plays their own seat again."
            return f"{by} gave {name}'s seat back to {name}."
        case HandOver(by=by, name=name, level=level) if by == name:
            return f"{name}'s seat is played by a computer ({level}) until they take it back."
        case HandOver(by=by, name=name, level=level):
            return (
                f"{by} handed {name}'s seat to a computer ({level}) while {name} is away; "
                "it is theirs again when they come back."
            )
        case Sit(name=name, seat=seat):
            return f"{name} took seat {seat + 1}."
        case Away(name=name, at=at):
            return f"{name} left the table at {clock(at)}."
        case Back(name=name):
            return f"{name} is back at the table."
        case End(rated=rated):
            if not rated:
                return "The game is over."
            return (
                "The game is over and rated: "
                + ", ".join(f"{r.name} {r.mu:.1f}" for r in rated)
                + "."
            )
    raise AssertionError(f"an entry of no known kind: {entry!r}")  # pragma: no cover


def standins(entries: Iterable[Any], actions: int) -> list[Level | None]:
    """For each of the game's ``actions`` actions now, the stand-in that made it (from the
    last :class:`Move` of each ``seq``: an undone move's later replacement wins)."""
    made: list[Level | None] = [None] * actions
    for entry in entries:
        if isinstance(entry, Move) and entry.seq < actions:
            made[entry.seq] = entry.standin
    return made


def told_line(entry: Any) -> TableLine | None:
    """``entry`` as the line a replay or an export keeps (None for a move, which the
    replay says from the game itself, with its stand-in mark)."""
    if isinstance(entry, Chat):
        return TableLine(entry.seq, entry.at, entry.text, entry.name, entry.spectator)
    said = words(entry)
    return None if said is None else TableLine(entry.seq, entry.at, said)


def told_lines(entries: Iterable[Any]) -> list[TableLine]:
    """The lines of ``entries`` (see :func:`told_line`), in the journal's order."""
    return [line for line in map(told_line, entries) if line is not None]
