"""``mykerinos serve``: the table server's command line, its start and its stop.

Start: take the store's lock (one server per store, whatever its socket), open the
store (a table that cannot be read is set aside as damaged; only a file that is not a
store stops the start), start the computer players and wait until they have loaded the
rules, then listen under a temporary name and rename into place, so a client never finds
a socket that refuses it, nor a server still starting. Stop (SIGTERM, SIGINT): tell every
client, close, exit 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import ipaddress
import os
import signal
import sys
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from table.doors.options import AddressError, DoorLimits, parse_address
from table.server import log as server_log
from table.server.computers import Computers
from table.server.connections import Limits, fit_to_descriptors
from table.server.hub import Hub
from table.server.log import log, log_once
from table.server.writer import Writer
from table.store import StoreError, TableStore

if TYPE_CHECKING:
    from table.doors.zygote import Zygote
    from table.host.notices import NoticeSettings
    from table.server.notices import Sender

BACKLOG = 1024
"""Connections the kernel queues before the server accepts them: every client redials at
once after a restart (asyncio's default, 100, resets the rest)."""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="mykerinos serve", description="Run the Mykerinos table server."
    )
    parser.add_argument("--socket", metavar="PATH", help="the Unix socket to listen on")
    parser.add_argument("--db", metavar="PATH", help="the store (an SQLite file)")
    parser.add_argument(
        "--trust-account", metavar="LOGIN", action="append", default=[],
        help="a shared game account whose clients name their players (repeatable)",
    )  # fmt: skip
    parser.add_argument(
        "--workers", type=int, default=1, help="processes for hard computer players (default 1)"
    )
    parser.add_argument(
        "--max-tables", type=int, default=Limits.open_tables, metavar="N",
        help=f"tables not yet over that one player may create (default {Limits.open_tables})",
    )  # fmt: skip
    parser.add_argument(
        "--max-connections", type=int, default=Limits.connections, metavar="N",
        help=f"connections one player may hold (default {Limits.connections})",
    )  # fmt: skip
    parser.add_argument(
        "--ssh", metavar="[HOST:]PORT",
        help="open the SSH door there too: players come in by their keys (e.g. 2222)",
    )  # fmt: skip
    parser.add_argument(
        "--web", metavar="[HOST:]PORT",
        help="open the web door there too: the game in a browser tab (e.g. 8080)",
    )  # fmt: skip
    parser.add_argument(
        "--web-url", metavar="URL",
        help="the web door's public address behind a reverse proxy (https://host/mykerinos/)",
    )  # fmt: skip
    parser.add_argument(
        "--web-proxy", metavar="ADDRESS",
        help="the reverse proxy's IP address (e.g. 127.0.0.1): only its X-Forwarded-For "
        "is believed (default: nobody's)",
    )  # fmt: skip
    parser.add_argument(
        "--sessions", "--ssh-sessions", type=int, default=DoorLimits.sessions, metavar="N",
        help=f"sessions open through the doors at once (default {DoorLimits.sessions})",
    )  # fmt: skip
    parser.add_argument(
        "--sessions-per-player", "--ssh-sessions-per-player", type=int,
        default=DoorLimits.sessions_per_player, metavar="N",
        help=f"door sessions of one player at once (default {DoorLimits.sessions_per_player})",
    )  # fmt: skip
    # Tests and benches only: each door session a new interpreter, as before issue 29.
    parser.add_argument("--cold-sessions", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--notices", metavar="FILE",
        help="e-mail and push notices of a player's turn: the SMTP relay and the push "
        "hosts allowed (a TOML file: see docs/table-server.md)",
    )  # fmt: skip
    # Tests only: the sender's longest sleep and its first backoff, in seconds.
    parser.add_argument("--notice-tick", type=float, default=30.0, help=argparse.SUPPRESS)
    parser.add_argument("--notice-backoff", type=float, default=60.0, help=argparse.SUPPRESS)
    # Tests only: each commit sleeps this long first, so that requests interleave.
    parser.add_argument("--commit-delay", type=float, default=0.0, help=argparse.SUPPRESS)
    # Tests only: the seconds in a minute of a pause, so that one runs out within a test.
    parser.add_argument("--minute", type=float, default=60.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    for option in ("ssh", "web"):
        if getattr(args, option) is not None:
            try:
                setattr(args, option, parse_address(getattr(args, option)))
            except AddressError as exc:
                parser.error(f"--{option}: {exc}")
    if args.web_url is not None:
        if args.web is None:
            parser.error("--web-url: give --web too (where the door listens)")
        if not args.web_url.startswith(("http://", "https://")):
            parser.error("--web-url: an http:// or https:// address")
        args.web_url = args.web_url.rstrip("/") + "/"
    if args.web_proxy is not None:
        if args.web is None:
            parser.error("--web-proxy: give --web too (the door behind that proxy)")
        try:
            args.web_proxy = str(ipaddress.ip_address(args.web_proxy))
        except ValueError:
            parser.error(f"--web-proxy: not an IP address: {args.web_proxy!a}")
    return args


def default_db() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("mykerinos", appauthor=False)) / "tables.db"


class StoreLocked(Exception):
    """Another server holds the store; ``str`` names it."""


def hold_store(db: Path) -> IO[str]:
    """The store's lock, held until the returned file is closed (the process's end,
    kill -9 included): ``tables.db.lock`` beside the store, with the holder's pid."""
    db.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    lock = open(db.with_name(db.name + ".lock"), "a+")  # noqa: SIM115 - held for the server's life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = ""
        for _ in range(20):  # the holder writes its pid just after taking the lock
            lock.seek(0)
            holder = lock.read().strip()
            if holder:
                break
            time.sleep(0.025)
        lock.close()
        raise StoreLocked(
            f"another server (pid {holder or 'unknown'}) already uses the store {db}"
        ) from None
    lock.truncate(0)
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    return lock


async def serve(args: argparse.Namespace) -> int:
    from table.address import socket_path

    path = socket_path(args.socket)
    db = Path(args.db) if args.db else default_db()
    try:
        lock = hold_store(db)
    except (StoreLocked, OSError) as exc:
        print(f"mykerinos serve: {exc}", file=sys.stderr)
        return 1
    with lock:
        try:
            settings = _notice_settings(args.notices)
            store = TableStore(db)
            rows, ratings = store.tables(), store.ratings()
        except (StoreError, OSError, ValueError) as exc:
            print(f"mykerinos serve: {exc}", file=sys.stderr)
            return 1
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if path.exists():
            if await _answers(path):
                print(f"mykerinos serve: a server already listens on {path}", file=sys.stderr)
                return 1
            path.unlink()  # left by a server that was killed
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(_quiet)
        computers = Computers(max(1, args.workers))
        zygote = await _warm_process(args)
        await computers.ready()
        writer = Writer(store, args.commit_delay)
        limits = fit_to_descriptors(Limits(args.max_connections, args.max_tables))
        hub = Hub(rows, writer, ratings, args.trust_account, computers, limits, args.minute)
        sender = _notices(hub, db, settings, args)
        doors = _doors(hub, path, db, args, zygote)
        sending = loop.create_task(sender.run())
        try:
            for (name, address), door in doors:
                try:
                    await door.start(*address)
                except OSError as exc:
                    print(f"mykerinos serve: the {name} door cannot open: {exc}", file=sys.stderr)
                    return 1
            return await _listen(hub, path, store, [door for _, door in doors])
        finally:
            for _, door in doors:
                await door.stop()
            await asyncio.wait([sending, *sender.stop()], timeout=2)
            sender.close()
            if hub.notice_desk is not None:
                hub.notice_desk.close()
            if zygote is not None:
                await zygote.stop()
            computers.close()
            writer.close()
            store.close()


def _notice_settings(path: str | None) -> NoticeSettings:
    """The host's notice settings (none: no relay, no push host; ValueError says why)."""
    from table.host import notices

    if path is None:
        return notices.NoticeSettings()
    try:
        return notices.load(Path(path))
    except notices.SettingsError as exc:
        raise ValueError(f"--notices: {exc}") from None


def _notices(hub: Hub, db: Path, settings: NoticeSettings, args: argparse.Namespace) -> Sender:
    """The players' notices far from the terminal: their requests (the hub's desk) and
    the sender, each on a connection of its own to the store."""
    from table.server.notice_desk import NoticeDesk
    from table.server.notices import Sender, facts_of, table_name_of
    from table.store.notices import NoticeStore

    sender = Sender(
        NoticeStore(db), settings, lambda row: facts_of(hub, row),
        lambda table: table_name_of(hub, table), tick=args.notice_tick,
        backoff=args.notice_backoff,
    )  # fmt: skip
    hub.notice_desk = NoticeDesk(NoticeStore(db), settings, sender.wake)
    return sender


class Door(Protocol):
    """A door of the server (:mod:`table.doors.ssh`, :mod:`table.doors.web`)."""

    async def start(self, host: str | None, port: int) -> None: ...
    async def stop(self) -> None: ...


async def _warm_process(args: argparse.Namespace) -> Zygote | None:
    """The doors' warm process, which forks their games (:mod:`table.doors.zygote`):
    started when a door is asked for, unless ``--cold-sessions``."""
    if (args.ssh is None and args.web is None) or args.cold_sessions:
        return None
    from table.doors.zygote import Zygote

    zygote = Zygote()
    await zygote.open()
    return zygote


def _doors(
    hub: Hub, path: Path, db: Path, args: argparse.Namespace, zygote: Zygote | None
) -> list[tuple[tuple[str, tuple[str | None, int]], Door]]:
    """The doors asked for, each with its name and address; their modules (asyncssh,
    aiohttp) are loaded only then."""
    from table.doors.admissions import Admissions

    limits = DoorLimits(max(1, args.sessions), max(1, args.sessions_per_player))
    admissions = Admissions(hub, limits)  # one count of a player's sessions, both doors
    doors: list[tuple[tuple[str, tuple[str | None, int]], Door]] = []
    if args.ssh is not None:
        from table.doors.ssh.server import Door as SSHDoor

        ssh_door = SSHDoor(hub, path, db, admissions=admissions, zygote=zygote)
        doors.append((("SSH", args.ssh), ssh_door))
    if args.web is not None:
        from table.doors.web.server import WebDoor

        web_door = WebDoor(admissions, path, db, args.web_url, args.web_proxy, zygote)
        doors.append((("web", args.web), web_door))
    return doors


async def _listen(hub: Hub, path: Path, store: TableStore, doors: list[Door]) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    # Listen under a temporary name, then rename: the socket appears only once it
    # accepts, so a client that finds it is never refused by a server still starting.
    starting = path.with_name(f".{path.name}.{os.getpid()}")
    starting.unlink(missing_ok=True)
    listening = await asyncio.start_unix_server(
        hub.connected, str(starting), limit=2**17, backlog=BACKLOG
    )
    log(f"serving {len(hub.rooms)} tables on {path} (store {store.path})")
    server_log.flush()  # the start's lines (damaged tables…) are out before anyone is answered
    os.replace(starting, path)
    await hub.begin()
    await stop.wait()
    log("stopping")
    listening.close()
    for door in doors:
        await door.stop()  # first: their games would only redial a server that is going
    path.unlink(missing_ok=True)
    await hub.stop("the table server is stopping; this terminal reconnects when it is back")
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(listening.wait_closed(), 2)
    return 0


def _quiet(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's own errors in one line, at most once a minute for each kind (the
    descriptor limit reached makes asyncio report every accept it puts off)."""
    message = str(context.get("message", "event loop error"))
    error = context.get("exception")
    log_once(message, f"{message}: {error!r}" if error is not None else message)


async def _answers(path: Path) -> bool:
    try:
        _reader, writer = await asyncio.open_unix_connection(str(path))
    except OSError:
        return False
    writer.close()
    return True


def main(argv: list[str] | None = None) -> int:
    """``mykerinos serve`` (or ``python -m table.serve``)."""
    try:
        return asyncio.run(serve(parse_args(argv)))
    except KeyboardInterrupt:
        return 0
    finally:
        server_log.flush()


if __name__ == "__main__":
    raise SystemExit(main())
