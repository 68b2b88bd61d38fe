"""Time per decision of each computer level, on positions of real games.

Usage: ``.venv/bin/python bench/bench_ai.py [--games 2] [--every 4] [--levels easy,normal,hard]``

The positions come from 3-player games between normal bots (seeds 1, 2, ...): every
``--every``-th decision is kept, from every season and both phases. Each level then decides
each position once, with its default settings (the hard bot: its default fixed number of
simulations, with the 5 s safety cap). Prints the median and the maximum time per decision,
and the hard bot's simulations per second. Then, for the hard bot, how long a search takes to
return once its ``stop`` is set from another thread (as the UI does when a screen is left;
the UI needs it under 50 ms). Single process: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

import core
from core.ai import make_bot
from core.ai.search import DEFAULT_ITERATIONS


def positions(games: int, every: int) -> list[core.GameState]:
    """Every ``every``-th position of ``games`` 3-player games between normal bots."""
    out: list[core.GameState] = []
    for seed in range(1, games + 1):
        state = core.new_game(3, seed)
        bots = [make_bot("normal", seed * 10 + seat) for seat in range(3)]
        step = 0
        while not core.is_over(state):
            if step % every == 0:
                out.append(state)
            state = core.apply_action(state, bots[state.current].choose(state))
            step += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--levels", default="easy,normal,hard")
    args = parser.parse_args()
    sample = positions(args.games, args.every)
    print(f"{len(sample)} positions from {args.games} games of 3 normal bots (seeds 1..)")
    for level in args.levels.split(","):
        bot = make_bot(level, seed=1)
        times = []
        for state in sample:
            start = time.perf_counter()
            bot.choose(state)
            times.append(time.perf_counter() - start)
        line = f"{level:>6}: median {statistics.median(times):.3f} s, max {max(times):.3f} s"
        if level == "hard":
            rate = DEFAULT_ITERATIONS / statistics.median(times)
            line += f" ({DEFAULT_ITERATIONS} simulations: about {rate:.0f} per second)"
        print(line, flush=True)
    if "hard" in args.levels.split(","):
        lags = [lag for state in sample if (lag := stop_latency(state)) is not None] or [0.0]
        print(
            f"  hard, stopped 0.1 s into a search ({len(lags)} positions): returns"
            f" {statistics.median(lags) * 1000:.1f} ms (median), at most"
            f" {max(lags) * 1000:.1f} ms after the stop is set"
        )


def stop_latency(state: core.GameState) -> float | None:
    """Seconds from setting ``stop`` (0.1 s into a hard decision, from another thread) to
    the decision's return; None if the decision was over before."""
    stop = threading.Event()
    set_at: list[float] = []

    def fire() -> None:
        set_at.append(time.perf_counter())
        stop.set()

    timer = threading.Timer(0.1, fire)
    timer.start()
    make_bot("hard", seed=1).choose(state, stop.is_set)
    returned = time.perf_counter()
    timer.cancel()
    timer.join()
    fired = set_at and set_at[0] <= returned
    return returned - set_at[0] if fired else None


if __name__ == "__main__":
    main()
