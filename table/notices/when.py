"""Whether a due notice goes now, waits, or is dropped: decided from what the server
knows of the table and the player at the moment of sending (the outbox row was written
when the turn began; much may have happened since).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Verdict = Literal["send", "wait", "drop"]


@dataclass(frozen=True)
class Facts:
    """The table and the player as they are now, for one notice (of turn ``seq``)."""

    turn_still: bool
    """The table stands where the notice's turn began, and it is still the player's."""
    standin: bool
    """A computer plays the seat for them."""
    paused_until: float | None
    """The end of the pause under way (None: none)."""
    looking: bool
    """The player has a connection to the server (the lobby or a table tells them)."""
    off: bool
    """The player turned every channel off."""


def judge(facts: Facts) -> tuple[Verdict, str, float | None]:
    """(verdict, why in words, when to look again for ``wait``)."""
    if facts.off:
        return "drop", "the player turned notices off", None
    if not facts.turn_still:
        return "drop", "the turn has passed", None
    if facts.standin:
        return "drop", "a computer plays the seat", None
    if facts.looking:
        return "drop", "the player is here", None
    if facts.paused_until is not None:
        return "wait", "the table is paused", facts.paused_until
    return "send", "", None
