"""A table in the server's memory, and how it looks to those who hear it: its stored
row, its real positions, who listens and for which seats, who is away since when; its
line in the lobby (:class:`table.protocol.TableInfo`, the one view the rules of
:mod:`table.rules` judge) and the snapshot a newcomer is sent.

Nothing here changes the table: that is the room's (:mod:`table.server.room`), which is
this class with the one sequence of changes on top.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

import core
from table import journal
from table import protocol as wire
from table.server import rules
from table.store import SeatRow, TableRow


class Listener(Protocol):
    """A connection hearing a table."""

    player: str

    def send(self, message: wire.ServerMessage) -> bool:
        """Queue ``message``; False if the connection is gone (it is then forgotten)."""
        ...


Clock = Callable[[], float]


class Table:
    """One table as the server holds it (see the module docstring); ``clock`` is the
    time (Unix seconds)."""

    def __init__(self, row: TableRow, clock: Clock = time.time) -> None:
        self.row = row
        self.clock = clock
        self.states: list[core.GameState] = []
        self.listeners: dict[Listener, tuple[int, ...]] = {}
        """Everyone hearing the table, with the seats each decides for (empty: watching)."""
        self.away_since: dict[int, float] = {}
        """When each seat's player left (their last connection): from the journal's last
        :class:`journal.Away` of the seat, or since this server saw them go."""
        self.told_away: set[int] = set()
        """The seats whose player's leaving the journal told, and not yet their coming
        back (so each leaving and coming back is told once, as it happens)."""
        self.said: dict[str, list[float]] = {}
        """When each player's recent chat lines were said (the rate limit)."""
        self.damaged = row.damaged
        """Why the table cannot go on (None: it can); a damaged table is read-only."""
        self.names = row.names()
        """The name each seat plays under (:meth:`TableRow.names`; see :meth:`seated`)."""
        missing = len(row.actions) - len(row.standins)
        row.standins[len(row.actions) :] = [None] * max(0, missing)  # one for each action
        if self.started:
            self._start()
        if self.damaged is not None:
            row.journal[:] = as_far_as_it_replays(row.journal, len(row.actions))
        for entry in row.journal:
            if isinstance(entry, journal.Away):
                self.told_away.add(entry.seat)
                self.away_since[entry.seat] = entry.at
            elif isinstance(entry, journal.Back):
                self.told_away.discard(entry.seat)
                self.away_since.pop(entry.seat, None)
        if self.started and not self.over and self.damaged is None:
            # Read from the store at a start: a server killed could not tell its players
            # away, so one who had come is away from now (else "not here yet" for good,
            # and a live table's seat never handed over however long they stay away).
            start = clock()
            for seat in self._came():
                self.away_since.setdefault(seat, start)

    def _came(self) -> set[int]:
        """The people's seats whose player the journal shows at the table: their own
        moves, their seat taken, their leaving or coming back, their words (a seat kept
        for a friend who never came shows none)."""
        people = {
            name: seat
            for seat, (row, name) in enumerate(zip(self.row.seats, self.names, strict=True))
            if row.kind == "player" and name
        }
        came: set[int] = set()
        for entry in self.row.journal:
            match entry:
                case (
                    journal.Move(seat=seat, standin=None)
                    | journal.Sit(seat=seat)
                    | journal.Away(seat=seat)
                    | journal.Back(seat=seat)
                ):
                    came.add(seat)
                case (
                    journal.Chat(name=name, spectator=False)
                    | journal.Undo(player=name)
                    | journal.Pause(player=name)
                    | journal.HandOver(by=name)
                ):
                    came.add(people.get(name, -1))
        return came & set(people.values())

    # ---------------------------------------------------------------- what it is

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def owner(self) -> str:
        """Whose table it is: its creator (the first player, in an older store)."""
        return self.row.creator or next((s.name for s in self.row.seats if s.name), "?")

    @property
    def started(self) -> bool:
        return bool(self.row.seats) and all(s.kind != "open" for s in self.row.seats)

    @property
    def state(self) -> core.GameState | None:
        return self.states[-1] if self.states else None

    @property
    def over(self) -> bool:
        return self.state is not None and core.is_over(self.state)

    def seated(self, seat: int, player: str) -> None:
        """``player`` took the open seat ``seat`` (the game starts once none is open)."""
        colour = self.row.seats[seat].colour
        self.row.seats[seat] = SeatRow("player", player, None, colour)
        self.names = self.row.names()
        if self.started:
            self._start()

    def _start(self) -> None:
        """The real game, once every seat is filled (replaying the stored actions as far
        as they replay: a table whose stored actions do not is damaged)."""
        seats = self.row.seats
        names = self.names
        try:
            self.states = [core.new_game(len(seats), self.row.seed, names,
                                         [s.colour for s in seats])]  # fmt: skip
        except (ValueError, core.IllegalActionError) as exc:
            self.damaged = self.damaged or f"its game cannot be set up: {exc}"
            return
        for number, action in enumerate(self.row.actions, 1):
            try:
                self.states.append(core.apply_action(self.states[-1], action))
            except core.IllegalActionError as exc:
                self.damaged = self.damaged or f"action {number} is not legal: {exc.reason or exc}"
                del self.row.actions[number - 1 :]  # shown and exported as far as it replays
                del self.row.standins[number - 1 :]
                return

    # ---------------------------------------------------------------- who is here

    def present(self) -> set[int]:
        """The seats someone decides for at the table now."""
        return {seat for seats in self.listeners.values() for seat in seats}

    def seats_here(self, listener: Listener) -> tuple[int, ...]:
        """The seats ``listener`` decides for (none: watching, or not at the table)."""
        return self.listeners.get(listener, ())

    # ---------------------------------------------------------------- how it looks

    def info(self) -> wire.TableInfo:
        """The table's line in the lobby, the view :mod:`table.rules` judges (a pause is
        in it until its end is told, whatever the time: the rules judge it with theirs)."""
        state, present, names = self.state, self.present(), self.names
        seats = tuple(
            wire.SeatInfo(
                s.colour,
                names[i] if s.kind != "open" else None,
                s.level if s.kind == "computer" else None,
                s.kind == "computer" or i in present,
                None if i in present else self.away_since.get(i),
                s.standin,
            )
            for i, s in enumerate(self.row.seats)
        )
        status: wire.TableStatus
        if self.damaged is not None:
            status = "damaged"
        elif state is None:
            status = "waiting"
        else:
            status = "over" if core.is_over(state) else "playing"
        until = self.row.paused_until
        return wire.TableInfo(
            self.id, rules.table_name(self.row.title, self.row.seats), seats, status,
            state.current_player if state is not None else None,
            state.season if state is not None else 0,
            self.row.created, self.row.updated, len(self.row.actions), self.row.pace,
            self.row.wait, until, self.row.paused_by if until is not None else None,
            self.damaged, self._paused_this_season(state), self.row.hints,
        )  # fmt: skip

    def _paused_this_season(self, state: core.GameState | None) -> tuple[str, ...]:
        """Who has taken their pause of the season under way (the lobby's lines: none)."""
        if state is None or self.row.pace != "live":
            return ()
        return tuple(sorted(name for name, season in self.row.pauses if season == state.season))

    def snapshot(self, ref: int, listener: Listener) -> wire.Snapshot:
        """The public history and the journal, for a table that has started."""
        start = core.public_start(self.states[0], self.states[-1])
        entries, first = kept(self.row.journal)
        return wire.Snapshot(ref, self.info(), start, tuple(self.row.actions),
                             self.seats_here(listener), entries, first)  # fmt: skip


def kept(entries: Sequence[journal.Any]) -> tuple[tuple[journal.Any, ...], int]:
    """The journal a snapshot carries, and how many entries it leaves out: every entry
    but the oldest lines of chat beyond :data:`table.protocol.CHAT_KEPT` (see
    :class:`table.protocol.Snapshot`)."""
    lines = sum(1 for entry in entries if isinstance(entry, journal.Chat))
    left_out = lines - wire.CHAT_KEPT
    if left_out <= 0:
        return tuple(entries), 0
    carried = []
    for entry in entries:
        if left_out and isinstance(entry, journal.Chat):
            left_out -= 1
        else:
            carried.append(entry)
    return tuple(carried), len(entries) - len(carried)


def as_far_as_it_replays(entries: Sequence[journal.Any], actions: int) -> list[journal.Any]:
    """A damaged table's journal up to its first move beyond the ``actions`` that replay
    (so it never tells of a move the table does not show)."""
    for number, entry in enumerate(entries):
        if isinstance(entry, journal.Move) and entry.seq >= actions:
            return list(entries[:number])
    return list(entries)
