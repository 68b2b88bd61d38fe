"""Rules-engine speed: complete random games per second, and one legal_actions call.

Prints figures only (timings never go in tests). Run with ``make bench`` or
``python bench/bench_core.py [--games N]``. Three paths, each on one core:

- ``public``: ``core.legal_actions`` + ``core.apply_action`` (Structs, validated) at every
  decision, a uniformly random legal action;
- ``enumerated``: every legal action enumerated as int codes (``legal_codes``) and one
  applied with ``apply_code`` — the engine behind the public API, as a search uses it;
- ``rollout``: ``core.rollout.random_playout``, sampled moves without enumeration.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import core
from core.moves import legal_codes
from core.rollout import random_playout
from core.rules import apply_code


def play_public(state: core.GameState, rng: random.Random) -> int:
    decisions = 0
    while not core.is_over(state):
        actions = core.legal_actions(state)
        state = core.apply_action(state, actions[int(rng.random() * len(actions))])
        decisions += 1
    return decisions


def play_enumerated(state: core.GameState, rng: random.Random) -> int:
    decisions = 0
    while state.current >= 0:
        codes = legal_codes(state)
        state = apply_code(state, codes[int(rng.random() * len(codes))])
        decisions += 1
    return decisions


def play_rollout(state: core.GameState, rng: random.Random) -> int:
    random_playout(state, rng)
    return 0


Play = Callable[[core.GameState, random.Random], int]


def games_per_second(play: Play, players: int, games: int) -> tuple[float, float]:
    """Best of three runs of ``games`` games, per second of this process's CPU time (the
    machine is shared: CPU time and the best run are the least noisy)."""
    best, decisions = 0.0, 0
    for attempt in range(3):
        starts = [core.new_game(players, seed) for seed in range(games)]
        rng = random.Random(attempt)
        begin = time.process_time()
        decisions = sum(play(state, rng) for state in starts)
        best = max(best, games / (time.process_time() - begin))
    return best, decisions / games


def mid_season_position() -> core.GameState:
    """A 3-player position in season 2, a dozen decisions in (cards owned, cubes down)."""
    state = core.new_game(3, seed=11)
    rng = random.Random(11)
    while state.season < 2:
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    for _ in range(12):
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    paths: list[tuple[str, Play]] = [
        ("public", play_public),
        ("enumerated", play_enumerated),
        ("rollout", play_rollout),
    ]
    for name, play in paths:
        play(core.new_game(3, 99), random.Random(0))  # warm the tables
        for players in (2, 3, 4):
            rate, decisions = games_per_second(play, players, args.games)
            extra = f"  ({decisions:.0f} decisions/game)" if decisions else ""
            print(f"{name:10s} {players} players: {rate:7.0f} games/s{extra}")
    state = mid_season_position()
    count = len(core.legal_actions(state))
    runs = []
    for _ in range(7):
        begin = time.perf_counter()
        for _ in range(1000):
            legal_codes(state)
        runs.append((time.perf_counter() - begin) * 1000)
    begin = time.perf_counter()
    for _ in range(1000):
        core.legal_actions(state)
    cached = (time.perf_counter() - begin) * 1000
    print(
        f"legal actions, mid-season 3-player position ({count} actions): "
        f"{statistics.median(runs):.1f} us per generation, "
        f"{cached:.1f} us per public call (cached for the same state)"
    )


if __name__ == "__main__":
    main()
