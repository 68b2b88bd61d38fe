"""The seat: what the game screen plays a game through, wherever the game lives.

The game screen never holds a game. It holds a :class:`GameSeat` and drives it through
this small contract: the position now, the legal actions, ``play``, undo and redo, the
history, and a stream of :class:`Update` s. Two implementations exist:

- :class:`table.local.LocalSeat`: a game saved on this machine (``saves.Session``), with
  its computer players run here, hot-seat for every human seat;
- the remote table of the table server (a later addition), where the server is the
  authority and this terminal decides for one seat.

So every screen and key works the same in both, and no screen reaches past the seat into
``saves`` or a session's internals.

Threading: every method is called from the UI's event loop, and listeners are called
there too. :meth:`GameSeat.run` is a coroutine the screen runs for as long as it shows
the game (computer moves locally, the connection remotely); cancelling it stops any work
under way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

import msgspec

import core

UpdateKind = Literal["played", "rewound", "status"]
"""``played``: an action was applied; ``rewound``: undo or redo changed the history (the
screen rebuilds what it shows from it); ``status``: only a status word changed."""


class ChatLine(msgspec.Struct, frozen=True):
    """One line of a table's chat, as stored with the game and sent to its players."""

    at: float
    name: str
    text: str
    spectator: bool = False
    """Said by someone watching the table, not playing at it."""
    seq: int | None = None
    """How many actions had been played when it was said: its place in the log, the same
    for everyone (None: not known, it follows the moves)."""


@dataclass(frozen=True, slots=True)
class Player:
    """Who sits at a seat, as the game screen shows it."""

    name: str
    colour: core.Colour
    computer: str | None = None
    """The computer's level (``easy``, ``normal``, ``hard``), None for a human."""
    away: str | None = None
    """Why the player is not here, in words ("away since 14:02"), None when present."""


@dataclass(frozen=True, slots=True)
class Update:
    """Something that changed at the table; ``state`` is the position after it."""

    kind: UpdateKind
    state: core.GameState
    before: core.GameState | None = None
    """The position the action was played in (``played`` only)."""
    action: core.Action | None = None
    events: Sequence[core.Event] = field(default_factory=tuple)
    """What happened, in words (core's events, automatic steps included)."""
    note: str | None = None
    """A sentence for the player ("Undone: back to your last decision.")."""
    problem: str | None = None
    """Something went wrong that the player must see (the autosave failed…); the update
    itself still happened."""
    chat: ChatLine | None = None
    """A line of the table's chat was said (``status`` only)."""
    standin: core.Level | None = None
    """The action was made by a computer standing in for the seat's player (``played``)."""


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
    """The game screen's one way to a game (see the module docstring)."""

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
        """A warning for the status line (``NOT SAVED``, ``read-only``…), None when all is
        well."""
        ...

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

    def can_undo(self) -> bool: ...

    def undo(self) -> None:
        """Take back this terminal's last decision (raises :class:`SeatError` saying why
        not); the listeners hear a ``rewound`` update."""
        ...

    def can_redo(self) -> bool: ...

    def redo(self) -> None: ...

    def save_as(self, name: str) -> str:
        """Keep the game under ``name`` (locally the game takes that name; remotely a copy
        is exported to a save file). Returns the sentence to show the player; raises
        :class:`SeatError` saying why not, changing nothing."""
        ...

    @property
    def unsaved(self) -> int:
        """How many actions played here are not yet safe on disk (or on the server)."""
        ...

    def can_take_over(self) -> bool:
        """Whether this terminal, now only watching, may take the game over (a local game
        open in another window); False everywhere else."""
        ...

    def take_over(self) -> None:
        """Play here from now on the game another window plays (raises :class:`SeatError`
        saying why not); the listeners hear a ``rewound`` update."""
        ...

    @property
    def handed_to(self) -> str | None:
        """The level of the computer standing in for this terminal's player, None if none."""
        ...

    @property
    def chat(self) -> Sequence[ChatLine]:
        """The table's chat so far, oldest first (empty for a local game)."""
        ...

    @property
    def standins(self) -> Sequence[core.Level | None]:
        """For each action of :meth:`history`, the computer that made it standing in for
        the seat's player (None: the seat's own player or computer); empty when none did
        (always, in a local game)."""
        ...

    def can_say(self) -> bool:
        """Whether this terminal may talk at the table (players and spectators)."""
        ...

    def say(self, text: str) -> None:
        """Send a line of chat (the server checks and limits it); the listeners hear it as
        a ``status`` update with ``chat``, or its refusal as a ``problem``."""
        ...

    def can_hand_over(self) -> bool:
        """Whether this terminal's player may hand their seat to a computer and back (at a
        shared table; a local game changes its seats in the new-game form)."""
        ...

    def hand_over(self, level: core.Level | None, seat: int | None = None) -> None:
        """A computer of ``level`` plays this terminal's seat from now on (None: the player
        takes it back), or ``seat``, an absent player's (see :meth:`absent_seats`). Raises
        :class:`SeatError` saying why not; the listeners hear a ``status`` update whose
        note says it."""
        ...

    def absent_seats(self) -> list[tuple[int, str]]:
        """Seats (with names) this terminal may hand to a computer for an absent player:
        at a live table, those away longer than its wait."""
        ...

    def can_pause(self) -> bool:
        """Whether this terminal may pause the table for everyone (a live shared table)."""
        ...

    def why_no_pause(self) -> str | None:
        """Why a pause asked for now would be refused, in a sentence (None: it would not,
        as far as this terminal can tell; the server has the last word)."""
        ...

    def pause(self, minutes: int) -> None:
        """Pause the table for everyone for ``minutes`` (raises :class:`SeatError`)."""
        ...

    def can_resume(self) -> bool:
        """Whether this terminal's player paused the table and the pause still runs: they
        may end it early."""
        ...

    def resume(self) -> None:
        """End this player's pause now, for everyone (raises :class:`SeatError`); the
        listeners hear a ``status`` update whose note says it."""
        ...

    @property
    def saved_note(self) -> str:
        """Where the game is kept, in one sentence ("The game is saved as 'sunday'.")."""
        ...

    def flush(self) -> None:
        """Make what was played here safe now if the last attempt failed (never raises):
        called before the program ends on a hang-up."""
        ...

    def history(self) -> tuple[Sequence[core.GameState], Sequence[core.Action]]:
        """The states before each action then the current one, and the actions
        (``len(states) == len(actions) + 1``): for the log, summaries and replays."""
        ...

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with every update from now on (in the event loop)."""
        ...

    async def run(self) -> None:
        """Drive the game while it is on screen: computer moves here, the connection
        remotely. Runs until cancelled; cancelling stops any search within 50 ms."""
        ...

    def hurry(self) -> None:
        """Skip the pause that lets players follow a computer's move."""
        ...

    def hold(self, held: bool) -> None:
        """While held (a summary or a dialog is in front of the board), start no new
        computer move here."""
        ...

    def close(self) -> None:
        """The game is being left: stop any work and release what the seat holds."""
        ...
