"""Time per decision of each computer level, on positions of real games.

Usage: ``.venv/bin/python bench/bench_ai.py [--games 2] [--every 4] [--levels easy,normal,hard]``

The positions come from 3-player games between normal bots (seeds 1, 2, ...): every
``--every``-th decision is kept, from every season and both phases. Each level then decides
each position once, with its default settings (the hard bot: its default fixed number of
simulations, with the 5 s safety cap). Prints the median and the maximum time per decision,
and the hard bot's simulations per second. Then, for the hard bot, how long a search takes to
return once its ``stop`` is set from another thread (as the UI does when a screen is left;
the UI needs it under 50 ms). Single process: run it on a quiet machine.

Each level's line also gives the CPU time per decision (the search is single-threaded, so
its median is what a decision takes on an idle core of this machine) and the load average
before and after (``os.getloadavg``): a wall time is only worth quoting with its load.
A hard decision over the 5 s cap stops there, with fewer simulations; ``--uncapped`` lets
every one run its 400 simulations, to measure the search itself on a busy machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

import core
from core.ai import Bot, make_bot
from core.ai.search import DEFAULT_CAP, DEFAULT_ITERATIONS, HardBot


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
    parser.add_argument(
        "--uncapped", action="store_true", help="no 5 s cap: every hard decision runs in full"
    )
    args = parser.parse_args()
    sample = positions(args.games, args.every)
    print(f"{len(sample)} positions from {args.games} games of 3 normal bots (seeds 1..)")
    for level in args.levels.split(","):
        if level == "hard" and args.uncapped:
            bot: Bot = HardBot(seed=1, iterations=DEFAULT_ITERATIONS, budget=float("inf"))
        else:
            bot = make_bot(level, seed=1)
        times, cpu = [], []
        load_before = os.getloadavg()[0]
        for state in sample:
            start, start_cpu = time.perf_counter(), time.process_time()
            bot.choose(state)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        line = (
            f"{level:>6}: median {statistics.median(times):.3f} s, max {max(times):.3f} s;"
            f" CPU median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s"
            f" (load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after)"
        )
        if level == "hard":
            capped = sum(1 for seconds in times if seconds >= DEFAULT_CAP)
            rate = DEFAULT_ITERATIONS / statistics.median(cpu)
            line += f"; {DEFAULT_ITERATIONS} simulations: about {rate:.0f} per CPU second"
            if not args.uncapped:
                line += f"; {capped} of {len(times)} stopped by the {DEFAULT_CAP:g} s cap"
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
