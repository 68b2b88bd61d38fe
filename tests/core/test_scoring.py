"""The end of the game (RULES.md §5): exhibition, series, the patronless card, the tie-break."""

import core
from core.museum import FIVE_ROOM_DOORS, ROOMS, room_wings
from core.state import EMPTY
from tests.core.pictures import position, with_player

EMPTY_REGION = "\n".join(f"{r} . . . . . . . ." for r in range(1, 7))
V, L, BR, BL, T = (7 * p for p in range(5))  # the first card of each patron
PATRONLESS = 35


def game_with(museum: dict[int, int] | None = None, **cards: tuple[int, ...]):
    """3 players; ``cards`` per seat name (``blue=(...)``); ``museum`` room -> seat."""
    rooms = tuple((museum or {}).get(r, EMPTY) for r in range(ROOMS))
    state = position(EMPTY_REGION, museum=rooms)
    for seat, name in enumerate(("blue", "red", "green")):
        state = with_player(state, seat, cards=cards.get(name, ()))
    return state


def rooms_of(state: core.GameState, patron: core.Patron) -> tuple[int, int, int, int]:
    """The 5-room, 3-room and the two 2-rooms of ``patron``'s wing."""
    wing = state.wings.index(patron)
    three, before, after = FIVE_ROOM_DOORS[wing]
    return wing, three, before, after


def test_exhibition_each_card_scores_the_best_room_only_values_never_add():
    """Blue holds Lemon's 5-, 3- and a 2-room: 2 Lemon cards score 2 x 5, not 2 x 10."""
    state = game_with(blue=(L, L + 1))
    five, three, two, _ = rooms_of(state, core.Patron.LEMON)
    state = game_with({five: 0, three: 0, two: 0}, blue=(L, L + 1))
    score = core.final_scores(state).players[0]
    assert score.exhibition[core.Patron.LEMON] == 10
    assert score.room_values[core.Patron.LEMON] == 5 and score.rooms[core.Patron.LEMON] == five


def test_exhibition_3_room_then_2_room_then_1():
    state = game_with(blue=(V,))
    _, three, _, _ = rooms_of(state, core.Patron.VIOLET)
    _, _, two, _ = rooms_of(state, core.Patron.BROWN)
    # A patron whose wing touches neither Violet's 3-room nor that 2-room: its card scores 1.
    far = next(
        p
        for p in (core.Patron.LEMON, core.Patron.BLACKMORE, core.Patron.TANGERINE)
        if state.wings.index(p) not in room_wings(two) + room_wings(three)
    )
    state = game_with({three: 0, two: 0}, blue=(V, BR, BR + 1, 7 * far))
    exhibition = core.final_scores(state).players[0].exhibition
    assert exhibition[core.Patron.VIOLET] == 3
    assert exhibition[core.Patron.BROWN] == 2 * 2
    assert exhibition[far] == 1
    assert sum(exhibition) == 3 + 4 + 1  # no card of the other patrons, nothing for them


def test_exhibition_with_no_room_scores_1_per_card():
    state = game_with(blue=(BL, BL + 1, BL + 2))
    assert core.final_scores(state).players[0].exhibition[core.Patron.BLACKMORE] == 3


def test_a_room_of_another_player_does_not_count():
    state = game_with(blue=(L,))
    five, _, _, _ = rooms_of(state, core.Patron.LEMON)
    state = game_with({five: 1}, blue=(L,))
    assert core.final_scores(state).players[0].exhibition[core.Patron.LEMON] == 1


def test_series_5_points_per_complete_set_of_five_patrons():
    """Two full sets plus two extra Violets: 2 series = 10."""
    cards = (V, L, BR, BL, T, V + 1, L + 1, BR + 1, BL + 1, T + 1, V + 2, V + 3)
    score = core.final_scores(game_with(blue=cards)).players[0]
    assert (score.series_count, score.series) == (2, 10)
    four_patrons = core.final_scores(game_with(blue=(V, L, BR, BL))).players[0]
    assert four_patrons.series == 0


def test_the_patronless_card_scores_nothing_at_the_end():
    """Its 5 was scored when it was taken (the parcels score); no exhibition, no series."""
    state = with_player(game_with(blue=(PATRONLESS,)), 0, score=5)
    score = core.final_scores(state).players[0]
    assert (score.parcels, sum(score.exhibition), score.series, score.total) == (5, 0, 0, 5)


def test_total_is_parcels_plus_exhibition_plus_series():
    state = with_player(game_with(blue=(V, L, BR, BL, T)), 0, score=7)
    assert core.final_scores(state).players[0].total == 7 + 5 * 1 + 5


def test_the_highest_total_wins():
    state = with_player(game_with(), 1, score=4)
    result = core.final_scores(state)
    assert (result.winners, result.tie_break_used) == ((1,), False)


def test_a_tie_goes_to_the_most_cubes_in_stock():
    state = with_player(with_player(game_with(), 0, score=4, stock=3), 2, score=4, stock=5)
    result = core.final_scores(state)
    assert (result.winners, result.tie_break_used) == ((2,), True)


def test_still_tied_the_players_share_the_win():
    state = with_player(with_player(game_with(), 0, score=4, stock=5), 2, score=4, stock=5)
    result = core.final_scores(state)
    assert (result.winners, result.tie_break_used) == ((0, 2), True)
