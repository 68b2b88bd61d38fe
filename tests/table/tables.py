"""What the tests of one shared table (its rules, its room, its state machine) share: a
moment to count from, a refusal checked in words, and a fake connection that keeps what
it hears."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest

import core
from table import protocol as wire
from table.server.rules import Refusal
from tests.table_server.history import History

T0 = 1_000_000.0
"""An arbitrary moment (Unix seconds) the tests count from."""


@contextmanager
def refused(reason: str, *, whole: bool = True) -> Iterator[None]:
    """The block is refused with ``reason`` (the whole sentence, or how it starts)."""
    with pytest.raises(Refusal) as caught:
        yield
    said = str(caught.value)
    assert (said == reason) if whole else said.startswith(reason), said


@dataclass(eq=False)
class Ear:
    """A connection hearing the table: keeps what it is sent; a closed one refuses."""

    player: str
    heard: list[wire.ServerMessage] = field(default_factory=list)
    closed: bool = False
    seen: int = 0
    """How many of the messages heard the test has looked at already (:meth:`news`)."""

    def send(self, message: wire.ServerMessage) -> bool:
        if self.closed:
            return False
        self.heard.append(message)
        return True

    def news(self) -> list[wire.ServerMessage]:
        """What it heard since the test last marked it (:meth:`mark`)."""
        return self.heard[self.seen :]

    def mark(self) -> None:
        self.seen = len(self.heard)

    def kinds(self) -> list[str]:
        return [type(message).__name__ for message in self.news()]


def told(ear: Ear) -> History:
    """The table as a client rebuilds it from what ``ear`` heard, in order (a Told that
    does not follow from what came before is a contradiction of the history)."""
    history = History()
    for message in ear.heard:
        if isinstance(message, wire.Snapshot):
            history.take(message)
        elif isinstance(message, wire.Told):
            history.hear(message)
    return history


def view(ear: Ear) -> list[core.GameState]:
    """The positions a client shows after what ``ear`` heard (as the remote seat does);
    every Told it heard followed from what came before it."""
    history = told(ear)
    assert not history.contradictions, history.contradictions
    return history.states
