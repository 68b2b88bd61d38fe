"""One registry of the memo tables core fills as it plays, so they can all be emptied.

Core keeps many small tables (ready-made move codes, the legal moves of the last state,
a player's worth...) that only ever grow or are replaced; :func:`clear_caches` empties
every one of them, e.g. to measure cold speed or to check that no stale entry changes a
result. A table is registered where it is defined::

    _ROOM_CODES: dict[...] = register({})

so it cannot be forgotten; a test plays games and fails on any module-level table of
core that grew without being registered.
"""

from __future__ import annotations

from typing import Protocol, TypeVar


class Clearable(Protocol):
    """Anything with a ``clear()`` that forgets what it memoised (a dict, a list...)."""

    def clear(self) -> None: ...


T = TypeVar("T", bound=Clearable)

_TABLES: list[Clearable] = []


def register(table: T) -> T:
    """Record ``table`` as a cache that :func:`clear_caches` empties; returns it."""
    _TABLES.append(table)
    return table


def registered() -> tuple[Clearable, ...]:
    """Every table registered so far (for the tests)."""
    return tuple(_TABLES)


def clear_caches() -> None:
    """Empty every memo, cache and intern table of ``core`` and ``core.ai`` (those of
    modules not imported yet do not exist). Results never change; only speed does until the
    tables fill again. Not meant to run while another thread is playing."""
    for table in _TABLES:
        table.clear()
