"""A table as a client of protocol 3 rebuilds it from what it is told: a snapshot, then
one Told per change. Shared by the protocol-level clients of the tests (bots,
witnesses, the room's fake listeners), so they all read the server the same way and a
Told that does not follow from what came before is named, not silently skipped."""

from __future__ import annotations

from dataclasses import dataclass, field

import core
from table import journal
from table import protocol as wire


@dataclass
class History:
    """What one connection was told of one table."""

    info: wire.TableInfo | None = None
    """The table as last told."""
    seats_here: tuple[int, ...] = ()
    actions: list[core.Action] = field(default_factory=list)
    states: list[core.GameState] = field(default_factory=list)
    """The public positions, the start first (empty before a snapshot)."""
    journal: list[journal.Any] = field(default_factory=list)
    """The journal as told: the snapshot's, then every Told's entries."""
    left_out: int = 0
    """Entries the last snapshot left out (old chat)."""
    contradictions: list[str] = field(default_factory=list)
    """Tolds that did not follow from what came before them."""
    patient: bool = False
    """Take Tolds in the order of their numbers, whatever the order they are heard in (a
    client whose answers and news come by separate ways: a Told heard early waits for
    those before it, one already told is dropped); else each is a contradiction."""
    waiting: dict[int, list[wire.Told]] = field(default_factory=dict)

    @property
    def next(self) -> int:
        """The number the next Told's first entry must have."""
        return self.left_out + len(self.journal)

    def take(self, snapshot: wire.Snapshot) -> None:
        self.info, self.seats_here = snapshot.table, snapshot.seats_here
        self.actions = list(snapshot.actions)
        self.states = core.replay(snapshot.start, snapshot.actions)
        self.journal, self.left_out = list(snapshot.journal), snapshot.first
        self._take_waiting()

    def hear(self, told: wire.Told) -> None:
        """Take ``told`` in: its moves and undos into the game, its entries into the
        journal, its table as the table now."""
        if told.n != self.next:
            if self.patient:
                if told.n > self.next:
                    self.waiting.setdefault(told.n, []).append(told)
                return
            self.contradictions.append(f"a Told numbered {told.n} where {self.next} was due")
        self._take(told)
        self._take_waiting()

    def _take_waiting(self) -> None:
        for n in sorted(self.waiting):
            if n < self.next:
                del self.waiting[n]
            elif n == self.next:
                for told in self.waiting.pop(n):  # a Told of nothing new first, as it was sent
                    self._take(told)
            else:
                return

    def _take(self, told: wire.Told) -> None:
        for entry in told.entries:
            if isinstance(entry, journal.Move):
                if entry.seq != len(self.actions) or told.state is None or not self.states:
                    self.contradictions.append(
                        f"move {entry.seq} was told while {len(self.actions)} actions were held"
                    )
                    continue
                self.actions.append(entry.action)
                self.states.append(told.state)
            elif isinstance(entry, journal.Undo):
                if entry.seq != len(self.actions) - 1:
                    self.contradictions.append(
                        f"an undo back to {entry.seq} actions while {len(self.actions)} were held"
                    )
                    continue
                self.actions.pop()
                self.states.pop()
        self.journal.extend(told.entries)
        self.info = told.table

    def lines(self) -> list[str]:
        """The journal as every client shows it: each entry's words (a move as its seat
        and seq, a line of chat as who said what)."""
        return [line_of(entry) for entry in self.journal]

    def chat(self) -> list[tuple[str, str]]:
        return [(e.name, e.text) for e in self.journal if isinstance(e, journal.Chat)]


def line_of(entry: journal.Any) -> str:
    """One entry in words (the one wording of :func:`table.journal.words`; a move and a
    line of chat, which it leaves to their screens, said here plainly)."""
    if isinstance(entry, journal.Move):
        return f"move {entry.seq} by seat {entry.seat}{journal.standin_mark(entry.standin)}"
    if isinstance(entry, journal.Chat):
        return f"{entry.name}{' (watching)' if entry.spectator else ''}: {entry.text}"
    said = journal.words(entry)
    assert said is not None
    return said


def told_entries(message: wire.ServerMessage) -> tuple[journal.Any, ...]:
    """The entries a Told carries (none for another message)."""
    return message.entries if isinstance(message, wire.Told) else ()


def has(message: wire.ServerMessage, kind: type) -> bool:
    """``message`` is a Told carrying an entry of ``kind``."""
    return any(isinstance(entry, kind) for entry in told_entries(message))
