"""Notices through a real table server process: a table of three over the protocol, a
player who leaves on their turn told by e-mail and ntfy after their delay, each notice
once by its id across a kill -9 (before the send, and between the send and its mark),
and the player's own requests (add, confirm by the code sent, refused addresses)."""

from __future__ import annotations

import asyncio
import re
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import pytest

from table import protocol as wire
from table import protocol_notices as notice
from table.client.connection import connect
from table.store.notices import NoticeStore
from tests.table_notices.receivers import HttpReceiver, Post, SmtpReceiver, settle
from tests.table_server.bots import WAIT, Bot, catch_up, create, played
from tests.table_server.process import Server

DELAY = 1.5
"""Seconds of ben's turn before he is told (set in the store: the lobby's least is 60)."""
NAMES = ("alice", "ben", "cleo")


@dataclass
class Rig:
    server: Server
    smtp: SmtpReceiver
    ntfy: HttpReceiver


@pytest.fixture
def rig() -> Iterator[Rig]:
    with (
        tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder,
        SmtpReceiver() as smtp,
        HttpReceiver() as ntfy,
    ):
        settings = Path(folder) / "notices.toml"
        settings.write_text(
            f'[smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nsecurity = "none"\n'
            'sender = "Mykerinos <games@example.org>"\n'
            f'[push]\nhosts = ["127.0.0.1:{ntfy.port}"]\nprivate = ["127.0.0.1/32"]\n'
            '[come_back]\nssh = "ssh -p 2222 games.example.org"\n'
        )
        options = ("--notices", str(settings), "--notice-tick", "0.1", "--notice-backoff", "0.2")
        server = Server(Path(folder), options=options)
        server.start()
        try:
            yield Rig(server, smtp, ntfy)
        finally:
            server.stop()


async def ask(socket: Path, player: str, message: notice.NoticeRequest) -> wire.ServerMessage:
    connection = await connect(socket, player)
    try:
        return await asyncio.wait_for(connection.ask(message), WAIT)
    finally:
        await connection.close()


async def sign_up(rig: Rig, player: str) -> None:
    """``player`` adds an e-mail address and an ntfy topic, and confirms each with the
    code sent there; then chooses a short delay."""
    socket = rig.server.socket
    answer = await ask(socket, player, notice.NoticeAdd(1, "email", f"{player}@example.org"))
    assert isinstance(answer, notice.NoticeState), answer
    assert "code was sent" in answer.said
    mail = settle(lambda: [m for m in rig.smtp.mails if m["To"] == f"{player}@example.org"])[-1]
    code = re.search(r"The code: (\d{6})", str(mail.get_payload()))
    assert code is not None
    url = rig.ntfy.url(f"/{player}")
    answer = await ask(socket, player, notice.NoticeAdd(2, "ntfy", url))
    assert isinstance(answer, notice.NoticeState)
    post = settle(lambda: [p for p in rig.ntfy.posts if p.path == f"/{player}"])[-1]
    push_code = re.search(rb"The code: (\d{6})", post.body)
    assert push_code is not None
    email_id, ntfy_id = (c.id for c in answer.channels)
    wrong = await ask(socket, player, notice.NoticeConfirm(3, ntfy_id, "000000"))
    assert isinstance(wrong, notice.NoticeState) and "not the code" in wrong.said
    for channel, typed in ((email_id, code.group(1)), (ntfy_id, push_code.group(1).decode())):
        answer = await ask(socket, player, notice.NoticeConfirm(4, channel, typed))
        assert isinstance(answer, notice.NoticeState) and answer.said.startswith("Confirmed")
    assert all(c.confirmed for c in answer.channels)
    store = NoticeStore(rig.server.db)
    store.set_player(player, DELAY, False)
    store.close()


async def table_of_three(rig: Rig) -> tuple[int, list[Bot]]:
    socket = rig.server.socket
    seats = [wire.SeatSpec("player", name) for name in NAMES]
    table = await create(socket, "alice", seats)
    bots = [await Bot.join(socket, name, table, seed) for seed, name in enumerate(NAMES)]
    return table, bots


async def until_bens_turn(bots: list[Bot]) -> None:
    """Play until it is ben's turn (he plays his own turns meanwhile)."""
    for _ in range(200):
        mover = next(b for b in bots if b.my_turn())
        if mover is bots[1] and len(mover.actions) > 0:
            return
        assert played(await mover.play_one())
        await catch_up(bots)
    raise AssertionError("ben's turn never came")


def told(rig: Rig, table: int) -> tuple[list[Message], list[Post]]:
    mails = [m for m in rig.smtp.mails if f"your turn at table {table}" in str(m.get_payload())]
    posts = [p for p in rig.ntfy.posts if p.path == "/ben" and b"your turn" in p.body]
    return mails, posts


async def test_a_player_who_leaves_on_their_turn_is_told_and_comes_back(rig: Rig) -> None:
    await sign_up(rig, "ben")
    refused = await ask(rig.server.socket, "ben",
                        notice.NoticeAdd(5, "webhook", "http://10.0.0.7/hook"))  # fmt: skip
    assert isinstance(refused, wire.Error) and "does not post to 10.0.0.7" in refused.reason
    table, bots = await table_of_three(rig)
    await until_bens_turn(bots)
    await bots[1].connection.close()
    left = time.monotonic()
    mails, posts = settle(lambda: all(told(rig, table)) and told(rig, table))
    arrived = time.monotonic() - left
    (mail,), (post,) = mails, posts
    text = str(mail.get_payload())
    assert "ssh -p 2222 games.example.org" in text
    assert "To stop every notice" in text and "ticket" not in text and "alice@" not in text
    assert post.headers["Title"].startswith(f"Mykerinos: your turn at table {table}")
    print(f"\nben left on his turn; told after {arrived:.2f} s (delay {DELAY} s, counted "
          "from the turn's start)")  # fmt: skip
    back = await Bot.join(rig.server.socket, "ben", table, 1)  # he comes back
    assert back.my_turn()
    store = NoticeStore(rig.server.db)
    assert [row for row in store.due(time.time() + 3600) if row.kind == "turn"] == []
    store.close()
    assert told(rig, table) == ([mail], [post])  # once a turn


async def test_a_kill_9_before_the_send_loses_no_notice_and_sends_it_once(rig: Rig) -> None:
    await sign_up(rig, "ben")
    store = NoticeStore(rig.server.db)
    store.set_player("ben", 4.0, False)  # long enough to kill the server first
    table, bots = await table_of_three(rig)
    await until_bens_turn(bots)
    pending = [row for row in store.due(time.time() + 60) if row.kind == "turn"]
    assert pending, "the notice was not written with the move"
    for bot in bots:
        await bot.connection.close()
    rig.server.kill()
    rig.server.start()
    mails, posts = settle(lambda: all(told(rig, table)) and told(rig, table))
    assert len(mails) == len(posts) == 1

    def marked() -> list[tuple[int, str]]:
        history = [h for h in store.history("ben") if h[1] == "turn"][-2:]
        done = [(attempts, state) for _, _, attempts, state, _ in history]
        return done if "pending" not in [state for _, state in done] else []

    assert settle(marked) == [(1, "sent")] * 2  # each sent once: one try each
    store.close()


async def test_a_kill_9_between_the_send_and_its_mark_repeats_the_same_id(rig: Rig) -> None:
    await sign_up(rig, "ben")
    table, bots = await table_of_three(rig)
    rig.ntfy.hold.clear()  # the topic takes the notice and does not answer yet
    await until_bens_turn(bots)
    for bot in bots:
        await bot.connection.close()
    settle(lambda: told(rig, table)[1])
    rig.server.kill()
    rig.ntfy.hold.set()
    rig.server.start()
    settle(lambda: len(told(rig, table)[1]) >= 2)
    posts = told(rig, table)[1]
    ids = {p.headers["X-Message-Id"] for p in posts}
    assert len(posts) == 2 and len(ids) == 1  # sent again, and the receiver drops it by id
    mails = settle(lambda: told(rig, table)[0])
    assert len({m["Message-ID"] for m in mails}) == 1
