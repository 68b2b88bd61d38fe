"""Computer opponents. They use only ``core``'s public facts and never read the undealt deck.

``make_bot(level, seed)`` returns a :class:`Bot`: an object with
``choose(state, stop=None) -> Action``.

- ``easy`` (:class:`~core.ai.players.EasyBot`): random placements, greedy parcel taking.
- ``normal`` (:class:`~core.ai.players.NormalBot`): the best action by a heuristic judgement
  of the position (:mod:`core.ai.evaluate`), one decision deep.
- ``hard`` (:class:`~core.ai.search.HardBot`): a Monte Carlo search over the normal player's
  best candidates, simulating on re-shuffled decks (:mod:`core.ai.search`).

Every bot is deterministic for a given seed. :func:`hint` suggests a move to a human. A
search can be cut short by a ``stop`` callable (:data:`Stop`), e.g. a
``threading.Event().is_set`` that the UI sets when the player leaves the screen.
"""

from __future__ import annotations

from core.actions import Action
from core.ai.bot import LEVELS, Bot, Level, Stop
from core.ai.players import EasyBot, NormalBot
from core.ai.search import HINT_BUDGET, HINT_ITERATIONS, HardBot
from core.state import GameState


def make_bot(
    level: str,
    seed: int | None = None,
    budget: float | None = None,
    iterations: int | None = None,
) -> Bot:
    """A bot of ``level`` (one of :data:`LEVELS`), deterministic for a given ``seed``.

    ``budget`` (seconds per decision) and ``iterations`` (simulations per decision) tune the
    hard bot only. By default it runs a fixed number of simulations
    (:data:`~core.ai.search.DEFAULT_ITERATIONS`), so its play depends on the seed alone; that
    number is calibrated so that a decision takes under 2 s (median) in
    ``bench/bench_ai.py``, which prints the figure for the machine it runs on. The time
    budget (default 5 s) is a safety cap. Pass ``budget`` alone to search for that long
    instead (then results also depend on the machine's speed).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        return NormalBot(seed)
    return HardBot(seed, budget=budget, iterations=iterations)


def hint(
    state: GameState,
    seed: int | None = None,
    stop: Stop | None = None,
    *,
    iterations: int = HINT_ITERATIONS,
) -> Action:
    """What the hard bot would play here, with a shorter search (capped at 1 s; well under
    that in ``bench/bench_ai.py``'s measurements). Deterministic for a seed unless the cap
    or ``stop`` cuts the search short; ``stop`` makes it return the best action so far."""
    return HardBot(seed, budget=HINT_BUDGET, iterations=iterations).choose(state, stop)


__all__ = [
    "LEVELS",
    "Bot",
    "EasyBot",
    "HardBot",
    "Level",
    "NormalBot",
    "Stop",
    "hint",
    "make_bot",
]
