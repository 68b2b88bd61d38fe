"""A game being played or watched: its seats, its action log, and the file it is saved to.

:class:`Session` is what the terminal game holds. A session that *plays* holds its game's
lock (:mod:`saves.lock`) from the moment it is made (:meth:`Session.new`,
``SaveStore.open``, ``SaveStore.take_over``) until :meth:`Session.close`. Every action goes
through :meth:`Session.apply`, which checks it with ``core``, appends it to the log and
autosaves at once (temp file, fsync, ``os.replace``), so a crash or a dropped connection
loses at most the action being typed. Undo and redo work on the log and are autosaved too.

A session that *watches* (``SaveStore.watch``), or that another process took over, is
read-only: every change raises :class:`ReadOnly` (or :class:`TakenOver`) and changes
nothing; :meth:`Session.refresh` follows the file as its holder plays on.

Saving from a signal handler is safe: the write lock is re-entrant and each write uses its
own temporary file, so a save started in the handler while another is half-written
completes on its own. The recommended SIGHUP/SIGTERM handler is ``session.save()`` then
``raise SystemExit``.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import core
from core.analysis import Analysis
from core.levels import Level
from saves import lock
from saves.analysis import check_analysis, keep_in_file, kept_analysis, merged
from saves.atomic import Exists, write_atomically
from saves.errors import GameOpenElsewhere, ReadOnly, SaveError, TakenOver, write_error
from saves.format import (
    FORMAT,
    VERSION,
    SaveFile,
    SeatConfig,
    TableLine,
    check_new,
    encode,
    places,
)
from saves.names import auto_name, check_name, save_path
from saves.replay import deck_of

if TYPE_CHECKING:
    from saves.store import FileKey, SaveStore

MAX_NAME_TRIES = 1000
"""Fresh names tried for a new game before giving up (another process takes each one)."""


class _Hold:
    """The claim a session holds, released once: by :meth:`Session.close`, or when the
    session is garbage-collected (the kernel releases it if the process dies)."""

    def __init__(self, claim: lock.Claim | None) -> None:
        self.claim = claim

    def release(self, *, keep_file: bool = False) -> None:
        claim, self.claim = self.claim, None
        if claim is not None:
            lock.release(claim, keep_file=keep_file)


class Session:
    """One game and its save file. Build it with :meth:`new` or the ``SaveStore``
    methods ``open``, ``watch`` and ``take_over``."""

    def __init__(
        self,
        store: SaveStore,
        name: str,
        save: SaveFile,
        states: list[core.GameState],
        *,
        claim: lock.Claim | None = None,
        file_key: FileKey | None = None,
        watching: str | None = None,
        lock_problem: str | None = None,
        analysis_problem: str | None = None,
    ) -> None:
        """Internal: use :meth:`new` or the ``SaveStore`` methods. ``states`` must be the
        replay of ``save`` (one more than its actions); ``file_key`` identifies the file
        as read; ``watching`` (why the session is read-only) makes it read-only;
        ``analysis_problem`` why the file's analysis did not decode (it is left out)."""
        self.store = store
        self.name = name
        """The save's file stem in the store's folder."""
        self.unsaved = False
        """True when the last autosave failed (the game in memory is ahead of the file)."""
        self.read_only = watching is not None
        """True when this session only watches its game (it never writes)."""
        self.read_only_reason: str | None = watching
        """Why the session is read-only, as a sentence; None while it plays."""
        self.lock_problem = lock_problem
        """Why the game could not be locked (e.g. a read-only save folder): moves are
        played on but not saved until the lock can be taken."""
        self._hold = _Hold(claim)
        weakref.finalize(self, self._hold.release)
        self._taken: TakenOver | None = None
        self._redo: list[tuple[list[core.Action], int]] = []
        """What each undo took back, and how many of the table's actions there were."""
        self._take_file(save, states, file_key, analysis_problem)

    def _take_file(
        self,
        save: SaveFile,
        states: list[core.GameState],
        file_key: FileKey | None,
        analysis_problem: str | None = None,
    ) -> None:
        """Make the game in memory the one in ``save`` (as read from the file)."""
        self.title = save.title
        self.seats: list[SeatConfig] = list(save.players)
        self.seed = save.seed
        self.deal = save.deal
        """The game's deal when its seed must not say it (an exported shared game)."""
        self.cards = save.cards
        """The cards file (TOML) the game is played with; None: the built-in deck."""
        core.use_cards(deck_of(self.path, save))  # the game on show is played with its cards
        self.created = save.created
        self.updated = save.updated
        self.actions: list[core.Action] = list(save.actions)
        self._states = states
        self._on_disk: list[core.Action] = list(save.actions)
        self._file_key = file_key
        self._table_lines = list(
            zip(places(save.lines, len(save.actions)), save.lines, strict=True)
        )
        """The table's lines, each with the number of actions it shows after."""
        self._table_standins: list[Level | None] = list(save.standins)
        self._table_actions = len(save.actions)
        """How many of the first actions are still the ones the table's lines and
        stand-ins speak of (an exported shared game): an undo past them takes them back
        with it; the moves played here have none."""
        self._analysis, self.analysis_problem = kept_analysis(
            self.path, save, states, analysis_problem
        )
        """The analysis kept in the file, and why it was left out when it did not fit the
        game (a sentence to show; see :mod:`saves.analysis`)."""
        self._analysed = list(save.actions)
        """The moves the analysis is of: it is kept only while they are the game's."""

    # ------------------------------------------------------------ starting

    @classmethod
    def new(
        cls,
        store: SaveStore,
        seats: Sequence[SeatConfig],
        seed: int | None = None,
        name: str | None = None,
        cards: str | None = None,
    ) -> Session:
        """A new game for ``seats`` (2..4, distinct colours), autosaved at once and held
        (its lock taken) until :meth:`close`; ``cards`` a cards file's text to play with
        instead of the built-in deck (``ValueError`` saying what is wrong with it).

        ``seed`` None draws one at random; ``name`` None makes a fresh ``game-<time>`` name
        (the next free one if another process takes it at the same moment). Raises
        ``ValueError`` for impossible seats and :class:`SaveError` if the name is not
        allowed, is already taken, or the first save cannot be written (the session is
        then not returned).
        """
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        deck = core.DEFAULT_CARDS if cards is None else core.parse_cards(cards)
        with core.cards_in_use(deck):
            state = core.new_game(
                len(seats), seed, names=[s.name for s in seats], colours=[s.colour for s in seats]
            )
        now = store.now()
        save = SaveFile(
            format=FORMAT,
            version=VERSION,
            title=f"{', '.join(s.name for s in seats)} ({now:%d %b %Y %H:%M})",
            seed=seed,
            players=list(seats),
            actions=[],
            created=now,
            updated=now,
            cards=cards,
        )
        check_new(save)
        candidates = _fresh_names(store, now) if name is None else iter([check_name(name)])
        return cls._create(store, save, state, candidates, chosen=name is not None)

    @classmethod
    def adopt(cls, store: SaveStore, data: bytes, name: str) -> Session:
        """Keep a game made elsewhere (a shared table's export, in save-file ``data``) as a
        new save ``name``, held like a new game. Raises :class:`SaveError` naming the file
        for data that is not a valid game, or a name that is bad or taken."""
        from saves.format import decode
        from saves.replay import replay

        path = store.path(check_name(name))
        save = decode(path, data)
        states = replay(path, save)
        return cls._create(store, save, states, iter([name]), chosen=True)

    @classmethod
    def _create(
        cls,
        store: SaveStore,
        save: SaveFile,
        state: core.GameState | list[core.GameState],
        candidates: Iterator[str],
        chosen: bool,
    ) -> Session:
        """The session of ``save`` under the first of ``candidates`` that can be claimed
        and created exclusively; a chosen name that is taken is an error."""
        for candidate in candidates:
            try:
                with lock.writing(store.folder):
                    session = cls._try_create(store, candidate, save, state)
            except lock.CannotLock as exc:
                raise write_error(store.path(candidate), exc.problem) from None
            if session is not None:
                return session
            if chosen:
                break
        raise SaveError(f"A save named {candidate!r} already exists.", store.path(candidate))

    @classmethod
    def _try_create(
        cls,
        store: SaveStore,
        name: str,
        save: SaveFile,
        state: core.GameState | list[core.GameState],
    ) -> Session | None:
        """Claim ``name`` and write ``save`` (whose positions are ``state``: the start, or
        all of them) there exclusively; None if the name is taken."""
        try:
            claim = lock.claim(store.folder, name)
        except GameOpenElsewhere:
            return None
        states = state if isinstance(state, list) else [state]
        session = cls(store, name, save, states, claim=claim)
        try:
            session._write(exclusive=True)
        except Exists:
            session.close()
            return None
        except SaveError:
            session.close()
            raise
        return session

    # ------------------------------------------------------------ the game

    @property
    def state(self) -> core.GameState:
        """The current position."""
        return self._states[-1]

    @property
    def path(self) -> Path:
        """The file this session saves to (or watches)."""
        return self.store.path(self.name)

    @property
    def finished(self) -> bool:
        return core.is_over(self.state)

    @property
    def holds_lock(self) -> bool:
        """Whether this session holds its game's lock (it may be stale: another process
        may have taken the game over since; the next change finds out)."""
        return self._hold.claim is not None

    @property
    def unsaved_moves(self) -> int:
        """How many actions of the log in memory the file does not hold (0 when saved;
        an undo that could not be saved leaves ``unsaved`` True with 0 here)."""
        common = 0
        for mine, saved in zip(self.actions, self._on_disk, strict=False):
            if mine != saved:
                break
            common += 1
        return len(self.actions) - common

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

    @property
    def lines(self) -> list[TableLine]:
        """A shared table's journal as its players saw it (an exported game; empty for a
        game played here), but for those said after an action taken back here."""
        kept = self._table_actions
        return [line for place, line in self._table_lines if place <= kept]

    @property
    def standins(self) -> list[Level | None]:
        """For each action, the computer that made it standing in for its player at a
        shared table (None for the rest, and every move played here); empty when none
        did."""
        made = self._table_standins[: self._table_actions]
        if not any(made):
            return []
        return made + [None] * (len(self.actions) - len(made))

    @property
    def analysis(self) -> Analysis | None:
        """The computer's analysis kept with the game (checked against it on load), or
        None; an undo of the finished game leaves it behind (it judged other moves)."""
        return self._analysis if self.actions == self._analysed else None

    def keep_analysis(self, analysis: Analysis) -> Analysis:
        """Keep ``analysis`` of the finished game with it, merged with the one kept (see
        ``saves.analysis.merged``), and return what is kept now. The moves are never
        changed: a session that plays writes its own log as always (``updated`` stays);
        a read-only one writes the file's own moves back, and only if they are still the
        ones in this session (``saves.analysis.keep_in_file``).

        Raises ``ValueError`` when ``analysis`` is not of this finished game, and
        :class:`SaveError` when it cannot be written (a session that plays then keeps it
        in memory, ``unsaved``, for its next save)."""
        check_analysis(analysis, self.actions, self._states)
        if not self.read_only and self._hold.claim is not None:
            try:
                with lock.writing(self.store.folder):
                    self._check_holder()
                    return self._keep_here(analysis)
            except lock.CannotLock as exc:
                raise write_error(self.path, exc.problem) from None
            except TakenOver:
                pass  # the other window plays it now: keep it in the file as a watcher
        kept = keep_in_file(self.path, analysis, self.actions, save_folder=True)
        self._analysis, self._analysed = kept, list(self.actions)
        return kept

    def _keep_here(self, analysis: Analysis) -> Analysis:
        """As the game's holder, under the write lock: keep and write it."""
        kept = merged(self.analysis, analysis, self.actions, self._states)
        self._analysis, self._analysed = kept, list(self.actions)
        self._write(touch=False)
        return kept

    def states(self) -> list[core.GameState]:
        """The state before each action, then the current one (``len(actions) + 1``)."""
        return list(self._states)

    def apply(self, action: core.Action) -> list[core.Event]:
        """Play ``action`` for the current player and autosave; returns what happened.

        ``core.IllegalActionError`` / ``MalformedActionError`` propagate and change nothing;
        so do :class:`ReadOnly` (a watching session) and :class:`TakenOver` (another
        process took the game: the session is read-only from then on). A failed autosave
        raises :class:`SaveError` *after* the move is kept in memory (``unsaved`` is then
        True; the next successful save writes the whole log). Clears the redo history.
        """
        self._refuse_if_read_only()
        state, events = core.apply_action_with_events(self.state, action)

        def play() -> None:
            self._push(action, state)
            self._redo.clear()

        self._commit(play)
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
        return not self.read_only and self._undo_start() is not None

    def undo(self) -> None:
        """Take back the computer actions since the last human decision, and that decision;
        autosaves. Does nothing when :meth:`can_undo` is False (a read-only session raises
        :class:`ReadOnly`)."""
        self._refuse_if_read_only()
        start = self._undo_start()
        if start is None:
            return

        def take_back() -> None:
            self._redo.append((self.actions[start:], self._table_actions))
            del self.actions[start:]
            del self._states[start + 1 :]
            self._table_actions = min(self._table_actions, start)

        self._commit(take_back)

    def can_redo(self) -> bool:
        return not self.read_only and bool(self._redo)

    def redo(self) -> None:
        """Play again what the last :meth:`undo` took back; autosaves. Does nothing when
        :meth:`can_redo` is False (a read-only session raises :class:`ReadOnly`)."""
        self._refuse_if_read_only()
        if not self._redo:
            return

        def play_again() -> None:
            actions, self._table_actions = self._redo.pop()
            for action in actions:
                self._push(action, core.apply_action(self.state, action))

        self._commit(play_again)

    # ------------------------------------------------------------ saving

    def to_save(self, *, touch: bool = True) -> SaveFile:
        """The save file of the game as it stands (``updated`` is now, if ``touch``)."""
        if touch:
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
            deal=self.deal,
            cards=self.cards,
            lines=self.lines,
            standins=self.standins,
            analysis=self.analysis,
        )

    def save(self) -> None:
        """Write the game to its file now, atomically; raises :class:`SaveError`
        (:class:`ReadOnly` for a session that does not hold its game)."""
        self._commit(lambda: None)

    def _commit(self, change: Callable[[], None]) -> None:
        """Make ``change`` to the game in memory, then write it, as the game's holder.

        Taken over: :class:`TakenOver` before anything changes. The game cannot be locked
        (read-only folder, ...): the change is kept in memory, not saved (SaveError).
        """
        self._refuse_if_read_only()
        try:
            with lock.writing(self.store.folder):
                self._check_holder()
                change()
                self._write()
        except lock.CannotLock as exc:
            change()
            self.unsaved = True
            self.lock_problem = exc.problem
            raise write_error(self.path, exc.problem) from None

    def _write(self, *, exclusive: bool = False, touch: bool = True) -> None:
        """Write the log (the caller holds the game and the write lock)."""
        if not exclusive:
            self._take_kept_analysis()
        try:
            write_atomically(self.path, encode(self.to_save(touch=touch)), exclusive=exclusive)
        except SaveError:
            self.unsaved = True
            raise
        self.unsaved = False
        self._on_disk = list(self.actions)
        self._file_key = self.store.file_key(self.name)

    def _take_kept_analysis(self) -> None:
        """Under the write lock, before writing a finished game: an analysis that another
        process kept in the file since this session last wrote it (``mykerinos analyse``,
        a replay's ``keep_analysis``) is taken in, when it is of these very moves, so that
        this write does not drop it. Only when the file changed: a cheap check."""
        if not self.finished or self.store.file_key(self.name) == self._file_key:
            return
        try:
            save, states, _, problem = self.store.read_noted(self.name)
        except SaveError:
            return  # the write replaces it with the game in memory, as always
        analysis, _ = kept_analysis(self.path, save, states, problem)
        if analysis is not None and save.actions == self.actions:
            self._analysis = merged(self.analysis, analysis, self.actions, self._states)
            self._analysed = list(self.actions)

    def _check_holder(self) -> None:
        """Under the write lock: raise :class:`TakenOver` unless this session still holds
        its game. A session that could not lock its game tries again now, and gives up
        the game if the file changed meanwhile (someone else saved it)."""
        claim = self._hold.claim
        if claim is None:
            self._claim_late()
        elif not lock.owns(claim):
            holder = lock.holder_at(self.store.folder, self.name)
            verb = "deleted" if holder is not None and holder.deleted else "taken over"
            where = holder.describe().replace(" since ", " at ", 1) if holder else "elsewhere"
            self._give_up(f"The game {self.name!r} was {verb} {where}", holder)

    def _claim_late(self) -> None:
        try:
            self._hold.claim = lock.claim(self.store.folder, self.name)
        except GameOpenElsewhere as exc:
            self._give_up(str(exc).rstrip("."), exc.holder)
        self.lock_problem = None
        if self.store.file_key(self.name) != self._file_key:
            self._give_up(f"The game {self.name!r} was saved in another window meanwhile", None)

    def _give_up(self, what: str, holder: lock.Holder | None) -> None:
        """Become read-only for good, and refuse the change asked (raise TakenOver)."""
        self._hold.release(keep_file=True)
        self.read_only = True
        self.read_only_reason = f"{what}; this window only watches it now."
        self._taken = TakenOver(self.read_only_reason, self.path, holder)
        raise self._taken

    def _refuse_if_read_only(self) -> None:
        if self._taken is not None:
            raise TakenOver(str(self._taken), self.path, self._taken.holder)
        if self.read_only:
            raise ReadOnly(f"{self.read_only_reason} Nothing was changed.", self.path)

    def save_as(self, name: str, *, overwrite: bool = False) -> None:
        """Rename the game: save it under ``name`` from now on (later autosaves go there too),
        the title becomes ``name``, and the file under its old name is removed, so one game
        is one file (saving as again and again left a trail of copies). Raises
        :class:`SaveError` for a bad name, for the name of another save (unless
        ``overwrite``), for a game open in another process
        (:class:`GameOpenElsewhere`), or if writing fails (the session keeps its old name
        then); :class:`ReadOnly` for a session that does not hold its game.
        """
        self._refuse_if_read_only()
        path = save_path(self.store.folder, name)
        if name == self.name:
            self._commit(lambda: setattr(self, "title", name))
            return
        try:
            with lock.writing(self.store.folder):
                self._check_holder()
                old_name = self._move_to(name, overwrite)
        except lock.CannotLock as exc:
            raise write_error(path, exc.problem) from None
        self.store.delete(old_name, missing_ok=True)

    def _move_to(self, name: str, overwrite: bool) -> str:
        """Claim ``name``, write the game there, let go of the old name; returns it."""
        new_claim = lock.claim(self.store.folder, name)
        old = (self.name, self.title, self._hold.claim)
        self.name, self.title, self._hold.claim = name, name, new_claim
        try:
            self._write(exclusive=not overwrite)
        except SaveError:
            self.name, self.title, self._hold.claim = old
            lock.release(new_claim)
            raise
        if old[2] is not None:
            lock.release(old[2])
        return old[0]

    # ------------------------------------------------------------ watching

    def refresh(self) -> bool:
        """For a read-only session: read the file again if it changed (cheap when its
        time, size and inode are the same); returns whether the game changed. Raises
        :class:`SaveError` if the file no longer loads (the session is then unchanged).
        A playing session is the only writer of its file: False."""
        if not self.read_only:
            return False
        key = self.store.file_key(self.name)
        if key == self._file_key:
            return False
        save, states, key, left_out = self.store.read_noted(self.name)
        changed = save.actions != self.actions or list(save.players) != self.seats
        self._take_file(save, states, key, left_out)
        self._redo.clear()
        return changed

    def close(self) -> None:
        """Let go of the game (its lock is released; the file stays as last saved). The
        session is read-only afterwards. Safe to call more than once."""
        self._hold.release()
        if not self.read_only:
            self.read_only = True
            self.read_only_reason = f"The game {self.name!r} was closed in this window."

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        mode = " (read-only)" if self.read_only else ""
        return (
            f"<Session {self.name!r}{mode}: {len(self.actions)} actions, "
            f"season {self.state.season}>"
        )


def _fresh_names(store: SaveStore, now: datetime) -> Iterator[str]:
    """Names for a new game started at ``now``: ``game-<time>``, then ``-2``, ``-3``...,
    skipping the names in the folder (another process may still take one first)."""
    taken = store.names()
    for _ in range(MAX_NAME_TRIES):
        name = auto_name(now, taken)
        taken.add(name)
        yield name
