"""The lobby's order and words, without a server: your turn first, then your tables,
then free seats, then the rest; short ages."""

from __future__ import annotations

import core
from table.protocol import SeatInfo, TableInfo
from tui.lobby_words import age, detail_words, order, status_words


def table(id_: int, status, turn, names, updated: float = 0.0) -> TableInfo:
    colours = list(core.Colour)
    seats = tuple(SeatInfo(colours[i], n, present=True) for i, n in enumerate(names))
    return TableInfo(id_, f"t{id_}", seats, status, turn, 1, 0.0, updated, 0)


def test_your_turn_first_then_yours_then_free_seats_then_the_rest() -> None:
    others = table(1, "playing", 0, ["ben", "cleo"], updated=9)
    free = table(2, "waiting", None, ["ben", None], updated=8)
    mine_waiting = table(3, "playing", 1, ["ann", "ben"], updated=7)
    my_turn = table(4, "playing", 0, ["ann", "ben"], updated=1)
    over = table(5, "over", None, ["ann", "ben"], updated=10)
    ranked = order((others, free, mine_waiting, my_turn, over), "ann")
    assert [t.id for t in ranked] == [4, 3, 2, 1, 5]
    assert status_words(my_turn, "ann").startswith("YOUR TURN")
    assert status_words(mine_waiting, "ann") == "ben · s1"
    assert status_words(free, "ann") == "waiting for 1"


def test_ages_are_one_short_word() -> None:
    assert [age(0, t) for t in (5, 61, 3 * 3600 + 5, 2 * 86400)] == ["now", "1m", "3h", "2d"]


def test_a_damaged_table_is_listed_last_as_damaged_even_where_you_sit() -> None:
    damaged = table(6, "damaged", 0, ["ann", "ben"], updated=99)
    mine = table(7, "playing", 1, ["ann", "ben"], updated=1)
    assert [t.id for t in order((damaged, mine), "ann")] == [7, 6]
    assert status_words(damaged, "ann") == "damaged"


def test_the_line_under_the_list_says_what_the_table_is_to_you_and_what_enter_does() -> None:
    one_open = table(1, "waiting", None, ["ann", None])
    two_open = table(2, "waiting", None, ["ann", None, None])
    assert detail_words(one_open, "ann") == "t1: your table; it starts when 1 more player joins."
    assert detail_words(two_open, "ann") == "t2: your table; it starts when 2 more players join."
    assert detail_words(one_open, "ben") == "t1: a seat is free. Enter: take it; w: watch."
    assert detail_words(table(3, "playing", 0, ["ann", "ben"]), "ann").endswith("Enter: play.")
    assert detail_words(table(4, "over", None, ["ann", "ben"]), "ann").startswith("t4: finished")
    assert detail_words(table(5, "playing", 0, ["ben", "cleo"]), "ann").endswith("w: watch.")
    assert detail_words(None, "ann").startswith("No tables yet.")
