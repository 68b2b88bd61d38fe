"""How a coached first game (issue 28, :mod:`tui.coach`) is started, and how a coached game
gets its coach again when it is reopened, days later or through another door.

A coached game is one of the player's: their lesson progress (``saves.lessons``, beside
their saves; through a door, the door's player's own) remembers each coached game by what
identifies it (:func:`save_game`, :func:`table_game`), with the notes it has shown and
whether its coaching was turned off. Opening any game asks :func:`coach_for`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import core
import saves
from tui.coach import Coach

if TYPE_CHECKING:
    from pathlib import Path

    from textual.notifications import SeverityLevel

    from tui.local_games import LocalGames


def save_game(name: str) -> str:
    """How a coached game saved on this machine as ``name`` is remembered."""
    return f"save:{name}"


def table_game(where: str, table: int) -> str:
    """How a coached game at table ``table`` of the server at ``where`` is remembered."""
    return f"table:{where}:{table}"


class CoachedApp(Protocol):
    """What :func:`coach_for` needs of the app: the save folder (the lesson progress is
    beside it) and a way to say a problem."""

    store: saves.SaveStore

    def notify(self, message: str, *, severity: SeverityLevel = ...) -> None: ...


def progress(save_folder: Path) -> saves.LessonProgress:
    """The players' progress, beside the save folder ``save_folder`` (so ``--save-dir``
    moves it too, as ``mykerinos learn --list`` reads it); through a door, the door's
    player's own."""
    return saves.LessonProgress(saves.lessons_folder(str(save_folder)))


def coach_for(app: CoachedApp, game: str, player: str, *, new: bool = False) -> Coach | None:
    """The coach of ``game`` (see :func:`save_game`, :func:`table_game`) when it is one
    of ``player``'s coached games (the name they play it under: a saved game's human seat,
    a table's player), going on from where it was left (the player's lesson progress keeps
    it, see ``saves.lessons``); None for any other game. ``new``: ``game`` becomes a
    coached game of ``player`` now."""
    kept = progress(app.store.folder)
    record = () if new else kept.coached(player, game)
    if record is None:
        return None
    failed = False

    def keep(record: tuple[str, ...]) -> None:
        nonlocal failed
        try:
            kept.keep_coached(player, game, record)
        except (OSError, saves.SaveError) as exc:
            if not failed:  # said once: the game is coached all the same
                app.notify(f"The coaching was not kept: {exc}", severity="warning")
            failed = True

    if new:
        keep(record)
    return Coach(record, keep)


def start_coached_game(app: LocalGames, name: str = "Ann") -> None:
    """A new game for the player ``name`` (a valid player name, seat 1) against one easy
    computer, with coaching on: on this machine, saved like any game; in a door's
    session, at the table server (:func:`start_coached_table`), where a door's games are."""
    from table.local import LocalSeat
    from tui.screens.game import GameScreen

    if app.server_only:
        app.run_worker(start_coached_table(app), group="coached", exclusive=True)
        return
    seats = [
        saves.SeatConfig(name, core.Colour.BLUE, "human"),
        saves.SeatConfig(
            "Ben" if name.lower() != "ben" else "Cleo", core.Colour.RED, "computer", "easy"
        ),
    ]
    try:
        cards = app.cards[1] if app.cards is not None else None
        session = saves.Session.new(app.store, seats, seed=app.seed, cards=cards)
    except (saves.SaveError, ValueError) as exc:
        app.notify(str(exc), title="Cannot start", severity="error", timeout=10)
        return
    app.session = session
    seat = LocalSeat(session, pace=app.computer_pause, take_over=app.store.take_over)
    app.show_main(GameScreen(seat, coach=coach_for(app, save_game(session.name), name, new=True)))


COACHED_TABLE = "First game (coached)"
"""The title of a coached game's table at the server."""


async def start_coached_table(app: LocalGames) -> None:
    """A coached game at the table server of a door's session: a new table of the door's
    player against one easy computer, sat at at once; a refusal is said, nothing more."""
    from table import protocol as wire
    from table.client.directory import TableUnavailable
    from table.seat import SeatError
    from tui.screens.game import GameScreen

    directory = app.directory
    if directory is None:
        app.notify("The table server does not answer: try again in a moment.")
        return
    seats = (
        wire.SeatSpec("player", name=directory.player),
        wire.SeatSpec("computer", level="easy"),
    )
    try:
        table = await directory.create(seats, title=COACHED_TABLE)
        seat = await directory.sit(table.id)
    except (TableUnavailable, SeatError) as exc:
        app.notify(str(exc), title="Cannot start", severity="error", timeout=10)
        return
    coach = coach_for(app, table_game(directory.where, table.id), directory.player, new=True)
    app.keep_last_table(table.id)
    app.show_main(GameScreen(seat, coach=coach))
