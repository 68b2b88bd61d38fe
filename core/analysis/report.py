"""An analysis told: each player's summary, the turning points, a decision in words."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import msgspec

from core.actions import Action, parse_action, to_code
from core.analysis.records import Judgement
from core.explain import describe_code
from core.state import GameState, Phase

MISTAKE: Final = 2.0
"""Points of expected margin lost: a decision losing at least this much is a mistake.

Set above the noise of a judgement: the same decisions judged with two seeds
(``bench/bench_analysis.py``: 387 decisions of 10 games of normal players) differ in
loss by 0.01 point (median), 0.66 (95th percentile), 0.95 (99th) and 1.39 at most, so no
decision was a mistake by one seed and under half of one by the other."""
BLUNDER: Final = 5.0
"""Points of expected margin lost: a decision losing at least this much is a blunder
(more than three times the largest difference two seeds made, above)."""
TURNING_POINTS: Final = 3


class PlayerSummary(msgspec.Struct, frozen=True):
    """One player's decisions, summed up."""

    seat: int
    decisions: int
    mean_loss: float
    """Average points of expected margin lost per decision."""
    mistakes: int
    """Decisions losing at least :data:`MISTAKE` points but less than :data:`BLUNDER`."""
    blunders: int
    """Decisions losing at least :data:`BLUNDER` points."""


def summarise(judgements: Iterable[Judgement], seat: int) -> PlayerSummary:
    """The summary of ``seat``'s judged decisions (zeros when none was judged)."""
    losses = [j.loss for j in judgements if j.seat == seat]
    return PlayerSummary(
        seat=seat,
        decisions=len(losses),
        mean_loss=round(sum(losses) / len(losses), 2) if losses else 0.0,
        mistakes=sum(1 for loss in losses if MISTAKE <= loss < BLUNDER),
        blunders=sum(1 for loss in losses if loss >= BLUNDER),
    )


def turning_points(
    judgements: Iterable[Judgement], seat: int | None = None, count: int = TURNING_POINTS
) -> list[Judgement]:
    """The ``count`` decisions (of ``seat``, or anyone's) that lost the most, largest loss
    first (the earlier first among equals); decisions that lost nothing are not turning
    points."""
    chosen = [j for j in judgements if j.loss > 0 and (seat is None or j.seat == seat)]
    chosen.sort(key=lambda j: (-j.loss, j.index))
    return chosen[:count]


def severity(judgement: Judgement) -> str:
    """``blunder``, ``mistake`` or the empty string."""
    if judgement.loss >= BLUNDER:
        return "blunder"
    return "mistake" if judgement.loss >= MISTAKE else ""


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")  # fmt: skip
_VERBS = {
    "starts": ("started", "starting"),
    "extends": ("extended", "extending"),
    "excavates": ("excavated", "excavating"),
    "passes": ("passed", "passing"),
    "appeals": ("appealed", "appealing"),
    "places": ("placed", "placing"),
    "takes": ("took", "taking"),
    "gives": ("gave", "giving"),
    "books": ("booked", "booking"),
}
"""The verbs of :func:`core.explain.describe_code`'s sentences: past, gerund."""
_PAST, _GERUND = 0, 1


def ordinal(number: int) -> str:
    """``1`` → ``first`` … ``10`` → ``tenth``, then ``11th``, ``12th``…"""
    if number <= len(_ORDINALS):
        return _ORDINALS[number - 1]
    teens = 10 <= number % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _conjugated(state: GameState, action: Action, form: int) -> str:
    """The action's words without their subject, every verb of the sentence (the first,
    and one after "and": "appealed to Lady Violet (+1 cube) and extended onto c3, c4") in
    the past (``_PAST``) or as a gerund (``_GERUND``)."""
    words = describe_code(state, to_code(action)).removeprefix("{} ").split(" ")
    for at, word in enumerate(words):
        if (at == 0 or words[at - 1] == "and") and word in _VERBS:
            words[at] = _VERBS[word][form]
    return " ".join(words)


def moment(states: Sequence[GameState], judgement: Judgement, viewer: int | None = None) -> str:
    """When the decision was taken: ``Season 2, your third turn`` (``ann's`` for another
    player than ``viewer``); a survey choice is counted among the season's survey choices."""
    state = states[judgement.index]
    survey = state.phase is not Phase.EXCAVATION
    count = sum(
        1
        for earlier in states[: judgement.index + 1]
        if earlier.season == state.season
        and earlier.current == judgement.seat
        and (earlier.phase is not Phase.EXCAVATION) == survey
        and not earlier.neutral_pending
    )
    whose = "your" if viewer == judgement.seat else f"{state.players[judgement.seat].name}'s"
    what = "survey choice" if survey else "turn"
    return f"Season {state.season}, {whose} {ordinal(max(count, 1))} {what}"


def in_words(states: Sequence[GameState], judgement: Judgement, viewer: int | None = None) -> str:
    """The decision in the game's own words: ``Season 2, your third turn: you extended an
    excavation onto c3, c4; starting an excavation on d4 would have been worth 3.1 points
    more (expected).`` ``states`` are the game's positions (``states[i]`` before action i)."""
    state = states[judgement.index]
    subject = "you" if viewer == judgement.seat else state.players[judgement.seat].name
    played = _conjugated(state, parse_action(judgement.played), _PAST)
    text = f"{moment(states, judgement, viewer)}: {subject} {played}"
    if judgement.best == judgement.played or judgement.loss <= 0:
        return f"{text}: the best move found."
    best = _conjugated(state, parse_action(judgement.best), _GERUND)
    how = "exactly" if judgement.exact else "expected"
    return f"{text}; {best} would have been worth {judgement.loss:.1f} points more ({how})."
