"""The local seat: a game saved on this machine, played at this one terminal.

Every human seat decides here (hot-seat); computer seats are played by ``core.ai`` in a
worker thread while :meth:`LocalSeat.run` runs, with a short pause after each move so
people can follow it (skippable). Every action goes through the ``saves.Session``, which
checks it with ``core``, autosaves it at once, and holds the game so that no other
window writes it.

A session that does not hold its game (opened to watch, or taken over by another window)
makes a watching seat: nobody decides here, and :meth:`LocalSeat.run` follows the file,
telling each move played in the other window as if it were played here.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import core
import saves
from table.seat import LegalActions, Listener, OpenElsewhere, Player, SeatError, Update

if TYPE_CHECKING:
    from core.ai import Bot

BOT_SEED_STRIDE = 8
"""A computer seat's bot is seeded ``game seed * 8 + seat``: each seat differs, and a
resumed game's computers play as they would have."""
WATCH_EVERY = 0.5
"""Seconds between two looks at the file of a game watched from another window."""


class LocalSeat:
    """A :class:`table.seat.GameSeat` over a ``saves.Session``."""

    def __init__(
        self,
        session: saves.Session,
        *,
        pace: float = 0.4,
        take_over: Callable[[str], saves.Session] | None = None,
    ) -> None:
        """``take_over(name)`` claims the game from another window (``store.take_over``);
        without it a watched game cannot be taken over here."""
        self.session = session
        self.pace = pace
        """Seconds a computer's move stays "being played" so people can follow (0 in tests)."""
        self._take_over = take_over
        self._listeners: list[Listener] = []
        self._bots: dict[int, Bot] = {}
        self._legal = LegalActions()
        self._held = False
        self._changed = asyncio.Event()
        self._hurry = asyncio.Event()

    # ---------------------------------------------------------------- what it shows

    @property
    def title(self) -> str:
        return self.session.title

    @property
    def name(self) -> str:
        return self.session.name

    @property
    def state(self) -> core.GameState:
        return self.session.state

    @property
    def players(self) -> Sequence[Player]:
        return tuple(Player(s.name, s.colour, s.level) for s in self.session.seats)

    @property
    def watching(self) -> bool:
        """The game is played in another window; this one only follows it."""
        return self.session.read_only

    @property
    def status(self) -> str | None:
        if self.watching:
            return "WATCHING (read-only)"
        return "NOT SAVED" if self.session.unsaved else None

    @property
    def unsaved(self) -> int:
        return self.session.unsaved_moves

    @property
    def saved_note(self) -> str:
        if self.watching:
            return "This window only watches the game; it changes nothing."
        return f"The game is saved as {self.session.name!r}."

    def flush(self) -> None:
        if self.session.unsaved and not self.watching:
            with contextlib.suppress(saves.SaveError):
                self.session.save()

    def decides_here(self, seat: int | None) -> bool:
        return (
            seat is not None
            and not self.watching
            and 0 <= seat < len(self.session.seats)
            and not self.session.is_computer(seat)
        )

    def legal_actions(self) -> tuple[core.Action, ...]:
        return self._legal.of(self.state)

    def history(self) -> tuple[Sequence[core.GameState], Sequence[core.Action]]:
        return self.session.states(), list(self.session.actions)

    # ---------------------------------------------------------------- playing

    def play(self, action: core.Action) -> None:
        if not self.decides_here(self.state.current_player):
            raise SeatError(self._why_not_here())
        self._apply(action)

    def _why_not_here(self) -> str:
        if self.watching:
            return self.session.read_only_reason or "This window only watches the game."
        return "It is not your decision: wait for your turn."

    def _apply(self, action: core.Action) -> None:
        """Apply through the session (core checks it; the session autosaves) and tell."""
        before = self.state
        problem = None
        try:
            events = self.session.apply(action)
        except saves.ReadOnly as exc:  # taken over in another window: nothing changed
            self._tell(Update("status", self.state))
            raise SeatError(str(exc)) from None
        except saves.SaveError as exc:
            # The move is kept in memory; the next successful save writes it.
            events, problem = [], str(exc)
        self._tell(Update("played", self.state, before, action, tuple(events), problem=problem))

    def can_undo(self) -> bool:
        return not self.watching and self.session.can_undo()

    def undo(self) -> None:
        if not self.can_undo():
            raise SeatError("There is nothing of yours to take back in this season.")
        self._rewind(self.session.undo, "Undone: back to your last decision.")

    def can_redo(self) -> bool:
        return not self.watching and self.session.can_redo()

    def redo(self) -> None:
        if not self.can_redo():
            raise SeatError("There is nothing to redo.")
        self._rewind(self.session.redo, "Redone.")

    def _rewind(self, step: Callable[[], None], note: str) -> None:
        problem = None
        try:
            step()
        except saves.ReadOnly as exc:
            self._tell(Update("status", self.state))
            raise SeatError(str(exc)) from None
        except saves.SaveError as exc:
            problem = str(exc)
        self._tell(Update("rewound", self.state, note=note, problem=problem))

    def save_as(self, name: str) -> str:
        try:
            self.session.save_as(name)
        except saves.SaveError as exc:
            raise SeatError(str(exc)) from None
        self._tell(Update("status", self.state))
        return f"The game is now called {self.session.name!r}."

    # ---------------------------------------------------------------- what a local game has

    table: None = None
    """A game of this machine is at no shared table."""

    @property
    def elsewhere(self) -> OpenElsewhere | None:
        """This seat, when it may take over the game from another window."""
        return self if self._take_over is not None else None

    def can_take_over(self) -> bool:
        return self.watching and self._take_over is not None

    def take_over(self) -> None:
        """Play the watched game here from now on; the other window becomes read-only."""
        if self._take_over is None or not self.watching:
            raise SeatError("This window already plays the game.")
        try:
            session = self._take_over(self.session.name)
        except saves.SaveError as exc:
            raise SeatError(str(exc)) from None
        self.session.close()
        self.session = session
        self._tell(Update("rewound", self.state, note="This window plays the game now."))

    # ---------------------------------------------------------------- the stream

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _tell(self, update: Update) -> None:
        self._changed.set()
        for listener in self._listeners:
            listener(update)

    async def run(self) -> None:
        """Play the computer seats whenever one decides, or follow a watched game's file,
        until cancelled."""
        while True:
            seat = self.state.current_player
            if self.watching:
                await self._follow_file()
            elif self._held or seat is None or not self.session.is_computer(seat):
                self._changed.clear()
                await self._changed.wait()
            else:
                await self._computer_turn(seat)

    async def _follow_file(self) -> None:
        """One look at a watched game's file: its new moves are told one by one (as if
        played here), any other change as a new history."""
        await asyncio.sleep(WATCH_EVERY)
        old_actions = list(self.session.actions)
        try:
            changed = self.session.refresh()
        except saves.SaveError as exc:
            self._tell(Update("status", self.state, problem=str(exc)))
            return
        if not changed:
            return
        states, actions = self.session.states(), self.session.actions
        if actions[: len(old_actions)] != old_actions:
            self._tell(
                Update("rewound", self.state, note="The game was changed in the other window.")
            )
            return
        for index in range(len(old_actions), len(actions)):
            before, action = states[index], actions[index]
            events = tuple(core.apply_action_with_events(before, action)[1])
            self._tell(Update("played", states[index + 1], before, action, events))

    async def _computer_turn(self, seat: int) -> None:
        state = self.state
        self._hurry.clear()
        stop = threading.Event()
        started = time.monotonic()
        try:
            action = await asyncio.to_thread(self._bot(seat).choose, state, stop.is_set)
        except asyncio.CancelledError:
            stop.set()  # the search polls it: the thread ends within a simulation
            raise
        wait = self.pace - (time.monotonic() - started)
        if wait > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._hurry.wait(), wait)
        if self.state is state and not self.watching:  # not undone or taken meanwhile
            with contextlib.suppress(SeatError):  # taken over: the status says so
                self._apply(action)

    def _bot(self, seat: int) -> Bot:
        from core.ai import make_bot  # here: a hot-seat game never loads the computers

        if seat not in self._bots:
            level = self.session.seat_level(seat) or "normal"
            self._bots[seat] = make_bot(level, seed=self.session.seed * BOT_SEED_STRIDE + seat)
        return self._bots[seat]

    def hurry(self) -> None:
        self._hurry.set()

    def hold(self, held: bool) -> None:
        self._held = held
        self._changed.set()

    def close(self) -> None:
        self._held = True
        self.session.close()
