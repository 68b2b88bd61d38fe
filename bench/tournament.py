"""Tournament: how often a bot level beats a field of another level, seats rotated.

Usage (from the repository root)::

    .venv/bin/python bench/tournament.py --hero normal --field easy --players 3 --games 200
    .venv/bin/python bench/tournament.py --hero hard --field normal --players 2 --games 200 \
        --iterations 150

Game ``i`` deals the board of seed ``seed + i // players`` and puts the hero in seat
``i % players``, so every deal is played once from every seat. A shared win counts as a
fraction (1/k for k winners). Prints the hero's win rate with a 95% Wilson interval, the
even-odds rate for reference, average scores, the hero's mean margin (its total minus the
best other total), and the time per decision of each side.
Games run in ``--workers`` processes (2 by default: this is a 2-core machine).

The hard computer against itself at another number of simulations (issue 29)::

    .venv/bin/python bench/tournament.py --hero hard --field hard \
        --hero-iterations 800 --iterations 400 --budget inf --games 60

``--hero-plan``/``--field-plan`` choose a side's search plan (``core.ai.search.PLANS``;
``ucb1``, the product's, by default), to pit another search against today's at the same
number of simulations::

    .venv/bin/python bench/tournament.py --hero hard --field hard --hero-plan halving \
        --iterations 100 --budget inf --games 60

``--hero-weights``/``--field-weights`` give a side's normal or hard player another
judgement (``core.ai.evaluate.Weights``): a name of ``core.ai.evaluate.WEIGHT_SETS``, or
today's weights with some changed, ``field=value,...``::

    .venv/bin/python bench/tournament.py --hero normal --field normal \
        --hero-weights sharpness=2.4 --games 600 --workers 1

For a hard hero, ``--hero-playout-weights`` (its simulated players) and
``--hero-leaf-weights`` (the positions its simulations reach) may differ from
``--hero-weights`` (its candidates), which they default to::

    .venv/bin/python bench/tournament.py --hero hard --field hard \
        --hero-leaf-weights screened --iterations 100 --budget inf --games 30 --workers 1

``--budget inf`` lets every decision run its simulations in full, so the result depends on
the seeds alone, not on the machine's load. A long tournament can run in batches:
``--first N`` starts at game ``N`` (a multiple of ``--players``), ``--out FILE`` appends one
JSON line per game, and ``--summarise FILE`` prints the summary of every game in the file.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import statistics
import time
from typing import TypedDict

import core
from core.ai import Bot, NormalBot, make_bot
from core.ai.evaluate import WEIGHT_SETS, Weights
from core.ai.search import DEFAULT_PLAN, PLANS, HardBot


def weights_of(spec: str) -> Weights:
    """A name of ``WEIGHT_SETS``, or ``field=value,...`` over today's weights."""
    if spec in WEIGHT_SETS:
        return WEIGHT_SETS[spec]
    base, changes = WEIGHT_SETS["today"], {}
    names = {f.name for f in dataclasses.fields(Weights)}
    for part in spec.split(","):
        name, _, value = part.partition("=")
        if name not in names or not value:
            raise argparse.ArgumentTypeError(f"not a weight set nor field=value: {part!r}")
        changes[name] = float(value)
    return dataclasses.replace(base, **changes)


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

    index: int
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
    bots: list[Bot] = []
    for seat in range(players):
        hero = seat == hero_seat
        level = args.hero if hero else args.field
        weights = weights_of(args.hero_weights if hero else args.field_weights)
        playout = weights_of(args.hero_playout_weights or args.hero_weights) if hero else weights
        leaf = weights_of(args.hero_leaf_weights or args.hero_weights) if hero else weights
        if level == "hard":
            iterations = args.hero_iterations if hero else args.iterations
            if hero and iterations is None:
                iterations = args.iterations
            plan = args.hero_plan if hero else args.field_plan
            bots.append(HardBot(deal * 10 + seat, budget=args.budget, iterations=iterations,
                                plan=plan, weights=weights, playout_weights=playout,
                                leaf_weights=leaf))  # fmt: skip
        elif level == "normal":
            bots.append(NormalBot(deal * 10 + seat, weights))
        else:
            bots.append(make_bot(level, seed=deal * 10 + seat))
    state = core.new_game(players, deal)
    times: dict[str, list[float]] = {"hero": [], "field": []}
    while not core.is_over(state):
        seat = state.current
        start = time.perf_counter()
        action = bots[seat].choose(state)
        times["hero" if seat == hero_seat else "field"].append(time.perf_counter() - start)
        state = core.apply_action(state, action)
    scores = core.final_scores(state)
    totals = [p.total for p in scores.players]
    share = 1 / len(scores.winners) if hero_seat in scores.winners else 0.0
    field = [t for seat, t in enumerate(totals) if seat != hero_seat]
    return {
        "index": index,
        "share": share,
        "hero": totals[hero_seat],
        "field": field,
        "times": times,
    }


def summarise(results: list[Game], title: str) -> None:
    """Print the win rate, scores, margin and decision times of ``results``."""
    games = len(results)
    wins = sum(r["share"] for r in results)
    low, high = wilson(wins, games)
    players = len(results[0]["field"]) + 1
    hero_avg = statistics.mean(r["hero"] for r in results)
    field_avg = statistics.mean(t for r in results for t in r["field"])
    margins = [r["hero"] - max(r["field"]) for r in results]
    spread = statistics.stdev(margins) / math.sqrt(games) if games > 1 else 0.0
    print(title)
    print(
        f"  hero wins {wins:.1f}/{games} = {wins / games:.1%} "
        f"(95% Wilson {low:.1%}..{high:.1%}); even odds {1 / players:.1%}"
    )
    print(f"  average score: hero {hero_avg:.1f}, field {field_avg:.1f}")
    print(
        f"  hero's margin over the best other: mean {statistics.mean(margins):+.2f} "
        f"(± {1.96 * spread:.2f}, 95%; se {spread:.2f}), median {statistics.median(margins):+.1f}"
    )
    # An equal player's margin over the best other is negative (the best of two); over the
    # others' mean it is 0.
    means = [r["hero"] - statistics.mean(r["field"]) for r in results]
    mean_spread = statistics.stdev(means) / math.sqrt(games) if games > 1 else 0.0
    print(
        f"  hero's margin over the others' mean: mean {statistics.mean(means):+.2f} "
        f"(se {mean_spread:.2f})"
    )
    for side in ("hero", "field"):
        times = [t for r in results for t in r["times"][side]]
        if times:
            print(
                f"  {side}: {len(times)} decisions, median {statistics.median(times):.3f} s, "
                f"max {max(times):.3f} s (wall)"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hero", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--field", default="easy", choices=("easy", "normal", "hard"))
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=float, default=None, help="hard: seconds per decision")
    parser.add_argument("--iterations", type=int, default=None, help="hard: simulations")
    parser.add_argument(
        "--hero-iterations", type=int, default=None, help="hard hero: simulations (--iterations)"
    )
    parser.add_argument("--hero-plan", default=DEFAULT_PLAN, choices=sorted(PLANS))
    parser.add_argument("--field-plan", default=DEFAULT_PLAN, choices=sorted(PLANS))
    parser.add_argument("--hero-weights", default="today", help="normal/hard hero's judgement")
    parser.add_argument("--field-weights", default="today", help="normal/hard field's judgement")
    parser.add_argument("--hero-playout-weights", default=None, help="hard hero: simulated players")
    parser.add_argument("--hero-leaf-weights", default=None, help="hard hero: leaf judgement")
    parser.add_argument("--out", default=None, help="append one JSON line per game here")
    parser.add_argument("--summarise", default=None, help="summarise the games of this file")
    args = parser.parse_args(argv)
    if args.summarise:
        with open(args.summarise, encoding="utf-8") as lines:
            done: dict[int, Game] = {}
            for line in lines:
                game: Game = json.loads(line)
                done[game["index"]] = game
        summarise(list(done.values()), f"{len(done)} games from {args.summarise}")
        return

    hard_sides = "hard" in (args.hero, args.field)
    if hard_sides and args.budget == math.inf and args.iterations is None:
        # HardBot with a time budget alone searches until it is spent: here, forever.
        parser.error("--budget inf needs --iterations (the product's: 400)")
    for spec in (args.hero_weights, args.field_weights, args.hero_playout_weights,
                 args.hero_leaf_weights):  # fmt: skip
        if spec is None:
            continue
        try:
            weights_of(spec)
        except argparse.ArgumentTypeError as error:
            parser.error(str(error))
    start = time.perf_counter()
    jobs = [(i, args) for i in range(args.first, args.first + args.games)]
    results: list[Game] = []
    with multiprocessing.Pool(args.workers) as pool:
        for result in pool.imap(play_one, jobs, chunksize=1):
            results.append(result)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as out:
                    out.write(json.dumps(result) + "\n")
    elapsed = time.perf_counter() - start
    hard = ""
    if args.hero_weights != "today" or args.field_weights != "today":
        hard += f" hero-weights={args.hero_weights} field-weights={args.field_weights}"
    if args.hero_playout_weights or args.hero_leaf_weights:
        hard += f" hero-playout-weights={args.hero_playout_weights}"
        hard += f" hero-leaf-weights={args.hero_leaf_weights}"
    if "hard" in (args.hero, args.field):
        hard += (
            f" budget={args.budget} iterations={args.iterations}"
            f" hero-iterations={args.hero_iterations}"
            f" hero-plan={args.hero_plan} field-plan={args.field_plan}"
        )
    summarise(
        results,
        f"{args.hero} vs {args.players - 1}x {args.field}, {args.players} players, "
        f"{len(results)} games from #{args.first} (seeds from {args.seed}, seats rotated)"
        f"{hard}, {elapsed:.0f} s",
    )


if __name__ == "__main__":
    main()
