"""What this terminal knows of one shared table: the table as last told, its history (the
public positions), the seats this terminal decides for, and the table's journal.

It is made from a :class:`~table.protocol.Snapshot` and kept by each
:class:`~table.protocol.Told`, in the order of the journal's entry numbers: a Told known
already is skipped (an answer heard after the snapshot of a reconnect), one that comes
before another it follows waits for it. A move appends its action and the position the
server sent; an undo drops the last action and position (the client does it itself, as
the protocol says); every other entry is a line of the log in the words of
:func:`table.journal.words`. What a Told brings is returned as the seat's
:class:`~table.seat.Update` s, so that every terminal shows every line of the journal.

Nothing here reads or writes a connection: :mod:`table.client.seat` feeds it frames.
"""

from __future__ import annotations

import core
from core.levels import Level
from saves.format import TableLine
from table import journal
from table import protocol as wire
from table.seat import Update

EARLY_KEPT = 16
"""Tolds kept waiting for one before them; past that, the one awaited is lost and the
table is fetched again."""


class OutOfStep(Exception):
    """A Told that cannot follow what is known here (a move at another place in the
    history, a move without its position): the table must be fetched again."""


class KnownTable:
    """One table as this terminal knows it (see the module docstring)."""

    def __init__(self, snapshot: wire.Snapshot) -> None:
        self.info = snapshot.table
        """The table as last told (seats, presence, pause)."""
        self.seats_here = frozenset(snapshot.seats_here)
        self.actions = list(snapshot.actions)
        self.states = core.replay(snapshot.start, snapshot.actions)
        """The positions before each action, then the one now (public views)."""
        self.journal: list[journal.Any] = list(snapshot.journal)
        self.first = snapshot.first
        """How many of the table's entries are not known here (the oldest lines of chat a
        snapshot leaves out, from anywhere in the journal: only their count is known)."""
        self._early: dict[int, wire.Told] = {}
        """Tolds heard before one they follow, by their first entry's number."""
        self._standins: tuple[int, int, list[Level | None]] = (-1, -1, [])

    @property
    def upto(self) -> int:
        """The number of the journal's next entry (the next Told's ``n``)."""
        return self.first + len(self.journal)

    def since(self, number: int) -> list[journal.Any]:
        """The entries from number ``number`` on, as known here: the journal's last
        ``upto - number`` (the chat a snapshot leaves out is the oldest, so never among
        the few entries since a request or a drop)."""
        return self.journal[max(len(self.journal) - (self.upto - number), 0) :]

    def standins(self) -> list[Level | None]:
        """For each action of the history, the computer that made it standing in for the
        seat's player (None: the seat's own player or computer)."""
        kept, actions, made = self._standins
        if (kept, actions) != (len(self.journal), len(self.actions)):
            made = journal.standins(self.journal, len(self.actions))
            self._standins = (len(self.journal), len(self.actions), made)
        return made

    def lines(self) -> list[TableLine]:
        """The journal's lines (chat and notes, not moves), oldest first."""
        return journal.told_lines(self.journal)

    # ---------------------------------------------------------------- hearing

    def hear(self, told: wire.Told) -> list[Update]:
        """Take ``told`` in (and any Told that waited for it): the updates to tell, in the
        journal's order. Raises :class:`OutOfStep` when it cannot follow."""
        if told.table.id != self.info.id:
            return []
        if told.n > self.upto:  # one before it is still on its way
            self._early[told.n] = told
            if len(self._early) > EARLY_KEPT:
                raise OutOfStep(f"entry {self.upto} never came")
            return []
        updates = self._apply(told)
        while (waiting := self._early.pop(self.upto, None)) is not None:
            updates += self._apply(waiting)
        self._early = {n: early for n, early in self._early.items() if n > self.upto}
        return updates

    def _apply(self, told: wire.Told) -> list[Update]:
        if told.n + len(told.entries) < self.upto:
            return []  # known already, and the table has changed since
        new = told.entries[self.upto - told.n :]
        if sum(isinstance(entry, journal.Move) for entry in new) > 1:
            raise OutOfStep("two moves in one Told: only one position came with them")
        was, self.info = self.info, told.table
        if not new:  # the table as it stands, nothing new in its journal
            return [] if told.table == was else [Update("status", self.states[-1])]
        self.journal.extend(new)
        updates: list[Update] = []
        lines: list[TableLine] = []
        for entry in new:
            if isinstance(entry, journal.Move | journal.Undo):
                if lines:
                    updates.append(Update("status", self.states[-1], lines=tuple(lines)))
                    lines = []
                if isinstance(entry, journal.Move):
                    updates.append(self._move(entry, told))
                else:
                    updates.append(self._undo(entry))
            elif (line := journal.told_line(entry)) is not None:
                lines.append(line)
        if lines:
            updates.append(Update("status", self.states[-1], lines=tuple(lines)))
        return updates

    def _move(self, move: journal.Move, told: wire.Told) -> Update:
        """Action number ``move.seq``, the position after it from ``told``."""
        if move.seq != len(self.actions) or told.state is None:
            raise OutOfStep(f"move {move.seq} told with {len(self.actions)} actions known")
        before = self.states[-1]
        self.actions.append(move.action)
        self.states.append(told.state)
        return Update("played", told.state, before, move.action, told.events, move.standin)

    def _undo(self, undo: journal.Undo) -> Update:
        """The game has ``undo.seq`` actions again: the last ones and their positions go."""
        if not 0 <= undo.seq < len(self.actions):
            raise OutOfStep(f"an undo back to {undo.seq} actions, {len(self.actions)} known")
        del self.actions[undo.seq :]
        del self.states[undo.seq + 1 :]
        return Update("rewound", self.states[-1], lines=journal.told_lines([undo]))
