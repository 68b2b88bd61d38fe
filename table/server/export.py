"""A shared table's game as an ordinary save file: it opens in the replay screen and can
be resumed on this machine.

A finished game keeps its seed (nothing it hides matters any more). An unfinished one must
not: the seed would deal the real order of the parcels not yet dealt, which nobody at the
table knows. Its save carries the deal instead (``saves.SaveFile.deal``), with the parcels
dealt so far as they were and the undealt ones shuffled afresh, so the exported game
replays exactly what was played, and goes on from there with a future of its own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime

import core
from core.region import face_card
from saves.format import FORMAT, VERSION, SaveFile, SeatConfig, encode
from table.store import TableRow


def export_save(
    row: TableRow, states: Sequence[core.GameState], entries: Sequence[object] = ()
) -> bytes:
    """The save-file bytes of ``row``'s game, whose real positions are ``states``."""
    start, now = states[0], states[-1]
    seed, deal = row.seed, None
    if not core.is_over(now):
        chance = random.SystemRandom()
        real = core.deal_of(start)
        dealt = len(real.deck) - len(now.deck)
        undealt = sorted(face_card(face) for face in now.deck)
        chance.shuffle(undealt)
        future = tuple(card * 2 + chance.getrandbits(1) for card in undealt)
        seed = chance.randrange(2**31)  # seeds the computer players only: a deal is given
        deal = core.Deal(real.deck[:dealt] + future, real.first, real.wings)
    seats = [
        SeatConfig(
            name,
            s.colour,
            "computer" if s.kind == "computer" else "human",
            s.level if s.kind == "computer" else None,
        )
        for s, name in zip(row.seats, row.names(), strict=True)
    ]
    save = SaveFile(
        format=FORMAT,
        version=VERSION,
        title=row.title,
        seed=seed,
        players=seats,
        actions=list(row.actions),
        created=datetime.fromtimestamp(row.created, UTC),
        updated=datetime.fromtimestamp(row.updated, UTC),
        deal=deal,
    )
    return encode(save)
