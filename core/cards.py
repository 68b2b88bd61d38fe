"""The parcel cards: patrons, prestige values and pyramid cells, loaded from data.

The card faces are provisional (RULES.md §2) and live in ``data/cards.toml`` so they can be
corrected without touching code. Card ids 0..35 are stable: patron ``p``'s seven cards are
``7p .. 7p+6`` in template order, and the patronless card is 35.
"""

from __future__ import annotations

import enum
import tomllib
from dataclasses import dataclass
from pathlib import Path

CardId = int
"""Index into :data:`CARDS` (0..35)."""

CELLS = 6
"""A parcel has 6 cells, numbered row by row: ``0 1 / 2 3 / 4 5``."""

MIRROR = (1, 0, 3, 2, 5, 4)
"""Cell ``c`` mirrored left<->right."""


class Patron(enum.IntEnum):
    """The five patrons, in the order of RULES.md §1."""

    VIOLET = 0
    LEMON = 1
    BROWN = 2
    BLACKMORE = 3
    TANGERINE = 4

    @property
    def title(self) -> str:
        """The patron's name as printed: ``Lady Violet``, ``Lord Lemon``…"""
        return _TITLES[self]


_TITLES = {
    Patron.VIOLET: "Lady Violet",
    Patron.LEMON: "Lord Lemon",
    Patron.BROWN: "Sir Brown",
    Patron.BLACKMORE: "Mrs. Blackmore",
    Patron.TANGERINE: "Colonel Tangerine",
}

PATRONS = tuple(Patron)


@dataclass(frozen=True, slots=True)
class Card:
    """One parcel card: its patron (None for the patronless card), value and pyramids."""

    id: CardId
    patron: Patron | None
    value: int
    pyramids: frozenset[int]

    def __str__(self) -> str:
        who = self.patron.name.title() if self.patron is not None else "Patronless"
        return f"{who} {self.value}" if self.value else who


def _load() -> tuple[Card, ...]:
    # The file sits beside this module (a plain path: importlib.resources costs start-up time).
    text = (Path(__file__).parent / "data" / "cards.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    names = [Patron[name.upper()] for name in data["patrons"]]
    if sorted(names) != list(PATRONS):
        raise ValueError("cards.toml: `patrons` must name each of the five patrons once")
    mirrored = {Patron[name.upper()] for name in data["mirrored"]}
    cards: list[Card] = []
    for patron in PATRONS:
        for entry in data["template"]:
            cells = {int(c) for c in entry["pyramids"]}
            if patron in mirrored:
                cells = {MIRROR[c] for c in cells}
            cards.append(Card(len(cards), patron, int(entry["value"]), frozenset(cells)))
    lone = data["patronless"]
    cards.append(Card(len(cards), None, int(lone["value"]), frozenset(lone["pyramids"])))
    if len(cards) != 36 or any(not c.pyramids <= set(range(CELLS)) for c in cards):
        raise ValueError("cards.toml must describe 36 cards with cells 0..5")
    return tuple(cards)


CARDS: tuple[Card, ...] = _load()
"""All 36 cards, indexed by id."""

PATRON_OF: tuple[Patron | None, ...] = tuple(card.patron for card in CARDS)
"""``PATRON_OF[card]``: the patron of a card id (None for the patronless card), read
without an attribute look-up on the hot paths."""

PATRONLESS: CardId = 35
