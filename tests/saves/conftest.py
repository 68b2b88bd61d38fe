"""Fixtures of the saves tests: a save store in a temporary folder with a fixed clock."""

from __future__ import annotations

from pathlib import Path

import pytest

import saves
from tests.saves.helpers import Clock


@pytest.fixture
def store(tmp_path: Path) -> saves.SaveStore:
    """An empty save store in its own temporary folder."""
    return saves.SaveStore(tmp_path / "saves", clock=Clock())


@pytest.fixture(autouse=True)
def no_disk_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    """Skip the real fsync in these unit tests: they check what is written, not that it
    reaches the platter, and fsync costs ~10 ms per save here. The pty kill tests
    (tests/saves_pty/) run with the real fsync."""
    monkeypatch.setattr("saves.atomic.os.fsync", lambda fd: None)
