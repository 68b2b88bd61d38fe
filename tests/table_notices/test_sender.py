"""The sender against real receivers on loopback: a turn told once, several tables in one
digest, a receiver down then up (retried with the same id, delivered), a dead receiver
delaying nobody else, and the notices the table's state drops or puts off."""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from table.host.notices import NoticeSettings
from table.notices.checks import AllowList
from table.notices.delivery import Relay
from table.notices.when import Facts
from table.notices.words import OFF_LINE, ComeBack
from table.server.notices import Sender
from table.store import TableStore
from table.store.notices import OutboxRow
from tests.table_notices.helpers import a_table, confirmed, stores, turn
from tests.table_notices.receivers import HttpReceiver, SmtpReceiver

LOOPBACK = (ipaddress.ip_network("127.0.0.1/32"),)
ROUNDS = 400
"""Rounds a test drives the sender at most (a bound, not a timing)."""


class World:
    """A store, the receivers, and the facts of each (table, seq) the sender is told."""

    def __init__(self, folder: Path, smtp: SmtpReceiver, http: HttpReceiver) -> None:
        self.store, self.notices = stores(folder)
        self.smtp, self.http = smtp, http
        self.table = a_table(self.store)
        self.facts: dict[tuple[int | None, int | None], Facts] = {}
        relay = Relay("127.0.0.1", smtp.port, "none", "Mykerinos <games@example.org>")
        allow = AllowList(frozenset({f"127.0.0.1:{http.port}"}), LOOPBACK)
        back = ComeBack("ssh -p 2222 games.example.org", "")
        self.sender = Sender(
            self.notices, NoticeSettings(relay, allow, back), self.fact,
            lambda table: f"evening {table}", tick=0.05, backoff=0.05,
        )  # fmt: skip

    def fact(self, row: OutboxRow) -> Facts:
        return self.facts.get((row.table, row.seq), Facts(True, False, None, 0.0, False))

    async def drive(self, until: object) -> None:
        """Rounds of the sender until ``until()`` holds (bounded in count)."""
        for _ in range(ROUNDS):
            await self.sender.round()
            await asyncio.sleep(0.02)
            if until():  # type: ignore[operator]
                return
        raise AssertionError("the sender never got there")


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with SmtpReceiver() as smtp, HttpReceiver() as http:
        made = World(tmp_path, smtp, http)
        yield made
        made.sender.close()


def _now_turn(world: World, seq: int, name: str = "ben", table: int | None = None) -> None:
    turn(world.store, table or world.table, seq, name, time.time() - 3600)


async def test_a_turn_is_told_once_by_email_and_push_and_says_how_to_come_back(
    world: World,
) -> None:
    confirmed(world.notices, "ben", "email", "ben@example.org")
    confirmed(world.notices, "ben", "ntfy", world.http.url("/ben"))
    _now_turn(world, 3)
    await world.drive(lambda: world.smtp.mails and world.http.posts)
    for _ in range(5):  # more rounds send nothing more
        await world.sender.round()
        await asyncio.sleep(0.02)
    (mail,) = world.smtp.mails
    (post,) = world.http.posts
    text = str(mail.get_payload())
    assert f"your turn at table {world.table}, evening {world.table}" in text
    assert "ssh -p 2222 games.example.org" in text and OFF_LINE in text
    assert "since 20" in text  # since when, as a date
    assert post.body.decode().startswith("ben, it is your turn at table")
    mail_id = mail["Message-ID"].strip("<>").split("@")[0]
    assert mail_id.startswith(f"turn.{world.table}.3.") and post.headers["X-Message-Id"].startswith(
        f"turn.{world.table}.3."
    )  # one id a channel, the same at every try
    assert [state for *_, state, _ in world.notices.history("ben")] == ["sent"] * 4


async def test_several_tables_waiting_go_as_one_digest_a_day(world: World) -> None:
    confirmed(world.notices, "ben", "ntfy", world.http.url("/ben"))
    second = a_table(world.store)
    _now_turn(world, 1)
    _now_turn(world, 4, table=second)
    await world.drive(lambda: world.http.posts)
    (post,) = world.http.posts
    assert post.headers["Title"] == "Mykerinos: 2 tables wait for your turn"
    assert f"table {world.table}" in post.body.decode() and f"table {second}" in post.body.decode()
    third, fourth = a_table(world.store), a_table(world.store)
    _now_turn(world, 2, table=third)
    _now_turn(world, 2, table=fourth)
    for _ in range(5):
        await world.sender.round()
        await asyncio.sleep(0.02)
    assert len(world.http.posts) == 1  # the next digest waits for tomorrow
    (row, *_) = world.notices.due(time.time() + 86400)
    assert row.table in (third, fourth)


async def test_a_receiver_down_then_up_gets_the_notice_again_with_the_same_id(
    world: World,
) -> None:
    confirmed(world.notices, "ben", "webhook", world.http.url("/hook"))
    world.http.answer = 503
    _now_turn(world, 2)
    await world.drive(lambda: len(world.http.posts) >= 2)  # two failed tries
    (channel,) = world.notices.channels("ben")
    assert channel.failing_since is not None and "answered 503" in (channel.last_error or "")
    world.http.answer = 200
    tries = len(world.http.posts)
    await world.drive(lambda: world.notices.history("ben")[-1][3] == "sent")
    assert len(set(world.http.ids())) == 1 and len(world.http.posts) == tries + 1
    (_, _, attempts, state, _) = world.notices.history("ben")[-1]
    assert (attempts, state) == (tries + 1, "sent")
    (channel,) = world.notices.channels("ben")
    assert channel.failing_since is None  # shown well again


async def test_a_dead_receiver_delays_no_one_else(world: World) -> None:
    with HttpReceiver() as dead:
        world.sender.settings = NoticeSettings(
            world.sender.settings.relay,
            AllowList(
                frozenset({f"127.0.0.1:{world.http.port}", f"127.0.0.1:{dead.port}"}), LOOPBACK
            ),
            world.sender.settings.come_back,
        )
        dead.hold.clear()  # takes the request and never answers
        confirmed(world.notices, "ben", "ntfy", dead.url("/ben"))
        confirmed(world.notices, "cleo", "ntfy", world.http.url("/cleo"))
        _now_turn(world, 1, "ben")
        await world.drive(lambda: dead.posts)
        _now_turn(world, 2, "cleo")
        await world.drive(lambda: world.http.posts)
        assert world.notices.history("ben")[-1][3] == "pending"  # still in flight
        dead.hold.set()


async def test_what_the_table_says_drops_or_puts_off_a_notice(world: World) -> None:
    confirmed(world.notices, "ben", "ntfy", world.http.url("/ben"))
    passed, paused, looking, standin = 1, 2, 3, 4
    world.facts[(world.table, passed)] = Facts(False, False, None, 0.0, False)
    world.facts[(world.table, paused)] = Facts(True, False, time.time() + 3600, 0.0, False)
    world.facts[(world.table, looking)] = Facts(True, False, None, None, False)
    world.facts[(world.table, standin)] = Facts(True, True, None, 0.0, False)
    for seq in (passed, paused, looking, standin):
        _now_turn(world, seq)
        await world.sender.round()
    await world.drive(lambda: len(world.notices.due(time.time())) == 0)
    assert world.http.posts == []
    states = [(kind, state, why) for _, kind, _, state, why in world.notices.history("ben")]
    assert states[1:] == [
        ("turn", "dropped", "the turn has passed"),
        ("turn", "pending", None),  # after the pause
        ("turn", "pending", None),  # until they have been away for their delay
        ("turn", "dropped", "a computer plays the seat"),
    ]


async def test_an_unconfirmed_address_gets_its_code_and_nothing_else(world: World) -> None:
    from table.notices.checks import code_hash

    world.notices.add_channel("ben", "ntfy", world.http.url("/ben"), code_hash("999999"), 9e9,
                              ("confirm.ben.1", "Mykerinos: your code", "The code: 999999"),
                              time.time())  # fmt: skip
    _now_turn(world, 1)
    await world.drive(lambda: world.http.posts)
    for _ in range(5):
        await world.sender.round()
        await asyncio.sleep(0.02)
    (post,) = world.http.posts
    assert post.body == b"The code: 999999"
    assert [kind for _, kind, *_ in world.notices.history("ben")] == ["confirm"]


def test_the_store_forgets_a_sent_code(tmp_path: Path) -> None:
    store: TableStore
    store, notices = stores(tmp_path)
    confirmed(notices, "ben", "email", "ben@example.org")
    (body,) = store.db.execute("SELECT body FROM notice_outbox").fetchone()
    assert body is None
    del notices
