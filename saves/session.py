"""A game being played: its seats, its action log, and the file it is autosaved to.

:class:`Session` is what the terminal game holds. Every action goes through
:meth:`Session.apply`, which checks it with ``core``, appends it to the log and autosaves
at once (temp file, fsync, ``os.replace``), so a crash or a dropped connection loses at
most the action being typed. Undo and redo work on the log and are autosaved too.

Saving from a signal handler is safe: each write uses its own temporary file, so a save
started in the handler while another is half-written completes on its own. The
recommended SIGHUP/SIGTERM handler is ``session.save()`` then ``raise SystemExit``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import core
from saves.atomic import write_atomically
from saves.errors import SaveError
from saves.format import FORMAT, VERSION, SaveFile, SeatConfig, check_new, encode
from saves.names import auto_name, check_name, is_auto_name, save_path

if TYPE_CHECKING:
    from saves.store import SaveStore


class Session:
    """One game and its save file. Build it with :meth:`new` or ``SaveStore.load``."""

    def __init__(self, store: SaveStore, name: str, save: SaveFile, states: list[core.GameState]):
        """Internal: use :meth:`new` or :meth:`SaveStore.load`. ``states`` must be the replay
        of ``save`` (one more than its actions)."""
        self.store = store
        self.name = name
        """The save's file stem in the store's folder."""
        self.title = save.title
        self.seats: list[SeatConfig] = list(save.players)
        self.seed = save.seed
        self.created = save.created
        self.updated = save.updated
        self.actions: list[core.Action] = list(save.actions)
        self.unsaved = False
        """True when the last autosave failed (the game in memory is ahead of the file)."""
        self._states = states
        self._redo: list[list[core.Action]] = []

    # ------------------------------------------------------------ starting

    @classmethod
    def new(
        cls,
        store: SaveStore,
        seats: Sequence[SeatConfig],
        seed: int | None = None,
        name: str | None = None,
    ) -> Session:
        """A new game for ``seats`` (2..4, distinct colours), autosaved at once.

        ``seed`` None draws one at random; ``name`` None makes a fresh ``game-<time>`` name.
        Raises ``ValueError`` for impossible seats and :class:`SaveError` if the name is not
        allowed, is already taken, or the first save cannot be written (the session is
        then not returned).
        """
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        state = core.new_game(
            len(seats), seed, names=[s.name for s in seats], colours=[s.colour for s in seats]
        )
        now = store.now()
        if name is None:
            name = auto_name(now, store.names())
        elif store.path(name).exists():
            raise SaveError(f"A save named {check_name(name)!r} already exists.")
        save = SaveFile(
            format=FORMAT,
            version=VERSION,
            title=f"{', '.join(s.name for s in seats)} ({now:%d %b %Y %H:%M})",
            seed=seed,
            players=list(seats),
            actions=[],
            created=now,
            updated=now,
        )
        check_new(save)
        session = cls(store, name, save, [state])
        session.save()
        return session

    # ------------------------------------------------------------ the game

    @property
    def state(self) -> core.GameState:
        """The current position."""
        return self._states[-1]

    @property
    def path(self) -> Path:
        """The file this session autosaves to."""
        return self.store.path(self.name)

    @property
    def finished(self) -> bool:
        return core.is_over(self.state)

    def is_computer(self, seat: int | None) -> bool:
        """Whether ``seat`` is played by the computer (False for None or no such seat)."""
        return (
            seat is not None
            and 0 <= seat < len(self.seats)
            and (self.seats[seat].kind == "computer")
        )

    def seat_level(self, seat: int) -> str | None:
        """The computer level of ``seat``, None for a human."""
        return self.seats[seat].level

    def states(self) -> list[core.GameState]:
        """The state before each action, then the current one (``len(actions) + 1``)."""
        return list(self._states)

    def apply(self, action: core.Action) -> list[core.Event]:
        """Play ``action`` for the current player and autosave; returns what happened.

        ``core.IllegalActionError`` / ``MalformedActionError`` propagate and change nothing.
        A failed autosave raises :class:`SaveError` *after* the move is kept in memory
        (``unsaved`` is then True; the next successful save writes the whole log).
        Clears the redo history.
        """
        state, events = core.apply_action_with_events(self.state, action)
        self._push(action, state)
        self._redo.clear()
        self.save()
        return events

    def _push(self, action: core.Action, state: core.GameState) -> None:
        # The log first: a save started by a signal handler right here writes the log.
        self.actions.append(action)
        self._states.append(state)

    # ------------------------------------------------------------ undo and redo

    def _undo_start(self) -> int | None:
        """Where the log is cut by undo: the last human decision, with the computer
        actions after it; None when that would cross the deal of a season (which would
        reveal the region dealt) or no human decision is left."""
        index = len(self.actions)
        while index > 0:
            index -= 1
            if self._states[index + 1].season != self._states[index].season:
                return None
            if not self.is_computer(self._states[index].current_player):
                return index
        return None

    def can_undo(self) -> bool:
        return self._undo_start() is not None

    def undo(self) -> None:
        """Take back the computer actions since the last human decision, and that decision;
        autosaves. Does nothing when :meth:`can_undo` is False."""
        start = self._undo_start()
        if start is None:
            return
        self._redo.append(self.actions[start:])
        del self.actions[start:]
        del self._states[start + 1 :]
        self.save()

    def can_redo(self) -> bool:
        return bool(self._redo)

    def redo(self) -> None:
        """Play again what the last :meth:`undo` took back; autosaves. Does nothing when
        :meth:`can_redo` is False."""
        if not self._redo:
            return
        for action in self._redo.pop():
            self._push(action, core.apply_action(self.state, action))
        self.save()

    # ------------------------------------------------------------ saving

    def to_save(self) -> SaveFile:
        """The save file of the game as it stands (``updated`` is now)."""
        self.updated = self.store.now()
        return SaveFile(
            format=FORMAT,
            version=VERSION,
            title=self.title,
            seed=self.seed,
            players=list(self.seats),
            actions=list(self.actions),
            created=self.created,
            updated=self.updated,
        )

    def save(self) -> None:
        """Write the game to its file now, atomically; raises :class:`SaveError`."""
        try:
            write_atomically(self.path, encode(self.to_save()))
        except SaveError:
            self.unsaved = True
            raise
        self.unsaved = False

    def save_as(self, name: str, *, overwrite: bool = False) -> None:
        """Save under ``name`` from now on (later autosaves go there too); the title becomes
        ``name``. An automatic ``game-<time>`` file of this game is then removed, a named one
        is kept. Raises :class:`SaveError` for a bad name, for the name of another save
        (unless ``overwrite``), or if writing fails (the session keeps its old name then).
        """
        path = save_path(self.store.folder, name)
        if name != self.name and path.exists() and not overwrite:
            raise SaveError(f"A save named {name!r} already exists.", path)
        old_name, old_title = self.name, self.title
        self.name, self.title = name, name
        try:
            self.save()
        except SaveError:
            self.name, self.title = old_name, old_title
            raise
        if old_name != name and is_auto_name(old_name):
            self.store.delete(old_name, missing_ok=True)

    def __repr__(self) -> str:
        return f"<Session {self.name!r}: {len(self.actions)} actions, season {self.state.season}>"
