"""The table server's store: every table, its seats, its journal and the ladder, and the
host's players, keys and web sessions, in one SQLite file behind this package's classes.

Every SQL statement of the server lives here (:mod:`table.store.tables`), so moving the
store to another database is one package.
"""

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
    "MIGRATIONS",
    "Append",
    "Change",
    "Chat",
    "Damaged",
    "Finished",
    "Paused",
    "Resumed",
    "SeatRow",
    "SitDown",
    "StandIn",
    "StoreError",
    "TableRow",
    "TableStore",
    "Truncate",
]
