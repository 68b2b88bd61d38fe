"""The rules of a shared table, as pure functions: the time is passed in, nothing is read
from a socket, a clock or the store, so each rule is unit-tested on its own.

Each function either returns what the request leads to or raises :class:`Refusal` with
the sentence the player reads. The room (:mod:`table.server.room`) calls them inside its
one sequence of changes, with the table as it is at that moment.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence

import core
from saves.text import check_player_name, check_text
from table import ladder
from table import protocol as wire
from table.store import SeatRow, TableRow

CHAT_LINES = 5
CHAT_WINDOW = 10.0
"""A player may say at most CHAT_LINES lines in CHAT_WINDOW seconds at one table."""


class Refusal(Exception):
    """A request refused; ``str`` is the reason a player reads."""


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


def checked_name(name: str) -> str:
    """A player's name as a table keeps it; refuses one with a character that would not
    show as itself on another player's terminal (naming it)."""
    try:
        return check_player_name(name)
    except ValueError as exc:
        raise Refusal(f"{name.strip()[:40]!a} cannot be a player's name: {exc}") from None


def table_title(title: str, rows: Sequence[SeatRow]) -> str:
    """The title a new table is listed under: the one given, checked, else the seats in
    words (``ann, ben, computer (normal)``; an open seat is ``open seat``)."""
    title = title.strip()
    if not title:
        words = [f"computer ({r.level})" if r.kind == "computer" else r.name or "open seat"
                 for r in rows]  # fmt: skip
        return ", ".join(words)
    try:
        check_text(title, "the title")
    except ValueError as exc:
        raise Refusal(str(exc)) from None
    return title


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


def paused_until(row: TableRow, now: float) -> float | None:
    """When a pause under way ends (None: not paused)."""
    until = row.paused_until
    return until if until is not None and until > now else None


def refuse_if_paused(row: TableRow, now: float) -> None:
    until = paused_until(row, now)
    if until is not None:
        at = time.strftime("%H:%M", time.localtime(until))
        raise Refusal(f"the table is paused until {at} ({row.paused_by})")


def check_play(
    row: TableRow, state: core.GameState | None, seats_here: tuple[int, ...] | None, now: float
) -> int:
    """The seat a player at ``row`` decides for now; ``seats_here`` are their seats (None:
    not at the table)."""
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
    refuse_if_paused(row, now)
    return seat


def check_seq(row: TableRow, seq: int) -> None:
    """A request made at the position after ``seq`` actions applies only there."""
    if seq != len(row.actions):
        raise Refusal("someone played meanwhile: look again")


def why_no_undo(
    row: TableRow, states: Sequence[core.GameState], seats_here: tuple[int, ...], seq: int
) -> str | None:
    """Why a player deciding for ``seats_here`` may not take back the table's last action
    (None: they may). Board Game Arena's rule: your own last action, until the next player
    acts or new parcels are dealt; and never the game's last (it is over and rated)."""
    if not seats_here:
        return "only the table's players may undo"
    if seq != len(row.actions):
        return "someone played meanwhile: look again"
    if not row.actions:
        return "nothing has been played yet"
    before, after = states[-2], states[-1]
    mover = before.current_player
    if mover not in seats_here:
        who = row.seats[mover].name if mover is not None else "nobody"
        return f"the last action was {who}'s, not yours: only your own can be taken back"
    if row.standins[-1:] not in ([], [None]):
        return "a computer made that move for you: only your own can be taken back"
    if core.is_over(after):
        return "the game is over: its last action stands"
    if after.season != before.season:
        return "new parcels were dealt since: that action cannot be taken back"
    return None


# ---------------------------------------------------------------- life at the table


def absent_seat(
    row: TableRow,
    seat: int,
    level: core.Level | None,
    present: set[int],
    away_since: Mapping[int, float],
    now: float,
) -> int:
    """``seat``, if a present player may hand it to a computer now (a live table, its
    player away longer than the table's wait)."""
    if level is None:
        raise Refusal("only its player takes a seat back")
    if row.pace != "live":
        raise Refusal("this table waits for everyone: nobody's seat is handed over for them")
    if not 0 <= seat < len(row.seats) or row.seats[seat].kind != "player":
        raise Refusal("that is not a player's seat")
    refuse_if_paused(row, now)
    since = away_since.get(seat)
    if seat in present or since is None:
        raise Refusal("that player is here (or has not come yet): only an absent seat")
    left = row.wait - (now - since)
    if left > 0:
        raise Refusal(
            f"that player has been away less than the table's wait: {math.ceil(left)} s more"
        )
    return seat


def check_pause(row: TableRow, state: core.GameState | None, player: str, now: float) -> int:
    """The season a player's pause of a live table counts against (once per season; not
    while a pause is under way, which another would cut short or stretch)."""
    if row.pace != "live" or state is None or core.is_over(state):
        raise Refusal("only a live game in progress can be paused")
    if (player, state.season) in row.pauses:
        raise Refusal("you have paused this table once this season already")
    refuse_if_paused(row, now)
    return state.season


def check_resume(row: TableRow, player: str, now: float) -> None:
    """A pause is lifted early only by the player who took it, and only while it runs."""
    until = paused_until(row, now)
    if until is None:
        raise Refusal("the table is not paused")
    if row.paused_by != player:
        at = time.strftime("%H:%M", time.localtime(until))
        raise Refusal(f"{row.paused_by} paused the table until {at}: only they can resume it early")


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
