"""The end of the game: exhibition, series, totals and the tie-break (RULES.md §5)."""

from __future__ import annotations

import msgspec

from core.cards import CARDS, PATRONS
from core.museum import best_room_value
from core.state import GameState, Seat

SERIES_BONUS = 5


class PlayerScore(msgspec.Struct, frozen=True):
    """One player's final score, by category.

    ``exhibition[p]`` is what the cards of patron ``p`` score: their number times the value
    of the best room the player holds for that patron's wing (``rooms[p]``, None: value 1).
    """

    seat: Seat
    parcels: int
    exhibition: tuple[int, ...]
    room_values: tuple[int, ...]
    rooms: tuple[int | None, ...]
    series: int
    series_count: int
    stock: int

    @property
    def total(self) -> int:
        return self.parcels + sum(self.exhibition) + self.series


class FinalScores(msgspec.Struct, frozen=True):
    """Every player's score; ``winners`` holds one seat, or several sharing the win."""

    players: tuple[PlayerScore, ...]
    winners: tuple[Seat, ...]
    tie_break_used: bool
    """The top totals were tied and the most cubes in stock decided (or shared) the win."""


def player_score(state: GameState, seat: Seat) -> PlayerScore:
    """A player's score as if the game ended now (parcels so far, exhibition, series)."""
    player = state.players[seat]
    counts = [0] * len(PATRONS)
    for card in player.cards:
        patron = CARDS[card].patron
        if patron is not None:
            counts[patron] += 1
    values: list[int] = []
    rooms: list[int | None] = []
    for patron in PATRONS:
        value, room = best_room_value(state.museum, seat, state.wings.index(patron))
        values.append(value)
        rooms.append(room)
    series = min(counts)
    return PlayerScore(
        seat=seat,
        parcels=player.score,
        exhibition=tuple(n * v for n, v in zip(counts, values, strict=True)),
        room_values=tuple(values),
        rooms=tuple(rooms),
        series=SERIES_BONUS * series,
        series_count=series,
        stock=player.stock,
    )


def final_scores(state: GameState) -> FinalScores:
    """Totals with their breakdown and the winner(s). Meaningful at any time, final once
    :func:`core.is_over` is true. Ties go to the most cubes in stock, then are shared."""
    scores = tuple(player_score(state, seat) for seat in range(len(state.players)))
    best = max(s.total for s in scores)
    tied = [s for s in scores if s.total == best]
    most = max(s.stock for s in tied)
    winners = tuple(s.seat for s in tied if s.stock == most)
    return FinalScores(players=scores, winners=winners, tie_break_used=len(tied) > 1)
