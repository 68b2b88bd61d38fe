"""A stand-in for the game, for the kill and hang-up tests: plays random legal actions
through a `saves.Session` as fast as it can, one game after another, and after each
completed action prints ``<save name> <actions in the log>`` and flushes.

SIGHUP (the terminal hangs up) and SIGTERM save the game and exit with status 0, as the
real app does. Usage: ``python driver.py FOLDER SEED [DELAY]`` (DELAY: seconds between
actions, as a player thinking).
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import core  # noqa: E402 - after the path is set, as a script run from anywhere
import saves  # noqa: E402

SEATS = [
    saves.SeatConfig("Ann", core.Colour.BLUE, "human"),
    saves.SeatConfig("Ben", core.Colour.RED, "computer", "easy"),
    saves.SeatConfig("Cleo", core.Colour.GREEN, "human"),
]

session: saves.Session | None = None


def hang_up(number: int, frame: FrameType | None) -> None:
    """Save what is in memory, then leave at once: the terminal may be gone, so nothing is
    printed (a write to a hung-up terminal fails) and nothing else runs."""
    status = 0
    if session is not None:
        try:
            session.save()
        except saves.SaveError:
            status = 1
    os._exit(status)


def main(folder: str, seed: int, delay: float) -> None:
    global session
    signal.signal(signal.SIGHUP, hang_up)
    signal.signal(signal.SIGTERM, hang_up)
    store = saves.SaveStore(Path(folder))
    rng = random.Random(seed)
    for game in range(1_000_000):
        session = saves.Session.new(store, SEATS, seed=seed + game, name=f"game {game}")
        print(f"{session.name} 0", flush=True)
        while not session.finished:
            session.apply(rng.choice(core.legal_actions(session.state)))
            print(f"{session.name} {len(session.actions)}", flush=True)
            if delay:
                time.sleep(delay)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 0.0)
