"""Phase 3, the survey (RULES.md §4): ranking, take or book, leftovers, cubes going home."""

import pytest

import core
from core.museum import Room
from core.rules import ranking
from core.state import EMPTY, SurveyStep
from tests.core.pictures import legal, picture, play, position, with_player

# The region's cards, by parcel: P1 Violet 3, P2 Violet -, P3 Lemon 3, P4 Lemon -,
# P5 Brown 3, P6 Brown -, P7 the patronless 5, P8 Blackmore - (all unrotated).
REGION = (6 * 2, 0 * 2, 13 * 2, 7 * 2, 20 * 2, 14 * 2, 35 * 2, 21 * 2)
ALL_ROOMS = {f"book {r.name}" for r in Room if r.name[0] != "F"}  # 10 rooms open at first


def surveyed(board: str, order: tuple[int, ...], **fields) -> core.GameState:
    """The survey of ``board`` once the players passed in ``order`` (one seat per player).

    The last seat of ``order`` makes the last pass; the rest are on the scale already.
    """
    players = len(order)
    passing = (*order[:-1], EMPTY)
    region = fields.pop("region", REGION)  # None: keep the dealt region (e.g. season 4's)
    if region is not None:
        fields["region"] = region
    state = position(
        board,
        players=players,
        current=order[-1],
        first_player=order[0],
        passing=passing,
        last_turn=True,
        **fields,
    )
    return survey_from(state)


def survey_from(state: core.GameState) -> core.GameState:
    state = play(state, "pass")
    assert state.phase is core.Phase.SURVEY, picture(state)
    return state


# Area 1 (a-d, rows 1-3): Blue 3, Red 2, Green 2; area 2 (e-h, rows 1-3): Blue alone.
THREE = """
  a b c d | e f g h
1 B B R R | . . . B
2 B . G G | . . . .
3 . . . . | . . . .
4 . . . . | . . . .
5 . . . . | . . . .
6 . . . . | . . . .
"""


# ---------------------------------------------------------------- ranking


def test_ranking_most_cubes_first_ties_to_the_lower_passing_space():
    """Red and Green have 2 each: whoever passed first (lower space) ranks higher."""
    red_first = surveyed(THREE, order=(1, 2, 0))
    green_first = surveyed(THREE, order=(2, 1, 0))
    assert ranking(red_first, 0) == [0, 1, 2]
    assert ranking(green_first, 0) == [0, 2, 1]


def test_players_without_cubes_in_an_area_are_not_ranked():
    state = surveyed(THREE, order=(1, 2, 0))
    assert ranking(state, 1) == [0]
    assert ranking(state, 2) == []


def test_the_ranking_is_told_in_words():
    _, events = core.apply_action_with_events(
        position(THREE, current=0, passing=(2, 1, EMPTY), last_turn=True), core.Pass()
    )
    told = [e.text for e in events if "area 1" in e.text]
    assert told and told[0].endswith("Blue, Green, Red"), told


# ---------------------------------------------------------------- 1st and 2nd: take or book


def test_first_takes_either_parcel_or_books_any_legal_room():
    state = surveyed(THREE, order=(1, 2, 0))
    assert state.current_player == 0 and state.survey_steps[0] == (SurveyStep.CHOOSE, 0)
    assert legal(state) == {"take P1", "take P2"} | ALL_ROOMS


def test_booking_takes_a_cube_from_the_reserve_not_the_stock():
    """Blue books in area 1; the survey then waits for Red in the same area."""
    before = surveyed(THREE, order=(1, 2, 0))
    after = play(before, "book T1")
    assert after.museum[Room.T1] == 0
    assert after.players[0].reserve == before.players[0].reserve - 1
    assert after.players[0].stock == before.players[0].stock


def test_booking_is_impossible_with_an_empty_reserve():
    """Blue: 4 cubes on the region, 21 in stock, none in reserve."""
    state = surveyed(THREE, order=(1, 2, 0))
    state = with_player(state, 0, stock=21, reserve=0)
    assert legal(state) == {"take P1", "take P2"}
    with pytest.raises(core.IllegalActionError, match="reserve"):
        play(state, "book T1")


def test_booking_is_impossible_with_no_legal_room():
    """Red holds every 2- and 3-room; Blue has no room opening onto a 5-room."""
    museum = tuple(1 if r >= Room.T1 else EMPTY for r in range(15))
    state = surveyed(THREE, order=(1, 2, 0), museum=museum)
    assert legal(state) == {"take P1", "take P2"}
    with pytest.raises(core.IllegalActionError, match="needs one of your cubes"):
        play(state, "book F1")


def test_second_takes_the_remaining_parcel_or_books():
    state = play(surveyed(THREE, order=(1, 2, 0)), "take P1")
    assert state.current_player == 1
    assert legal(state) == {"take P2"} | ALL_ROOMS


# ---------------------------------------------------------------- 3rd and 4th


def test_third_chooses_when_two_parcels_are_left_and_never_books():
    state = play(surveyed(THREE, order=(1, 2, 0)), "book T1", "book T2")
    assert state.survey_steps[0] == (SurveyStep.TAKE, 2)
    assert legal(state) == {"take P1", "take P2"}
    with pytest.raises(core.IllegalActionError, match="only the 1st and 2nd"):
        play(state, "book T3")


def test_third_takes_the_last_parcel_without_being_asked():
    state = play(surveyed(THREE, order=(1, 2, 0)), "take P1", "book T2")
    assert state.players[2].cards == (0,)  # P2's card, taken automatically
    assert state.survey_area == 1


def test_fourth_takes_what_the_third_left():
    board = "1 B B B R . . . .\n2 R G G W . . . B\n" + "3 . . . . . . . .\n" * 4
    state = surveyed(board, order=(3, 2, 1, 0))  # Blue 3, Red 2, Green 2, White 1
    state = play(state, "book T1", "book T2", "take P2")  # Blue, Green (passed first), Red
    assert state.players[1].cards == (0,)
    assert state.players[3].cards == (6,)  # P1, Violet 3, left for White
    assert state.players[3].score == 3


def test_ruling_a_player_with_no_option_gets_nothing():
    state, events = core.apply_action_with_events(
        play(surveyed(THREE, order=(1, 2, 0)), "take P1"), core.parse_action("take P2")
    )
    assert state.players[2].cards == ()
    assert "Green gets nothing: no parcel left" in [e.text for e in events]


# ---------------------------------------------------------------- alone, leftovers, cubes home


def test_a_lone_player_makes_only_the_first_choice_and_the_rest_is_discarded():
    """Area 2 (e-h, top): Blue alone takes P3; P4 is discarded, nobody else is asked."""
    state = play(surveyed(THREE, order=(1, 2, 0)), "take P1", "take P2")
    assert state.survey_area == 1 and state.current_player == 0
    state = play(state, "take P3")
    assert 7 in state.discard  # P4's card
    assert state.season == 2


def test_parcels_nobody_took_are_discarded():
    # Ranks: Blue, Red (passed before Green), Green. Blue and Red book, Green takes P1.
    state = play(surveyed(THREE, order=(1, 2, 0)), "book T1", "book T2", "take P1")
    assert state.discard == (0,)  # P2's card
    state = play(state, "book T3")  # Blue alone in area 2 books: P3 and P4 both discarded
    # ... and the four parcels of the two areas where nobody dug are discarded too.
    assert sorted(state.discard) == sorted([0, 13, 7, 20, 14, 35, 21])


def test_every_cube_of_an_area_goes_back_to_its_reserve_after_that_area():
    """After area 1, Blue has its 3 cubes there back, but still the one in area 2."""
    before = surveyed(THREE, order=(1, 2, 0))
    after = play(before, "take P1", "take P2")
    assert after.survey_area == 1
    gains = [a.reserve - b.reserve for a, b in zip(after.players, before.players, strict=True)]
    assert gains == [3, 2, 2]
    assert after.cubes == (1 << 7, 0, 0)


def test_a_cube_back_from_one_area_can_book_in_the_next():
    """Blue's reserve is empty; its cubes back from area 1 let it book in area 2."""
    state = surveyed(THREE, order=(1, 2, 0))
    state = with_player(state, 0, stock=21, reserve=0)
    assert legal(state) == {"take P1", "take P2"}
    state = play(state, "take P1", "take P2")
    assert state.survey_area == 1 and state.players[0].reserve == 3
    assert "book T1" in legal(state)


# ---------------------------------------------------------------- taking a parcel, season end


def test_taking_a_parcel_scores_its_value_at_once_and_keeps_the_card_untilted():
    state = play(surveyed(THREE, order=(1, 2, 0)), "take P1")
    blue = state.players[0]
    assert (blue.score, blue.cards, blue.tilted) == (3, (6,), ())


def test_end_of_phase_3_clears_the_scale_untilts_and_the_last_passer_starts():
    """Red passes last (space 3); Blue's tilted card is turned back up."""
    board = "1 B . . . . . . .\n" + "2 . . . . . . . .\n" * 5
    state = position(
        board, current=1, passing=(0, 2, EMPTY), last_turn=True, region=REGION, season=2
    )
    state = with_player(state, 0, cards=(1, 2), tilted=(1,))
    state = play(state, "pass", "take P2")
    assert state.season == 3
    assert state.passing == (EMPTY, EMPTY, EMPTY)
    assert all(p.tilted == () for p in state.players)
    assert state.first_player == 1 and state.current_player == 1
    assert state.players[0].cards == (1, 2, 0)  # the card of P2 (Violet -) joined Blue's


def test_a_cube_on_a_pyramid_counts_in_the_majority_and_goes_home():
    """Blue 1 + 1 on a pyramid (b1) beats Red's 1."""
    board = "1 B b R . . . . .\n" + "2 . . . . . . . .\n" * 5
    state = surveyed(board, order=(1, 2, 0))
    assert ranking(state, 0) == [0, 1]
    reserve = state.players[0].reserve
    state = play(state, "take P1", "take P2")  # Blue, then Red; the season ends
    assert state.season == 2 and state.players[0].reserve == reserve + 2 - 11


def test_season_4_surveys_six_areas_then_the_game_is_over():
    """Blue alone in area 6 (e-h, rows 7-9): its choice is the last decision of the game."""
    board = "\n".join(f"{r} . . . . . . . ." for r in range(1, 9)) + "\n9 . . . . . . . B"
    state = surveyed(board, order=(1, 2, 0), region=None)
    assert state.survey_area == 5 and len(state.region) == 12
    state = play(state, "take P12")
    assert core.is_over(state) and state.current_player is None
    assert core.final_scores(state).players[0].parcels == state.players[0].score


def test_automatic_steps_are_told_in_words():
    """Green's automatic taking of the last parcel and the discard of P4 are reported."""
    state = play(surveyed(THREE, order=(1, 2, 0)), "take P1")
    state, events = core.apply_action_with_events(state, core.parse_action("book T2"))
    state, events2 = core.apply_action_with_events(state, core.parse_action("take P3"))
    texts = [e.text for e in events + events2]
    assert any(t.startswith("Green takes parcel P2") for t in texts), texts
    assert any("P4" in t and "discarded" in t for t in texts), texts
