"""Persistence of games: nothing played is ever lost, and a damaged file never crashes.

The contract the terminal game uses::

    store = saves.SaveStore(saves.default_folder(cli_dir))
    session = saves.Session.new(store, seats, seed=None, name=None)   # autosaved at once
    session = store.load(name)              # replays the log; raises saves.SaveError
    events = session.apply(action)          # checks with core, appends, autosaves
    session.undo(); session.redo(); session.save_as("Sunday game")
    store.list(); store.latest_unfinished(); store.delete(name)

A save is a msgspec JSON document (:mod:`saves.format`): the seed, the seats and the
action log, never the state; loading replays the log through ``core.apply_action``
(:mod:`saves.replay`). Writes are atomic (:mod:`saves.atomic`); names cannot leave the
save folder (:mod:`saves.names`); older versions are migrated (:mod:`saves.migrations`).
Imports ``core`` only.
"""

from saves.errors import SaveError
from saves.format import FORMAT, MAX_FILE_BYTES, VERSION, SaveFile, SeatConfig
from saves.names import MAX_NAME_LENGTH, check_name
from saves.session import Session
from saves.store import ENV_SAVE_DIR, SaveStore, SaveSummary, default_folder, leader

__all__ = [
    "ENV_SAVE_DIR",
    "FORMAT",
    "MAX_FILE_BYTES",
    "MAX_NAME_LENGTH",
    "VERSION",
    "SaveError",
    "SaveFile",
    "SaveStore",
    "SaveSummary",
    "SeatConfig",
    "Session",
    "check_name",
    "default_folder",
    "leader",
]
