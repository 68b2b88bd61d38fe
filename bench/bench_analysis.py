"""The computer's analysis of a finished game (issue 27): its time, its steadiness, its exact end.

Usage: ``.venv/bin/python bench/bench_analysis.py [--games 10] [--workers 2] [--skip-time]
[--skip-agreement] [--players-only] [--seat 0] [--all-seats]``

The games are 3-player games between normal computer players: game ``g`` is
``core.new_game(3, g)`` with the players seeded ``10 g``, ``10 g + 1``, ``10 g + 2``
(the reference game of the timing is game 5 with players 50, 51, 52, 114 actions).

1. **Time** (``table.analysis.analyse``, ``--workers`` spawned processes, 2 by default):
   the reference game for one player (seat 0), then for all players (``--players-only``
   skips the second). Prints the wall time, the decisions judged, and the load average
   before and after. Targets: one player ≤ 60 s, all ≤ 3 min on 2 cores.
2. **Agreement** (``--games`` games, 10 by default, games 1..N): the decisions of
   ``--seat`` (every seat with ``--all-seats``) judged twice, with analysis seeds 1 and 2.
   Prints how often the two name the same three largest turning points (as a set), how
   often at least two of three, and the noise of a loss between the two seeds (its
   median, 90th, 95th and 99th percentiles, and how often one seed finds a mistake where
   the other finds less than half of one): what ``MISTAKE`` and ``BLUNDER`` are set by.
3. **Exact end**: in every game analysed, whether the last decision was judged exactly.

Every figure is printed with the load it was measured under; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import core
from core.ai import make_bot
from core.analysis import BLUNDER, MISTAKE, Analysis, Judgement, turning_points
from table.analysis import analyse

REFERENCE_GAME = 5


def game(number: int) -> tuple[core.GameState, list[core.Action]]:
    """Game ``number``: 3 normal players seeded ``10 number + seat``."""
    start = state = core.new_game(3, number)
    bots = [make_bot("normal", number * 10 + seat) for seat in range(3)]
    actions: list[core.Action] = []
    while not core.is_over(state):
        action = bots[state.current].choose(state)
        actions.append(action)
        state = core.apply_action(state, action)
    return start, actions


def load() -> float:
    return os.getloadavg()[0]


def timed(
    start: core.GameState, actions: list[core.Action], seats: list[int] | None, workers: int
) -> Analysis:
    before = load()
    began = time.perf_counter()
    analysis = analyse(start, actions, seats=seats, seed=1, workers=workers)
    wall = time.perf_counter() - began
    who = "all players" if seats is None else f"seat {seats[0]}"
    print(
        f"  {who}: {wall:.1f} s for {len(analysis.decisions)} decisions"
        f" ({wall / max(1, len(analysis.decisions)):.2f} s each, {workers} workers;"
        f" load average {before:.1f} before, {load():.1f} after)",
        flush=True,
    )
    return analysis


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def agreement(games: int, seats: list[int] | None, workers: int) -> None:
    same = overlap = compared = exact_last = 0
    noise: list[float] = []
    crossings = 0
    before = load()
    began = time.perf_counter()
    for number in range(1, games + 1):
        start, actions = game(number)
        runs = [analyse(start, actions, seats=seats, seed=s, workers=workers) for s in (1, 2)]
        exact_last += _last_exact(start, actions, runs[0])
        by_index = [{j.index: j for j in run.decisions} for run in runs]
        for index, first in by_index[0].items():
            second = by_index[1][index]
            noise.append(abs(first.loss - second.loss))
            high, low = max(first.loss, second.loss), min(first.loss, second.loss)
            crossings += high >= MISTAKE and low < MISTAKE / 2
        for seat in seats if seats is not None else range(3):
            points = [_names(turning_points(run.decisions, seat)) for run in runs]
            if not points[0] and not points[1]:
                continue
            compared += 1
            same += points[0] == points[1]
            overlap += len(points[0] & points[1]) >= min(2, len(points[0]), len(points[1]))
        print(
            f"  game {number}: {len(actions)} actions, turning points"
            f" {sorted(points[0])} / {sorted(points[1])}",
            flush=True,
        )
    wall = time.perf_counter() - began
    print(
        f"  the same three turning points (as a set) in {same} of {compared} player-games;"
        f" at least two of three in {overlap} of {compared}"
    )
    print(
        f"  noise of a loss between two seeds, {len(noise)} decisions: median"
        f" {statistics.median(noise):.2f}, 90th percentile {percentile(noise, 0.9):.2f},"
        f" 95th {percentile(noise, 0.95):.2f}, 99th {percentile(noise, 0.99):.2f}, max"
        f" {max(noise):.2f} points; one seed a mistake (>= {MISTAKE:g}) where the other"
        f" finds under {MISTAKE / 2:g}: {crossings} ({crossings / len(noise):.1%});"
        f" BLUNDER {BLUNDER:g}"
    )
    print(
        f"  last decision judged exactly in {exact_last} of {games} games"
        f" ({wall:.0f} s; load average {before:.1f} before, {load():.1f} after)"
    )


def _names(judgements: list[Judgement]) -> set[int]:
    return {j.index for j in judgements}


def _last_exact(start: core.GameState, actions: list[core.Action], analysis: Analysis) -> bool:
    """Whether the game's last decision (by anyone) was judged exactly; judged here if the
    analysis did not cover its player."""
    from core.analysis import decisions, judge

    states = core.replay(start, actions)
    last = decisions(states, actions)[-1]
    judged = {j.index: j for j in analysis.decisions}.get(last)
    if judged is None:
        judged = judge(states[last], actions[last], last, seed=1)
    return judged is not None and judged.exact


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-time", action="store_true")
    parser.add_argument("--skip-agreement", action="store_true")
    parser.add_argument("--players-only", action="store_true", help="time one player only")
    parser.add_argument("--seat", type=int, default=0, help="whose decisions to compare")
    parser.add_argument("--all-seats", action="store_true", help="compare every seat's")
    args = parser.parse_args()
    if not args.skip_time:
        start, actions = game(REFERENCE_GAME)
        print(f"time: game {REFERENCE_GAME} ({len(actions)} actions), table.analysis.analyse")
        timed(start, actions, [0], args.workers)
        if not args.players_only:
            analysis = timed(start, actions, None, args.workers)
            print(f"  last decision exact: {_last_exact(start, actions, analysis)}")
    if not args.skip_agreement:
        seats = None if args.all_seats else [args.seat]
        who = "every seat" if seats is None else f"seat {args.seat}"
        print(f"agreement: {args.games} games, {who}, analysis seeds 1 and 2")
        agreement(args.games, seats, args.workers)


if __name__ == "__main__":
    main()
