"""The computer's analysis kept with a finished game: checked on load, merged and written
back without ever touching the game's moves.

A save's ``analysis`` (:class:`core.analysis.Analysis`) comes from a file, so it is checked
against the game it claims to judge before anything shows it (:func:`check_analysis`):
every judgement names an action of the log, in order, as it was played, by the player who
played it, and its numbers are coherent. One that fails is dropped, never the game: the
game loads and plays as before, without an analysis, and :func:`kept_analysis` says why in
a sentence a caller may show.

Keeping an analysis (:func:`keep_in_file`, ``SaveStore.keep_analysis``,
``Session.keep_analysis``) re-reads the file under the folder's write lock, refuses if its
moves are no longer the ones analysed, and writes the file's own document back with only
its ``analysis`` changed, atomically: a move is never lost nor changed by it, even when
another window plays the game (it writes between that window's saves, which take the same
lock). ``updated`` is not changed: analysing a game is not playing it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import msgspec

import core
from core.actions import to_code
from core.analysis import ANALYSIS_VERSION, Analysis, Judgement, decisions
from core.moves import legal_codes
from saves import lock
from saves.atomic import write_atomically
from saves.errors import SaveError, write_error
from saves.format import SaveFile, analysis_left_out, decode_game, encode
from saves.replay import replay
from saves.text import quoted

ROUNDING: Final = 0.002
"""Points a judgement's loss may differ from ``values[best] - values[played]``: each
value is rounded to 3 decimals, and the loss is rounded from the unrounded values."""


def check_analysis(
    analysis: Analysis, actions: Sequence[core.Action], states: Sequence[core.GameState]
) -> None:
    """Raise ``ValueError`` (a sentence) unless ``analysis`` can be an analysis of the
    finished game ``actions`` (``states`` its positions, one more than its actions)."""
    if not states or not core.is_over(states[-1]):
        raise ValueError("the game is not finished")
    players = len(states[0].players)
    if any(seat >= players for seat in analysis.seats):
        raise ValueError(f"it names a seat the game does not have ({players} players)")
    previous = -1
    for number, judgement in enumerate(analysis.decisions, start=1):
        where = f"judgement {number}"
        if not previous < judgement.index < len(actions):
            raise ValueError(
                f"{where} is of action {quoted(judgement.index)}, out of order or past the "
                f"game's {len(actions)} actions"
            )
        previous = judgement.index
        try:
            _check_judgement(judgement, actions[judgement.index], states[judgement.index])
        except ValueError as exc:
            raise ValueError(f"{where} (action {judgement.index + 1}) {exc}") from None
        if judgement.seat not in analysis.seats:
            raise ValueError(f"{where} is of a player the analysis was not asked for")
    judged = {judgement.index for judgement in analysis.decisions}
    asked = decisions(states, actions, analysis.seats)
    if analysis.complete and not judged.issuperset(asked):
        raise ValueError("it says it is complete, yet some decisions are not judged")


def _check_judgement(judgement: Judgement, action: core.Action, state: core.GameState) -> None:
    """Raise ``ValueError`` (the end of a sentence) unless ``judgement`` judges ``action``
    played in ``state``."""
    played = core.format_action(action)
    if judgement.played != played:
        raise ValueError(f"says {quoted(judgement.played)} was played, not {quoted(played)}")
    if judgement.seat != state.current or judgement.season != state.season:
        raise ValueError("names another player or season than the game's")
    legal = legal_codes(state)
    if len(legal) < 2:
        raise ValueError("judges an action that was the only one legal")
    for notation in judgement.values:
        try:
            code = to_code(core.parse_action(notation))
        except core.MalformedActionError:
            raise ValueError(f"values {quoted(notation)}, which is not an action") from None
        if code not in legal or core.format_action(core.parse_action(notation)) != notation:
            raise ValueError(f"values {quoted(notation)}, which was not legal there")
    values = judgement.values
    numbers = [*values.values(), *judgement.margins, judgement.loss]
    if not all(math.isfinite(number) for number in numbers):
        raise ValueError("holds a value that is not a number")
    if judgement.best not in values or played not in values:
        raise ValueError("does not value both what was played and the best action")
    if len(judgement.margins) != len(state.players):
        raise ValueError("does not give a margin for each player")
    best, loss = values[judgement.best], values[judgement.best] - values[played]
    if abs(judgement.loss - loss) > ROUNDING or any(v > best + ROUNDING for v in values.values()):
        raise ValueError("has a loss or a best action its values do not give")


def kept_analysis(
    path: Path, save: SaveFile, states: Sequence[core.GameState], problem: str | None = None
) -> tuple[Analysis | None, str | None]:
    """The analysis kept in ``save`` (of file ``path``; ``states`` its replay), or None and
    why it was left out (a sentence naming the file; None when there was none to leave
    out); ``problem`` is why decoding already left it out (see ``decode_game``)."""
    analysis = save.analysis
    if analysis is None:
        return None, problem
    try:
        check_analysis(analysis, save.actions, states)
    except ValueError as exc:
        return None, analysis_left_out(path, str(exc))
    return analysis, None


def merged(
    kept: Analysis | None,
    new: Analysis,
    actions: Sequence[core.Action],
    states: Sequence[core.GameState],
) -> Analysis:
    """What to keep once ``new`` is made, with ``kept`` already in the file.

    Of one version and seed, they are one analysis: every judgement of either (``new``'s
    where both judged a decision), for the players of either, complete when each of their
    decisions is judged. Otherwise one replaces the other: ``new``, unless ``kept`` is of
    this version and judges more decisions (a look with another seed stopped early never
    throws away a longer analysis)."""
    if kept is None:
        return new
    if kept.version == new.version and kept.seed == new.seed:
        judged = {j.index: j for j in kept.decisions} | {j.index: j for j in new.decisions}
        seats = tuple(sorted({*kept.seats, *new.seats}))
        wanted = decisions(states, actions, seats)
        return Analysis(
            version=new.version,
            seed=new.seed,
            seats=seats,
            decisions=tuple(judged[index] for index in sorted(judged)),
            complete=set(judged).issuperset(wanted),
        )
    if kept.version == ANALYSIS_VERSION and len(kept.decisions) > len(new.decisions):
        return kept
    return new


def read_game(path: Path) -> tuple[SaveFile, list[core.GameState], Analysis | None, str | None]:
    """The game saved or exported at ``path`` (a plain file, never through a link), its
    positions, its kept analysis and why that was dropped (see :func:`kept_analysis`).
    Raises :class:`SaveError` naming ``path`` for a file that is not a game."""
    from saves.store import read_capped

    data, _ = read_capped(path)
    save, problem = decode_game(path, data)
    states = replay(path, save)
    return (save, states, *kept_analysis(path, save, states, problem))


def keep_in_file(
    path: Path,
    analysis: Analysis,
    actions: Sequence[core.Action],
    *,
    save_folder: bool | None = None,
) -> Analysis:
    """Keep ``analysis`` of the game ``actions`` in the file at ``path`` (merged with the
    one kept there, see :func:`merged`); returns what is kept now.

    Under the folder's write lock when ``save_folder`` (None: when the folder already has
    one, as a save folder does; a lone exported file's folder gets no lock file), the file
    is read again and written back, atomically, with its moves as they are in it. Raises
    :class:`SaveError` naming ``path`` when the file does not load, its moves are not
    ``actions`` any more (nothing is written), or it cannot be written; ``ValueError``
    when ``analysis`` is not one of this game (a mistake of the caller's).
    """
    if save_folder is None:
        save_folder = (path.parent / lock.FOLDER_LOCK).exists()
    if not save_folder:
        return _keep(path, analysis, actions)
    try:
        with lock.writing(path.parent):
            return _keep(path, analysis, actions)
    except lock.CannotLock as exc:
        raise write_error(path, exc.problem) from None


def _keep(path: Path, analysis: Analysis, actions: Sequence[core.Action]) -> Analysis:
    save, states, kept, _ = read_game(path)
    if list(save.actions) != list(actions):
        raise SaveError(
            f"Cannot keep the analysis in {path}: its game changed since it was analysed "
            "(it was played on or taken back elsewhere); nothing was written.",
            path,
        )
    check_analysis(analysis, save.actions, states)
    keep = merged(kept, analysis, save.actions, states)
    if keep != kept:
        write_atomically(path, encode(msgspec.structs.replace(save, analysis=keep)))
    return keep


__all__ = [
    "ROUNDING",
    "check_analysis",
    "keep_in_file",
    "kept_analysis",
    "merged",
    "read_game",
]
