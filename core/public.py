"""What anyone but the rules may know of a game: the table, never the order of the
undealt parcels; and the one loop that turns a list of actions into positions.

The undealt cards as a *set* are public (every card is dealt once per game, so they are
the cards nobody has seen yet); their *order* is hidden. :func:`public_view` rebuilds a
state's deck from public facts alone, in a canonical order, so that everything a computer
player computes from it is the same whatever the real deck order is, and so that the table
server can show a position without giving the deck away. :func:`public_start` is the start
a client may replay a shared game from.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from core.actions import Action
from core.cards import CARDS
from core.region import face_card
from core.rules import apply_action
from core.state import GameState


def replay(start: GameState, actions: Sequence[Action]) -> list[GameState]:
    """Every position of the game ``start`` then ``actions``, ``start`` first (raises
    :class:`core.IllegalActionError` at the first action that is not legal where it falls)."""
    states = [start]
    for action in actions:
        states.append(apply_action(states[-1], action))
    return states


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


def public_start(start: GameState, now: GameState) -> GameState:
    """The start of the game ``start`` → ``now`` that a client may see and replay: the
    real first position, with a deck of the parcels dealt so far, in the order they were
    dealt, then the undealt ones in :func:`public_view`'s canonical order. Replaying the
    actions from it ends at ``public_view(now)`` exactly, and every position on the way has
    the same :func:`public_view` as the real one at that point (only the order of parcels
    still undealt differs); what it says of the undealt parcels is what everyone at the
    table knows: which cards they are."""
    dealt = len(start.deck) - len(now.deck)
    unseen = public_view(now).deck
    return replace(start, deck=start.deck[:dealt] + unseen, seed=0)
