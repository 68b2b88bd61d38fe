"""Told away from the terminal, as players would be: a table of three over the SSH door,
the player whose turn it is leaves (their ssh client killed), and after their delay the
notice reaches a real SMTP server (aiosmtpd) and an ntfy stand-in on loopback; they come
back by the ``ssh -p … host`` line in it, to their turn. The others, present, are told
nothing."""

from __future__ import annotations

import getpass
import re
import signal
import tempfile
import time
from email.message import Message
from pathlib import Path

from table import protocol as wire
from table.store.notices import NoticeStore
from tests.door.conftest import HOST, Door, free_port
from tests.table_notices.helpers import confirmed
from tests.table_notices.receivers import HttpReceiver, Post, SmtpReceiver, settle
from tests.table_server.bots import create

NAMES = ("ann", "bob", "cleo")
DELAY = 2.0
"""Seconds of a turn before its player, away, is told (set in the store: the lobby's
least is a minute)."""


async def test_a_player_who_leaves_on_their_turn_is_told_and_comes_back_by_its_line() -> None:
    with (
        tempfile.TemporaryDirectory(prefix="myk-door-", dir="/tmp") as folder,
        SmtpReceiver() as smtp,
        HttpReceiver() as ntfy,
    ):
        port = free_port()
        settings = Path(folder) / "notices.toml"
        settings.write_text(
            f'[smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nsecurity = "none"\n'
            'sender = "Mykerinos <games@example.org>"\n'
            f'[push]\nhosts = ["127.0.0.1:{ntfy.port}"]\nprivate = ["127.0.0.1/32"]\n'
            f'[come_back]\nssh = "ssh -p {port} {HOST}"\n'
        )
        door = Door(Path(folder), "--notices", str(settings), "--notice-tick", "0.1",
                    "--trust-account", getpass.getuser())  # fmt: skip
        try:
            door.start(port)
            store = NoticeStore(door.db)
            for name in NAMES:
                confirmed(store, name, "email", f"{name}@example.org")
                confirmed(store, name, "ntfy", ntfy.url(f"/{name}"))
                store.set_player(name, DELAY, False)
            keys = {name: door.player(name) for name in NAMES}
            seats = [wire.SeatSpec("player", name) for name in NAMES]
            terminals = {name: door.lobby(keys[name], name) for name in NAMES}
            await create(door.socket, "ann", seats)  # all three in the lobby: told nothing
            for name in NAMES:
                terminals[name].wait_for("your table. Enter: play.", 20)
                terminals[name].send("\r")
                terminals[name].wait_for("to decide", 30)
            [table] = door.tables()
            leaver = NAMES[table["turn"]]
            terminals[leaver].wait_for("choose an action", 30)
            left = time.monotonic()
            terminals[leaver].kill(signal.SIGKILL)

            def turn_mails(name: str) -> list[Message]:
                mine = [m for m in smtp.mails if m["To"] == f"{name}@example.org"]
                return [m for m in mine if "your turn" in m["Subject"]]

            def turn_posts(name: str) -> list[Post]:
                return [p for p in ntfy.posts
                        if p.path == f"/{name}" and "your turn" in p.headers["Title"]]  # fmt: skip

            def told() -> bool:
                return bool(turn_mails(leaver) and turn_posts(leaver))

            assert not told()  # nothing before they left
            settle(told, 60)
            arrived = time.monotonic() - left
            assert arrived >= DELAY
            (mail,), (post,) = turn_mails(leaver), turn_posts(leaver)
            text = str(mail.get_payload())
            assert f"{leaver}, it is your turn at table {table['id']}" in text
            line = re.search(r"ssh -p (\d+) (\S+)", text)
            assert line is not None and (int(line.group(1)), line.group(2)) == (port, HOST)
            assert post.headers["Title"].startswith(f"Mykerinos: your turn at table {table['id']}")
            others = [name for name in NAMES if name != leaver]
            assert not any(turn_mails(name) or turn_posts(name) for name in others)
            print(f"\n{leaver} left on their turn; told by e-mail and ntfy {arrived:.2f} s later "
                  f"(delay {DELAY} s)")  # fmt: skip
            back = door.ssh(keys[leaver])  # by the line in the notice: the door's port
            back.wait_for(f"{leaver} (", 30)
            back.wait_for("choose an action", 30)
            history = store.history(leaver)
            sent = [h for h in history if h[1] == "turn" and h[3] == "sent"]
            assert len(sent) == 2 and all(attempts == 1 for _, _, attempts, _, _ in sent)
            store.close()
        finally:
            door.stop()
        assert not door.crash_reports()
