"""Rebuilding a game from its save: every logged action goes through ``core.apply_action``,
so the rules re-check each one and a damaged or tampered log is caught at the first bad
action, never trusted.
"""

from __future__ import annotations

from pathlib import Path

import core
from saves.errors import load_error
from saves.format import SaveFile, check_save


def replay(path: Path, save: SaveFile) -> list[core.GameState]:
    """The states of the game in ``save`` (of file ``path``): the start, then one after each
    action (``len(save.actions) + 1`` in all). Raises :class:`saves.SaveError` naming
    ``path`` when the players are inconsistent or an action is not legal where it stands.
    """
    try:
        check_save(save)
        state = core.new_game(
            len(save.players),
            save.seed,
            names=[seat.name for seat in save.players],
            colours=[seat.colour for seat in save.players],
        )
    except ValueError as exc:
        raise load_error(path, f"the players are wrong: {exc}") from None
    states = [state]
    for number, action in enumerate(save.actions, start=1):
        try:
            state = core.apply_action(state, action)
        except core.MalformedActionError as exc:  # first: it is an IllegalActionError too
            raise load_error(path, f"action {number} of the log is malformed: {exc}") from None
        except core.IllegalActionError as exc:
            raise load_error(
                path, f"action {number} of the log ({_notation(action)}) is not legal: {exc}"
            ) from None
        states.append(state)
    return states


def _notation(action: core.Action) -> str:
    try:
        return core.format_action(action)
    except core.MalformedActionError:
        return repr(action)[:60]
