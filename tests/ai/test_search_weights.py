"""The hard player's three judgements (issue 29): its candidates' (``weights``), its
simulated players' (``playout_weights``) and its leaves' (``leaf_weights``), the last two
``weights`` unless given, so the product's hard player searches as before."""

from __future__ import annotations

import dataclasses

import pytest

import core
from core.ai.evaluate import WEIGHT_SETS, WEIGHTS
from core.ai.search import HardBot
from tests.ai.positions import random_positions
from tests.ai.test_search_plans import _searched_position, record_judgements

SCREENED = WEIGHT_SETS["screened"]


@pytest.mark.parametrize("plan", ["ucb1", "paired"])
def test_each_judgement_reaches_its_own_use(plan: str, monkeypatch) -> None:
    """Variant "rank+leaf" of bench/README: candidates and leaves screened, the simulated
    players today's; and each of the three told apart from the others."""
    playouts = dataclasses.replace(WEIGHTS, third_share=0.5)
    seen = record_judgements(monkeypatch)
    bot = HardBot(2, iterations=6, budget=float("inf"), plan=plan, weights=SCREENED,
                  playout_weights=playouts, leaf_weights=WEIGHTS)  # fmt: skip
    bot.choose(_searched_position())
    assert seen == [("rank", SCREENED)] + [("play", playouts), ("leaf", WEIGHTS)] * 6


def test_unless_given_the_playouts_and_leaves_judge_like_the_candidates(monkeypatch) -> None:
    seen = record_judgements(monkeypatch)
    HardBot(2, iterations=4, budget=float("inf"), weights=SCREENED).choose(_searched_position())
    assert seen == [("rank", SCREENED)] + [("play", SCREENED), ("leaf", SCREENED)] * 4
    seen.clear()
    HardBot(2, iterations=4, budget=float("inf")).choose(_searched_position())
    assert seen == [("rank", WEIGHTS)] + [("play", WEIGHTS), ("leaf", WEIGHTS)] * 4


def test_another_leaf_judgement_changes_some_decision() -> None:
    """Variant "leaf" of bench/README: the leaf's weights are not merely passed but used."""
    positions = [s for s in list(random_positions(3, seed=11, every=5))[:12] if not core.is_over(s)]
    today = [HardBot(5, iterations=40, budget=float("inf")).choose(s) for s in positions]
    leaf = [
        HardBot(5, iterations=40, budget=float("inf"), leaf_weights=SCREENED).choose(s)
        for s in positions
    ]
    assert today != leaf


def test_equal_judgements_decide_exactly_as_the_default_bot() -> None:
    """Equal weights that are other objects (the caches key today's weights by identity,
    others by value) leave every decision of the product's hard player unchanged."""
    copy = dataclasses.replace(WEIGHTS)
    assert copy is not WEIGHTS
    for state in list(random_positions(3, seed=13, every=7))[:8]:
        if core.is_over(state):
            continue
        default = HardBot(9, iterations=30, budget=float("inf")).choose(state)
        copied = HardBot(9, iterations=30, budget=float("inf"),
                         playout_weights=copy, leaf_weights=copy).choose(state)  # fmt: skip
        assert copied == default
