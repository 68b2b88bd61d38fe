"""Phase 2, the excavations (RULES.md §4): A, B, passing, the empty stock, the last player."""

import pytest

import core
from core.state import EMPTY
from tests.core.pictures import (
    PYRAMIDS_AND_OPPONENTS,
    legal,
    picture,
    play,
    position,
    space,
    with_player,
)

BOARD = PYRAMIDS_AND_OPPONENTS

EMPTY_REGION = "\n".join(f"{r} . . . . . . . ." for r in range(1, 7))


def blue_to_play(board: str = BOARD, **fields) -> core.GameState:
    """3 players, Blue (seat 0) deciding, nobody passed yet."""
    return position(board, players=3, current=0, first_player=0, **fields)


# ---------------------------------------------------------------- A: start an excavation


def test_a_goes_on_any_free_space():
    """A: one cube from stock onto a free space, anywhere (not only next to own cubes)."""
    state = play(blue_to_play(), "A h1")
    assert state.cubes[0] >> space("h1") & 1
    assert state.players[0].stock == 10


def test_a_not_on_a_pyramid():
    with pytest.raises(core.IllegalActionError, match="c1 holds a pyramid"):
        play(blue_to_play(), "A c1")


def test_a_not_on_a_cube():
    """Neither an opponent's cube nor one's own."""
    for where in ("e4", "b2"):
        with pytest.raises(core.IllegalActionError, match="already holds a cube"):
            play(blue_to_play(), f"A {where}")


def test_a_is_offered_on_every_free_space_and_nowhere_else():
    """48 spaces - 3 pyramids (c1 f2 b5) - 3 cubes (b2 e4 h6) = 42 A actions."""
    starts = {a for a in legal(blue_to_play()) if a.startswith("A ")}
    assert len(starts) == 42
    assert not {"A c1", "A f2", "A b5", "A b2", "A e4", "A h6"} & starts


# ---------------------------------------------------------------- B: extend an excavation


def test_b_first_next_to_own_cube_second_next_to_first():
    state = play(blue_to_play(), "B a2 a1")
    assert state.cubes[0] == sum(1 << space(s) for s in ("b2", "a2", "a1"))
    assert state.players[0].stock == 9


def test_b_first_cube_must_touch_one_of_the_players_cubes():
    """Red's cube at e4 does not help Blue."""
    with pytest.raises(core.IllegalActionError, match="e5 is not next to one of your cubes"):
        play(blue_to_play(), "B e5 e6")


def test_b_adjacency_is_orthogonal_only():
    """c3 touches b2 only by a corner."""
    assert "B c3 c4" not in legal(blue_to_play())
    with pytest.raises(core.IllegalActionError, match="not next to one of your cubes"):
        play(blue_to_play(), "B c3 c4")


def test_b_second_cube_must_touch_the_first():
    """c2 touches Blue's b2, but e2 is two spaces away from c2."""
    with pytest.raises(core.IllegalActionError, match="e2 is not next to c2"):
        play(blue_to_play(), "B c2 e2")


def test_b_second_cube_next_to_own_cube_only_is_not_enough():
    """a2 and c2 both touch b2 but not each other."""
    with pytest.raises(core.IllegalActionError, match="c2 is not next to a2"):
        play(blue_to_play(), "B a2 c2")


def test_b_never_onto_a_pyramid():
    with pytest.raises(core.IllegalActionError, match="c1 holds a pyramid"):
        play(blue_to_play(), "B c2 c1")


@pytest.mark.parametrize(
    ("board", "move", "why"),
    [
        (  # b2 (parcel P1) to c2 (parcel P2)
            "1 . . . . . . . .\n2 . B . . . . . .\n" + "3 . . . . . . . .\n" * 4,
            "B c2 d2",
            "across a parcel boundary",
        ),
        (  # d4 (left area) to e4 (right area)
            "1 . . . . . . . .\n" * 3 + "4 . . . B . . . .\n" + "5 . . . . . . . .\n" * 2,
            "B e4 f4",
            "across an area boundary",
        ),
        (  # a3 (top line of parcels) to a4 (next line)
            "1 . . . . . . . .\n" * 2 + "3 B . . . . . . .\n" + "4 . . . . . . . .\n" * 3,
            "B a4 a5",
            "across a line of parcels",
        ),
        (  # a2 and b2 are cells 2 and 3 of parcel P1: the cartouche lies between them
            "1 . . . . . . . .\n2 B . . . . . . .\n" + "3 . . . . . . . .\n" * 4,
            "B b2 b1",
            "across the cartouche",
        ),
    ],
)
def test_b_adjacency_ignores_every_boundary(board, move, why):
    assert move in legal(blue_to_play(board)), f"{why}\n{board}"


def test_b_needs_two_cubes_in_stock():
    """With 1 cube in stock: A is possible, B is not (both cubes must be placed)."""
    state = with_player(blue_to_play(), 0, stock=1)
    assert not any(a.startswith("B ") for a in legal(state))
    assert "A a2" in legal(state)
    with pytest.raises(core.IllegalActionError, match="needs 2 cubes"):
        play(state, "B a2 a1")


# ---------------------------------------------------------------- C: pass


def test_pass_takes_the_lowest_free_passing_space():
    state = play(blue_to_play(), "pass")
    assert state.passing == (0, EMPTY, EMPTY)
    state = play(state, "pass")
    assert state.passing == (0, 1, EMPTY)


def test_a_player_who_passed_takes_no_more_actions():
    """Blue passed: the turn goes Red, Green, Red, Green..."""
    state = play(blue_to_play(), "pass")
    seen = []
    for move in ("A a1", "A a3", "A a4", "A a5"):
        seen.append(state.current_player)
        state = play(state, move)
    assert seen == [1, 2, 1, 2]


def test_with_an_empty_stock_the_only_action_is_pass():
    state = with_player(blue_to_play(), 0, stock=0)
    assert core.legal_actions(state) == (core.Pass(),)
    with pytest.raises(core.IllegalActionError, match="stock is empty"):
        play(state, "A a1")


def test_an_empty_stock_passes_by_itself():
    """Red has no cube: after Blue's action, Red is passed automatically and Green plays."""
    state = with_player(blue_to_play(), 1, stock=0)
    state, events = core.apply_action_with_events(state, core.parse_action("A a1"))
    assert state.passing == (1, EMPTY, EMPTY)
    assert state.current_player == 2
    texts = [e.text for e in events]
    assert "Red has no cube in stock" in texts
    assert "Red passes (passing space 1)" in texts


# ---------------------------------------------------------------- the end of phase 2


def test_the_last_player_takes_exactly_one_more_action_then_is_placed():
    """Blue and Red passed: Green (10 cubes left) plays once more and lands on space 3."""
    state = play(blue_to_play(EMPTY_REGION), "pass", "pass")
    assert state.current_player == 2 and state.last_turn
    state = play(state, "A h1")
    assert state.passing == (0, 1, 2)
    assert state.phase is core.Phase.SURVEY
    assert state.players[2].stock == 10


def test_the_last_player_may_pass_as_their_last_action():
    state = play(blue_to_play(EMPTY_REGION), "pass", "pass", "pass")
    # Nobody has a cube on the region: the survey has nothing to do; season 2 starts.
    assert state.season == 2


def test_ruling_the_last_placed_on_the_scale_starts_the_next_season():
    """Green was placed last (after its last action): Green is season 2's first player."""
    state = play(blue_to_play(EMPTY_REGION), "pass", "pass", "A h1")
    assert state.passing == (0, 1, 2), picture(state)
    state = play(state, "take P4")
    assert (state.season, state.first_player, state.current_player) == (2, 2, 2)


def test_four_players_all_end_on_the_scale_in_the_order_they_stopped():
    state = position(EMPTY_REGION, players=4, current=2, first_player=2)
    state = play(state, "pass", "A a1", "pass", "A a2", "pass")
    # Green passed (space 1), White played, Blue passed (2), Red played, White passed (3):
    # Red is the last one and has its one more action.
    assert state.passing == (2, 0, 3, EMPTY) and state.current_player == 1 and state.last_turn
    state = play(state, "A h6")
    assert state.passing == (2, 0, 3, 1)


def test_an_empty_stock_skipped_leaves_the_last_player_their_one_action():
    """Blue passes; Red, with no cube, is passed for it: Green is the last player."""
    state = with_player(blue_to_play(EMPTY_REGION), 1, stock=0)
    state = play(state, "pass")
    assert state.passing == (0, 1, EMPTY)
    assert state.current_player == 2 and state.last_turn


def test_b_may_start_from_a_cube_standing_on_a_pyramid():
    """Blue's cube on the pyramid c1 (placed with Lord Lemon) is one of Blue's cubes."""
    board = "1 . . b . . . . .\n" + "2 . . . . . . . .\n" * 5
    assert "B d1 e1" in legal(blue_to_play(board))


def test_the_region_of_season_4_has_9_rows():
    """a9 exists in season 4 only."""
    nine = "\n".join(f"{r} . . . . . . . ." for r in range(1, 10))
    assert "A a9" in legal(blue_to_play(nine))
    with pytest.raises(core.IllegalActionError, match="not on this season's region"):
        play(blue_to_play(EMPTY_REGION), "A a9")
