"""Phase 1 and the flow of seasons (RULES.md §3, §4): stocks, dealing, four seasons."""

import random

import pytest
from msgspec.structs import replace

import core
from core.region import PARCEL_MASK, face_card, face_rotated, parcel_space, pyramid_mask
from core.state import EMPTY
from tests.core.pictures import play, position, with_player

EMPTY_REGION = "\n".join(f"{r} . . . . . . . ." for r in range(1, 7))


def seasons_of(players: int, seed: int) -> list[core.GameState]:
    """The state at the start of each season of a game played by seeded random choices."""
    rng = random.Random(seed)
    state = core.new_game(players, seed)
    starts = [state]
    while not core.is_over(state):
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
        if state.season != starts[-1].season and not core.is_over(state):
            starts.append(state)
    return starts


# ---------------------------------------------------------------- setup and stock


@pytest.mark.parametrize(("players", "stock"), [(2, 11), (3, 11), (4, 8)])
def test_each_player_moves_the_seasons_cubes_from_reserve_to_stock(players, stock):
    state = core.new_game(players, seed=3)
    for player in state.players:
        assert (player.score, player.stock, player.reserve, player.cards) == (
            0,
            stock,
            25 - stock,
            (),
        )


def test_two_players_also_take_4_neutral_cubes_each():
    state = core.new_game(2, seed=3)
    assert [p.neutral_stock for p in state.players] == [4, 4]
    assert state.neutral_reserve == 25 - 8


def test_a_reserve_too_small_gives_all_it_has_and_the_stock_carries_over():
    """Season 1 ends at once (nobody dug). Blue had 3 in reserve: it takes all 3;
    Red had 11 in stock left: it keeps them and adds 11 more."""
    state = position(EMPTY_REGION, current=0, passing=(1, 2, EMPTY), last_turn=True)
    state = with_player(state, 0, stock=22, reserve=3)
    state = play(state, "pass")
    assert state.season == 2
    assert (state.players[0].stock, state.players[0].reserve) == (25, 0)
    assert (state.players[1].stock, state.players[1].reserve) == (22, 3)


def test_an_empty_reserve_gives_nothing():
    state = position(EMPTY_REGION, current=0, passing=(1, 2, EMPTY), last_turn=True)
    state = with_player(state, 0, stock=25, reserve=0)
    state = play(state, "pass")
    assert (state.players[0].stock, state.players[0].reserve) == (25, 0)


def test_the_first_player_and_the_wings_come_from_the_seed():
    """Same seed, same game; over many seeds, every seat starts sometimes."""
    assert core.new_game(4, seed=11) == core.new_game(4, seed=11)
    firsts = {core.new_game(4, seed=s).first_player for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    state = core.new_game(4, seed=11)
    assert state.current_player == state.first_player


# ---------------------------------------------------------------- dealing


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_set_up_from_its_deal_is_the_same_game(players):
    """What chance decides at setup (deck, first player, wings) can be carried instead of
    the seed, as an exported shared game does: the same deal gives the same game, whatever
    the seed, to the end."""
    rng = random.Random(players)
    for seed in range(5):
        real = core.new_game(players, seed)
        copy = core.new_game(players, 1000 + seed, deal=core.deal_of(real))
        assert copy.seed == 1000 + seed
        while not core.is_over(real):
            assert copy == replace(real, seed=copy.seed)
            action = rng.choice(core.legal_actions(real))
            real, copy = core.apply_action(real, action), core.apply_action(copy, action)


@pytest.mark.parametrize(
    "broken",
    [
        lambda d: replace(d, deck=d.deck[1:]),  # a card missing
        lambda d: replace(d, deck=(d.deck[1], *d.deck[1:])),  # a card twice
        lambda d: replace(d, first=3),  # nobody sits there with 3 players
        lambda d: replace(d, wings=(0, 0, 1, 2, 3)),  # a patron's wing twice
    ],
)
def test_a_deal_that_is_not_one_is_refused(broken):
    deal = core.deal_of(core.new_game(3, 4))
    with pytest.raises(ValueError, match="deal"):
        core.new_game(3, 4, deal=broken(deal))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_8_8_8_then_12_parcels_each_card_dealt_once_per_game(players):
    starts = seasons_of(players, seed=players)
    assert [s.season for s in starts] == [1, 2, 3, 4]
    assert [len(s.region) for s in starts] == [8, 8, 8, 12]
    cards = [face_card(f) for s in starts for f in s.region]
    assert sorted(cards) == list(range(36))
    assert starts[-1].deck == ()


def test_each_seasons_region_is_the_next_cards_of_the_deck():
    """One shuffled deck: season 2's parcels are the 8 cards after season 1's."""
    state = core.new_game(3, seed=9)
    starts = seasons_of(3, seed=9)
    assert starts[1].region == state.deck[:8]


def test_both_orientations_occur():
    faces = [f for seed in range(5) for f in core.new_game(3, seed).region]
    assert {face_rotated(f) for f in faces} == {False, True}


def test_orientations_vary_with_the_seed():
    """Not a fixed orientation per card: some card lies both ways over seeds."""
    seen: dict[int, set[bool]] = {}
    for seed in range(30):
        state = core.new_game(3, seed)
        for face in (*state.region, *state.deck):
            seen.setdefault(face_card(face), set()).add(face_rotated(face))
    assert any(len(ways) == 2 for ways in seen.values())


@pytest.mark.parametrize("parcel", range(12))
def test_turning_a_parcel_maps_cell_c_to_cell_5_minus_c(parcel):
    for cell in range(6):
        assert parcel_space(parcel, cell, True) == parcel_space(parcel, 5 - cell, False)
    assert sum(1 << parcel_space(parcel, c, True) for c in range(6)) == PARCEL_MASK[parcel]


def test_a_turned_card_shows_its_pyramids_turned():
    """Card 6 (Violet 3) has pyramids on cells 0 and 5: turned, they are on 5 and 0 —
    the same spaces; card 2 (Violet, pyramid on cell 3) turned has it on cell 2."""
    assert pyramid_mask((6 * 2 + 1,)) == pyramid_mask((6 * 2,))
    assert pyramid_mask((2 * 2,)) == 1 << parcel_space(0, 3, False)  # b2
    assert pyramid_mask((2 * 2 + 1,)) == 1 << parcel_space(0, 2, False)  # a2


def test_the_pyramids_of_the_region_are_those_of_the_dealt_faces():
    state = core.new_game(3, seed=4)
    assert state.pyramids == pyramid_mask(state.region)


def test_the_game_ends_after_the_survey_of_season_4():
    rng = random.Random(1)
    state = core.new_game(3, seed=1)
    while state.season < 4 or state.phase is not core.Phase.SURVEY:
        assert not core.is_over(state)
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    while not core.is_over(state):
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    assert state.current_player is None and core.legal_actions(state) == ()
    with pytest.raises(core.IllegalActionError, match="over"):
        core.apply_action(state, core.Pass())


@pytest.mark.parametrize("players", [1, 5, 0, "3", True])
def test_mykerinos_is_for_2_to_4_players(players):
    with pytest.raises(ValueError, match="2 to 4 players"):
        core.new_game(players, seed=0)


def test_each_player_needs_a_name_and_a_colour_of_their_own():
    with pytest.raises(ValueError, match="distinct colour"):
        core.new_game(3, seed=0, colours=[core.Colour.RED, core.Colour.RED, core.Colour.BLUE])
    with pytest.raises(ValueError, match="one name"):
        core.new_game(3, seed=0, names=["Ann", "Bob"])


def test_seats_take_the_colours_given_and_the_neutral_is_an_unused_one():
    state = core.new_game(
        2, seed=0, names=["Ann", "Bob"], colours=[core.Colour.WHITE, core.Colour.GREEN]
    )
    assert [(p.name, p.colour) for p in state.players] == [
        ("Ann", core.Colour.WHITE),
        ("Bob", core.Colour.GREEN),
    ]
    assert state.neutral_colour is core.Colour.BLUE
