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
    away_since: float | None
    """Since when the player has had no connection to the server (None: they have one,
    so the lobby or a table tells them)."""
    off: bool
    """The player turned every channel off."""


def judge(
    facts: Facts, now: float, since: float, delay: float
) -> tuple[Verdict, str, float | None]:
    """(verdict, why in words, when to look again for ``wait``) for the notice of a turn
    that began at ``since``, told once it has been the player's turn for ``delay``
    seconds of which none while they were here."""
    if facts.off:
        return "drop", "the player turned notices off", None
    if not facts.turn_still:
        return "drop", "the turn has passed", None
    if facts.standin:
        return "drop", "a computer plays the seat", None
    if facts.away_since is None:
        return "wait", "the player is here", now + delay
    due = max(since, facts.away_since) + delay
    if due > now:
        return "wait", "the player left lately", due
    if facts.paused_until is not None and facts.paused_until > now:
        return "wait", "the table is paused", facts.paused_until
    return "send", "", None
