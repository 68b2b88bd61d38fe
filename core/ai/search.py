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

That is the ``ucb1`` plan, the product's. :data:`PLANS` names others, for
``bench/tournament.py`` (issue 29): ``paired`` judges every candidate on the same
redetermined world with the same playout seed, round after round (common random numbers);
``halving`` does so with successive halving (the worse half drops out after each quarter
of the simulations, for 9 candidates); ``halving-deep`` also looks 4 rounds ahead. At the
same number of simulations, ``paired`` and ``halving`` cost at most what ``ucb1`` costs
(fewer redeterminations; ``halving-deep``'s longer playouts cost more). The others are
``ucb1`` with one part of its judgement changed, to screen at equal time: ``season`` plays
every simulation to the season's end (its survey scored, so the leaf is exact for the
season; about 5 times the cost of a simulation), ``samples5``/``samples20`` let a simulated
player compare 5 or 20 actions instead of 10, ``narrow``/``wide`` compare 5 or 12
candidates instead of 8, ``prior1``/``prior12`` weigh the heuristic's judgement as 1 or 12
simulations instead of 4, ``explore2``/``explore8`` halve or double the exploration. None
has been shown stronger than ``ucb1`` yet (``bench/README.md``). Nor has another judgement
(``weights``: ``core.ai.evaluate.WEIGHT_SETS['screened']``, 4.5 points a game better than
today's as a normal player, came out even as a hard one at 400 simulations). The
candidates, the simulated players and the leaves may each be given their own judgement
(``weights``, ``playout_weights``, ``leaf_weights``; the last two are ``weights`` unless
given): the simulated players stand for opponents who may judge otherwise than the hero.
The screened weights for the candidates and leaves, today's for the simulated players,
came out ahead at 400 simulations (+1.16 ± 1.09 points over the others' mean, 23 wins of
60) but not shown stronger, so the product keeps today's weights for all three.

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
from dataclasses import dataclass

from core.actions import PASS, Action, from_code
from core.ai.bot import Level, Stop
from core.ai.evaluate import WEIGHTS, Weights, advantage
from core.ai.players import rank_codes
from core.ai.playout import play_ahead
from core.public import public_view
from core.rules import apply_code, redetermine
from core.state import GameState

DEFAULT_ITERATIONS = 400
"""Simulations per decision by default: a median of 0.29 s of CPU time a decision with this
many in ``bench/bench_ai.py`` on a quiet 2-core machine, 0.41 s on a busy one (the README
says under which load; the bench prints the simulations per CPU second of the machine it
runs on)."""
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


@dataclass(frozen=True)
class Plan:
    """How the hard bot spends its simulations (``bench/tournament.py`` fields several)."""

    paired: bool = False
    """Judge the candidates side by side: each round redetermines one world and plays every
    candidate still in the running on it, with the same playout seed (common random
    numbers), so their difference is not drowned in the luck of the deal. Otherwise UCB1
    picks one candidate per simulation, each on its own world."""
    halving: bool = False
    """Paired only: successive halving. The simulations are split evenly into phases; after
    each, the worse half of the candidates (by mean) drops out, down to one."""
    candidates: int = CANDIDATES
    prior_visits: float = PRIOR_VISITS
    rounds_ahead: int = ROUNDS_AHEAD
    """Rounds played after the candidate before judging; the playout always stops at the
    season's end, so a large number plays the season out (its survey scored, the leaf
    exact for that season)."""
    exploration: float = EXPLORATION
    """UCB1 only: the exploration constant, in points of advantage."""
    samples: int = SAMPLES
    """Legal actions a simulated player compares at each decision."""


SEASON_END = 99
"""Rounds ahead enough to play any season out (a season has far fewer rounds)."""

PLANS: dict[str, Plan] = {
    "ucb1": Plan(),
    "paired": Plan(paired=True),
    "halving": Plan(paired=True, halving=True),
    "halving-deep": Plan(paired=True, halving=True, rounds_ahead=4),
    "season": Plan(rounds_ahead=SEASON_END),
    "narrow": Plan(candidates=5),
    "wide": Plan(candidates=12),
    "prior1": Plan(prior_visits=1.0),
    "prior12": Plan(prior_visits=12.0),
    "explore2": Plan(exploration=2.0),
    "explore8": Plan(exploration=8.0),
    "samples5": Plan(samples=5),
    "samples20": Plan(samples=20),
}
"""The search plans by name; ``ucb1`` is the search of the hard bot before issue 29."""
DEFAULT_PLAN = "ucb1"


class HardBot:
    """Searches by simulation; ``budget`` in seconds, ``iterations`` in simulations."""

    level: Level = "hard"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        iterations: int | None = None,
        plan: Plan | str = DEFAULT_PLAN,
        weights: Weights = WEIGHTS,
        *,
        playout_weights: Weights | None = None,
        leaf_weights: Weights | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        if iterations is None and budget is not None:
            iterations = 1 << 30  # a time budget alone: search until it is spent
        self.iterations = DEFAULT_ITERATIONS if iterations is None else max(1, iterations)
        self.budget = DEFAULT_CAP if budget is None else budget
        self.plan = PLANS[plan] if isinstance(plan, str) else plan
        self.weights = weights
        """The heuristic's judgement of the candidates (and by default of all the rest)."""
        self.playout_weights = weights if playout_weights is None else playout_weights
        """The judgement the simulated players (every seat, the hero's too) play by: the
        real opponents' may differ from the hero's own (issue 29's benches)."""
        self.leaf_weights = weights if leaf_weights is None else leaf_weights
        """The judgement of the position a simulation reaches."""

    def choose(self, state: GameState, stop: Stop | None = None) -> Action:
        """The action to play; ``stop`` ends the search early (see the module)."""
        return from_code(self.choose_code(public_view(state), stop))

    def choose_code(self, view: GameState, stop: Stop | None = None) -> int:
        """The code of the choice for a state already seen through ``public_view``."""
        ranked = rank_codes(view, self.weights)
        if not ranked:
            raise ValueError("the game is over: there is nothing to choose")
        wide = self.plan.candidates
        candidates = ranked[:wide]
        passing = next((pair for pair in ranked[wide:] if pair[1] == PASS), None)
        if passing is not None:
            candidates.append(passing)
        if len(candidates) == 1:
            return candidates[0][1]
        if self.plan.paired:
            return self._paired(view, candidates, stop)
        return self._search(view, candidates, stop)

    def _search(
        self, view: GameState, candidates: list[tuple[float, int]], stop: Stop | None
    ) -> int:
        seat, season = view.current, view.season
        prior_visits = self.plan.prior_visits
        plies = self.plan.rounds_ahead * len(view.players)
        exploration, samples = self.plan.exploration, self.plan.samples
        playout_weights, leaf_weights = self.playout_weights, self.leaf_weights
        totals = [prior_visits * prior for prior, _ in candidates]
        visits = [prior_visits] * len(candidates)
        deadline = time.perf_counter() + self.budget
        for done in range(self.iterations):
            if done % _CLOCK_EVERY == 0 and time.perf_counter() > deadline:
                break
            if stop is not None and stop():
                break
            log_n = math.log(done + 1 + prior_visits * len(candidates))
            pick = max(
                range(len(candidates)),
                key=lambda i: totals[i] / visits[i] + exploration * math.sqrt(log_n / visits[i]),
            )
            world = redetermine(view, self._rng)
            world = apply_code(world, candidates[pick][1])
            world = play_ahead(world, self._rng, plies, samples, playout_weights)
            totals[pick] += advantage(world, seat, season, leaf_weights)
            visits[pick] += 1
        best = max(range(len(candidates)), key=lambda i: (totals[i] / visits[i], -i))
        return candidates[best][1]

    def _paired(
        self, view: GameState, candidates: list[tuple[float, int]], stop: Stop | None
    ) -> int:
        seat, season = view.current, view.season
        plan = self.plan
        plies = plan.rounds_ahead * len(view.players)
        totals = [plan.prior_visits * prior for prior, _ in candidates]
        visits = [plan.prior_visits] * len(candidates)
        alive = list(range(len(candidates)))
        phases = _phases(len(alive)) if plan.halving else 1
        phase_end = self.iterations // phases
        deadline = time.perf_counter() + self.budget
        done = 0

        def leader() -> int:
            return max(alive, key=lambda i: (totals[i] / visits[i], -i))

        while done < self.iterations:
            world: GameState | None = None
            playout_seed = 0
            for i in alive:
                if done == self.iterations:  # the last round may be cut short: equal cost
                    break
                if done % _CLOCK_EVERY == 0 and time.perf_counter() > deadline:
                    return candidates[leader()][1]
                if stop is not None and stop():
                    return candidates[leader()][1]
                if world is None:  # drawn after the first poll: a stop costs nothing
                    world = redetermine(view, self._rng)
                    playout_seed = self._rng.getrandbits(64)
                after = apply_code(world, candidates[i][1])
                after = play_ahead(
                    after, random.Random(playout_seed), plies, plan.samples, self.playout_weights
                )
                totals[i] += advantage(after, seat, season, self.leaf_weights)
                visits[i] += 1
                done += 1
            if plan.halving and done >= phase_end and len(alive) > 1:
                ranked = sorted(alive, key=lambda i: (-totals[i] / visits[i], i))
                alive = sorted(ranked[: (len(alive) + 1) // 2])
                phase_end += self.iterations // phases
                if len(alive) == 1:
                    break
        return candidates[leader()][1]


def _phases(candidates: int) -> int:
    """Successive halving's phases from ``candidates`` down to one (9 -> 5 -> 3 -> 2 -> 1)."""
    phases = 0
    while candidates > 1:
        candidates = (candidates + 1) // 2
        phases += 1
    return phases
