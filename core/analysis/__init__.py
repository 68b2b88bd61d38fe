"""The computer's analysis of a finished game: every decision judged after the fact.

The whole contract::

    from core.analysis import judge, decisions, summarise, turning_points, in_words

    for index in decisions(states, actions, seats=None):    # the decisions worth judging
        j = judge(states[index], actions[index], index, seed=7)  # a Judgement (or None if stopped)
    summarise(judgements, seat)   # mean loss, mistakes, blunders
    turning_points(judgements)    # the largest losses, largest first
    in_words(states, j, viewer=seat)  # "Season 2, your third turn: you extended ..."

A judgement is in **expected final margin**: the deciding player's final score minus the
best opponent's, in points, averaged over simulations that redeal the parcels nobody had
seen (never the game's real deck order: :func:`core.public_view`), or computed exactly when
nothing remains hidden and the rest of the game is small enough (:mod:`core.analysis.exact`).
Everything is deterministic for a seed, and pure: no processes, no clock (the caller runs
decisions in parallel and keeps the result; see ``table/analysis.py``).
"""

from typing import TYPE_CHECKING, Any

from core.analysis.records import ANALYSIS_VERSION, Analysis, Judgement, decisions

if TYPE_CHECKING:
    from core.analysis.judging import SIMULATIONS, judge
    from core.analysis.report import (
        BLUNDER,
        MISTAKE,
        PlayerSummary,
        in_words,
        summarise,
        turning_points,
    )

_LATER = {
    "SIMULATIONS": "core.analysis.judging",
    "judge": "core.analysis.judging",
    **dict.fromkeys(
        ("BLUNDER", "MISTAKE", "PlayerSummary", "in_words", "summarise", "turning_points"),
        "core.analysis.report",
    ),
}
"""What is imported at first use (PEP 562): the records are decoded with every saved game,
the judge and its report only when a game is analysed (their imports are the hard
computer's search)."""


def __getattr__(name: str) -> Any:
    import importlib

    if name not in _LATER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(_LATER[name])
    # Bound here once loaded (the judge lives in ``judging``, not ``judge``: a submodule
    # named like the function would take its name here whenever imported directly).
    globals().update({later: getattr(module, later) for later, where in _LATER.items()
                      if where == module.__name__})  # fmt: skip
    return globals()[name]


__all__ = [
    "ANALYSIS_VERSION",
    "BLUNDER",
    "MISTAKE",
    "SIMULATIONS",
    "Analysis",
    "Judgement",
    "PlayerSummary",
    "decisions",
    "in_words",
    "judge",
    "summarise",
    "turning_points",
]
