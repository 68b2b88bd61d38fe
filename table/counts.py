"""Counts of things held per player or address (connections, sessions, tables being
made), kept in a ``Counter`` whose keys go away at zero, so that names and addresses
seen once do not pile up."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator


def uncount(counter: Counter[str], key: str) -> None:
    """One ``key`` fewer in ``counter``; the key is forgotten at 0."""
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


@contextlib.contextmanager
def counted(counter: Counter[str], key: str) -> Iterator[None]:
    """``key`` counted once more in ``counter`` while the block runs."""
    counter[key] += 1
    try:
        yield
    finally:
        uncount(counter, key)
