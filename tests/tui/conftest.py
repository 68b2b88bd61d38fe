"""Fixtures of the terminal-UI tests: saves in a temporary folder, no computer pause,
fixed seeds and fixed save names so that snapshots and games are reproducible."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

import core
import saves
from tests.table_server.process import server  # noqa: F401 - a fixture: a real table server
from tui.app import MykerinosApp

FIXED_TIME = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)

HOT_SEAT_3 = [
    saves.SeatConfig("Ann", core.Colour.BLUE, "human"),
    saves.SeatConfig("Ben", core.Colour.RED, "human"),
    saves.SeatConfig("Cleo", core.Colour.GREEN, "human"),
]
HOT_SEAT_2 = HOT_SEAT_3[:2]


@pytest.fixture
def store(tmp_path: Path) -> saves.SaveStore:
    """A save folder of its own with a frozen clock (stable names and titles)."""
    return saves.SaveStore(tmp_path / "saves", clock=lambda: FIXED_TIME)


def app_for(store: saves.SaveStore, **options) -> MykerinosApp:
    """The app users run, on ``store``, with no pause between computer moves."""
    options.setdefault("computer_pause", 0.0)
    return MykerinosApp(store, **options)


def session_for(store, seats=HOT_SEAT_3, seed: int = 7, name: str = "test") -> saves.Session:
    return saves.Session.new(store, seats, seed=seed, name=name)


def toasts(app: App[Any]) -> list[str]:
    """The notifications on screen, title and message (run the app with notifications=True:
    Pilot hides them by default)."""
    return [str(toast.render()) for toast in app.screen.query("Toast")]


def play_until(session: saves.Session, wanted, seed: int = 1, limit: int = 3000) -> None:
    """Advance ``session`` with seeded random legal actions until ``wanted(state, legal)``.

    The choice is made among the actions sorted by their notation, so the positions reached
    (and the snapshots taken of them) do not depend on the order core lists them in."""
    import random

    rng = random.Random(seed)
    for _ in range(limit):
        state = session.state
        legal = core.legal_actions(state)
        if wanted(state, legal):
            return
        session.apply(rng.choice(sorted(legal, key=core.format_action)))
    raise AssertionError("the wanted position was not reached")


@pytest.fixture(autouse=True)
def no_disk_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    """Skip the real fsync, as tests/saves/ does: these tests check what the player sees and
    what the save holds, not that it reached the platter, and a game saved move by move paid
    ~10 ms a move. The real fsync runs where durability is the point: tests/saves_pty/ and
    the pty tests of test_cli.py, whose games run in processes of their own."""
    monkeypatch.setattr("saves.atomic.os.fsync", lambda fd: None)


@pytest.fixture(autouse=True)
def own_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The app's settings (the notices', the new-table form's last choices) in a folder of
    the test's own: never the user's, and never one test's choices in another's form."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


async def settle(pilot, done, limit: int = 3000) -> None:
    """Let the app run (computer moves, hints in their threads) until ``done()`` holds;
    bounded by ``limit`` short pauses, then fails."""
    for _ in range(limit):
        if done():
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never reached the awaited state")


def session_of(screen) -> saves.Session:
    """The saved game a game screen plays (its seat is the local one in these tests)."""
    from table.local import LocalSeat

    seat = screen.seat
    assert isinstance(seat, LocalSeat), f"not a local game: {seat!r}"
    return seat.session
