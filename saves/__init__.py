"""Persistence of games: nothing played is ever lost, and a damaged file never crashes.

The contract the terminal game uses::

    store = saves.SaveStore(saves.default_folder(cli_dir))
    session = saves.Session.new(store, seats, seed=None, name=None)   # saved, held
    session = store.open(name)          # replays the log, holds the game; SaveError,
                                        # GameOpenElsewhere if another process holds it
    session = store.watch(name)         # read-only; session.refresh() follows the file
    session = store.take_over(name)     # holds it; the other process's session is refused
    events = session.apply(action)      # checks with core, appends, autosaves
    session.undo(); session.redo(); session.save_as("Sunday game")
    session.unsaved_moves; session.read_only; session.close()
    session.lines; session.standins     # a shared table's journal, kept by its export
    session.analysis; session.analysis_problem  # the computer's analysis kept (checked)
    session.keep_analysis(analysis)     # kept with the finished game, moves untouched
    store.keep_analysis(name, analysis, actions)  # the same, for a game only read
    store.list(); store.latest_unfinished(); store.delete(name, force=False)
    saves.check_player_name(name)       # ValueError saying which character is refused
    saves.LessonProgress(saves.lessons_folder()).done(player)  # lessons done (issue 28)

A save is a msgspec JSON document (:mod:`saves.format`): the seed, the seats and the
action log, never the state; loading replays the log through ``core.apply_action``
(:mod:`saves.replay`). Writes are atomic (:mod:`saves.atomic`); one process at a time
plays a game (:mod:`saves.lock`); names cannot leave the save folder (:mod:`saves.names`)
nor hold characters that do not show (:mod:`saves.text`); older versions are migrated
(:mod:`saves.migrations`). Every message is plain text. Imports ``core`` only.
"""

from saves.errors import GameOpenElsewhere, ReadOnly, SaveError, TakenOver
from saves.format import FORMAT, MAX_FILE_BYTES, VERSION, SaveFile, SeatConfig, TableLine
from saves.lessons import LessonProgress
from saves.lessons import default_folder as lessons_folder
from saves.lock import Holder
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
    "GameOpenElsewhere",
    "Holder",
    "LessonProgress",
    "ReadOnly",
    "SaveError",
    "SaveFile",
    "SaveStore",
    "SaveSummary",
    "SeatConfig",
    "Session",
    "TableLine",
    "TakenOver",
    "check_name",
    "check_player_name",
    "default_folder",
    "leader",
    "lessons_folder",
    "printable",
]
