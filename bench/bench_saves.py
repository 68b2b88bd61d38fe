"""Save and load speed of a finished 4-player game, and its file size.

Prints figures only (timings never go in tests). Run with ``make bench`` or
``python bench/bench_saves.py [--runs N] [--seed S]``. Measured on one finished random
4-player game (seed given):

- ``save``: ``Session.save()``: encode + temp file + fsync + ``os.replace`` + folder fsync;
- ``save (no fsync)``: the same with fsync skipped, to show what the disk costs;
- ``load``: ``SaveStore.load()``: size-capped read, two-step decode, and the full replay of
  the log through ``core.apply_action`` (every action re-checked) — the issue's budget is
  50 ms;
- ``list``: ``SaveStore.list()`` of a folder of 20 such saves, first call (cold) and
  again (cached: unchanged files are not replayed).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import core  # after the path is set: this script runs from anywhere
import saves
import saves.atomic

SEATS = [
    saves.SeatConfig("Ann", core.Colour.BLUE, "human"),
    saves.SeatConfig("Ben", core.Colour.RED, "computer", "normal"),
    saves.SeatConfig("Cleo", core.Colour.GREEN, "computer", "easy"),
    saves.SeatConfig("Dai", core.Colour.WHITE, "human"),
]


def finished_game(store: saves.SaveStore, seed: int, name: str) -> saves.Session:
    """A finished random 4-player game, saved as ``name``."""
    session = saves.Session.new(store, SEATS, seed=seed, name=name)
    rng = random.Random(seed)
    fsync = os.fsync
    saves.atomic.os.fsync = lambda fd: None  # type: ignore[attr-defined]  # setup only
    try:
        while not session.finished:
            session.apply(rng.choice(core.legal_actions(session.state)))
    finally:
        saves.atomic.os.fsync = fsync  # type: ignore[attr-defined]
    return session


def median_ms(run: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and worst time of ``run`` in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = saves.SaveStore(Path(folder))
        session = finished_game(store, args.seed, "bench")
        size = session.path.stat().st_size
        print(f"finished 4-player game, seed {args.seed}: {len(session.actions)} actions, "
              f"file {size} bytes ({size / 1024:.1f} KiB)")  # fmt: skip
        report("save", *median_ms(session.save, args.runs), args.runs)
        fsync = os.fsync
        saves.atomic.os.fsync = lambda fd: None  # type: ignore[attr-defined]
        try:
            report("save (no fsync)", *median_ms(session.save, args.runs), args.runs)
        finally:
            saves.atomic.os.fsync = fsync  # type: ignore[attr-defined]
        report("load (with replay)", *median_ms(lambda: store.load("bench"), args.runs), args.runs)
        for i in range(19):
            finished_game(store, args.seed + 1 + i, f"bench {i}")
        cold = saves.SaveStore(Path(folder))
        report("list of 20, cold", *median_ms(cold.list, 1), 1)
        report("list of 20, cached", *median_ms(cold.list, args.runs), args.runs)


def report(what: str, median: float, worst: float, runs: int) -> None:
    print(f"{what:<22} median {median:7.2f} ms   worst {worst:7.2f} ms   ({runs} runs)")


if __name__ == "__main__":
    main()
