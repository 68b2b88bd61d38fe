"""The lobby's words about each table, from its :class:`~table.protocol.TableInfo` alone
(pure functions, tested without a server): the order of the list, its cells, and the line
under it that says what the selected table is to the player and what Enter does there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from tui import look
from tui.turns import is_my_turn, my_seat

if TYPE_CHECKING:
    from table.protocol import TableInfo


def free_seat(info: TableInfo) -> int | None:
    """An open seat nobody has taken yet, None if none."""
    if info.status != "waiting":
        return None
    return next((i for i, s in enumerate(info.seats) if s.name is None), None)


def order(tables: tuple[TableInfo, ...], player: str) -> list[TableInfo]:
    """Your turn first, then your other tables, then tables with a free seat, then the
    rest (to watch); the most recently active first within each group."""

    def rank(info: TableInfo) -> tuple[int, float]:
        if is_my_turn(info, player):
            group = 0
        elif my_seat(info, player) is not None and info.status not in ("over", "damaged"):
            group = 1
        elif free_seat(info) is not None:
            group = 2
        elif info.status not in ("over", "damaged"):
            group = 3
        else:
            group = 4
        return group, -info.updated

    return sorted(tables, key=rank)


def players_cell(info: TableInfo) -> Text:
    """``B Ann  R Ben(c)  G ·open·``: the colour letter, the name, (c) for a computer,
    ``(away)`` for a player not connected."""
    text = Text(no_wrap=True, overflow="ellipsis")
    for seat in info.seats:
        if text:
            text.append(" ")
        text.append(seat.colour.letter, look.player_style(seat.colour))
        if seat.name is None:
            text.append(" ·open·", look.DIM)
            continue
        text.append(f" {seat.name}")
        if seat.computer:
            text.append("(c)", look.DIM)
        elif info.status == "playing" and not seat.present:
            text.append("(away)", look.DIM)
    return text


def status_words(info: TableInfo, player: str) -> str:
    if info.status in ("over", "damaged"):
        return info.status
    if info.status == "waiting":
        return f"waiting for {sum(1 for s in info.seats if s.name is None)}"
    if is_my_turn(info, player):
        return f"YOUR TURN · s{info.season}"
    turn = info.seats[info.turn] if info.turn is not None else None
    who = turn.name if turn is not None and turn.name else "?"
    return f"{who} · s{info.season}"


def detail_words(info: TableInfo | None, player: str) -> str:
    """The line under the list about the selected table: what it is to ``player`` and
    what Enter does there (``info`` None: there is no table)."""
    if info is None:
        return "No tables yet. c: create one (choose who sits where)."
    if info.status == "damaged":
        return (
            f"{info.title}: damaged in the server's store ({info.damaged}). "
            "Enter: replay it as far as it goes."
        )
    if info.status == "waiting" and my_seat(info, player) is not None:
        free = sum(1 for s in info.seats if s.name is None)
        more = "1 more player joins" if free == 1 else f"{free} more players join"
        return f"{info.title}: your table; it starts when {more}."
    if my_seat(info, player) is not None and info.status != "over":
        return f"{info.title}: your table. Enter: play."
    if free_seat(info) is not None:
        return f"{info.title}: a seat is free. Enter: take it; w: watch."
    if info.status == "over":
        return f"{info.title}: finished. Enter: replay it, with its chat."
    return f"{info.title}: no seat for you. Enter or w: watch."


def age(updated: float, now: float) -> str:
    """How long ago, in one short word: ``now``, ``5m``, ``3h``, ``2d``."""
    seconds = max(0.0, now - updated)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return "now"
