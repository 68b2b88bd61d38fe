"""The parcel cards: patrons, prestige values and pyramid cells, loaded from data.

The card faces are provisional (RULES.md §2) and live in ``data/cards.toml`` so they can be
corrected without touching code; ``mykerinos --cards FILE`` plays with another file of the
same schema (``docs/cards.md``), recorded in the save. Card ids 0..35 are stable: patron
``p``'s seven cards are ``7p .. 7p+6`` in template order, and the patronless card is 35.
"""

from __future__ import annotations

import contextlib
import enum
import tomllib
from collections.abc import Callable, Iterator
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


MAX_VALUE = 20
"""The largest prestige value a card may have (the real cards go up to 5)."""
TEMPLATE_CARDS = 7
"""Each patron has seven cards, described once in ``[[template]]``."""


class CardsError(ValueError):
    """A cards file that cannot be the deck; ``problems`` holds one sentence per problem
    found (all of them, not just the first), and ``str`` joins them."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


DEFAULT_TEXT = (Path(__file__).parent / "data" / "cards.toml").read_text(encoding="utf-8")
"""The built-in (provisional) deck, as TOML. A plain path, not importlib.resources: the
latter costs start-up time."""


def parse_cards(text: str) -> tuple[Card, ...]:
    """The 36 cards described by ``text`` (the schema of ``data/cards.toml``, see
    ``docs/cards.md``); raises :class:`CardsError` listing every problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardsError([f"the file is not TOML: {exc}"]) from None
    problems: list[str] = []
    for key in sorted(set(data) - {"patrons", "mirrored", "template", "patronless"}):
        problems.append(f"unknown key {key!r} (known: patrons, mirrored, template, patronless)")
    order = _patrons(data.get("patrons"), "patrons", problems, every=True)
    mirrored = set(_patrons(data.get("mirrored", []), "mirrored", problems, every=False))
    template = data.get("template")
    template = template if isinstance(template, list) else []
    if len(template) != TEMPLATE_CARDS:
        problems.append(
            f"[[template]] must describe each patron's {TEMPLATE_CARDS} cards, not "
            f"{len(template)} (the deck is {len(PATRONS)} patrons × {TEMPLATE_CARDS} + 1 "
            "patronless = 36 cards)"
        )
    faces = [
        _face(entry, f"[[template]] card {n}", problems) for n, entry in enumerate(template, 1)
    ]
    lone = data.get("patronless")
    if not isinstance(lone, dict):
        problems.append("[patronless] is missing: the deck has exactly one card with no patron")
        lone = {"value": 0, "pyramids": []}
    lone_face = _face(lone, "[patronless]", problems)
    if problems:
        raise CardsError(problems)
    cards: list[Card] = []
    for patron in sorted(order):
        for value, cells in faces:
            shown = {MIRROR[c] for c in cells} if patron in mirrored else cells
            cards.append(Card(len(cards), patron, value, frozenset(shown)))
    cards.append(Card(len(cards), None, lone_face[0], frozenset(lone_face[1])))
    return tuple(cards)


def _patrons(names: object, key: str, problems: list[str], *, every: bool) -> list[Patron]:
    known = ", ".join(p.name.lower() for p in PATRONS)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        problems.append(f"`{key}` must be a list of patron names ({known})")
        return []
    found = []
    for name in names:
        try:
            found.append(Patron[name.upper()])
        except KeyError:
            problems.append(f"`{key}` names {name!r}, which is not a patron ({known})")
    if len(set(found)) != len(found):
        problems.append(f"`{key}` names a patron twice")
    if every and not problems and sorted(found) != list(PATRONS):
        problems.append(f"`{key}` must name each of the five patrons once ({known})")
    return found


def _face(entry: object, where: str, problems: list[str]) -> tuple[int, set[int]]:
    """(value, pyramid cells) of one card description, problems noted."""
    if not isinstance(entry, dict):
        problems.append(f"{where} must be a table with `value` and `pyramids`")
        return 0, set()
    for key in sorted(set(entry) - {"value", "pyramids"}):
        problems.append(f"{where}: unknown key {key!r} (a card has `value` and `pyramids`)")
    value = entry.get("value")
    if type(value) is not int or not 0 <= value <= MAX_VALUE:
        problems.append(
            f"{where}: `value` must be a whole number from 0 to {MAX_VALUE}, not {value!r}"
        )
        value = 0
    cells = entry.get("pyramids")
    if not isinstance(cells, list) or not all(type(c) is int for c in cells):
        problems.append(f"{where}: `pyramids` must be a list of cells (0 to 5)")
        return value, set()
    if any(not 0 <= c < CELLS for c in cells):
        problems.append(
            f"{where}: a parcel has 2×3 cells, numbered 0 to 5 (0 1 / 2 3 / 4 5), not {cells}"
        )
    if len(set(cells)) != len(cells):
        problems.append(f"{where}: a cell is listed twice in {cells}")
    return value, {c for c in cells if 0 <= c < CELLS}


DEFAULT_CARDS: tuple[Card, ...] = parse_cards(DEFAULT_TEXT)
"""The built-in deck."""

CARDS: list[Card] = list(DEFAULT_CARDS)
"""All 36 cards of the deck in use, indexed by id. A list changed in place by
:func:`use_cards`, so every module holding it sees the switch."""

PATRON_OF: list[Patron | None] = [card.patron for card in CARDS]
"""``PATRON_OF[card]``: the patron of a card id (None for the patronless card), read
without an attribute look-up on the hot paths."""

_REBUILDS: list[Callable[[], None]] = []


def on_new_cards(rebuild: Callable[[], None]) -> Callable[[], None]:
    """Register ``rebuild``, which refills a module's tables derived from the cards in
    place; :func:`use_cards` calls it after each switch. Returns it (usable as a
    decorator); it is also called once now."""
    _REBUILDS.append(rebuild)
    rebuild()
    return rebuild


def use_cards(cards: tuple[Card, ...]) -> None:
    """Play with ``cards`` (from :func:`parse_cards`) from now on, in this whole process;
    ``DEFAULT_CARDS`` switches back. Card ids, patrons and the deck's size stay the same,
    so states and saves keep their meaning; every table derived from the faces is rebuilt
    and every memo emptied. Not meant to run while another thread is playing."""
    if tuple(CARDS) == cards:
        return
    from core.caches import clear_caches

    CARDS[:] = cards
    PATRON_OF[:] = [card.patron for card in cards]
    for rebuild in _REBUILDS:
        rebuild()
    clear_caches()


@contextlib.contextmanager
def cards_in_use(cards: tuple[Card, ...]) -> Iterator[None]:
    """Play with ``cards`` inside the block, and with the deck in use before after it."""
    before = tuple(CARDS)
    use_cards(cards)
    try:
        yield
    finally:
        use_cards(before)


PATRONLESS: CardId = 35
