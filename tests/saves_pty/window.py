"""A stand-in for one window of the game, for the tests of two processes on one save
folder: it reads one command per line on stdin and answers each with JSON lines on stdout.

Commands (``NAME`` is a save name, ``N`` a count):

- ``new NAME`` / ``open NAME`` / ``watch NAME`` / ``take NAME``: make the session;
  answers ``{"ok": true, "actions": n}`` or ``{"ok": false, "error": kind, "message": ...}``
- ``new-auto N``: start N new games with automatic names (the clock is frozen with
  ``--frozen-clock``, so they all start in the same second); answers their names
- ``play N``: play N random legal moves, answering ``{"ack": index, "move": notation}``
  for each one saved, and stopping at the first refusal ``{"refused": kind, ...}``; then
  ``{"done": true}``
- ``refresh``: ``{"changed": bool, "actions": n}``
- ``close``, ``quit``

Usage: ``python window.py FOLDER SEED [--frozen-clock]``.
"""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import core  # noqa: E402 - after the path is set, as a script run from anywhere
import saves  # noqa: E402

SEATS = [
    saves.SeatConfig("Ann", core.Colour.BLUE, "human"),
    saves.SeatConfig("Ben", core.Colour.RED, "human"),
    saves.SeatConfig("Cleo", core.Colour.GREEN, "human"),
]
FROZEN = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def say(**answer: object) -> None:
    print(json.dumps(answer), flush=True)


def refusal(exc: saves.SaveError) -> dict[str, object]:
    return {"error": type(exc).__name__, "message": str(exc)}


class Window:
    def __init__(self, store: saves.SaveStore, seed: int) -> None:
        self.store = store
        self.rng = random.Random(seed)
        self.session: saves.Session | None = None

    def start(self, verb: str, name: str) -> None:
        makers = {
            "new": lambda: saves.Session.new(self.store, SEATS, seed=1, name=name),
            "open": lambda: self.store.open(name),
            "watch": lambda: self.store.watch(name),
            "take": lambda: self.store.take_over(name),
        }
        try:
            self.session = makers[verb]()
        except saves.SaveError as exc:
            say(ok=False, **refusal(exc))
            return
        say(ok=True, actions=len(self.session.actions))

    def new_auto(self, count: int) -> None:
        names = []
        for _ in range(count):
            session = saves.Session.new(self.store, SEATS, seed=2)
            names.append(session.name)
            session.close()
        say(names=names)

    def play(self, count: int) -> None:
        assert self.session is not None
        for _ in range(count):
            if self.session.finished:
                break
            action = self.rng.choice(core.legal_actions(self.session.state))
            try:
                self.session.apply(action)
            except saves.SaveError as exc:
                say(refused=type(exc).__name__, message=str(exc), actions=len(self.session.actions))
                break
            say(ack=len(self.session.actions) - 1, move=core.format_action(action))
        say(done=True)

    def refresh(self) -> None:
        assert self.session is not None
        changed = self.session.refresh()
        say(changed=changed, actions=len(self.session.actions))

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
        say(ok=True)


def main(folder: str, seed: int, frozen: bool) -> None:
    store = saves.SaveStore(Path(folder), clock=(lambda: FROZEN) if frozen else None)
    window = Window(store, seed)
    say(ready=True)
    for line in sys.stdin:
        verb, _, argument = line.strip().partition(" ")
        if verb in ("new", "open", "watch", "take"):
            window.start(verb, argument)
        elif verb == "new-auto":
            window.new_auto(int(argument))
        elif verb == "play":
            window.play(int(argument))
        elif verb == "refresh":
            window.refresh()
        elif verb == "close":
            window.close()
        elif verb == "quit":
            return


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), "--frozen-clock" in sys.argv[3:])
