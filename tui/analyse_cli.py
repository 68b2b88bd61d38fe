"""`mykerinos analyse NAME|FILE`: the computer's analysis of a finished game, printed.

NAME is a saved game's name, found as ``--resume NAME`` finds it (in ``--save-dir``, else
``$MYKERINOS_SAVE_DIR``, else the user's save folder); anything that is not a save name
(``sunday.json``, ``~/exports/table-3.json``), or a valid name that is no save but a file,
is the path of a saved or exported game. A game still being played is refused (exit 2):
a game is analysed once it is over.

The analysis is kept with the game (merged with what was kept before, see
``saves.analysis``), so a second run is instant: in the save, or in FILE when it is a file
this user may write (atomically, moves untouched; a read-only file is analysed and printed,
and nothing is kept, which the command says). Ctrl+C stops, keeps what is done and prints
it (exit 130). Progress goes to stderr when stderr is a terminal; the report to stdout, in
words or (``--json``) as one JSON document::

    {"decisions": [{"index", "season", "player", "played", "best", "loss", "exact",
                    "values": {notation: margin}}],
     "players": {NAME: {"mean_loss", "mistakes", "blunders"}}}

Imports no Textual (standard library, core, saves and table.analysis): it runs where there
is no terminal. Everything printed that comes from the file (names, the title, an error
quoting it) is printed with what does not show as itself escaped.
"""

from __future__ import annotations

import argparse
import os
import shutil
import stat
import sys
import textwrap
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import msgspec

import core
import saves
from core.analysis import BLUNDER, MISTAKE, Analysis, Judgement, in_words, summarise
from core.analysis.report import turning_points
from saves.analysis import keep_in_file, kept_analysis, merged, read_game
from saves.replay import deck_of
from table.analysis import NOT_FINISHED, AnalysisRefused, Progress, analyse
from table.client import TICKET_ENV
from tui.options import seed_argument

PROG = "mykerinos analyse"
INTERRUPTED = 130
"""The exit status of a run stopped by Ctrl+C (128 + SIGINT), as shells expect."""
TURNING_POINTS = 5
WIDTH = 79
"""Columns of the report in words: it fits an 80-column terminal."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "The computer's analysis of a finished game: each decision judged in expected "
            "final margin (your final score minus the best opponent's, in points), from "
            "what the player could know. Kept with the game: a second look is instant."
        ),
    )
    parser.add_argument(
        "game", metavar="NAME|FILE",
        help="a saved game's name (as for --resume), or the path of a saved or exported game",
    )  # fmt: skip
    parser.add_argument("--player", metavar="NAME", help="only this player's decisions")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--save-dir", metavar="DIR", help="folder of the saved games")
    parser.add_argument(
        "--seed", type=seed_argument, metavar="N",
        help="seed of the simulations (default: the kept analysis's, else 0)",
    )  # fmt: skip
    return parser.parse_args(argv)


@dataclass
class Game:
    """A finished game read for analysis, and how to keep its analysis."""

    path: Path
    shown: str
    """How messages name it: its save name, or its path (printable)."""
    save: saves.SaveFile
    states: list[core.GameState]
    kept: Analysis | None
    note: str | None
    """Why the analysis kept in the file was left out, if it was."""
    keep: Callable[[Analysis], Analysis] | None
    """Keeps an analysis with the game and returns what is kept; None: read-only."""
    read_only: str | None = None
    """Why nothing is kept (a sentence), when ``keep`` is None."""


def find_game(spec: str, save_dir: str | None) -> Game:
    """The game named or at ``spec``; raises :class:`saves.SaveError`."""
    store = saves.SaveStore(saves.default_folder(save_dir))
    try:
        name = saves.check_name(spec)
    except saves.SaveError:
        name = None
    if name is not None and (os.path.lexists(store.path(name)) or not os.path.lexists(spec)):
        save, states, _, problem = store.read_noted(name)
        kept, note = kept_analysis(store.path(name), save, states, problem)
        actions = save.actions
        keep = lambda analysis: store.keep_analysis(name, analysis, actions)  # noqa: E731
        path, shown = store.path(name), saves.printable(repr(name))
        return _writable(Game(path, shown, save, states, kept, note, keep))
    path = Path(spec).expanduser()
    save, states, kept, note = read_game(path)
    actions = save.actions
    game = Game(path, saves.printable(str(path)), save, states, kept, note, None)
    game.keep = lambda analysis: keep_in_file(path, analysis, actions)
    return _writable(game)


def _writable(game: Game) -> Game:
    """``game``, read-only when its file is (no write permission for anyone, or not for
    this user): its analysis is then printed and not kept."""
    path = game.path
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return game
    if not stat.S_IMODE(mode) & 0o222 or not os.access(path, os.W_OK):
        game.keep = None
        game.read_only = f"{game.shown} is read-only: the analysis is printed, not kept"
    return game


def main(argv: list[str]) -> int:
    """Run the command; returns its exit status (0; 2 for a game that cannot be analysed
    or a wrong option; 130 when stopped by Ctrl+C; 1 when the analysis failed)."""
    args = parse_args(argv)
    if os.environ.get(TICKET_ENV) is not None:  # a door started this process
        _say("a door's session plays at the table server only")
        return 2
    from tui import crash

    try:
        return crash.printed(lambda: _run(args))
    except KeyboardInterrupt:  # before the analysis started: nothing to keep
        return INTERRUPTED
    except Exception as error:  # the last line of defence: reported in full, on file
        _say(crash.one_line(crash.write_report(error)))
        return 1


def _run(args: argparse.Namespace) -> int:
    try:
        game = find_game(args.game, args.save_dir)
    except saves.SaveError as exc:
        _say(str(exc))
        return 2
    if not core.is_over(game.states[-1]):
        _say(f"{game.shown} is not finished: {NOT_FINISHED}")
        return 2
    labels = player_labels(game.save.players)
    seats = None
    if args.player is not None:
        if args.player not in labels:
            names = ", ".join(saves.printable(repr(label)) for label in labels)
            _say(f"{game.shown} has no player {saves.printable(repr(args.player))}: {names}")
            return 2
        seats = (labels.index(args.player),)
    if game.note is not None:
        _say(game.note)
    with core.cards_in_use(deck_of(game.path, game.save)):
        return _analyse(game, args, labels, seats)


def _analyse(
    game: Game, args: argparse.Namespace, labels: list[str], seats: tuple[int, ...] | None
) -> int:
    seed = args.seed if args.seed is not None else game.kept.seed if game.kept else 0
    made, failed, interrupted = run_stoppably(game, seats, seed)
    if made is None:
        _say(failed or "the analysis failed")
        return 1
    whole = _kept(game, made)
    chosen = [j for j in whole.decisions if seats is None or j.seat in seats]
    if args.json:
        print(json_report(game, chosen, labels, seats).decode())
    else:
        print(text_report(game, chosen, labels, seats, made.complete))
    if failed:
        _say(failed)
        return 1
    return INTERRUPTED if interrupted else 0


def _kept(game: Game, made: Analysis) -> Analysis:
    """Keep ``made`` with the game; what is kept (or, when it cannot be, ``made`` merged
    with what was kept, as it would have been)."""
    if game.keep is None:
        if game.read_only:
            _say(game.read_only)
    else:
        try:
            kept = game.keep(made)
        except saves.SaveError as exc:
            _say(f"the analysis is printed, not kept: {exc}")
        else:
            if kept != game.kept:
                _say(f"the analysis is kept with the game in {saves.printable(str(game.path))}")
            return kept
    return merged(game.kept, made, game.save.actions, game.states)


def run_stoppably(
    game: Game, seats: tuple[int, ...] | None, seed: int
) -> tuple[Analysis | None, str | None, bool]:
    """Analyse in a thread, so that Ctrl+C in this one stops it and keeps what is done:
    the analysis (None if it failed outright), why it failed, and whether it was stopped."""
    stop, finished = threading.Event(), threading.Event()
    outcome: list[Analysis | AnalysisRefused] = []
    tty = _is_tty(sys.stderr)

    def run() -> None:
        try:
            outcome.append(
                analyse(
                    game.states[0],
                    game.save.actions,
                    seats=seats,
                    seed=seed,
                    kept=game.kept,
                    cards=game.save.cards,
                    progress=show_progress if tty else None,
                    stop=stop,
                )
            )
        except AnalysisRefused as exc:
            outcome.append(exc)
        finally:
            finished.set()

    thread = threading.Thread(target=run, name="analysis", daemon=True)
    thread.start()
    interrupted = False
    # An Event, not Thread.join: a join interrupted by Ctrl+C can leave the thread
    # looking finished (is_alive False) while it runs on, and its result would be lost.
    while not finished.is_set():
        try:
            finished.wait(0.2)
        except KeyboardInterrupt:
            interrupted = True
            stop.set()
    if tty:
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    if not outcome:
        return None, "the analysis ended without a result", interrupted
    result = outcome[0]
    if isinstance(result, AnalysisRefused):
        return result.partial, str(result), interrupted
    return result, None, interrupted


def show_progress(step: Progress) -> None:
    """One line on stderr, rewritten: decisions done, time left, how to stop."""
    if step.left is None:
        left = "estimating the time left"
    elif step.left < 90:
        left = f"about {max(1, round(step.left))} s left"
    else:
        left = f"about {round(step.left / 60)} min left"
    line = (
        f"Analysing: {step.done}/{step.total} decisions, {left} — Ctrl+C stops and keeps "
        "what is done"
    )
    width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
    print(f"\r{line[:width]}\x1b[K", end="", file=sys.stderr, flush=True)


def player_labels(players: list[saves.SeatConfig]) -> list[str]:
    """Each seat's name, with its colour when another seat has the same name."""
    names = [seat.name for seat in players]
    return [
        seat.name if names.count(seat.name) == 1 else f"{seat.name} ({seat.colour.value})"
        for seat in players
    ]


class DecisionReport(msgspec.Struct):
    index: int
    season: int
    player: str
    played: str
    best: str
    loss: float
    exact: bool
    values: dict[str, float]


class PlayerReport(msgspec.Struct):
    mean_loss: float
    mistakes: int
    blunders: int


class Report(msgspec.Struct):
    decisions: list[DecisionReport]
    players: dict[str, PlayerReport]


def json_report(
    game: Game, chosen: list[Judgement], labels: list[str], seats: tuple[int, ...] | None
) -> bytes:
    """The ``--json`` document of ``chosen`` (the judgements of ``seats``, all by default)."""
    decided = [
        DecisionReport(
            j.index, j.season, labels[j.seat], j.played, j.best, j.loss, j.exact, dict(j.values)
        )
        for j in chosen
    ]
    players = {}
    for seat in range(len(labels)) if seats is None else seats:
        summary = summarise(chosen, seat)
        players[labels[seat]] = PlayerReport(summary.mean_loss, summary.mistakes, summary.blunders)
    return msgspec.json.encode(Report(decided, players))


def text_report(
    game: Game,
    chosen: list[Judgement],
    labels: list[str],
    seats: tuple[int, ...] | None,
    complete: bool,
) -> str:
    """The report in words: whose decisions, each player's summary with the thresholds
    stated, the turning points in the game's words, and which were judged exactly."""
    shown = saves.printable
    everyone = range(len(labels)) if seats is None else seats
    lines = [
        _wrapped(
            f"The computer's analysis of {shown(repr(game.save.title))}: {len(chosen)} "
            "decisions judged. A decision is worth its expected final margin: the player's "
            "final score minus the best opponent's, in points. A decision losing at least "
            f"{MISTAKE:g} points is a mistake; at least {BLUNDER:g}, a blunder."
        ),
        "",
    ]
    width = max(len(shown(labels[seat])) for seat in everyone)
    for seat in everyone:
        summary = summarise(chosen, seat)
        lines.append(
            f"  {shown(labels[seat]):<{width}}  {summary.decisions:>3} decisions, "
            f"mean loss {summary.mean_loss:.2f}, {summary.mistakes} mistakes, "
            f"{summary.blunders} blunders"
        )
    turning = turning_points(chosen, count=TURNING_POINTS)
    lines += ["", "Turning points:" if turning else "No decision lost anything: no turning point."]
    for number, judgement in enumerate(turning, start=1):
        lines.append(_wrapped(f"  {number}. {shown(in_words(game.states, judgement))}", "     "))
    lines += ["", _wrapped(_exactness(chosen))]
    if not complete:
        lines.append("Stopped before the end: what was judged is shown, and kept.")
    return "\n".join(lines)


def _wrapped(text: str, indent: str = "") -> str:
    """``text`` in lines that fit an 80-column terminal."""
    return textwrap.fill(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False)


def _exactness(chosen: list[Judgement]) -> str:
    last = 0
    for judgement in reversed(chosen):
        if not judgement.exact:
            break
        last += 1
    if not chosen:
        return "No decision was judged."
    if last == 0:
        return "The last decision could not be searched exactly: every value is expected."
    exact = "The last decision was" if last == 1 else f"The last {last} decisions were"
    return (
        f"{exact} searched exactly (nothing hidden remained); the others are averages "
        "over simulations that redeal the parcels nobody had seen."
    )


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _say(message: str) -> None:
    print(f"mykerinos: {saves.printable(' '.join(message.split()))}", file=sys.stderr)
