"""``mykerinos players …`` and ``mykerinos invite``: the host names players by their SSH
keys and invites friends whose key is not known yet, or who play in a browser through the
web door (``invite --web`` prints a link; see :mod:`table.host.players`).

They write the server's store directly, so they work whether or not the server runs, and
only for the account that can write the store. A mistake (a bad key file, a bad name, a
store that cannot be opened) is one line on stderr and exit status 2, never a traceback;
every name or comment read from the store or a file is printed escaped
(:func:`saves.text.shown`), so a hostile one cannot send escape sequences to the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from saves.text import printable, shown
from table.host.players import (
    DEFAULT_DAYS,
    MAX_KEYS_TEXT,
    Key,
    Players,
    PlayersError,
    when,
    who,
)
from table.store import StoreError

DEFAULT_SSH_PORT = 2222
"""The SSH door's port in the invitation's hint until a door has opened on this store."""
DEFAULT_WEB_PORT = 8080
"""The web door's port in an invitation's link until a web door has opened on this store."""
MAX_WEB_URL = 2000
"""Characters of the web door's URL file worth reading."""
USAGE_ERROR = 2


class Usage(Exception):
    """A command-line mistake; ``str`` is the line to print."""


class _Parser(argparse.ArgumentParser):
    """argparse, with a mistake as one line (no usage block) for :func:`main` to print."""

    def error(self, message: str) -> NoReturn:
        raise Usage(f"{printable(message)} (see `{self.prog} --help`)")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """``argv`` starts with ``players`` or ``invite``."""
    parser = _Parser(prog="mykerinos", add_help=False)
    commands = parser.add_subparsers(dest="command", required=True)
    players = commands.add_parser(
        "players", help="players known by their SSH keys",
        description="The players who come in through the SSH door, known by their SSH keys "
        "(`mykerinos players ACTION --help` for each action).",
    )  # fmt: skip
    actions = players.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="give a player the keys of an OpenSSH .pub file")
    add.add_argument("name", help="the player's name at the tables")
    add.add_argument("keyfile", help="the public key file (- for standard input)")
    actions.add_parser("list", help="the players and their keys, and open invitations")
    remove = actions.add_parser("remove", help="take away a player's keys (all, or one)")
    remove.add_argument("name")
    remove.add_argument("key", nargs="*", help="a fingerprint (SHA256:…) or a key line")
    invite = commands.add_parser(
        "invite", help="a one-time code that makes a new key (or a browser) NAME's",
        description="Print a one-time code that makes the next new SSH key that brings it "
        "NAME's, and how to use it; with --web, also a link that signs a browser in as NAME.",
    )  # fmt: skip
    invite.add_argument(
        "name", nargs="?", help="the friend's name at the tables (not with --watch)"
    )
    invite.add_argument(
        "--web", action="store_true",
        help="also print a link that signs a browser in through the web door",
    )  # fmt: skip
    invite.add_argument(
        "--watch", type=int, metavar="TABLE",
        help="instead, a link for a browser to watch TABLE only, read-only, without a seat",
    )  # fmt: skip
    invite.add_argument(
        "--days", type=float, default=DEFAULT_DAYS,
        help=f"how long the code is valid (default {DEFAULT_DAYS})",
    )  # fmt: skip
    for command in (add, actions.choices["list"], remove, invite):
        command.add_argument("--db", metavar="PATH", help="the store (default: the server's)")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    """Run ``players …`` or ``invite …``; returns the exit status."""
    prog = f"mykerinos {argv[0]}" if argv else "mykerinos"
    try:
        args = parse_args(argv)
        return _run(args)
    except (Usage, PlayersError) as exc:
        print(f"{prog}: {printable(str(exc))}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:  # `invite NAME | head -1`: the reader had what it wanted
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, sys.stdout.fileno())  # nor a second complaint at exit
        os.close(quiet)
        return 0
    except (StoreError, OSError) as exc:  # the store failed under us (a full disk…)
        print(f"{prog}: the store failed: {printable(str(exc))}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    db = _db(args.db)
    if args.command == "invite":
        if (args.name is None) == (args.watch is None):
            raise Usage("give a player's NAME, or --watch TABLE")
        with Players(db) as players:
            if args.watch is not None:
                return _invite_watch(players, args.watch, args.days, db.parent)
            if args.web:
                return _invite_web(players, args.name, args.days, db.parent)
            return _invite(players, args.name, args.days, db.parent)
    if args.action == "list" and not db.exists():
        print(f"No players known by their keys yet (no store at {printable(str(db))}).")
        return 0
    keys_text = _read_keys(args.keyfile) if args.action == "add" else ""
    with Players(db) as players:
        if args.action == "add":
            return _add(players, args.name, keys_text)
        if args.action == "remove":
            return _remove(players, args.name, " ".join(args.key) or None)
        return _list(players)


def _db(option: str | None) -> Path:
    if option:
        return Path(option)
    from table.serve import default_db

    return default_db()


def _read_keys(path: str) -> str:
    """The text of the key file ``path`` (``-``: standard input), or :class:`Usage`."""
    shown_path = printable(path)
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_KEYS_TEXT + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(MAX_KEYS_TEXT + 1)
    except OSError as exc:
        raise Usage(f"cannot read the key file {shown_path}: {exc.strerror or exc}") from None
    if len(data) > MAX_KEYS_TEXT:
        raise Usage(f"the key file {shown_path} is over {MAX_KEYS_TEXT} bytes")
    if b"PRIVATE KEY" in data:
        raise Usage(f"{shown_path} is a private key: give its .pub file (and keep it secret)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Usage(f"the key file {shown_path} is not UTF-8 text") from None


def _add(players: Players, name: str, keys_text: str) -> int:
    keys = players.add(name, keys_text)
    owner = shown(name.strip())
    warn_if_login(name.strip())
    for key in keys:
        print(f"{owner}: {_key_words(key)}")
    return 0


def _remove(players: Players, name: str, key: str | None) -> int:
    """One key, or all of a player's keys and their web sessions (signed out at once)."""
    removed = players.remove(name, key)
    owner = shown(name.strip())
    if removed.keys == 0 and removed.web_sessions == 0:
        which = "no such key" if key else "no keys or web sessions"
        raise PlayersError(f"{owner} has {which} here")
    done = []
    if removed.keys:
        done.append(f"{_count(removed.keys, 'key')} removed")
    if removed.web_sessions:
        done.append(f"{_count(removed.web_sessions, 'web session')} ended")
    print(f"{owner}: {', '.join(done)}")
    return 0


def _list(players: Players) -> int:
    """Each player (by keys or by web sessions), then the invitations not used yet."""
    rows, invitations = dict(players.list()), players.invitations()
    sessions = dict(players.web_sessions())
    if not rows and not sessions:
        print("No players known by their keys yet.")
    for name in sorted(rows.keys() | sessions.keys()):
        print(who(name))
        for key in rows.get(name, []):
            print(f"  {_key_words(key)}, added {when(key.added)}")
        if name in sessions:
            print(f"  {_count(sessions[name], 'web session')}")
    if invitations:
        print("Invitations not used yet:")
    for invitation in invitations:
        print(f"  {who(invitation.name)}, valid until {when(invitation.expires)}")
    return 0


def _invite(players: Players, name: str, days: float, folder: Path) -> int:
    """The code on a line of its own (for scripts), then what to tell the friend: the
    door's port and host key as the last door on this store opened them."""
    code = players.invite(name, days)
    warn_if_login(name.strip())
    host = shown(socket.gethostname())
    port, key = door_seen(folder)
    print(code)
    print(
        f"For {shown(name.strip())}, once, for {days:g} days: ssh -p {port} {host}, "
        f"then type this code when asked."
    )
    if key:
        print(f"The door's host key, for them to check on first connecting: {key}")
    return 0


def _invite_web(players: Players, name: str, days: float, folder: Path) -> int:
    """The code on a line of its own, the link that redeems it on the next (both for
    scripts), then what the friend does with it; the link's address is the one the last
    web door on this store announced, or a guess said to be one."""
    code = players.invite(name, days)
    warn_if_login(name.strip())
    url = web_door_url(folder)
    print(code)
    print(f"{printable(url or default_web_url())}join?code={code}")
    print(
        f"For {shown(name.strip())}, once, for {days:g} days: opening the link signs one "
        f"browser in (or they paste the code on the door's page)."
    )
    if url is None:
        print(
            f"The link assumes `mykerinos serve --web {DEFAULT_WEB_PORT}` on this host "
            f"(no web door has opened on this store yet)."
        )
    return 0


def _invite_watch(players: Players, table: int, days: float, folder: Path) -> int:
    """The code and the link, as for ``invite --web``, to watch ``table`` only."""
    code = players.invite_watch(table, days)
    url = web_door_url(folder)
    print(code)
    print(f"{printable(url or default_web_url())}join?code={code}")
    print(
        f"To watch table {table}, once, for {days:g} days: opening the link signs one "
        "browser in as a spectator of that table only (no seat, no chat, no other table)."
    )
    return 0


def default_web_url() -> str:
    """The web door's address when none has opened on this store yet: this host's name
    and :data:`DEFAULT_WEB_PORT`."""
    return f"http://{socket.gethostname()}:{DEFAULT_WEB_PORT}/"


def web_door_url(folder: Path) -> str | None:
    """The public URL the web door last announced beside the store (its
    :data:`~table.doors.options.WEB_URL_FILE`), ending with ``/``; None when there is no
    such file or it does not hold one ``http(s)://`` URL on one line."""
    from table.doors.options import WEB_URL_FILE

    try:
        with open(folder / WEB_URL_FILE, encoding="utf-8") as file:
            text = file.read(MAX_WEB_URL + 1).strip()
    except (OSError, UnicodeDecodeError):
        return None
    if len(text) > MAX_WEB_URL or not text.startswith(("http://", "https://")):
        return None
    if any(char.isspace() or not char.isprintable() for char in text):
        return None
    return text if text.endswith("/") else f"{text}/"


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'s' if number != 1 else ''}"


def door_seen(folder: Path) -> tuple[int, str]:
    """The port the door last listened on (:data:`DEFAULT_SSH_PORT` if none has yet) and
    its host key's fingerprint ("" when it has none yet), from the files it keeps beside
    the store (:mod:`table.doors.options`)."""
    from table.doors.options import KEY_NAME, PORT_FILE

    port = DEFAULT_SSH_PORT
    with contextlib.suppress(OSError, ValueError):
        port = int((folder / PORT_FILE).read_text(encoding="ascii").strip())
    key = ""
    with contextlib.suppress(OSError, ValueError, PlayersError, IndexError):
        line = (folder / f"{KEY_NAME}.pub").read_text(encoding="ascii")
        key = Key.parse(line).fingerprint
    return port, key


def warn_if_login(name: str) -> None:
    """Say so (on stderr, the command goes on) when ``name`` is also a login on this host:
    at the tables a door's player and a login of one name are one player, so a friend
    named like the host's own account would play the host's seats."""
    try:
        pwd.getpwnam(name)
    except (KeyError, OSError):
        return
    print(
        f"mykerinos: note: {shown(name)} is also a login on this host: at the tables they "
        "are one player (give a friend a name of their own)",
        file=sys.stderr,
    )


def _key_words(key: Key) -> str:
    comment = f" {shown(key.comment, 60)}" if key.comment else ""
    return f"{key.fingerprint} {key.kind}{comment}"
