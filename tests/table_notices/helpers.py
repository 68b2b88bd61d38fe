"""A store with a table, and a player with confirmed channels, for the notices' tests."""

from __future__ import annotations

from pathlib import Path

import core
from table.notices.checks import code_hash
from table.store import SeatRow, TableStore, TurnBegan
from table.store.notices import NoticeStore


def a_table(store: TableStore, names: tuple[str, ...] = ("alice", "ben", "cleo")) -> int:
    colours = list(core.Colour)
    seats = [SeatRow("player", name, None, colours[i]) for i, name in enumerate(names)]
    return store.create("evening", 7, seats).id


def confirmed(notices: NoticeStore, name: str, kind: str, address: str, now: float = 0) -> int:
    """A confirmed channel of ``name``'s (its confirmation message marked sent)."""
    channel = notices.add_channel(name, kind, address, code_hash("123456"), now + 3600,  # type: ignore[arg-type]
                                  (f"confirm.{name}.{kind}", "code", "123456"), now)  # fmt: skip
    assert notices.confirm(name, channel, code_hash("123456"), now, 5) == "confirmed"
    for row in notices.due(now + 1):
        if row.kind == "confirm":
            notices.sent([row.id], row.channel, now, False)
    return channel


def turn(store: TableStore, table: int, seq: int, name: str, at: float) -> None:
    store.commit([TurnBegan(table, seq, name, at)])


def stores(folder: Path) -> tuple[TableStore, NoticeStore]:
    store = TableStore(folder / "tables.db")
    return store, NoticeStore(folder / "tables.db")
