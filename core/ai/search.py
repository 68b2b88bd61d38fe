"""The hard computer player: a Monte Carlo search over the normal player's best candidates.

For one decision:

1. the heuristic (:func:`core.ai.players.rank_codes`) ranks every legal action and keeps the
   best few (passing is always kept: when to stop is the season's key choice);
2. each simulation picks a candidate by UCB1, re-shuffles the undealt parcels
   (``core.redetermine`` of the public view: the real deck order is never used), plays the
   candidate, then two rounds in which every player answers like a quick normal bot
   (:mod:`core.ai.playout`; stopping early at the end of the season), and scores the
   position reached with the heuristic (:func:`core.ai.evaluate.advantage`; the final
   totals if the game is over);
3. the candidate with the best mean wins; the heuristic's own judgement counts as a few
   simulations already made, so a candidate needs real evidence to overturn it.

Determinism: by default a fixed number of simulations (``bench/bench_ai.py`` prints the CPU
time they take a decision, and the load it ran under: the README gives the figures), so the
choice depends only on the seed; a time budget caps the search as a safety net. A
``stop`` callable, polled before every simulation, ends the search
at once with the best candidate so far (the heuristic's choice if no simulation ran).
"""

from __future__ import annotations

import math
import random
import time

from core.actions import PASS, Action, from_code
from core.ai.bot import Level, Stop
from core.ai.evaluate import advantage
from core.ai.players import rank_codes
from core.ai.playout import play_ahead
from core.public import public_view
from core.rules import apply_code, redetermine
from core.state import GameState

DEFAULT_ITERATIONS = 400
"""Simulations per decision by default: a median of 0.64 s of CPU time a decision with this
many in ``bench/bench_ai.py`` on a busy 2-core machine (the README says under which load;
the bench prints the simulations per CPU second of the machine it runs on)."""
DEFAULT_CAP = 5.0
"""Seconds: the safety cap of the default, fixed-iterations mode."""
HINT_ITERATIONS = 150
HINT_BUDGET = 1.0

CANDIDATES = 8
"""How many of the heuristic's best actions the search compares."""
PRIOR_VISITS = 4.0
"""The heuristic's judgement of a candidate counts as this many simulations."""
EXPLORATION = 4.0
"""UCB1 exploration, in points of advantage."""
ROUNDS_AHEAD = 2
"""Each simulation plays this many rounds of decisions after the candidate, then judges."""
SAMPLES = 10
"""Legal actions a simulated player compares at each decision."""
_CLOCK_EVERY = 8
"""Look at the clock only every few simulations."""


class HardBot:
    """Searches by simulation; ``budget`` in seconds, ``iterations`` in simulations."""

    level: Level = "hard"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        iterations: int | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        if iterations is None and budget is not None:
            iterations = 1 << 30  # a time budget alone: search until it is spent
        self.iterations = DEFAULT_ITERATIONS if iterations is None else max(1, iterations)
        self.budget = DEFAULT_CAP if budget is None else budget

    def choose(self, state: GameState, stop: Stop | None = None) -> Action:
        """The action to play; ``stop`` ends the search early (see the module)."""
        return from_code(self.choose_code(public_view(state), stop))

    def choose_code(self, view: GameState, stop: Stop | None = None) -> int:
        """The code of the choice for a state already seen through ``public_view``."""
        ranked = rank_codes(view)
        if not ranked:
            raise ValueError("the game is over: there is nothing to choose")
        candidates = ranked[:CANDIDATES]
        passing = next((pair for pair in ranked[CANDIDATES:] if pair[1] == PASS), None)
        if passing is not None:
            candidates.append(passing)
        if len(candidates) == 1:
            return candidates[0][1]
        return self._search(view, candidates, stop)

    def _search(
        self, view: GameState, candidates: list[tuple[float, int]], stop: Stop | None
    ) -> int:
        seat, season = view.current, view.season
        totals = [PRIOR_VISITS * prior for prior, _ in candidates]
        visits = [PRIOR_VISITS] * len(candidates)
        deadline = time.perf_counter() + self.budget
        for done in range(self.iterations):
            if done % _CLOCK_EVERY == 0 and time.perf_counter() > deadline:
                break
            if stop is not None and stop():
                break
            log_n = math.log(done + 1 + PRIOR_VISITS * len(candidates))
            pick = max(
                range(len(candidates)),
                key=lambda i: totals[i] / visits[i] + EXPLORATION * math.sqrt(log_n / visits[i]),
            )
            world = redetermine(view, self._rng)
            world = apply_code(world, candidates[pick][1])
            world = play_ahead(world, self._rng, ROUNDS_AHEAD * len(view.players), SAMPLES)
            totals[pick] += advantage(world, seat, season)
            visits[pick] += 1
        best = max(range(len(candidates)), key=lambda i: (totals[i] / visits[i], -i))
        return candidates[best][1]
