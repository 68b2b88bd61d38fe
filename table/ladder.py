"""The ladder: ratings of a table server's players from their finished games.

Ratings use OpenSkill's Plackett-Luce model (Weng and Lin's Bayesian approximation, made
for games of more than two players), not a hand-made Elo. Each finished game of 2–4
players is one rating update, in the order the games finished; computer seats are rated
as their level ("computer (normal)"); a player's seat whose decisions were mostly made by a
computer standing in for them is rated as that computer (:func:`rated_as`).
Everything here is pure: the server keeps the results in its store and a test recomputes
them from the stored games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

import core


@dataclass(frozen=True)
class Result:
    """A finished game as the ladder sees it: who sat (in seat order) and their places
    (1 = first; tied players share a place)."""

    players: tuple[str, ...]
    places: tuple[int, ...]
    winners: tuple[str, ...]


@dataclass(frozen=True)
class Rating:
    """A player's standing: ``mu`` ± ``sigma``; they are ranked by ``mu - 3 sigma``, a
    rating they have earned with high confidence."""

    name: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def computer_name(level: str) -> str:
    return f"computer ({level})"


def rated_as(player: str, made_by: Sequence[core.Level | None]) -> str:
    """The name a player's seat is rated under, from who made each of its decisions (None:
    the player; a level: a computer standing in for them). Ratings are of people's play:
    a seat whose decisions were mostly (more than half) made by stand-ins is rated as the
    computer that made most of them (the weaker on a tie), and the player's own rating
    does not move; otherwise as the player."""
    by_computers = [level for level in made_by if level is not None]
    if 2 * len(by_computers) <= len(made_by):
        return player
    return computer_name(max(core.LEVELS, key=by_computers.count))


def result(names: Sequence[str], state: core.GameState) -> Result:
    """The result of the finished game ``state`` with ``names`` in seat order: places by
    total, then by the tie-break (cubes in stock), as RULES.md's final scoring ranks."""
    scores = core.final_scores(state)
    key = {s.seat: (s.total, s.stock) for s in scores.players}
    ordered = sorted(key.values(), reverse=True)
    places = tuple(1 + ordered.index(key[seat]) for seat in range(len(names)))
    winners = tuple(names[seat] for seat in scores.winners)
    return Result(tuple(names), places, winners)


def rate(results: Iterable[Result], known: dict[str, Rating] | None = None) -> dict[str, Rating]:
    """The ratings after ``results`` in order, starting from ``known`` (none: everyone
    new). The same results in the same order always give the same numbers."""
    model = PlackettLuce()
    ratings = dict(known or {})
    for game in results:
        teams = [
            [model.rating(mu=ratings[n].mu, sigma=ratings[n].sigma, name=n)]
            if n in ratings
            else [model.rating(name=n)]
            for n in game.players
        ]
        rated = model.rate(teams, ranks=list(game.places))
        news: dict[str, list[tuple[float, float]]] = {}
        for name, (new,) in zip(game.players, rated, strict=True):
            news.setdefault(name, []).append((new.mu, new.sigma))
        for name, values in news.items():  # two seats of one level: their mean
            old = ratings.get(name)
            games, wins = (old.games, old.wins) if old else (0, 0)
            mu = sum(v[0] for v in values) / len(values)
            sigma = sum(v[1] for v in values) / len(values)
            ratings[name] = Rating(name, mu, sigma, games + 1, wins + (name in game.winners))
    return ratings


def ranked(ratings: dict[str, Rating]) -> list[Rating]:
    """Best first: by ``ordinal``, then by name."""
    return sorted(ratings.values(), key=lambda r: (-r.ordinal, r.name))
