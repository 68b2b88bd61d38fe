"""The fast paths agree with the public contract: int codes, the sampled rollout, and the
re-shuffled deck used by computer players."""

from __future__ import annotations

import random
from typing import Any

import core
from core.actions import from_code, to_code
from core.moves import legal_codes
from core.rollout import rollout_code
from core.rules import apply_code


def test_legal_codes_are_the_legal_actions() -> None:
    for players in (2, 3, 4):
        state = core.new_game(players, 3)
        rng = random.Random(3)
        while not core.is_over(state):
            codes = legal_codes(state)
            actions = core.legal_actions(state)
            assert [from_code(c) for c in codes] == list(actions)
            assert len(set(codes)) == len(codes), "an action listed twice"
            action = rng.choice(actions)
            assert apply_code(state, to_code(action)) == core.apply_action(state, action)
            state = core.apply_action(state, action)


def test_rollout_plays_only_legal_actions_to_the_end() -> None:
    for players in (2, 3, 4):
        for seed in range(30):
            state = core.new_game(players, seed)
            rng = random.Random(seed)
            while not core.is_over(state):
                code = rollout_code(state, rng)
                assert code in legal_codes(state), core.format_action(from_code(code))
                state = apply_code(state, code)


def test_redetermine_reshuffles_only_the_undealt_cards() -> None:
    state = core.new_game(3, 8)
    shuffled = core.redetermine(state, random.Random(1))
    assert shuffled.deck != state.deck
    assert sorted(f >> 1 for f in shuffled.deck) == sorted(f >> 1 for f in state.deck)
    from msgspec.structs import replace

    assert replace(shuffled, deck=state.deck) == state


def test_every_action_text_round_trips() -> None:
    state = core.new_game(4, 12)
    rng = random.Random(12)
    seen = 0
    while not core.is_over(state):
        for action in core.legal_actions(state):
            assert core.parse_action(core.format_action(action)) == action
            seen += 1
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    assert seen > 1000


def _forget_memos() -> None:
    """Empty every table core fills as it plays (legal moves are then worked out cold)."""
    from core import moves, rules

    for memo in (moves._USABLE, moves._ROOM_CODES, moves._CHAIN_ENDS, rules._PLACED_MASK):
        memo.clear()
    tables: list[list[dict[int, Any]]] = [moves._CHAIN_STEPS, *moves._PAIR_TAILS.values()]
    for memos in tables:
        for memo in memos:
            memo.clear()


def test_memoised_moves_match_moves_worked_out_cold() -> None:
    """Tables filled over earlier games (other hands, Museums, regions) never leak a stale
    entry: every decision lists the same moves as with all memos emptied first."""
    rng = random.Random(5)
    for game in range(12):
        state = core.new_game(2 + game % 3, 100 + game)
        while not core.is_over(state):
            warm = legal_codes(state)
            _forget_memos()
            assert legal_codes(state) == warm
            code = warm[int(rng.random() * len(warm))]
            after = apply_code(state, code)
            _forget_memos()  # effects memoise too (the spaces of a placement)
            assert apply_code(state, code) == after
            state = after
