"""A table's chat at a real server (issue 13): said to everyone at the table, spectators
marked, kept with the game, never a terminal escape or a bidi override, limited in rate."""

from __future__ import annotations

import random

import pytest

from table import journal
from table import protocol as wire
from table.client.connection import connect
from tests.table_server.bots import Bot, create
from tests.table_server.history import told_entries

SEATS = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben")]


async def say(bot: Bot, text: str) -> wire.ServerMessage:
    return await bot.ask(wire.Say(bot.connection.new_ref(), bot.table, text))


def said(message: wire.ServerMessage) -> journal.Chat | None:
    """The line of chat a Told carries (its only entry), else None."""
    entries = told_entries(message)
    return entries[0] if len(entries) == 1 and isinstance(entries[0], journal.Chat) else None


async def test_a_line_reaches_players_and_spectators_and_is_kept(server) -> None:
    table = await create(server.socket, "ann", SEATS)
    ann = await Bot.join(server.socket, "ann", table, 1)
    ben = await Bot.join(server.socket, "ben", table, 2)
    eve = Bot(await connect(server.socket, "eve"), random.Random(0))
    await eve.enter(wire.Watch(eve.connection.new_ref(), table))
    answer = said(await say(ann, "  good luck [/] [b]all  "))
    assert answer is not None and answer.text == "good luck [/] [b]all"
    await ben.drain()
    heard = [line for f in ben.frames if (line := said(f)) is not None]
    assert [(h.name, h.text, h.spectator) for h in heard] == [
        ("ann", "good luck [/] [b]all", False)
    ]
    from_eve = said(await say(eve, "nice move"))
    assert from_eve is not None and from_eve.spectator
    server.kill()
    server.start()
    back = await Bot.join(server.socket, "ben", table, 3)
    snapshot = next(f for f in back.frames if isinstance(f, wire.Snapshot))
    chat = [e for e in snapshot.journal if isinstance(e, journal.Chat)]
    assert [(c.name, c.text, c.spectator) for c in chat] == [
        ("ann", "good luck [/] [b]all", False),
        ("eve", "nice move", True),
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("\x1b[2Jgone", "U+001B"),
        ("abc\u202eevil", "U+202E"),
        ("zero\u200bwidth", "U+200B"),
        ("   ", "say something"),
    ],
)
async def test_a_line_that_would_not_show_as_itself_is_refused(server, text, words) -> None:
    table = await create(server.socket, "ann", SEATS)
    ann = await Bot.join(server.socket, "ann", table, 1)
    answer = await say(ann, text)
    assert isinstance(answer, wire.Error) and words in answer.reason


async def test_too_long_or_too_fast_is_refused(server) -> None:
    table = await create(server.socket, "ann", SEATS)
    ann = await Bot.join(server.socket, "ann", table, 1)
    too_long = await say(ann, "x" * (wire.MAX_CHAT + 1))
    assert isinstance(too_long, wire.Error)
    answers = [await say(ann, f"line {n}") for n in range(6)]
    assert all(said(a) is not None for a in answers[:5])
    assert isinstance(answers[5], wire.Error) and "slow down" in answers[5].reason


async def test_only_those_at_the_table_talk_there(server) -> None:
    table = await create(server.socket, "ann", SEATS)
    outsider = await connect(server.socket, "mallory")
    answer = await outsider.ask(wire.Say(outsider.new_ref(), table, "hi"))
    assert isinstance(answer, wire.Error) and "join or watch" in answer.reason
    await outsider.close()
