"""Tournament: how often a bot level beats a field of another level, seats rotated.

Usage (from the repository root)::

    .venv/bin/python bench/tournament.py --hero normal --field easy --players 3 --games 200
    .venv/bin/python bench/tournament.py --hero hard --field normal --players 2 --games 200 \
        --iterations 150

Game ``i`` deals the board of seed ``seed + i // players`` and puts the hero in seat
``i % players``, so every deal is played once from every seat. A shared win counts as a
fraction (1/k for k winners). Prints the hero's win rate with a 95% Wilson interval, the
even-odds rate for reference, average scores, and the time per decision of each level.
Games run in ``--workers`` processes (2 by default: this is a 2-core machine).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time
from typing import TypedDict

import core
from core.ai import make_bot


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return ((centre - spread) / denominator, (centre + spread) / denominator)


class Game(TypedDict):
    """One game's result, as it comes back from a worker process."""

    share: float
    hero: int
    field: list[int]
    times: dict[str, list[float]]


def play_one(job: tuple[int, argparse.Namespace]) -> Game:
    """One game: the hero's share of the win, the scores and the decision times."""
    index, args = job
    players = args.players
    hero_seat = index % players
    deal = args.seed + index // players
    levels = [args.field] * players
    levels[hero_seat] = args.hero
    bots = [
        make_bot(level, seed=deal * 10 + seat, budget=args.budget, iterations=args.iterations)
        if level == "hard"
        else make_bot(level, seed=deal * 10 + seat)
        for seat, level in enumerate(levels)
    ]
    state = core.new_game(players, deal)
    times: dict[str, list[float]] = {args.hero: [], args.field: []}
    while not core.is_over(state):
        seat = state.current
        start = time.perf_counter()
        action = bots[seat].choose(state)
        times[levels[seat]].append(time.perf_counter() - start)
        state = core.apply_action(state, action)
    scores = core.final_scores(state)
    totals = [p.total for p in scores.players]
    share = 1 / len(scores.winners) if hero_seat in scores.winners else 0.0
    field = [t for seat, t in enumerate(totals) if seat != hero_seat]
    return {"share": share, "hero": totals[hero_seat], "field": field, "times": times}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hero", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--field", default="easy", choices=("easy", "normal", "hard"))
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=float, default=None, help="hard: seconds per decision")
    parser.add_argument("--iterations", type=int, default=None, help="hard: simulations")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    jobs = [(i, args) for i in range(args.games)]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(play_one, jobs, chunksize=1)
    elapsed = time.perf_counter() - start

    games = len(results)
    wins = sum(r["share"] for r in results)
    low, high = wilson(wins, games)
    hero_avg = statistics.mean(r["hero"] for r in results)
    field_avg = statistics.mean(t for r in results for t in r["field"])
    hard = ""
    if "hard" in (args.hero, args.field):
        hard = f" budget={args.budget} iterations={args.iterations}"
    print(
        f"{args.hero} vs {args.players - 1}x {args.field}, {args.players} players, "
        f"{games} games (seeds from {args.seed}, seats rotated){hard}, {elapsed:.0f} s"
    )
    print(
        f"  {args.hero} wins {wins:.1f}/{games} = {wins / games:.1%} "
        f"(95% Wilson {low:.1%}..{high:.1%}); even odds {1 / args.players:.1%}"
    )
    print(f"  average score: {args.hero} {hero_avg:.1f}, {args.field} {field_avg:.1f}")
    for level in dict.fromkeys((args.hero, args.field)):
        times = [t for r in results for t in r["times"][level]]
        if times:
            print(
                f"  {level}: {len(times)} decisions, median {statistics.median(times):.3f} s, "
                f"max {max(times):.3f} s"
            )


if __name__ == "__main__":
    main()
