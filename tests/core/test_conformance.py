"""Random-play conformance: many complete games, with the invariants checked at every step.

At each decision: the deciding player has a legal action; applying one never raises and
never changes its input; the state survives a JSON round-trip unchanged; every colour's 25
cubes and all 36 cards are accounted for; parcel scores never decrease. Every game ends.
"""

from __future__ import annotations

import random

import msgspec
import pytest

import core
from core.region import face_card
from core.state import CUBES_PER_COLOUR, GameState

MAX_DECISIONS = 1000  # a game is ~150 decisions; far beyond that means it never ends
GAMES_PER_COUNT = 500  # x 3 player counts: the normal suite plays 1,500 games
SLOW_GAMES_PER_COUNT = 3400  # the slow run: 10,200 games

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(GameState)


def check_invariants(state: GameState) -> None:
    """Everything that must hold in any reachable position."""
    assert _decoder.decode(_encoder.encode(state)) == state
    museum = state.museum
    for seat, player in enumerate(state.players):
        on_region = state.cubes[seat].bit_count()
        in_museum = museum.count(seat)
        total = player.reserve + player.stock + on_region + in_museum
        assert total == CUBES_PER_COLOUR, f"seat {seat} has {total} cubes"
        assert min(player.reserve, player.stock, player.neutral_stock) >= 0
        assert set(player.tilted) <= set(player.cards)
    if state.player_count == 2:
        held = sum(p.neutral_stock for p in state.players)
        neutral = (
            state.neutral_reserve
            + held
            + state.cubes[core.cube_index(state, core.NEUTRAL)].bit_count()
        )
        assert neutral == CUBES_PER_COLOUR, f"{neutral} neutral cubes"
    cards = [face_card(f) for f in state.deck]
    cards += [face_card(f) for f in state.region if f >= 0]
    cards += [c for p in state.players for c in p.cards] + list(state.discard)
    assert sorted(cards) == list(range(36)), "cards lost or duplicated"
    taken = 0
    for cubes in state.cubes:
        assert not taken & cubes, "two cubes on one space"
        taken |= cubes


def play_checked(players: int, seed: int) -> GameState:
    state = core.new_game(players, seed)
    rng = random.Random(seed)
    check_invariants(state)
    for _ in range(MAX_DECISIONS):
        if core.is_over(state):
            assert state.current_player is None
            assert core.legal_actions(state) == ()
            return state
        actions = core.legal_actions(state)
        assert actions, "the deciding player has no legal action"
        before = _encoder.encode(state)
        scores = [p.score for p in state.players]
        new = core.apply_action(state, rng.choice(actions))
        assert _encoder.encode(state) == before, "apply_action changed its input"
        assert all(p.score >= s for p, s in zip(new.players, scores, strict=True))
        state = new
        check_invariants(state)
    raise AssertionError(f"game {players}p seed {seed} did not end in {MAX_DECISIONS} decisions")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(GAMES_PER_COUNT):
        final = play_checked(players, seed)
        assert final.season == 4 and final.deck == ()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(GAMES_PER_COUNT, GAMES_PER_COUNT + SLOW_GAMES_PER_COUNT):
        play_checked(players, seed)


def test_the_same_seed_and_actions_replay_the_same_game() -> None:
    """A game is fully replayable from (seed, players, actions)."""
    state = core.new_game(3, 5)
    rng = random.Random(5)
    log = []
    while not core.is_over(state):
        action = rng.choice(core.legal_actions(state))
        log.append(action)
        state = core.apply_action(state, action)
    replay = core.new_game(3, 5)
    for action in log:
        replay = core.apply_action(replay, action)
    assert replay == state
