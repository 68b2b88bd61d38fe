"""The `mykerinos` command: new game, resume or list saves (`mykerinos --help`).

Only the standard library is imported at the top: ESCDELAY must be set before Textual is
imported (Textual reads it once), and `--list` must not pay for loading the UI.

The game itself needs a terminal on stdin and stdout; without one (a pipe, a cron job, an
SSH command without -t) it says so on stderr and exits with status 2 instead of drawing
into the void. `--list` and `--help` work anywhere. Everything printed that comes from a
save file (names, titles, errors quoting it) is printed with the characters that do not
show as themselves escaped, so a hostile file cannot send escape sequences to a terminal.

Started by a door (``MYKERINOS_TICKET`` set: a remote player's session, running as the
host's account) it plays at the table server only, as the ticket's player; the options
for a game on this machine are refused.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from tui import collector

if TYPE_CHECKING:
    from textual.driver import Driver

    import saves
    from table.client.server_address import ServerAddress

SUBCOMMANDS = (
    ("serve", "run the table server, with doors for friends (--ssh, --web)"),
    ("status", "say in one line where it is your turn at the tables"),
    ("players", "the players who come in through the SSH door, by their keys"),
    ("invite", "a one-time code (with --web, a link) that lets a friend in"),
    ("analyse", "the computer's analysis of a finished game (NAME or FILE; --json)"),
    ("learn", "learn to play: lessons, then a coached game (--list: the lessons done)"),
)
"""The commands ``main`` hands on, with the line ``mykerinos --help`` shows for each: the
game's own parser never sees them, so its help names them (each has its own ``--help``)."""

SSH_ESCDELAY_MS = "400"
"""Over SSH an Esc and the bytes of an arrow key can arrive apart; wait longer for them."""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    from tui.options import seed_argument  # the one seed check (``analyse`` has it too)

    parser = argparse.ArgumentParser(
        prog="mykerinos",
        description="Mykerinos, the board game, in the terminal (2-4 players, keyboard only).",
        epilog=_subcommands_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--save-dir", metavar="DIR", help="folder of the saved games")
    parser.add_argument(
        "--resume", nargs="?", const="", metavar="NAME",
        help="resume a saved game (without NAME: the latest unfinished one)",
    )  # fmt: skip
    parser.add_argument("--list", action="store_true", help="list the saved games and exit")
    parser.add_argument(
        "--seed", type=seed_argument, help="seed of the new game's deal (replayable)"
    )
    parser.add_argument(
        "--socket", metavar="PATH",
        help="the table server's socket (default: $MYKERINOS_SOCKET, else your runtime folder)",
    )  # fmt: skip
    parser.add_argument(
        "--player", metavar="NAME",
        help="your name at the table server (a shared game account names its players)",
    )  # fmt: skip
    parser.add_argument(
        "--local", action="store_true", help="play on this machine even if a table server runs"
    )
    parser.add_argument(
        "--cards", metavar="FILE",
        help="play new games with the card faces of FILE (TOML, see docs/cards.md)",
    )  # fmt: skip
    # Set by the doors only (``ssh:PORT`` or ``web``): where a guest's export goes.
    parser.add_argument("--door", metavar="KIND", help=argparse.SUPPRESS)
    # A web door's watch link only: the table its session shows (see tui.shared_tables).
    parser.add_argument("--watch", type=int, metavar="TABLE", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def _subcommands_help() -> str:
    width = max(len(name) for name, _ in SUBCOMMANDS)
    lines = [f"  mykerinos {name:<{width}}  {line}" for name, line in SUBCOMMANDS]
    return "\n".join(["commands (each has its own --help, e.g. `mykerinos serve --help`):", *lines])


def set_escape_delay(environ: dict[str, str] | os._Environ[str] = os.environ) -> None:
    """A longer ESCDELAY over SSH, unless the player chose one."""
    over_ssh = environ.get("SSH_TTY") or environ.get("SSH_CONNECTION")
    if over_ssh and "ESCDELAY" not in environ:
        environ["ESCDELAY"] = SSH_ESCDELAY_MS


NO_TERMINAL = (
    "mykerinos: the game needs a terminal (stdin and stdout are not both one); "
    "use `ssh -t` to get one, or `mykerinos --list` to list the saved games"
)


def print_saves(folder_option: str | None) -> int:
    """`--list`: one line per save, newest first; 1 if the folder cannot be a save folder."""
    import saves

    store = saves.SaveStore(saves.default_folder(folder_option))
    folder = saves.printable(str(store.folder))
    problem = store.problem()
    if problem is not None:
        print(f"mykerinos: {saves.printable(problem)}.", file=sys.stderr)
        return 1
    rows = store.list()
    if not rows:
        print(f"No saved games in {folder}.")
        return 0
    print(f"Saved games in {folder} (newest first):")
    for row in rows:
        print(saves.printable(_row_line(row)))
    return 0


def _row_line(row: saves.SaveSummary) -> str:
    if row.error:
        return f"  {row.name:<24} damaged: {row.error}"
    when = row.updated.astimezone().strftime("%Y-%m-%d %H:%M")
    elsewhere = f" (open {row.open_elsewhere})" if row.open_elsewhere else ""
    return f"  {row.name:<24} {when}  {', '.join(row.players)} — {standing(row)}{elsewhere}"


def standing(row: saves.SaveSummary) -> str:
    """Where a game stands: ``season 2, leader Ben``; once over, who won by core's final
    scores (tie-break included): ``finished, won by Ann``, or ``finished, Ann and Ben
    share the win`` when the tie-break leaves them tied."""
    if not row.finished:
        return f"season {row.season}, leader {row.leader}" if row.leader else f"season {row.season}"
    if len(row.winners) > 1:
        return f"finished, {', '.join(row.winners[:-1])} and {row.winners[-1]} share the win"
    if row.winners:
        return f"finished, won by {row.winners[0]}"
    return "finished"


def has_terminal() -> bool:
    """Whether stdin and stdout are both terminals (the game draws on one, reads keys
    from it)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def main(argv: list[str] | None = None, driver: type[Driver] | None = None) -> int:
    """Run the game (or ``mykerinos serve …``, the table server, ``mykerinos status``,
    where it is your turn, ``mykerinos players …`` and ``mykerinos invite``, who may
    come in through a door, or ``mykerinos analyse``, a finished game's analysis);
    returns the process exit code. An unexpected error before or
    after the app runs (inside it, the app has its own report) prints one line saying
    where its crash report is, never a traceback, and exits 1."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:
        from table.serve import main as serve

        return serve(argv[1:])
    if argv[:1] == ["status"]:
        from table.client.status import main as status

        return status(argv[1:])
    if argv[:1] in (["players"], ["invite"]):
        from table.host.players_cli import main as players

        return players(argv)
    if argv[:1] == ["analyse"]:
        from tui.analyse_cli import main as analyse

        return analyse(argv[1:])
    if argv[:1] == ["learn"]:
        return learn(argv[1:], driver)
    args = parse_args(argv)
    try:
        return _run(args, driver)
    except Exception as error:  # the last line of defence: reported in full, on file
        from tui import crash

        print(f"mykerinos: {crash.one_line(crash.write_report(error))}", file=sys.stderr)
        return 1


def learn(argv: list[str], driver: type[Driver] | None = None) -> int:
    """``mykerinos learn``: the app on the list of lessons; ``--list`` prints the lessons
    with a mark on those the player has done (``tui.learn_cli.print_lessons``)."""
    parser = argparse.ArgumentParser(
        prog="mykerinos learn", description="Learn to play: lessons, then a coached game."
    )
    parser.add_argument("--list", action="store_true", help="list the lessons and exit")
    parser.add_argument("--player", metavar="NAME", help="whose lessons (default: you)")
    parser.add_argument("--save-dir", metavar="DIR", help="folder of the saved games")
    args = parser.parse_args(argv)
    from table.client import TICKET_ENV

    if os.environ.get(TICKET_ENV) is not None:  # a door's lobby has the lessons (l)
        print("mykerinos: a door's session plays at the table server only", file=sys.stderr)
        return 2
    if args.list:
        from saves.lessons import default_folder
        from tui import crash
        from tui.learn_cli import local_player, print_lessons

        player, folder = args.player or local_player(), default_folder(args.save_dir)
        return crash.printed(lambda: print_lessons(player, folder))
    if driver is None and not has_terminal():
        print(NO_TERMINAL, file=sys.stderr)
        return 2
    set_escape_delay()
    with collector.paused(driver is None):
        from table.address import socket_path
        from table.client.server_address import ServerAddress
        from tui.app import make_app

        # The address names the player (--player): the lessons never dial the server.
        server = ServerAddress(socket_path(None), args.player) if args.player else None
        app = make_app(args.save_dir, server=server, lessons=True)
        if driver is not None:
            app.driver_class = driver
        app.run()
        return app.return_code or 0


MAX_CARDS_FILE = 20_000
"""Bytes of a cards file (the built-in one is about 1,100)."""


def read_cards(path: str) -> tuple[str | None, list[str]]:
    """The text of the cards file ``path`` if it is a valid deck, else the problems, one
    sentence each."""
    import core
    import saves

    shown = saves.printable(path)
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_CARDS_FILE + 1)
    except OSError as exc:
        return None, [f"cannot read the cards file {shown}: {exc.strerror or exc}"]
    if len(data) > MAX_CARDS_FILE:
        return None, [f"the cards file {shown} is over {MAX_CARDS_FILE} bytes"]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, [f"the cards file {shown} is not UTF-8 text"]
    try:
        core.parse_cards(text)
    except core.CardsError as exc:
        return None, [f"{shown}: {saves.printable(problem)}" for problem in exc.problems]
    return text, []


DOOR_REFUSES = ("--local", "--seed", "--resume", "--cards")
"""The options for a game on this machine, which a door's session never plays."""


def door_refusal(args: argparse.Namespace) -> str | None:
    """Why a door's session cannot run with ``args`` (the door starts it with fixed
    arguments: this guards against one that does not), None if it can."""
    given = [args.local, args.seed is not None, args.resume is not None, args.cards is not None]
    refused = [option for option, used in zip(DOOR_REFUSES, given, strict=True) if used]
    if not refused:
        return None
    return f"{', '.join(refused)}: a door's session plays at the table server only"


def _run(args: argparse.Namespace, driver: type[Driver] | None = None) -> int:
    """The game; ``driver``: the Textual driver a door chose for its session (the web
    door's, under which there is no terminal), else the terminal's own."""
    from table.client import TICKET_ENV

    ticket = os.environ.get(TICKET_ENV)  # set, even empty: a door started this process
    if ticket is not None:
        refusal = door_refusal(args)
        if refusal is not None:
            print(f"mykerinos: {refusal}", file=sys.stderr)
            return 2
    if args.list:
        from tui import crash

        return crash.printed(lambda: print_saves(args.save_dir))
    cards = None
    if args.cards is not None:
        cards, problems = read_cards(args.cards)
        for problem in problems:
            print(f"mykerinos: {problem}", file=sys.stderr)
        if problems:
            return 2
    set_escape_delay()
    with collector.paused(driver is None and has_terminal()):
        return _play(args, driver, ticket, cards)


def _play(
    args: argparse.Namespace,
    driver: type[Driver] | None,
    ticket: str | None,
    cards: str | None,
) -> int:
    """The app of ``_run``'s checked arguments, run to its end."""
    from tui.app import make_app

    app = make_app(
        args.save_dir,
        seed=args.seed,
        resume=args.resume,
        server=_server_address(args, ticket),
        cards=(args.cards, cards) if cards is not None else None,
        server_only=ticket is not None,
        door=args.door if ticket is not None else None,
    )
    if app.load_error is not None:
        # A wrong --resume NAME is a command-line mistake: say so there, start nothing.
        print(f"mykerinos: {_one_line(app.load_error)}", file=sys.stderr)
        return 2
    if args.watch is not None and ticket is not None:
        app.watching = args.watch  # the door's ticket lets it watch that table only
    if driver is not None:
        app.driver_class = driver  # set here, never taken from TEXTUAL_DRIVER
    elif not has_terminal():
        if app.session is not None:
            app.session.close()
        print(NO_TERMINAL, file=sys.stderr)
        return 2
    app.run()
    if app.farewell is not None:
        print(f"mykerinos: {app.farewell}", file=sys.stderr)
    return app.return_code or 0


def _server_address(args: argparse.Namespace, ticket: str | None = None) -> ServerAddress | None:
    """Where to look for a table server: nowhere with ``--local``, a seed or a game to
    resume (those are about a game on this machine); with a door's ``ticket``, sent in
    every hello."""
    if args.local or args.seed is not None or args.resume is not None or args.cards:
        return None
    from table.address import socket_path
    from table.client.server_address import ServerAddress

    return ServerAddress(socket_path(args.socket), args.player, ticket)


def _one_line(message: str) -> str:
    import saves

    return saves.printable(" ".join(message.split()))


if __name__ == "__main__":
    sys.exit(main())
