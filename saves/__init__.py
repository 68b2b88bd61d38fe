"""Persistence of games: nothing played is ever lost, and a damaged file never crashes.

The contract the terminal game uses::

    store = saves.SaveStore(saves.default_folder(cli_dir))
    session = saves.Session.new(store, seats, seed=None, name=None)   # autosaved at once
    session = store.load(name)          # replays the log; raises saves.SaveError
    events = session.apply(action)      # checks with core, appends, autosaves
    session.undo(); session.redo(); session.save_as("Sunday game")
    store.list(); store.latest_unfinished(); store.delete(name)
    saves.check_player_name(name)       # ValueError saying which character is refused

A save is a msgspec JSON document (:mod:`saves.format`): the seed, the seats and the
action log, never the state; loading replays the log through ``core.apply_action``
(:mod:`saves.replay`). Writes are atomic (:mod:`saves.atomic`); names cannot leave the
save folder (:mod:`saves.names`)
nor hold characters that do not show (:mod:`saves.text`); older versions are migrated
(:mod:`saves.migrations`). Every message is plain text. Imports ``core`` only.
"""

from saves.errors import SaveError
from saves.format import FORMAT, MAX_FILE_BYTES, VERSION, SaveFile, SeatConfig
from saves.names import MAX_NAME_LENGTH, check_name
from saves.session import Session
from saves.store import ENV_SAVE_DIR, SaveStore, SaveSummary, default_folder, leader
from saves.text import MAX_PLAYER_NAME, check_player_name, printable

__all__ = [
    "ENV_SAVE_DIR",
    "FORMAT",
    "MAX_FILE_BYTES",
    "MAX_NAME_LENGTH",
    "MAX_PLAYER_NAME",
    "VERSION",
    "SaveError",
    "SaveFile",
    "SaveStore",
    "SaveSummary",
    "SeatConfig",
    "Session",
    "check_name",
    "check_player_name",
    "default_folder",
    "leader",
    "printable",
]
