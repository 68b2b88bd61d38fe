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

``--baseline DIR`` (a checkout of an older commit) measures the hard search's simulations per
CPU second before (``DIR``'s ``core``) and after (this tree's), each in child processes run
in alternation (``--rounds`` each), every decision uncapped with ``--iterations``
simulations (400) on the positions of ``--games``/``--every``; it prints both rates, their
ratio (issue 29 asks for at least 2), and whether both trees chose the same actions.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

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
    parser.add_argument("--baseline", help="compare the hard search with this checkout's")
    parser.add_argument("--rounds", type=int, default=2, help="--baseline: runs of each tree")
    parser.add_argument("--iterations", type=int, default=400, help="--baseline: simulations")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        serve_decisions(args.games, args.every, args.iterations)
        return
    if args.baseline:
        compare(args)
        return
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


def serve_decisions(games: int, every: int, iterations: int) -> None:
    """The child of ``--baseline``: for each position index read on stdin, decide it with
    a new uncapped hard bot and print the CPU seconds taken and the action chosen."""
    sample = positions(games, every)
    print(len(sample), flush=True)
    for line in sys.stdin:
        state = sample[int(line)]
        bot = HardBot(seed=1, iterations=iterations, budget=float("inf"))
        start = time.process_time()
        action = bot.choose(state)
        seconds = time.process_time() - start
        print(json.dumps([seconds, core.format_action(action)]), flush=True)


def compare(args: argparse.Namespace) -> None:
    """Simulations per CPU second before (``--baseline``) and after: two child processes,
    one per tree, decide the same positions in turn (before, after, next position...), so
    both meet the same load; each decision's least CPU time over ``--rounds`` is kept."""
    here = str(Path(__file__).resolve().parents[1])
    command = [
        sys.executable,
        __file__,
        "--child",
        f"--games={args.games}",
        f"--every={args.every}",
        f"--iterations={args.iterations}",
    ]
    trees = {"before": args.baseline, "after": here}
    children = {
        side: subprocess.Popen(
            command,
            env=dict(os.environ, PYTHONPATH=tree),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for side, tree in trees.items()
    }
    load_before = os.getloadavg()
    try:
        counts = {side: int(_read(child)) for side, child in children.items()}
        count = counts["after"]
        cpu: dict[str, list[float]] = {side: [math.inf] * count for side in trees}
        choices: dict[str, list[str]] = {side: [""] * count for side in trees}
        for _ in range(args.rounds):
            for index in range(count):
                for side, child in children.items():
                    assert child.stdin is not None
                    child.stdin.write(f"{index}\n")
                    child.stdin.flush()
                    seconds, choice = json.loads(_read(child))
                    cpu[side][index] = min(cpu[side][index], seconds)
                    choices[side][index] = choice
    finally:
        for child in children.values():
            assert child.stdin is not None
            child.stdin.close()
            child.wait(timeout=60)
    load_after = os.getloadavg()
    rates = {}
    for side in trees:
        total = args.iterations * count / sum(cpu[side])
        median = statistics.median(cpu[side])
        rates[side] = total
        print(
            f"{side:6s}: {total:5.0f} simulations per CPU second over {count} decisions"
            f" ({args.iterations / median:.0f} from the median decision, CPU median"
            f" {median:.3f} s)"
        )
    same = choices["before"] == choices["after"]
    print(
        f"after / before: x{rates['after'] / rates['before']:.2f} (target >= 2);"
        f" {'the same choices' if same else 'DIFFERENT choices'} in both trees;"
        f" load average {load_before[0]:.1f} before, {load_after[0]:.1f} after"
    )


def _read(child: subprocess.Popen[str]) -> str:
    assert child.stdout is not None
    line = child.stdout.readline()
    if not line:
        raise RuntimeError("a child of --baseline stopped")
    return line


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
