"""Rebuilding a game from its save: every logged action goes through ``core.apply_action``,
so the rules re-check each one and a damaged or tampered log is caught at the first bad
action, never trusted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import core
from saves.errors import load_error
from saves.format import SaveFile, check_save
from saves.text import cut, tame

MAX_ACTION_SPACES: Final = 8
"""Far above the spaces any action names (core asks for 1 to 3): not a rule, a bound on
the work a hostile action (a list of millions of spaces) can ask of core."""


def deck_of(path: Path, save: SaveFile) -> tuple[core.Card, ...]:
    """The cards ``save`` is played with: its own (``--cards``) or the built-in deck.
    Raises :class:`saves.SaveError` naming ``path`` for recorded cards that are wrong."""
    if save.cards is None:
        return core.DEFAULT_CARDS
    try:
        return core.parse_cards(save.cards)
    except core.CardsError as exc:
        raise load_error(path, f"its cards are wrong: {tame(str(exc))}") from None


def replay(path: Path, save: SaveFile) -> list[core.GameState]:
    """The states of the game in ``save`` (of file ``path``): the start, then one after each
    action (``len(save.actions) + 1`` in all), played with the save's cards (the deck in
    use is the same again afterwards). Raises :class:`saves.SaveError` naming ``path``
    when the cards or players are wrong or an action is not legal where it stands.
    """
    with core.cards_in_use(deck_of(path, save)):
        return _replay(path, save)


def _replay(path: Path, save: SaveFile) -> list[core.GameState]:
    try:
        check_save(save)
        state = core.new_game(
            len(save.players),
            save.seed,
            names=[seat.name for seat in save.players],
            colours=[seat.colour for seat in save.players],
            deal=save.deal,
        )
    except ValueError as exc:
        raise load_error(path, f"the players are wrong: {tame(str(exc))}") from None
    states = [state]
    for number, action in enumerate(save.actions, start=1):
        spaces = len(getattr(action, "spaces", ()))
        if spaces > MAX_ACTION_SPACES:
            raise load_error(
                path, f"action {number} of the log is malformed: it names {spaces} spaces"
            )
        try:
            state = core.apply_action(state, action)
        except core.MalformedActionError as exc:  # first: it is an IllegalActionError too
            raise load_error(
                path, f"action {number} of the log is malformed: {tame(str(exc))}"
            ) from None
        except core.IllegalActionError as exc:
            raise load_error(
                path,
                f"action {number} of the log ({_notation(action)}) is not legal: {tame(str(exc))}",
            ) from None
        states.append(state)
    return states


def _notation(action: core.Action) -> str:
    """The action in notation, cut short."""
    try:
        return cut(core.format_action(action))
    except core.MalformedActionError:
        return cut(repr(action))
