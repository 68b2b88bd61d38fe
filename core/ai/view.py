"""What a computer player may know: the table, never the order of the undealt parcels.

The undealt cards as a *set* are public (every card is dealt once per game, so they are
the cards nobody has seen yet); their *order* is hidden. :func:`public_view` rebuilds a
state's deck from public facts alone, in a canonical order, so that everything a bot
computes from it is the same whatever the real deck order is.
"""

from __future__ import annotations

from msgspec.structs import replace

from core.cards import CARDS
from core.region import face_card
from core.state import GameState


def unseen_cards(state: GameState) -> list[int]:
    """Cards not yet dealt, in increasing id order, found from public facts only: every
    card minus those owned, discarded or lying in this season's region."""
    seen: set[int] = set(state.discard)
    for player in state.players:
        seen.update(player.cards)
    seen.update(face_card(face) for face in state.region if face >= 0)
    return [card for card in range(len(CARDS)) if card not in seen]


def public_view(state: GameState) -> GameState:
    """A copy of ``state`` whose deck is the unseen cards in canonical order (unrotated),
    and whose ``seed`` is 0 (the game's seed would deal the real deck again).

    Bots decide on this copy, and simulate on ``core.redetermine`` of it, so that two states
    differing only in the order of the undealt parcels lead to the same decisions.
    """
    cards = unseen_cards(state)
    if len(cards) != len(state.deck):
        # Every state the rules make accounts for each card exactly once; a hand-made or
        # corrupted one may not, and deciding on a wrong deck size would be silently wrong.
        raise ValueError("the undealt cards cannot be told from the public facts")
    return replace(state, deck=tuple(card * 2 for card in cards), seed=0)
