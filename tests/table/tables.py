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


def view(ear: Ear) -> list[core.GameState]:
    """The positions a client shows after what ``ear`` heard (as the remote seat does)."""
    states: list[core.GameState] = []
    for message in ear.heard:
        if isinstance(message, wire.Snapshot):
            states = core.replay(message.start, message.actions)
        elif isinstance(message, wire.Played) and message.seq == len(states) - 1:
            states.append(message.state)
    return states
