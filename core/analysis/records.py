"""What an analysis keeps, and which actions were decisions: everything of the analysis
that needs no search (:mod:`core.analysis.judging` does the judging).

Apart because saves and the table's store decode analyses with every game they load, and
the judge's imports (the hard computer's search) cost a start of the game 10 ms it never
needs (issue 29).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Annotated, Final

import msgspec

from core.actions import Action
from core.moves import legal_codes
from core.state import GameState

ANALYSIS_VERSION: Final = 2
"""Bumped whenever a judgement would come out differently: a kept analysis of another
version is made again rather than mixed with new judgements. (2: simulations stop at the
end of the decision's season; candidates with the same effect share one value; an exact
search is tried only when it can fit.)"""
_Margin = Annotated[float, msgspec.Meta(ge=-1000.0, le=1000.0)]
_Notation = Annotated[str, msgspec.Meta(max_length=40)]
_Seat = Annotated[int, msgspec.Meta(ge=0, le=3)]


class Judgement(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One decision judged. Values are expected final margins of the deciding ``seat``."""

    index: Annotated[int, msgspec.Meta(ge=0)]
    """The action's 0-based position in the game's action log."""
    season: Annotated[int, msgspec.Meta(ge=1, le=4)]
    seat: _Seat
    played: _Notation
    """What was played, in :func:`core.format_action`'s notation."""
    best: _Notation
    """The best candidate (``played`` when nothing was better)."""
    loss: Annotated[float, msgspec.Meta(ge=0.0, le=2000.0)]
    """``values[best] - values[played]``."""
    values: Annotated[dict[_Notation, _Margin], msgspec.Meta(max_length=64)]
    """Each candidate judged (at least ``played`` and ``best``), by notation."""
    margins: Annotated[tuple[_Margin, ...], msgspec.Meta(min_length=2, max_length=4)]
    """Every seat's expected final margin after the played action (for the chart)."""
    exact: bool
    """Searched exactly to the end of the game (nothing hidden remained)."""


class Analysis(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A game's analysis as kept with it (in a save file, in a table's export)."""

    version: int
    """The :data:`ANALYSIS_VERSION` that made it."""
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
    seats: Annotated[tuple[_Seat, ...], msgspec.Meta(max_length=4)]
    """Whose decisions were asked for."""
    decisions: Annotated[tuple[Judgement, ...], msgspec.Meta(max_length=4000)]
    """The decisions judged so far, in the game's order."""
    complete: bool
    """Every decision of ``seats`` is judged (False: it was stopped part-way)."""


def decisions(
    states: Sequence[GameState], actions: Sequence[Action], seats: Collection[int] | None = None
) -> list[int]:
    """The indexes of the actions that were decisions of ``seats`` (everyone by default):
    those played where more than one action was legal."""
    return [
        index
        for index, state in enumerate(states[: len(actions)])
        if (seats is None or state.current in seats) and len(legal_codes(state)) > 1
    ]
