"""Phase 2, action D: appealing to a patron (RULES.md §4), one test per power and ruling.

Card ids: patron p's seven cards are 7p..7p+6 (Violet 0-6, Lemon 7-13, Brown 14-20,
Blackmore 21-27, Tangerine 28-34), 35 is the patronless card.
"""

import pytest
from msgspec.structs import replace

import core
from core.museum import Room
from tests.core.pictures import legal, play, position, with_player

VIOLET, VIOLET_2, LEMON, BROWN, BLACKMORE, TANGERINE = 0, 1, 7, 14, 21, 28

BOARD = """
  a b c d | e f g h
1 . ^ ^ . | . . . .
2 . B ^ . | . . . .
3 ^ . . . | . . . .
4 . . . . | r . . .
5 . ^ . . | . . . .
6 . . . . | . . . G
"""
# Pyramids: b1 c1 c2 a3 b5, and e4 under a Red cube.


def blue_with(
    *cards: int,
    board: str = BOARD,
    museum=(-1,) * 15,
    passing=(-1, -1, -1),
    last_turn=False,
    **player,
) -> core.GameState:
    """3 players, season 2, Blue (seat 0) deciding and owning ``cards``."""
    state = position(
        board,
        players=3,
        current=0,
        first_player=0,
        season=2,
        museum=museum,
        passing=passing,
        last_turn=last_turn,
    )
    return with_player(state, 0, cards=cards, **player)


def patron_moves(state: core.GameState, word: str) -> set[str]:
    return {a for a in legal(state) if a.split()[0] == word}


# ---------------------------------------------------------------- when cards can be used


def test_nobody_can_appeal_to_a_patron_in_season_1():
    """Cards come from surveys: at the start of the game nobody has one."""
    state = core.new_game(3, seed=5)
    assert all(not p.cards for p in state.players)
    assert {type(a) for a in core.legal_actions(state)} == {core.Excavate, core.Pass}


def test_a_card_taken_in_the_survey_is_usable_next_season():
    """Blue takes the Violet parcel in season 1's survey and may appeal to Violet in season 2."""
    board = "1 B . . . . . . .\n" + "2 . . . . . . . .\n" * 5
    state = position(board, current=0, first_player=1, passing=(1, 2, -1), last_turn=True)
    state = replace(state, region=tuple(2 * c for c in range(8)))
    state = play(state, "pass", "take P1")
    assert state.season == 2 and state.current_player == 0
    assert state.players[0].cards == (VIOLET,) and state.players[0].tilted == ()
    assert patron_moves(state, "violet")


def test_a_used_card_is_tilted_and_unusable_until_the_season_ends():
    state = play(blue_with(VIOLET), "violet h1")
    assert state.players[0].tilted == (VIOLET,)
    state = play(state, "A a1", "A a6")  # Red, Green
    assert state.current_player == 0 and not patron_moves(state, "violet")
    with pytest.raises(core.IllegalActionError, match="no untilted Lady Violet card"):
        play(state, "violet h2")


def test_one_card_per_turn():
    """An appeal is the player's whole action: one card turns, then the next player plays."""
    state = play(blue_with(VIOLET, VIOLET_2, LEMON), "violet h1")
    assert state.players[0].tilted == (VIOLET,)
    assert state.current_player == 1


def test_several_cards_of_one_patron_are_each_usable_once():
    state = blue_with(VIOLET, VIOLET_2)
    state = play(state, "violet h1", "A a1", "A a6")
    assert patron_moves(state, "violet")
    state = play(state, "violet h2", "A a4", "A a5")
    assert state.players[0].tilted == (VIOLET, VIOLET_2)
    assert not patron_moves(state, "violet")


def test_the_patronless_card_has_no_power():
    state = blue_with(35)
    assert {type(a) for a in core.legal_actions(state)} == {core.Excavate, core.Extend, core.Pass}


# ---------------------------------------------------------------- Lady Violet


def test_violet_moves_a_cube_from_reserve_to_stock_then_a():
    before = blue_with(VIOLET)
    after = play(before, "violet h1")
    assert after.players[0].reserve == before.players[0].reserve - 1
    assert after.players[0].stock == before.players[0].stock  # +1 from reserve, -1 placed
    assert after.cubes[0] == before.cubes[0] | 1 << core.region.parse_space("h1")


def test_violet_then_b():
    before = blue_with(VIOLET)
    after = play(before, "violet a2 a1")
    assert after.players[0].stock == before.players[0].stock - 1


def test_violet_b_with_one_cube_in_stock_uses_the_reserve_cube():
    """1 in stock + 1 from reserve = the 2 cubes B needs."""
    state = play(blue_with(VIOLET, stock=1), "violet a2 a1")
    assert state.players[0].stock == 0


def test_violet_is_impossible_with_an_empty_reserve():
    state = blue_with(VIOLET, reserve=0, stock=11)
    assert not patron_moves(state, "violet")
    with pytest.raises(core.IllegalActionError, match="reserve"):
        play(state, "violet h1")


def test_ruling_violet_cannot_rescue_an_empty_stock():
    """With an empty stock the only action is to pass, even holding Lady Violet."""
    state = blue_with(VIOLET, stock=0)
    assert state.players[0].reserve > 0
    assert core.legal_actions(state) == (core.Pass(),)
    with pytest.raises(core.IllegalActionError, match="stock is empty"):
        play(state, "violet h1")


# ---------------------------------------------------------------- Lord Lemon


def test_lemon_a_goes_on_a_pyramid():
    """Free pyramids b1 c1 c2 a3 b5; e4's pyramid holds a cube, so it is occupied."""
    state = blue_with(LEMON)
    assert patron_moves(state, "lemon") >= {"lemon b1", "lemon c1", "lemon c2", "lemon a3"}
    assert "lemon e4" not in legal(state)
    after = play(state, "lemon b5")
    assert after.cubes[0] >> core.region.parse_space("b5") & 1
    assert after.players[0].tilted == (LEMON,)


def test_lemon_a_pyramid_holding_a_cube_counts_like_any_occupied_space():
    with pytest.raises(core.IllegalActionError, match="e4 already holds a cube"):
        play(blue_with(LEMON), "lemon e4")


def test_lemon_a_not_on_a_plain_space():
    with pytest.raises(core.IllegalActionError, match="exactly one cube goes on a pyramid"):
        play(blue_with(LEMON), "lemon h1")


@pytest.mark.parametrize("move", ["lemon b1 a1", "lemon c2 d2", "lemon a2 a3", "lemon b3 a3"])
def test_lemon_b_with_exactly_one_cube_on_a_pyramid(move):
    """Either the first or the second cube of the B may be the one on a pyramid."""
    assert move in legal(blue_with(LEMON))
    play(blue_with(LEMON), move)


@pytest.mark.parametrize("move", ["lemon b1 c1", "lemon c2 c1"])
def test_lemon_b_not_with_both_cubes_on_pyramids(move):
    with pytest.raises(core.IllegalActionError, match="exactly one cube goes on a pyramid"):
        play(blue_with(LEMON), move)


def test_lemon_b_not_with_no_cube_on_a_pyramid():
    with pytest.raises(core.IllegalActionError, match="exactly one cube goes on a pyramid"):
        play(blue_with(LEMON), "lemon b3 b4")


def test_lemon_b_still_starts_next_to_own_cube():
    with pytest.raises(core.IllegalActionError, match="not next to one of your cubes"):
        play(blue_with(LEMON), "lemon b4 b5")


def test_lemon_b_count_by_hand():
    """Lemon B from Blue's b2: the first cube on b1(^) a2 c2(^) or b3.
    b1(^) -> a1 (c1 is a pyramid: two pyramids)        1
    a2    -> a3(^)                                    1
    c2(^) -> d2, c3 (c1 is a pyramid)                  2
    b3    -> a3(^)                                    1
    total                                             5"""
    pairs = {a for a in patron_moves(blue_with(LEMON), "lemon") if len(a.split()) == 3}
    assert len(pairs) == 5


# ---------------------------------------------------------------- Sir Brown


def test_brown_moves_a_stock_cube_into_a_room():
    before = blue_with(BROWN)
    after = play(before, "brown T3")
    assert after.museum[Room.T3] == 0
    assert after.players[0].stock == before.players[0].stock - 1
    assert after.players[0].reserve == before.players[0].reserve


def test_brown_any_empty_2_or_3_room_but_no_5_room_at_first():
    rooms = {a.split()[1] for a in patron_moves(blue_with(BROWN), "brown")}
    assert rooms == {"T1", "T2", "T3", "T4", "T5", "D12", "D23", "D34", "D45", "D51"}
    with pytest.raises(core.IllegalActionError, match="needs one of your cubes in a room"):
        play(blue_with(BROWN), "brown F1")


def test_brown_5_room_next_to_own_2_room():
    """Blue holds D51 (between wings 5 and 1): both of their 5-rooms open to Blue."""
    museum = tuple(0 if r == Room.D51 else -1 for r in range(15))
    state = blue_with(BROWN, museum=museum)
    rooms = {a.split()[1] for a in patron_moves(state, "brown")}
    assert {"F1", "F5"} <= rooms and not {"F2", "F3", "F4", "D51"} & rooms


def test_brown_not_into_a_taken_room():
    museum = tuple(1 if r == Room.T2 else -1 for r in range(15))
    with pytest.raises(core.IllegalActionError, match="already taken"):
        play(blue_with(BROWN, museum=museum), "brown T2")


# ---------------------------------------------------------------- Mrs. Blackmore


def test_blackmore_first_anywhere_free_second_next_to_it():
    """h1 touches no Blue cube: Blackmore does not care."""
    state = play(blue_with(BLACKMORE), "blackmore h1 h2")
    assert state.players[0].tilted == (BLACKMORE,)


def test_blackmore_second_next_to_first():
    with pytest.raises(core.IllegalActionError, match="g3 is not next to h1"):
        play(blue_with(BLACKMORE), "blackmore h1 g3")


def test_blackmore_not_on_a_pyramid():
    with pytest.raises(core.IllegalActionError, match="holds a pyramid"):
        play(blue_with(BLACKMORE), "blackmore d1 c1")


def test_blackmore_needs_two_cubes():
    assert not patron_moves(blue_with(BLACKMORE, stock=1), "blackmore")


# ---------------------------------------------------------------- Colonel Tangerine


def test_tangerine_places_a_chain_of_three_from_own_cube():
    before = blue_with(TANGERINE)
    after = play(before, "tangerine b3 b4 c4")
    assert after.players[0].stock == before.players[0].stock - 3


def test_tangerine_first_next_to_own_cube():
    with pytest.raises(core.IllegalActionError, match="h1 is not next to one of your cubes"):
        play(blue_with(TANGERINE), "tangerine h1 h2 h3")


def test_tangerine_chain_not_broken():
    """d4 touches b3? No, and not b4 either: each cube touches the one before."""
    with pytest.raises(core.IllegalActionError, match="d4 is not next to b4"):
        play(blue_with(TANGERINE), "tangerine b3 b4 d4")


def test_tangerine_needs_three_cubes():
    assert not patron_moves(blue_with(TANGERINE, stock=2), "tangerine")


def test_lemon_b_needs_two_cubes_in_stock():
    moves = patron_moves(blue_with(LEMON, stock=1), "lemon")
    assert moves and all(len(m.split()) == 2 for m in moves)


def test_tangerine_cubes_each_need_their_own_space():
    with pytest.raises(core.IllegalActionError, match="its own space"):
        play(blue_with(TANGERINE), "tangerine b3 b4 b3")


def test_a_patron_as_the_last_action_then_the_player_is_placed():
    """Red and Green passed: Blue's appeal to Sir Brown is its one last action."""
    state = blue_with(BROWN, passing=(1, 2, -1), last_turn=True)
    state = play(state, "brown T1")
    assert state.passing == (1, 2, 0)
