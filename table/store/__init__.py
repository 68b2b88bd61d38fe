"""The table server's store: every table, its seats, its journal and the ladder, and the
host's players, keys and web sessions, in one SQLite file behind this package's classes.

Every SQL statement of the server lives here (:mod:`table.store.tables`; the players',
keys' and web sessions' in :mod:`table.store.players`), so moving the store to another
database is one package.
"""

from table.store.players import (
    BUSY_TIMEOUT,
    InvitationRow,
    KeyRow,
    PlayerStore,
    StoreBusy,
)
from table.store.tables import (
    MIGRATIONS,
    Append,
    Change,
    Chat,
    Damaged,
    Finished,
    Paused,
    Resumed,
    SeatRow,
    SitDown,
    StandIn,
    StoreError,
    TableRow,
    TableStore,
    Truncate,
)

__all__ = [
    "BUSY_TIMEOUT",
    "MIGRATIONS",
    "Append",
    "Change",
    "Chat",
    "Damaged",
    "Finished",
    "InvitationRow",
    "KeyRow",
    "Paused",
    "PlayerStore",
    "Resumed",
    "SeatRow",
    "SitDown",
    "StandIn",
    "StoreBusy",
    "StoreError",
    "TableRow",
    "TableStore",
    "Truncate",
]
