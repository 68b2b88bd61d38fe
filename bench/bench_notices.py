"""Notices away from the terminal through a real server: how late after its due time a
turn's notice reaches an SMTP server (aiosmtpd) and an ntfy stand-in on loopback, with
TABLES tables at once, and how many tries a notice takes when its receiver is down for a
while (503), then how soon after it is up again it is delivered.

The server runs with ``--notice-tick 0.1 --notice-backoff 0.5`` (the sender's longest
sleep, and its first backoff, doubling); each player's delay is set to DELAY seconds in
the store (the lobby's least is a minute). The load average is printed before and after.

Run: .venv/bin/python bench/bench_notices.py
"""

from __future__ import annotations

import asyncio
import getpass
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from table import protocol as wire  # noqa: E402 - after the path, like the other benches
from table.client.connection import connect  # noqa: E402
from table.store.notices import NoticeStore  # noqa: E402
from tests.table_notices.helpers import confirmed  # noqa: E402
from tests.table_notices.receivers import HttpReceiver, SmtpReceiver, settle  # noqa: E402

TABLES = 12
DELAY = 2.0
DOWN = 6.0
"""Seconds the webhook answers 503 before it is up."""


async def create(socket: Path, names: tuple[str, str]) -> float:
    connection = await connect(socket, names[0])
    seats = tuple(wire.SeatSpec("player", name) for name in names)
    answer = await connection.ask(wire.CreateTable(connection.new_ref(), seats))
    await connection.close()
    assert isinstance(answer, wire.Lobby), answer
    return time.time()


def main() -> None:
    load = os.getloadavg()[0]
    with (
        tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder,
        SmtpReceiver() as smtp,
        HttpReceiver() as ntfy,
        HttpReceiver(answer=503) as hook,
    ):
        settings = Path(folder) / "notices.toml"
        settings.write_text(
            f'[smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nsecurity = "none"\n'
            'sender = "games@example.org"\n'
            f'[push]\nhosts = ["127.0.0.1:{ntfy.port}", "127.0.0.1:{hook.port}"]\n'
            'private = ["127.0.0.1/32"]\n'
        )
        db, socket = Path(folder) / "tables.db", Path(folder) / "t.sock"
        store = NoticeStore(db)
        players = [f"p{n}" for n in range(2 * TABLES)]
        for name in players:
            confirmed(store, name, "email", f"{name}@example.org")
            confirmed(store, name, "ntfy", ntfy.url(f"/{name}"))
            store.set_player(name, DELAY, False)
        for name in ("late", "late2"):  # whichever plays first is told
            confirmed(store, name, "webhook", hook.url(f"/{name}"))
            store.set_player(name, DELAY, False)
        server = subprocess.Popen(
            [sys.executable, "-m", "table.serve", "--socket", str(socket), "--db", str(db),
             "--trust-account", getpass.getuser(), "--notices", str(settings),
             "--notice-tick", "0.1", "--notice-backoff", "0.5"],
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            settle(socket.exists, 30)
            started = {}
            for n in range(TABLES):
                pair = (players[2 * n], players[2 * n + 1])
                started[pair] = asyncio.run(create(socket, pair))
            down_at = asyncio.run(create(socket, ("late", "late2")))
            settle(lambda: len(smtp.mails) >= TABLES, 120)
            settle(lambda: len([p for p in ntfy.posts if b"your turn" in p.body]) >= TABLES, 120)
            due = {name: at + DELAY for pair, at in started.items() for name in pair}
            late = [at - due[mail["To"].split("@")[0]] for mail, at in
                    zip(smtp.mails, smtp.keeper.times, strict=True)
                    if "your turn" in mail["Subject"]]  # fmt: skip
            late_push = [post.at - due[post.path.strip("/")] for post in ntfy.posts
                         if b"your turn" in post.body]  # fmt: skip
            for what, figures in (("e-mail", late), ("ntfy", late_push)):
                print(f"{len(figures)} {what} notices of {TABLES} tables (delay {DELAY} s): "
                      f"delivered after their due time by median "
                      f"{statistics.median(figures):.2f} s, max {max(figures):.2f} s")  # fmt: skip
            settle(lambda: len(hook.posts) >= 1, 60)
            time.sleep(max(0.0, down_at + DELAY + DOWN - time.time()))
            hook.answer = 200
            up = time.time()
            tries_before = len(hook.posts)
            settle(lambda: hook.posts[-1].at > up if hook.posts else False, 120)
            done = hook.posts[-1].at
            ids = {post.headers.get("X-Message-Id") for post in hook.posts}
            print(
                f"a webhook down (503) for {DOWN} s after its notice was due: "
                f"{tries_before} failed tries, delivered at try {len(hook.posts)}, "
                f"{done - up:.2f} s after it was up; {len(ids)} message id in all"
            )
        finally:
            server.terminate()
            server.wait(10)
            store.close()
    print(f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
