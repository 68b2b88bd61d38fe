"""The limit prototype of bench/ (issue 29) plays the same game as ``core``: from the same
seed and the same choices, the same list of legal codes at every decision (so the same
counts, in the same order) and the same final scores. The prototype is the yardstick the
engine's speed is measured against; a quicker yardstick that played a simpler game would
make the comparison a cheat, and this test would fail."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import core
from core.moves import legal_codes
from core.rules import apply_code

_PATH = Path(__file__).resolve().parents[2] / "bench" / "limit_engine.py"


def _limit_engine() -> ModuleType:
    """bench/limit_engine.py, loaded from its file (bench/ is scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("limit_engine", _PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("limit_engine", module)
    spec.loader.exec_module(module)
    return module


def test_the_prototype_lists_the_same_codes_and_ends_with_the_same_scores() -> None:
    limit = _limit_engine()
    kinds: set[int] = set()
    for seed in range(40):
        state = core.new_game(3, seed)
        game = limit.Game(seed)
        rng = random.Random(seed)
        while state.current >= 0:
            codes = legal_codes(state)
            assert game.legal() == codes, f"seed {seed}, season {state.season}"
            assert game.current == state.current
            pick = codes[int(rng.random() * len(codes))]
            kinds.add(pick & 15)
            state = apply_code(state, pick)
            game.play(pick)
        assert game.over
        totals = [player.total for player in core.final_scores(state).players]
        assert game.totals() == totals, f"seed {seed}"
    assert kinds >= set(range(10)) | {13, 14}, "every kind of a 3-player game was played"


def test_the_prototype_plays_random_games_as_the_bench_does() -> None:
    """``play_random`` makes as many decisions as ``core`` with the same rng."""
    limit = _limit_engine()
    for seed in range(5):
        state = core.new_game(3, seed)
        rng = random.Random(seed)
        decisions = 0
        while state.current >= 0:
            codes = legal_codes(state)
            state = apply_code(state, codes[int(rng.random() * len(codes))])
            decisions += 1
        assert limit.play_random(seed, random.Random(seed)) == decisions
