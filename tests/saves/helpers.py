"""Shared helpers of the saves tests: seats, random games, and a fixed clock."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import core
import saves
from core.levels import Level

COLOURS = list(core.Colour)


def human(name: str, colour: core.Colour) -> saves.SeatConfig:
    return saves.SeatConfig(name, colour, "human")


def computer(name: str, colour: core.Colour, level: Level = "easy") -> saves.SeatConfig:
    return saves.SeatConfig(name, colour, "computer", level)


def hot_seat(players: int) -> list[saves.SeatConfig]:
    """``players`` humans named Ann, Bob, Cy, Di."""
    return [
        human(n, c) for n, c in zip(("Ann", "Bob", "Cy", "Di"), COLOURS[:players], strict=False)
    ]


def against_computers(players: int) -> list[saves.SeatConfig]:
    """Ann (a human, seat 0) against ``players - 1`` computers."""
    return [human("Ann", COLOURS[0])] + [computer(f"Bot{i}", COLOURS[i]) for i in range(1, players)]


class Clock:
    """A clock that moves one second each time it is read (saves get distinct times)."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)) -> None:
        self.time = start

    def __call__(self) -> datetime:
        self.time += timedelta(seconds=1)
        return self.time


def random_actions(rng: random.Random, state: core.GameState) -> Iterator[core.Action]:
    """Random legal actions from ``state`` to the end of the game (the caller applies them)."""
    while not core.is_over(state):
        action = rng.choice(core.legal_actions(state))
        yield action
        state = core.apply_action(state, action)


def play_random(session: saves.Session, rng: random.Random, limit: int | None = None) -> None:
    """Apply random legal actions through ``session`` until the game is over or ``limit``."""
    count = 0
    while not session.finished and (limit is None or count < limit):
        session.apply(rng.choice(core.legal_actions(session.state)))
        count += 1


def save_files(folder: Path) -> list[str]:
    """The files in ``folder`` other than the locks (``.NAME.lock`` and the folder's
    ``.mykerinos.lock``), sorted: the saves and any temporary file left."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(".lock"))
