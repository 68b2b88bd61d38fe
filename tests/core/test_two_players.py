"""Two players and the neutral archaeologist (RULES.md §8)."""

import pytest

import core
from core.state import EMPTY, NEUTRAL, SurveyStep
from tests.core.pictures import WITH_NEUTRAL, legal, picture, play, position, with_player

# P1 Violet 3, P2 Violet -, P3 Lemon 3, P4 Lemon -, P5 Brown 3, P6 Brown -, P7 patronless 5,
# P8 Blackmore - (all unrotated).
REGION = (6 * 2, 0 * 2, 13 * 2, 7 * 2, 20 * 2, 14 * 2, 35 * 2, 21 * 2)
EMPTY_REGION = "\n".join(f"{r} . . . . . . . ." for r in range(1, 7))
NEUTRAL_BOARD = WITH_NEUTRAL


def blue_to_play(board: str = NEUTRAL_BOARD, **fields) -> core.GameState:
    fields = {"current": 0, "first_player": 0, **fields}
    return position(board, players=2, **fields)


def surveyed(board: str, last: int, **fields) -> core.GameState:
    """Both players passed, ``1 - last`` first (space 1), ``last`` then (space 3)."""
    state = position(
        board,
        players=2,
        current=last,
        passing=(1 - last, NEUTRAL, EMPTY, EMPTY),
        last_turn=True,
        region=REGION,
        **fields,
    )
    state = play(state, "pass")
    assert state.phase is core.Phase.SURVEY, picture(state)
    return state


# ---------------------------------------------------------------- setup


def test_an_unused_colour_is_the_neutral_and_its_disk_is_on_space_2():
    state = core.new_game(2, seed=1)
    assert state.neutral_colour is core.Colour.GREEN
    assert state.passing == (EMPTY, NEUTRAL, EMPTY, EMPTY)
    assert len(state.cubes) == 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_cube_masks_are_the_seats_then_the_neutral(players):
    """One convention: NEUTRAL names the neutral; its mask comes after the seats' masks."""
    state = core.new_game(players, seed=1)
    holders = core.cube_holders(state)
    assert holders == ((0, 1, NEUTRAL) if players == 2 else tuple(range(players)))
    assert [core.cube_index(state, h) for h in holders] == list(range(len(state.cubes)))


def test_the_neutral_cubes_are_read_through_its_index():
    state = play(blue_to_play(), "B b3 b4", "nA d6")
    neutral = state.cubes[core.cube_index(state, NEUTRAL)]
    assert neutral == 1 << core.region.parse_space("f2") | 1 << core.region.parse_space("d6")


def test_the_two_players_pass_onto_spaces_1_and_3():
    state = play(blue_to_play(EMPTY_REGION), "pass")
    assert state.passing == (0, NEUTRAL, EMPTY, EMPTY)
    state, events = core.apply_action_with_events(state, core.Pass())
    assert "Red passes (passing space 3)" in [e.text for e in events]


def test_neutral_cubes_are_shared_first_player_first_when_fewer_than_8_remain():
    """3 neutral cubes left: Red (first player of season 2, last on the scale) gets 2."""
    state = blue_to_play(
        EMPTY_REGION, current=1, passing=(0, NEUTRAL, EMPTY, EMPTY), neutral_reserve=3
    )
    state = with_player(with_player(state, 0, neutral_stock=0), 1, neutral_stock=0)
    state = play(state, "pass")  # Red passes last; nobody dug: season 2 begins
    assert (state.season, state.first_player) == (2, 1)
    assert [p.neutral_stock for p in state.players] == [1, 2]
    assert state.neutral_reserve == 0


def test_ruling_unused_neutral_cubes_stay_with_the_player():
    state = blue_to_play(EMPTY_REGION, current=1, passing=(0, NEUTRAL, EMPTY, EMPTY))
    state = play(state, "pass")
    assert [p.neutral_stock for p in state.players] == [8, 8]


# ---------------------------------------------------------------- placing neutral cubes


def test_after_a_normal_a_the_player_may_place_neutral_cubes():
    """Neutral A on any of the 48 - 4 = 44 free spaces, neutral B from f2, or skip."""
    state = play(blue_to_play(), "A a1")
    assert state.neutral_pending and state.current_player == 0
    moves = legal(state)
    assert "nskip" in moves and "nA h6" in moves and "nB f1 g1" in moves
    assert sum(m.startswith("nA") for m in moves) == 44


def test_neutral_cubes_come_from_the_players_neutral_stock():
    state = play(blue_to_play(), "B b3 b4", "nB f3 f4")
    assert state.players[0].neutral_stock == 2 and state.players[0].stock == 9
    assert state.cubes[core.cube_index(state, core.NEUTRAL)] >> core.region.parse_space("f4") & 1
    assert state.current_player == 1 and not state.neutral_pending


def test_neutral_b_starts_next_to_a_neutral_cube():
    state = play(blue_to_play(), "A a1")
    with pytest.raises(core.IllegalActionError, match="not next to a neutral cube"):
        play(state, "nB b3 b4")  # next to Blue's cube, not the neutral's


def test_the_turn_waits_for_the_neutral_decision():
    state = play(blue_to_play(), "A a1")
    with pytest.raises(core.IllegalActionError, match="neutral"):
        play(state, "A a2")
    assert play(state, "nskip").current_player == 1


def test_no_neutral_placement_after_a_pass():
    state = play(blue_to_play(), "pass")
    assert not state.neutral_pending and state.current_player == 1
    with pytest.raises(core.IllegalActionError, match="neutral"):
        play(state, "nA a1")


def test_no_neutral_placement_after_a_patron():
    """Violet is an appeal to a patron, not a normal action: no neutral cube after it."""
    state = with_player(blue_to_play(season=2), 0, cards=(0,))
    state = play(state, "violet a1")
    assert not state.neutral_pending and state.current_player == 1


def test_no_neutral_placement_without_neutral_cubes():
    state = with_player(blue_to_play(), 0, neutral_stock=0)
    state = play(state, "A a1")
    assert not state.neutral_pending and state.current_player == 1


# ---------------------------------------------------------------- the survey


def test_the_neutral_is_ranked_with_passing_space_2():
    """Area 1: Blue 2, neutral 2, Red 2. Red passed first (1), neutral 2, Blue 3."""
    board = "1 B B N N . . . .\n2 R R . . . . . .\n" + "3 . . . . . . . .\n" * 4
    state = surveyed(board, last=0)
    assert core.rules.ranking(state, 0) == [1, NEUTRAL, 0]


def test_neutral_first_the_player_not_ranked_second_picks_its_parcel():
    """Area 1: neutral 3, Blue 2, Red 1: Red (3rd) picks the neutral's parcel; then Blue
    (2nd) chooses as usual; Red takes nothing (none left)."""
    board = "1 N N N B . . . .\n2 B R . . . . . .\n" + "3 . . . . . . . .\n" * 4
    state = surveyed(board, last=0)
    assert state.survey_steps[0] == (SurveyStep.PICK_NEUTRAL, 1)
    assert legal(state) == {"neutral P1", "neutral P2"}
    state = play(state, "neutral P1")
    assert 6 in state.discard  # P1's card goes nowhere
    assert state.current_player == 0 and "take P2" in legal(state) and "book T1" in legal(state)


def test_neutral_first_with_one_other_player_the_absent_one_picks():
    """Area 1: neutral 2, Blue 1, no Red: Red picks, Blue then chooses."""
    board = "1 N N B . . . . .\n" + "2 . . . . . . . .\n" * 5
    state = surveyed(board, last=0)
    assert state.survey_steps[0] == (SurveyStep.PICK_NEUTRAL, 1)
    state = play(state, "neutral P2")
    assert state.survey_steps[0] == (SurveyStep.CHOOSE, 0)


def test_neutral_second_the_first_picks_after_their_own_choice():
    """Area 1: Blue 3, neutral 2, Red 1. Blue books; Blue picks the neutral's parcel;
    Red takes the last."""
    board = "1 B B B N . . . .\n2 N R . . . . . .\n" + "3 . . . . . . . .\n" * 4
    state = surveyed(board, last=0)
    state = play(state, "book T1")
    assert state.survey_steps[0] == (SurveyStep.PICK_NEUTRAL, 0)
    state = play(state, "neutral P2")
    assert state.players[1].cards == (6,)  # P1 left for Red, taken automatically


def test_neutral_second_after_the_first_took_a_parcel_gets_the_other():
    board = "1 B B B N . . . .\n2 N R . . . . . .\n" + "3 . . . . . . . .\n" * 4
    state = play(surveyed(board, last=0), "take P1")
    assert 0 in state.discard and state.players[1].cards == ()


def test_neutral_alone_in_an_area_both_parcels_are_discarded():
    board = "1 N . . . . . . B\n" + "2 . . . . . . . .\n" * 5
    state = surveyed(board, last=0)
    assert state.survey_area == 1
    assert {6, 0} <= set(state.discard)


def test_neutral_cubes_go_back_to_the_neutral_reserve():
    board = "1 N . . . . . . B\n2 N . . . . . . .\n" + "3 . . . . . . . .\n" * 4
    state = surveyed(board, last=0)
    assert (
        state.neutral_reserve == 25 - 8 and state.cubes[core.cube_index(state, core.NEUTRAL)] == 0
    )


def test_the_last_player_may_still_place_neutral_cubes_then_is_placed():
    """Blue passed: Red's last action is an A, then its neutral cube, then space 3."""
    state = blue_to_play(
        NEUTRAL_BOARD, current=1, passing=(0, NEUTRAL, EMPTY, EMPTY), last_turn=True
    )
    state = play(state, "A a1")
    assert state.neutral_pending and state.current_player == 1
    state = play(state, "nA a6")
    assert state.passing == (0, NEUTRAL, 1, EMPTY)
    assert state.phase is core.Phase.SURVEY


def test_while_the_neutral_parcel_is_picked_nothing_else_is_accepted():
    board = "1 N N N B . . . .\n2 B R . . . . . .\n" + "3 . . . . . . . .\n" * 4
    state = surveyed(board, last=0)
    with pytest.raises(core.IllegalActionError, match="which parcel the neutral takes"):
        play(state, "take P1")
