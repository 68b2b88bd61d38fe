"""What the server shows of a game: positions without the order of the undealt parcels.

A client must be able to replay a table's history, yet never learn the real order of the
parcels still in the deck. :func:`public_start` gives the start it replays from: the real
first position, but with a deck made of the parcels dealt so far, in the order they were
dealt, followed by the undealt ones in the canonical order of
``core.ai.view.public_view``. Replaying the actions from it reproduces ``public_view`` of
every real position up to now (a property test checks it); what it says about the undealt
parcels is what everyone at the table knows: which cards they are.
"""

from __future__ import annotations

from msgspec.structs import replace

import core
from core.ai.view import public_view


def public_start(start: core.GameState, now: core.GameState) -> core.GameState:
    """The start of the game ``start`` → ``now`` that a client may see and replay."""
    dealt = len(start.deck) - len(now.deck)
    unseen = public_view(now).deck
    return replace(start, deck=start.deck[:dealt] + unseen, seed=0)
