"""The `mykerinos` command: new game, resume or list saves (`mykerinos --help`).

Only the standard library is imported at the top: ESCDELAY must be set before Textual is
imported (Textual reads it once), and `--list` must not pay for loading the UI.
"""

from __future__ import annotations

import argparse
import os
import sys

SSH_ESCDELAY_MS = "400"
"""Over SSH an Esc and the bytes of an arrow key can arrive apart; wait longer for them."""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="mykerinos",
        description="Mykerinos, the board game, in the terminal (2-4 players, keyboard only).",
    )
    parser.add_argument("--save-dir", metavar="DIR", help="folder of the saved games")
    parser.add_argument(
        "--resume", nargs="?", const="", metavar="NAME",
        help="resume a saved game (without NAME: the latest unfinished one)",
    )  # fmt: skip
    parser.add_argument("--list", action="store_true", help="list the saved games and exit")
    parser.add_argument("--seed", type=int, help="seed of the new game's deal (replayable)")
    return parser.parse_args(argv)


def set_escape_delay(environ: dict[str, str] | os._Environ[str] = os.environ) -> None:
    """A longer ESCDELAY over SSH, unless the player chose one."""
    over_ssh = environ.get("SSH_TTY") or environ.get("SSH_CONNECTION")
    if over_ssh and "ESCDELAY" not in environ:
        environ["ESCDELAY"] = SSH_ESCDELAY_MS


def print_saves(folder_option: str | None) -> int:
    import saves

    store = saves.SaveStore(saves.default_folder(folder_option))
    rows = store.list()
    if not rows:
        print(f"No saved games in {store.folder}.")
        return 0
    print(f"Saved games in {store.folder} (newest first):")
    for row in rows:
        if row.error:
            print(f"  {row.name:<24} damaged: {row.error}")
            continue
        state = "finished" if row.finished else f"season {row.season}"
        leader = f", leader {row.leader}" if row.leader else ""
        when = row.updated.strftime("%Y-%m-%d %H:%M")
        print(f"  {row.name:<24} {when}  {', '.join(row.players)} — {state}{leader}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the game; returns the process exit code."""
    args = parse_args(argv)
    if args.list:
        return print_saves(args.save_dir)
    set_escape_delay()
    from tui.app import make_app

    app = make_app(args.save_dir, seed=args.seed, resume=args.resume)
    if app.load_error is not None:
        # A wrong --resume NAME is a command-line mistake: say so there, start nothing.
        print(f"mykerinos: {app.load_error}", file=sys.stderr)
        return 2
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
