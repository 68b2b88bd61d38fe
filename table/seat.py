"""The seat: what the game screen plays a game through, wherever the game lives.

The game screen never holds a game. It holds a :class:`GameSeat` and drives it through
this small contract: the position now, the legal actions, ``play``, undo and redo, the
history, and a stream of :class:`Update` s. Two implementations exist:

- :class:`table.local.LocalSeat`: a game saved on this machine (``saves.Session``), with
  its computer players run here, hot-seat for every human seat;
- :class:`table.client.seat.RemoteSeat`: a table of the table server, which is the
  authority, this terminal deciding for its player's seat.

What only some games have is a separate interface, reached from the seat and None where
the game has no such thing, so no seat answers "not here" for what it does not have:

- :attr:`GameSeat.table`, a :class:`SharedTable`: chat, the pause, handing a seat to a
  computer, who is away, the table's journal (the remote seat; None for a local game);
- :attr:`GameSeat.elsewhere`, an :class:`OpenElsewhere`: a local game open in another
  window of this machine, which a watching window may take over (None at a shared table,
  which the server holds).

So every screen and key works the same for every game, shows the keys of a shared table
only where there is one, and no screen reaches past the seat into ``saves``, the
connection or a session's internals.

Threading: every method is called from the UI's event loop, and listeners are called
there too. :meth:`GameSeat.run` is a coroutine the screen runs for as long as it shows
the game (computer moves locally, the connection remotely); cancelling it stops any work
under way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal, Protocol

import msgspec

import core

if TYPE_CHECKING:
    from saves.format import TableLine
    from table import journal
    from table.analysis import AnalysisSource
    from table.protocol import TableInfo

UpdateKind = Literal["played", "rewound", "status"]
"""``played``: an action was applied; ``rewound``: the history changed otherwise (undo,
redo, a reconnection: the screen rebuilds what it shows from it); ``status``: only what
surrounds the game changed (a status word, the table's seats, a line of its journal)."""


class Player(msgspec.Struct, frozen=True):
    """Who sits at a seat, as the game screen shows it."""

    name: str
    colour: core.Colour
    computer: str | None = None
    """The computer's level (``easy``, ``normal``, ``hard``), None for a human."""
    away: str | None = None
    """Why the player is not here, in words ("away since 14:02"), None when present."""


class Update(msgspec.Struct, frozen=True):
    """Something that changed; ``state`` is the position after it."""

    kind: UpdateKind
    state: core.GameState
    before: core.GameState | None = None
    """The position the action was played in (``played`` only)."""
    action: core.Action | None = None
    events: Sequence[core.Event] = ()
    """What happened, in words (core's events, automatic steps included)."""
    standin: core.Level | None = None
    """The action was made by a computer standing in for the seat's player (``played``)."""
    lines: Sequence[TableLine] = ()
    """The lines of a shared table's journal this update brings (chat, "ann took back
    their last action.", a pause…), in the journal's order, after the action if any. A
    ``rewound`` update's lines are in :attr:`SharedTable.journal` already, which the
    rebuilt log reads: they are not told again."""
    note: str | None = None
    """A sentence of this seat's own for the player, not the table's ("Undone: back to
    your last decision.", "Reconnected to the table server.")."""
    problem: str | None = None
    """Something went wrong that the player must see (the autosave failed…); the update
    itself still happened."""
    refusal: str | None = None
    """The table refused a request of this terminal's, in a sentence: it says how the
    table stood, so it holds until the table changes (see :func:`changes_the_table`)."""


def changes_the_table(update: Update) -> bool:
    """Whether ``update`` changed how the game or the table stands: an action, an undo, a
    reconnection, or a line of the journal other than chat (a pause or its end, a
    hand-over, a player away or back, the end). What was said of how it stood before
    (a refusal) may no longer hold after it."""
    return update.kind != "status" or any(line.name is None for line in update.lines)


def told_beside(seat: GameSeat) -> tuple[list[TableLine], list[core.Level | None]]:
    """What the log and the replay show of a shared table's journal beside the game's
    history: its lines (chat and notes, each with its place among the moves) and, for
    each action, the computer that made it standing in for a player; nothing for a game
    of this machine."""
    from table import journal

    table = seat.table
    if table is None:
        return [], []
    entries, actions = table.journal, len(seat.history()[1])
    return journal.told_lines(entries), journal.standins(entries, actions)


class LegalActions:
    """``core.legal_actions`` of a position, computed once per position (both seats ask for
    it on every key; the position changes only with a move)."""

    def __init__(self) -> None:
        self._for: core.GameState | None = None
        self._actions: tuple[core.Action, ...] = ()

    def of(self, state: core.GameState) -> tuple[core.Action, ...]:
        if self._for is not state:
            self._for, self._actions = state, core.legal_actions(state)
        return self._actions


class SeatError(Exception):
    """The seat cannot do what was asked, for a reason that is not a rule of the game
    (the game is read-only here, it was taken over elsewhere, the save failed…).
    ``str(error)`` is one sentence a player can read."""


Listener = Callable[[Update], None]


class GameSeat(Protocol):
    """The game screen's one way to a game (see the module docstring): what every game
    has."""

    # ---------------------------------------------------------------- what it shows

    @property
    def name(self) -> str:
        """The game's short name: the save's name, or the table's."""
        ...

    @property
    def title(self) -> str:
        """The game's title, for replays and dialogs ("Ann, Ben (02 Jan 2026 03:04)")."""
        ...

    @property
    def state(self) -> core.GameState:
        """The position now. Remotely a public view: the undealt parcels' order is hidden."""
        ...

    @property
    def players(self) -> Sequence[Player]:
        """Who sits where, in seat order."""
        ...

    @property
    def status(self) -> str | None:
        """A warning for the status line (``NOT SAVED``, ``read-only``, ``reconnecting…``,
        the table's pause…), None when all is well."""
        ...

    def history(self) -> tuple[Sequence[core.GameState], Sequence[core.Action]]:
        """The states before each action then the current one, and the actions
        (``len(states) == len(actions) + 1``): for the log, summaries and replays."""
        ...

    # ---------------------------------------------------------------- playing

    def decides_here(self, seat: int | None) -> bool:
        """Whether a player at this terminal makes ``seat``'s decisions (False for None,
        for computer seats, for other players' seats at a shared table, and when watching)."""
        ...

    def legal_actions(self) -> tuple[core.Action, ...]:
        """``core.legal_actions`` of :attr:`state` (cached per position)."""
        ...

    def play(self, action: core.Action) -> None:
        """Play ``action`` for the player deciding now. Raises ``core.IllegalActionError``
        (``.reason`` in words) or :class:`SeatError`, changing nothing; on success the
        listeners hear a ``played`` update (at once locally, when acknowledged remotely)."""
        ...

    def can_undo(self) -> bool:
        """Whether :meth:`undo` would be tried now (the game's own rule of undo: at a
        shared table, the table's rule, :func:`table.rules.why_no_undo`)."""
        ...

    def undo(self) -> None:
        """Take back this terminal's last decision (raises :class:`SeatError` saying why
        not); the listeners hear a ``rewound`` update."""
        ...

    def can_redo(self) -> bool:
        """Whether an undone decision can be played again (never at a shared table, whose
        undo is a new event of its journal, not a step back in a history kept here)."""
        ...

    def redo(self) -> None:
        """Play again the last decision undone (raises :class:`SeatError` saying why not)."""
        ...

    # ---------------------------------------------------------------- keeping the game

    def save_as(self, name: str) -> str:
        """Keep the game under ``name`` (locally the game takes that name; remotely a copy
        is exported to a save file). Returns the sentence to show the player; raises
        :class:`SeatError` saying why not, changing nothing."""
        ...

    @property
    def unsaved(self) -> int:
        """How many actions played here are not yet safe on disk (or on the server)."""
        ...

    @property
    def saved_note(self) -> str:
        """Where the game is kept, in one sentence ("The game is saved as 'sunday'.")."""
        ...

    def flush(self) -> None:
        """Make what was played here safe now if the last attempt failed (never raises):
        called before the program ends on a hang-up."""
        ...

    # ---------------------------------------------------------------- the stream

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with every update from now on (in the event loop)."""
        ...

    async def run(self) -> None:
        """Drive the game while it is on screen: computer moves here, the connection
        remotely. Runs until cancelled; cancelling stops any search within 50 ms."""
        ...

    def hurry(self) -> None:
        """Skip the pause that lets players follow a computer's move (none remotely: the
        server plays its computers at its own pace)."""
        ...

    def hold(self, held: bool) -> None:
        """While held (a summary or a dialog is in front of the board), start no new
        computer move here."""
        ...

    def close(self) -> None:
        """The game is being left: stop any work and release what the seat holds."""
        ...

    # ---------------------------------------------------------------- what only some games have

    @property
    def table(self) -> SharedTable | None:
        """The shared table this game is played at (None: a game of this machine)."""
        ...

    @property
    def elsewhere(self) -> OpenElsewhere | None:
        """The game as one of this machine's windows that may hold it (None where no
        window of this machine holds it: a shared table, which the server holds)."""
        ...


class SharedTable(Protocol):
    """What only a shared table has: the table as everyone sees it, its journal, chat,
    the pause, handing a seat to a computer. Whatever it shows of the table's rules it
    asks :mod:`table.rules` (the server has the last word: the table may have changed on
    the way)."""

    @property
    def info(self) -> TableInfo:
        """The table as last told: its id, title, seats (who is away, who stands in),
        pace and pause."""
        ...

    @property
    def seats_here(self) -> frozenset[int]:
        """The seats this terminal's player has at the table (empty: watching)."""
        ...

    @property
    def journal(self) -> Sequence[journal.Any]:
        """The table's journal as far as told here, oldest first: moves and who made them,
        undo, chat, pauses, hand-overs, players away and back (see :mod:`table.journal`).
        The log and the replay read their lines (``journal.told_lines``) and stand-ins
        (``journal.standins``) from it, so every terminal shows the same."""
        ...

    def can_say(self) -> bool:
        """Whether this terminal may talk at the table now (players and spectators)."""
        ...

    def say(self, text: str) -> None:
        """Send a line of chat (the server checks and limits it); the listeners hear it
        as a line of a ``status`` update, or its refusal as the update's ``refusal``."""
        ...

    def can_pause(self) -> bool:
        """Whether pausing is a thing here: this terminal plays at a table the rules let
        it pause, leaving aside a pause under way and the one a season (``P`` is offered;
        :meth:`why_no_pause` says why it would be refused now)."""
        ...

    def why_no_pause(self) -> str | None:
        """Why a pause asked for now would be refused, in a sentence (None: it would not,
        as far as this terminal can tell)."""
        ...

    def pause(self, minutes: int) -> None:
        """Pause the table for everyone for ``minutes`` (raises :class:`SeatError`)."""
        ...

    def can_resume(self) -> bool:
        """Whether this terminal's player paused the table and the pause still runs: they
        may end it early."""
        ...

    def resume(self) -> None:
        """End this player's pause now, for everyone (raises :class:`SeatError`)."""
        ...

    def can_hand_over(self) -> bool:
        """Whether this terminal's player may hand their seat to a computer and back."""
        ...

    def hand_over(self, level: core.Level | None, seat: int | None = None) -> None:
        """A computer of ``level`` plays this terminal's seat from now on (None: the player
        takes it back), or ``seat``, an absent player's (see :meth:`absent_seats`). Raises
        :class:`SeatError` saying why not; the journal's line says it when done."""
        ...

    def absent_seats(self) -> list[tuple[int, str]]:
        """Seats (with names) this terminal may hand to a computer for an absent player
        now (:func:`table.rules.absent_seats`)."""
        ...

    @property
    def handed_to(self) -> core.Level | None:
        """The level of the computer standing in for this terminal's player, None if none."""
        ...

    def analysis(self) -> AnalysisSource:
        """Where the finished game's analysis comes from: the table server, which makes
        and keeps it (its ``kept`` may be None until a first ``run``, which is then answered
        at once from what the server keeps). Called from the event loop; a game not over
        is refused in words by ``run``."""
        ...


class OpenElsewhere(Protocol):
    """A local game that another window of this machine may be playing: this window
    only watches it then, and may take it over."""

    def can_take_over(self) -> bool:
        """Whether this window watches the game played in another one, and may take it."""
        ...

    def take_over(self) -> None:
        """Play here from now on the game another window plays (raises :class:`SeatError`
        saying why not); the listeners hear a ``rewound`` update."""
        ...
