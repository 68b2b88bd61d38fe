"""Top-level pytest configuration for the whole suite.

Deliberately minimal (one fixture, below): fixtures belong in the conftest.py of the area
that uses them (tests/core/, tests/saves/, tests/tui/). Settings (markers, asyncio mode,
import mode) live in pyproject.toml under [tool.pytest.ini_options].
"""

from collections.abc import Iterator

import pytest

import core


@pytest.fixture(autouse=True)
def built_in_cards() -> Iterator[None]:
    """Every test starts and ends with the built-in deck: a game played with its own cards
    (``--cards``) switches the whole process to them, and no other test may inherit that."""
    core.use_cards(core.DEFAULT_CARDS)
    yield
    core.use_cards(core.DEFAULT_CARDS)
