"""The server's own rules of a shared table, as pure functions over the stored table:
what a new table may be, who sits where, whose decision it is, what a line of chat may
say, under which names a finished game is rated. Nothing is read from a socket, a clock
or the store, so each rule is unit-tested on its own.

The rules a client shows as well (who may undo, pause, resume, hand a seat over; who is
away; what the table waits for) are not here: they are :mod:`table.rules`, written once
over the view both sides hold, and the room raises their reasons as a :class:`Refusal`.

Each function either returns what the request leads to or raises :class:`Refusal` with
the sentence the player reads. The room (:mod:`table.server.room`) calls them inside its
one sequence of changes, with the table as it is at that moment.
"""

from __future__ import annotations

from collections.abc import Sequence

import core
from saves.text import check_player_name, check_text
from table import ladder
from table import protocol as wire
from table.store import SeatRow, TableRow
from table.store.changes import seat_names

CHAT_LINES = 5
CHAT_WINDOW = 10.0
"""A player may say at most CHAT_LINES lines in CHAT_WINDOW seconds at one table."""


class Refusal(Exception):
    """A request refused; ``str`` is the reason a player reads."""


def refuse(reason: str | None) -> None:
    """Refuse with ``reason``, the answer of a rule of :mod:`table.rules` (None: allowed)."""
    if reason is not None:
        raise Refusal(reason)


# ---------------------------------------------------------------- a new table


def seat_rows(specs: Sequence[wire.SeatSpec]) -> list[SeatRow]:
    """The stored seats of a table being created, colours filled in, names checked."""
    taken = {s.colour for s in specs if s.colour is not None}
    if len(taken) != sum(1 for s in specs if s.colour is not None):
        raise Refusal("two seats have the same colour")
    free = [c for c in core.Colour if c not in taken]
    rows = []
    for spec in specs:
        colour = spec.colour or free.pop(0)
        if spec.kind == "player":
            if not spec.name:
                raise Refusal("a seat kept for a player needs the player's name")
            rows.append(SeatRow("player", checked_name(spec.name), None, colour))
        elif spec.kind == "computer":
            if spec.level is None:
                raise Refusal("a computer seat needs a level")
            rows.append(SeatRow("computer", None, spec.level, colour))
        else:
            rows.append(SeatRow("open", None, None, colour))
    names = [r.name.lower() for r in rows if r.name]
    if len(set(names)) != len(names):
        raise Refusal("a player sits at most once at a table")
    return rows


def default_hints(rows: Sequence[SeatRow]) -> bool:
    """Whether a table gives hints when its creator did not say: only where one person
    plays with computers (among people, a hint nobody else has is an unfair help; an open
    seat is a person to come)."""
    return sum(1 for r in rows if r.kind != "computer") < 2


def checked_name(name: str) -> str:
    """A player's name as a table keeps it; refuses one with a character that would not
    show as itself on another player's terminal (naming it)."""
    try:
        return check_player_name(name)
    except ValueError as exc:
        raise Refusal(f"{name.strip()[:40]!a} cannot be a player's name: {exc}") from None


def checked_title(title: str) -> str:
    """The title a new table is stored with: the one given, stripped and checked; "" when
    none was given (the table is then named by its seats as they are, :func:`table_name`)."""
    title = title.strip()
    if title:
        try:
            check_text(title, "the title")
        except ValueError as exc:
            raise Refusal(str(exc)) from None
    return title


def table_name(title: str, rows: Sequence[SeatRow]) -> str:
    """The one name of a table, the same in the lobby, at the table and in its export:
    its title, else its seats in words as they are now (``ann, ben, computer (normal)``;
    an open seat is ``open seat`` until someone takes it). A title that a server before
    this one made up from the seats at creation is no title (:func:`_made_up`)."""
    if title and not _made_up(title, rows):
        return title
    return ", ".join(_seat_words(row) for row in rows)


def _seat_words(row: SeatRow) -> str:
    return f"computer ({row.level})" if row.kind == "computer" else row.name or "open seat"


def _made_up(title: str, rows: Sequence[SeatRow]) -> bool:
    """Whether ``title`` is what the old rule stored for an untitled table: its seats in
    words at creation, where a seat taken since was an ``open seat``."""
    words = title.split(", ")
    return len(words) == len(rows) and all(
        word == _seat_words(row) or (row.kind == "player" and word == "open seat")
        for word, row in zip(words, rows, strict=True)
    )


def check_creator(player: str, rows: Sequence[SeatRow], open_tables: int, limit: int) -> None:
    """A player may create a table that keeps them a seat, while they have fewer than
    ``limit`` tables not yet over."""
    if player not in {r.name for r in rows if r.kind == "player"}:
        raise Refusal("keep a seat for yourself at a table you create")
    if open_tables >= limit:
        raise Refusal(
            f"you have {open_tables} tables not yet over (at most {limit}): "
            "one must be over before you create another"
        )


# ---------------------------------------------------------------- sitting down


def open_seat(row: TableRow, wanted: int | None) -> int:
    """The open seat a newcomer takes: ``wanted``, or the first open one."""
    free = [i for i, s in enumerate(row.seats) if s.kind == "open"]
    if wanted is not None and wanted not in free:
        raise Refusal(f"seat {wanted + 1} is not free")
    if not free:
        raise Refusal("there is no seat for you at this table: watch it instead")
    return wanted if wanted is not None else free[0]


def seats_of(row: TableRow, player: str) -> tuple[int, ...]:
    """The seats ``player`` decides for at ``row``."""
    return tuple(i for i, s in enumerate(row.seats) if s.kind == "player" and s.name == player)


def played_by_computer(row: TableRow, seat: int) -> core.Level | None:
    """The level of the computer playing ``seat`` (its own or a stand-in), else None."""
    seat_row = row.seats[seat]
    return seat_row.level if seat_row.kind == "computer" else seat_row.standin


# ---------------------------------------------------------------- playing


def check_play(
    row: TableRow, state: core.GameState | None, seats_here: tuple[int, ...] | None
) -> int:
    """The seat a player at ``row`` decides for now; ``seats_here`` are their seats (None:
    not at the table). Whether the table is paused is :func:`table.rules.why_paused`'s."""
    if state is None:
        raise Refusal("the game has not started: a seat is still free")
    seat = state.current_player
    if seat is None:
        raise Refusal("the game is over")
    if seats_here is None:
        raise Refusal("sit at the table first")
    if seat not in seats_here:
        raise Refusal("it is not your decision")
    if played_by_computer(row, seat):
        raise Refusal("a computer plays your seat now: take it back first")
    return seat


def check_seq(row: TableRow, seq: int) -> None:
    """A request made at the position after ``seq`` actions applies only there."""
    if seq != len(row.actions):
        raise Refusal("someone played meanwhile: look again")


# ---------------------------------------------------------------- life at the table


def chat_text(text: str, said: list[float], now: float) -> str:
    """A line of chat as kept (stripped), if it may be said now; ``said`` are the times of
    the sayer's recent lines at this table (pruned here, but not added to)."""
    text = text.strip()
    if not text:
        raise Refusal("say something")
    try:
        check_text(text, "the message")
    except ValueError as exc:
        raise Refusal(str(exc)) from None
    said[:] = [t for t in said if now - t < CHAT_WINDOW]
    if len(said) >= CHAT_LINES:
        raise Refusal(f"slow down: at most {CHAT_LINES} lines in {CHAT_WINDOW:.0f} seconds")
    return text


# ---------------------------------------------------------------- the ladder


def rated_names(row: TableRow, states: Sequence[core.GameState]) -> list[str]:
    """The name each seat of a finished game is rated under: a computer as its level; a
    player as themselves, or as the computer that stood in for most of their decisions
    (:func:`table.ladder.rated_as`)."""
    names = []
    for seat, seat_row in enumerate(row.seats):
        if seat_row.kind == "computer":
            names.append(ladder.computer_name(seat_row.level or "normal"))
            continue
        made_by = [standin for state, standin in zip(states, row.standins, strict=False)
                   if state.current_player == seat]  # fmt: skip
        names.append(ladder.rated_as(seat_row.name or "?", made_by))
    return names


def first_to_play(seed: int, seats: Sequence[SeatRow]) -> str | None:
    """The person whose turn a game of these seats begins with (None: a computer's, a
    stand-in's, or an open seat's: not a game yet), so that the change that starts the
    game queues their notice (:class:`table.store.TurnBegan`) in its own transaction."""
    if not seats or any(s.kind == "open" for s in seats):
        return None
    try:
        state = core.new_game(len(seats), seed, seat_names(list(seats)), [s.colour for s in seats])
    except (ValueError, core.IllegalActionError):
        return None
    seat = seats[state.current_player] if state.current_player is not None else None
    if seat is None or seat.kind != "player" or seat.standin is not None:
        return None
    return seat.name
