"""A shared table's game as an ordinary save file: it opens in the replay screen and can
be resumed on this machine.

A finished game keeps its seed (nothing it hides matters any more). An unfinished one must
not: the seed would deal the real order of the parcels not yet dealt, which nobody at the
table knows. Its save carries the deal instead (``saves.SaveFile.deal``), with the parcels
dealt so far as they were and the undealt ones shuffled afresh, so the exported game
replays exactly what was played, and goes on from there with a future of its own.

A finished table's analysis, as far as the server made it (:mod:`table.server.analysis`),
goes with its save (``saves.SaveFile.analysis``): the replay of the export shows it at once.

The save keeps the table's journal as its players saw it (``saves.SaveFile.lines``: chat
and notes where they were said; ``standins``: which moves a computer made for an absent
player), so that its replay shows what the table showed. A line that would not load is
escaped, never lost; past ``MAX_LINES``, the oldest chat gives way first.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

import msgspec

import core
from core.region import face_card
from saves.format import (
    FORMAT,
    LATEST_SECONDS,
    MAX_ACTIONS,
    MAX_LINE_TEXT,
    MAX_LINES,
    VERSION,
    SaveFile,
    SeatConfig,
    TableLine,
    encode,
)
from saves.text import MAX_PLAYER_NAME, shown
from table import journal
from table.server.rules import table_name
from table.store import TableRow


def export_save(
    row: TableRow, states: Sequence[core.GameState], entries: Iterable[journal.Any] = ()
) -> bytes:
    """The save-file bytes of ``row``'s game, whose real positions are ``states``, with
    the lines and stand-ins of the table's journal ``entries`` (in the journal's order)."""
    entries = list(entries)
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
        title=table_name(row.title, row.seats),
        seed=seed,
        players=seats,
        actions=list(row.actions),
        created=datetime.fromtimestamp(row.created, UTC),
        updated=datetime.fromtimestamp(row.updated, UTC),
        deal=deal,
        lines=kept_lines(journal.told_lines(entries)),
        standins=_standins(entries, len(row.actions)),
        analysis=row.analysis if core.is_over(now) else None,
    )
    return encode(save)


def _standins(entries: Iterable[journal.Any], actions: int) -> list[core.Level | None]:
    """Who made each action, or nothing when no stand-in made any (the field is left out)."""
    made = journal.standins(entries, actions)
    return made if any(made) else []


def kept_lines(lines: Sequence[TableLine]) -> list[TableLine]:
    """``lines`` as a save can keep them: each made to load (see :func:`_fit`); beyond
    ``MAX_LINES``, the oldest lines of chat left out first, then the oldest notes."""
    fitted = [_fit(line) for line in lines]
    excess = len(fitted) - MAX_LINES
    if excess <= 0:
        return fitted
    chat = [i for i, line in enumerate(fitted) if line.name is not None]
    dropped = set(chat[:excess])
    kept = [line for i, line in enumerate(fitted) if i not in dropped]
    return kept[-MAX_LINES:]


def _fit(line: TableLine) -> TableLine:
    """``line`` within the save format's bounds, its texts shown as a terminal would show
    them (the server checked them; a store written by hand may not have)."""
    name = None if line.name is None else shown(line.name, MAX_PLAYER_NAME) or "?"
    return msgspec.structs.replace(
        line,
        seq=min(max(line.seq, 0), MAX_ACTIONS),
        at=line.at if 0.0 <= line.at <= LATEST_SECONDS else 0.0,  # NaN too: no known time
        text=shown(line.text, MAX_LINE_TEXT),
        name=name,
    )
