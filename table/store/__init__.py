"""The table server's store: every table, its seats, its journal and the ladder, and the
host's players, keys and web sessions, in one SQLite file behind this package's classes.

Every SQL statement of the server lives here (:mod:`table.store.tables` for the tables,
:mod:`table.store.schema` for the schema and its migrations; the players', keys' and web
sessions' in :mod:`table.store.players`), so moving the store to another database is one
package. :mod:`table.store.changes` holds what a table is as stored and the changes a
server makes to it.
"""

from table.store.changes import (
    Analysed,
    Append,
    Change,
    Finished,
    Noted,
    Paused,
    Resumed,
    SeatRow,
    SitDown,
    StandIn,
    TableRow,
    Truncate,
    TurnBegan,
)
from table.store.players import (
    BUSY_TIMEOUT,
    InvitationRow,
    KeyRow,
    PlayerStore,
    StoreBusy,
)
from table.store.schema import MIGRATIONS, StoreError
from table.store.tables import Damaged, TableStore

__all__ = [
    "BUSY_TIMEOUT",
    "MIGRATIONS",
    "Analysed",
    "Append",
    "Change",
    "Damaged",
    "Finished",
    "InvitationRow",
    "KeyRow",
    "Noted",
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
    "TurnBegan",
]
