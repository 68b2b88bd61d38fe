"""Properties that hold in every position reached by legal play (Hypothesis)."""

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core.museum import ROOMS
from core.region import NEIGHBOURS, SPACES, face_card, parcel_space, pyramid_mask

GAMES = settings(max_examples=12, deadline=None)


def walk(data, players: int, seed: int, steps: int):
    """Positions of a game whose moves Hypothesis picks (at most ``steps`` of them)."""
    state = core.new_game(players, seed)
    yield state
    for _ in range(steps):
        if core.is_over(state):
            return
        actions = core.legal_actions(state)
        index = data.draw(st.integers(0, len(actions) - 1), label="move")
        state = core.apply_action(state, actions[index])
        yield state


def cubes_add_up(state: core.GameState) -> None:
    """Each colour's 25 cubes are in reserve, stock, the region or the Museum."""
    for seat, player in enumerate(state.players):
        on_region = state.cubes[seat].bit_count() if state.cubes else 0
        in_museum = sum(holder == seat for holder in state.museum)
        assert player.reserve + player.stock + on_region + in_museum == 25, seat
    if state.player_count == 2:
        held = sum(p.neutral_stock for p in state.players)
        on_region = state.cubes[core.cube_index(state, core.NEUTRAL)].bit_count()
        assert state.neutral_reserve + held + on_region == 25


@GAMES
@given(st.data(), st.integers(2, 4), st.integers(0, 10**6))
def test_legal_play_never_gets_stuck_and_keeps_the_books(data, players, seed):
    """Until the game is over someone must decide and has a legal action; the cubes always
    add up; the game ends after season 4."""
    for state in walk(data, players, seed, steps=400):
        cubes_add_up(state)
        actions = core.legal_actions(state)
        assert len(set(actions)) == len(actions)
        if core.is_over(state):
            assert state.current_player is None and actions == ()
        else:
            assert state.current_player in range(players) and actions


@GAMES
@given(st.data(), st.integers(2, 4), st.integers(0, 10**6))
def test_apply_action_never_changes_its_input(data, players, seed):
    previous = None
    for state in walk(data, players, seed, steps=120):
        if previous is not None:
            assert msgspec.json.encode(previous[0]) == previous[1]
        previous = (state, msgspec.json.encode(state))


@GAMES
@given(st.data(), st.integers(2, 4), st.integers(0, 10**6))
def test_a_state_round_trips_through_json(data, players, seed):
    for state in walk(data, players, seed, steps=120):
        decoded = msgspec.json.decode(msgspec.json.encode(state), type=core.GameState)
        assert decoded == state
        assert core.legal_actions(decoded) == core.legal_actions(state)


@GAMES
@given(st.data(), st.integers(2, 4), st.integers(0, 10**6))
def test_apply_action_accepts_exactly_the_legal_actions(data, players, seed):
    """Simple actions built from nothing are accepted if and only if they are listed."""
    for state in walk(data, players, seed, steps=80):
        legal = set(core.legal_actions(state))
        candidate = data.draw(
            st.one_of(
                st.builds(core.Excavate, st.integers(0, SPACES - 1)),
                st.builds(core.Extend, st.integers(0, SPACES - 1), st.integers(0, SPACES - 1)),
                st.just(core.Pass()),
                st.just(core.NeutralSkip()),
                st.builds(core.TakeParcel, st.integers(0, 11)),
                st.builds(core.BookRoom, st.integers(0, ROOMS - 1)),
                st.builds(core.Brown, st.integers(0, ROOMS - 1)),
            ),
            label="candidate",
        )
        try:
            core.apply_action(state, candidate)
        except core.IllegalActionError as refused:
            assert candidate not in legal
            assert str(refused).startswith(core.format_action(candidate))
        else:
            assert candidate in legal


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.integers(0, 10**6))
def test_redetermine_shuffles_only_the_undealt_cards(players, seed, other):
    state = core.new_game(players, seed)
    copy = core.redetermine(state, random.Random(other))
    assert sorted(map(face_card, copy.deck)) == sorted(map(face_card, state.deck))
    assert copy.seed == 0, "the copy must not carry the seed that deals the real deck"
    assert msgspec.structs.replace(copy, deck=state.deck, seed=state.seed) == state


@given(st.integers(0, SPACES - 1), st.integers(0, SPACES - 1))
def test_neighbours_are_symmetric(a, b):
    assert (NEIGHBOURS[a] >> b & 1) == (NEIGHBOURS[b] >> a & 1)


def turned(parcel: int, space: int) -> int:
    """Where the content of ``space`` of ``parcel`` goes when the card is turned 180°."""
    cell = [parcel_space(parcel, c, False) for c in range(6)].index(space)
    return parcel_space(parcel, cell, True)


@given(st.integers(0, 11), st.integers(0, 5))
def test_turning_a_parcel_twice_puts_every_cell_back(parcel, cell):
    space = parcel_space(parcel, cell, False)
    assert turned(parcel, turned(parcel, space)) == space
    assert turned(parcel, space) in [parcel_space(parcel, c, False) for c in range(6)]


@given(st.integers(0, 11), st.integers(0, 35))
def test_a_turned_card_has_its_pyramids_turned(parcel, card):
    faces = [-1] * 12
    faces[parcel] = 2 * card
    upright = pyramid_mask(tuple(faces))
    faces[parcel] = 2 * card + 1
    expected = sum(1 << turned(parcel, s) for s in range(SPACES) if upright >> s & 1)
    assert pyramid_mask(tuple(faces)) == expected
