"""The picture helper itself: what a test draws is the position core sees."""

import pytest

import core
from tests.core.pictures import picture, position, space

BOARD = """
  a b c d | e f g h
1 . . ^ . | . . . .
2 . B . . | . ^ . .
3 . . . . | . . r .
4 . . . . | R . . .
5 . ^ . . | . . . .
6 . . . . | . . . G
"""


def test_a_picture_draws_back_to_itself():
    """picture(position(p)) is p (up to blank lines)."""
    assert picture(position(BOARD)) == BOARD.strip("\n")


def test_tokens_mean_pyramids_and_cubes_of_the_seats_colours():
    """'^' is a pyramid, a capital is a cube of that colour's seat, lower case sits on a pyramid."""
    state = position(BOARD)
    assert state.pyramids == sum(1 << space(s) for s in ("c1", "f2", "g3", "b5"))
    assert state.cubes == (1 << space("b2"), 1 << space("g3") | 1 << space("e4"), 1 << space("h6"))


def test_reserve_is_what_is_left_of_the_25_cubes():
    """reserve + stock + region cubes = 25 for each player."""
    state = position(BOARD)
    for seat, player in enumerate(state.players):
        assert player.reserve + player.stock + state.cubes[seat].bit_count() == 25


def test_nine_rows_make_a_season_4_region_of_12_parcels():
    """A 9-row picture is a season-4 region."""
    rows = "\n".join(f"{r} . . . . . . . ." for r in range(1, 10))
    state = position(rows)
    assert (state.season, len(state.region), len(core.legal_actions(state)) - 1) == (4, 12, 72)


def test_a_malformed_picture_is_refused():
    """A row of 7 spaces is an error, not a silent shift."""
    with pytest.raises(ValueError, match="8 spaces"):
        position("1 . . . . . . .\n" * 6)
