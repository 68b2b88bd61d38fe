"""One decision judged: the expected final margin of what was played and of the best
alternative, from what the deciding player could know.

How (:func:`judge`):

1. the position is seen through :func:`core.public_view`: the undealt parcels are only a
   set, so the real deck order cannot leak into the judgement;
2. if the rest of the game holds nothing hidden and is small enough, it is searched
   exactly (:mod:`core.analysis.exact`): every player maximises their own final margin;
3. otherwise the candidates are the hard computer's own (the heuristic's best
   :data:`~core.ai.search.CANDIDATES`, passing, and what was played; those with the same
   effect counted once), simulated :data:`SIMULATIONS` times in all (as many as the hard
   computer spends on a decision), shared evenly, with the same futures for each (common
   random numbers: the comparison between two candidates is far steadier than either
   value): two rounds ahead like the hard computer, every player answering with its
   playouts, never past the end of the decision's season, then judged by the heuristic's
   estimate of every player's final score (:class:`_Playouts`).

A margin is a player's final score minus the best opponent's; the loss of a decision is
the best candidate's margin minus the played one's (never negative: the played action is
always a candidate, so the best is at least as good).
"""

from __future__ import annotations

import math
import random
from typing import Final

from core.actions import PASS, Action, format_action, from_code, to_code
from core.ai.bot import Stop
from core.ai.evaluate import advantage_after, estimates
from core.ai.players import rank_codes
from core.ai.playout import sampled
from core.ai.search import CANDIDATES, DEFAULT_ITERATIONS, ROUNDS_AHEAD, SAMPLES
from core.analysis.exact import exact_values
from core.analysis.exact import margins as _margins
from core.analysis.records import Judgement
from core.moves import legal_codes
from core.public import public_view
from core.rules import apply_code
from core.state import GameState, Phase

SIMULATIONS: Final = DEFAULT_ITERATIONS
"""Simulations of one decision in all (shared evenly by its candidates): as many as the
hard computer spends on a decision."""


def judge(
    state: GameState,
    played: Action,
    index: int,
    *,
    seed: int = 0,
    simulations: int = SIMULATIONS,
    stop: Stop | None = None,
) -> Judgement | None:
    """The judgement of ``played`` in ``state`` (the position it was played in; its deck
    is never read), as action ``index`` of its game. Deterministic for ``seed``; None if
    ``stop`` was set before it was done."""
    view = public_view(state)
    seat, season = view.current, view.season
    played_code = to_code(played)
    exact = exact_values(view)
    if exact is not None:
        values = {c: vector[seat] for c, vector in exact.items()}
        margins = exact[played_code]
    else:
        simulated = _simulate(view, played_code, index, seed, simulations, stop)
        if simulated is None:
            return None
        values = {c: vector[seat] for c, vector in simulated.items()}
        margins = simulated[played_code]
    best = max(values, key=lambda c: (values[c], c == played_code))
    kept = _kept(values, played_code, best)
    return Judgement(
        index=index,
        season=season,
        seat=seat,
        played=format_action(played),
        best=format_action(from_code(best)),
        loss=max(0.0, round(values[best] - values[played_code], 3)),
        values={format_action(from_code(c)): round(values[c], 3) for c in kept},
        margins=tuple(round(m, 3) for m in margins),
        exact=exact is not None,
    )


def _kept(values: dict[int, float], played: int, best: int) -> list[int]:
    """The candidates a judgement keeps: the best few, and always the played one."""
    ranked = sorted(values, key=lambda c: -values[c])[:CANDIDATES]
    return [*dict.fromkeys([best, played, *ranked])]


def _simulate(
    view: GameState, played: int, index: int, seed: int, simulations: int, stop: Stop | None
) -> dict[int, tuple[float, ...]] | None:
    """Each candidate's mean margins (per seat) over the same simulated futures.

    Candidates with the same effect (the same position after them: two orders of the same
    two cubes, say) are simulated once and share the value, so that noise can never make
    one of them a "better move" than the other."""
    ranked = rank_codes(view)
    candidates = [c for _, c in ranked[:CANDIDATES]]
    for extra in (PASS, played):
        if extra not in candidates and any(c == extra for _, c in ranked):
            candidates.append(extra)
    effects: dict[GameState, list[int]] = {}
    for candidate in candidates:
        effects.setdefault(apply_code(view, candidate), []).append(candidate)
    seats = len(view.players)
    totals = {after: [0.0] * seats for after in effects}
    rounds = max(1, -(-simulations // len(effects)))
    plies = ROUNDS_AHEAD * seats
    playouts = _Playouts(view.season)
    for world_number in range(rounds):
        if stop is not None and stop():
            return None
        world_seed = f"{seed}:{index}:{world_number}"
        for after, total in totals.items():
            reached = playouts.play_ahead(after, random.Random(world_seed), plies)
            margins = _margins(estimates(reached, view.season))
            for seat in range(seats):
                total[seat] += margins[seat]
    return {
        candidate: tuple(t / rounds for t in totals[after])
        for after, same in effects.items()
        for candidate in same
    }


class _Playouts:
    """The hard computer's simulated play (:func:`core.ai.playout.play_ahead`: every
    player answers with the best of :data:`~core.ai.search.SAMPLES` random legal actions
    by the heuristic), with two differences:

    - it never plays past the end of the season of the decision judged, even when the
      decision itself ends it: the next season's parcels would come from the hidden deck.
      So nothing undealt is ever read, and no world needs redealing;
    - the heuristic's judgement of each action tried is remembered, by position: the same
      positions come back in simulation after simulation. The choices, and the random
      numbers drawn for them, are exactly those of :func:`core.ai.playout.greedy_code`.
    """

    def __init__(self, season: int) -> None:
        self.season = season
        self.tried: dict[GameState, tuple[list[int], dict[int, float]]] = {}

    def play_ahead(self, state: GameState, rng: random.Random, plies: int) -> GameState:
        """Up to ``plies`` decisions from ``state``, stopping at the end of the season."""
        for _ in range(plies):
            if state.season != self.season or state.phase is Phase.OVER:
                break
            state = apply_code(state, self.greedy_code(state, rng))
        return state

    def greedy_code(self, state: GameState, rng: random.Random) -> int:
        """:func:`core.ai.playout.greedy_code` with :data:`SAMPLES`, remembered."""
        known = self.tried.get(state)
        if known is None:
            known = self.tried[state] = (legal_codes(state), {})
        codes, values = known
        if len(codes) == 1:
            return codes[0]
        seat = state.current
        best_code, best_value = codes[0], -math.inf
        for action_code in sampled(codes, rng, SAMPLES):
            value = values.get(action_code)
            if value is None:
                value = values[action_code] = advantage_after(state, action_code, seat)
            if value > best_value:
                best_code, best_value = action_code, value
        return best_code
