"""Doors' tickets: a door's session is granted the player its ticket names, whatever its
hello claims, and only while the ticket stands; a ticket counts only from the server's own
account (as which the door's sessions run); that account is not held to the bound on
connections saying hello; ``mykerinos status`` speaks for the ticket's player.

The server runs here in the test's own event loop (a real hub on a real Unix socket), so
that a test can issue and revoke tickets as the door does; this test's login is then the
server's own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest

from table import protocol as wire
from table.client import TICKET_ENV, status
from table.client.connection import Refused, connect
from table.server.connections import login_of
from table.server.hub import Hub
from table.server.rules import Refusal
from table.server.writer import Writer
from table.store import TableStore

ENDED = "this door session has ended: connect through the door again"


@dataclass
class DoorServer:
    """A table server in this process: its hub (to issue tickets) and its socket."""

    hub: Hub
    socket: Path


@pytest.fixture
async def door_server() -> AsyncIterator[DoorServer]:
    async with serving() as running:
        yield running


@contextlib.asynccontextmanager
async def serving() -> AsyncIterator[DoorServer]:
    """A table server in this event loop, with no trusted account, until the block ends."""
    # A short folder: a Unix socket's path must fit in 108 bytes, pytest's tmp_path may not.
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        store = TableStore(Path(folder) / "tables.db")
        writer = Writer(store)
        hub = Hub(store.tables(), writer, store.ratings())  # no trusted account
        path = Path(folder) / "t.sock"
        listening = await asyncio.start_unix_server(hub.connected, str(path))
        await hub.begin()
        try:
            yield DoorServer(hub, path)
        finally:
            listening.close()
            await hub.stop("the test is over")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(listening.wait_closed(), 2)
            writer.close()
            store.close()


async def test_a_ticket_grants_its_player_whatever_the_hello_names(door_server) -> None:
    ticket = door_server.hub.issue_ticket("ann")
    for claimed in (None, "mallory", door_server.hub.own_login):
        connection = await connect(door_server.socket, claimed, ticket)
        assert connection.player == "ann"
        await connection.close()
    plain = await connect(door_server.socket)  # without a ticket: as before, the login
    assert plain.player == door_server.hub.own_login
    await plain.close()


async def test_a_revoked_or_unknown_ticket_is_refused_in_words(door_server) -> None:
    hub = door_server.hub
    ticket = hub.issue_ticket("ann")
    hub.revoke_ticket(ticket)
    hub.revoke_ticket(ticket)  # twice: nothing more happens
    for refused in (ticket, "not-a-ticket", ""):
        with pytest.raises(Refused) as caught:
            await connect(door_server.socket, "ann", refused)
        assert str(caught.value) == ENDED


async def test_each_ticket_is_its_own_and_the_name_is_checked(door_server) -> None:
    hub = door_server.hub
    tickets = {hub.issue_ticket("ann") for _ in range(50)}
    assert len(tickets) == 50 and all(len(t) >= 43 for t in tickets)  # 32 random bytes
    ben = hub.issue_ticket("  ben ")
    assert hub.connections.grant(hub.own_login, wire.Hello(wire.VERSION, None, ben)).player == "ben"
    with pytest.raises(Refusal, match="cannot be a player's name"):
        hub.issue_ticket("ann\x1b[2J")


def test_a_ticket_from_another_login_is_refused() -> None:
    """Only the server's own account runs a door's sessions: another login's ticket,
    standing or not, is refused, and says where tickets come from."""
    hub = Hub([], writer=None, ratings={})  # type: ignore[arg-type]
    ticket = hub.issue_ticket("ann")
    other = "someone-else" if hub.own_login != "someone-else" else "another-one"
    for sent in (ticket, "not-a-ticket"):
        with pytest.raises(Refusal) as caught:
            hub.connections.grant(other, wire.Hello(wire.VERSION, "ann", sent))
        assert "tickets come only from the door's own sessions" in str(caught.value)
        assert repr(other) in str(caught.value)
    assert (
        hub.connections.grant(hub.own_login, wire.Hello(wire.VERSION, None, ticket)).player == "ann"
    )
    no_ticket = wire.Hello(wire.VERSION, None)
    assert hub.connections.grant(other, no_ticket).player == other  # as before


def test_the_server_s_own_login_is_the_login_of_its_uid() -> None:
    hub = Hub([], writer=None, ratings={})  # type: ignore[arg-type]
    assert hub.own_login == pwd.getpwuid(os.getuid()).pw_name
    unknown = next(uid for uid in range(2_000_000_000, 2_000_001_000) if not _has_account(uid))
    assert login_of(unknown) == f"uid-{unknown}"


def _has_account(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


async def test_the_server_s_own_login_is_not_held_to_the_greeting_bound() -> None:
    """Every door's session says hello as the server's own login: 40 of them waiting at
    once are all let wait; another login is refused its 17th."""
    hub = Hub([], writer=None, ratings={})  # type: ignore[arg-type]
    other = "eve" if hub.own_login != "eve" else "mallory"

    def greeting(login: str) -> asyncio.Task[wire.ClientMessage]:
        return asyncio.create_task(hub.connections.greet(login, asyncio.StreamReader(), object()))  # type: ignore[arg-type]

    doors = [greeting(hub.own_login) for _ in range(40)]
    silent = [greeting(other) for _ in range(16)]
    await asyncio.sleep(0)
    assert not any(task.done() for task in doors)
    with pytest.raises(Refusal, match=f"{other} has 16 connections saying hello"):
        await hub.connections.greet(other, asyncio.StreamReader(), object())  # type: ignore[arg-type]
    for task in doors + silent:
        task.cancel()
    await asyncio.gather(*doors, *silent, return_exceptions=True)
    assert not hub.connections.greeting


async def test_status_with_a_ticket_names_that_player_s_turns(
    door_server, monkeypatch, capsys
) -> None:
    hub = door_server.hub
    tickets = {name: hub.issue_ticket(name) for name in ("ann", "ben")}
    ann = await connect(door_server.socket, None, tickets["ann"])
    seats = (wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben"))
    answer = await ann.ask(wire.CreateTable(ann.new_ref(), seats, "Door game"))
    assert isinstance(answer, wire.Lobby), answer
    await ann.close()
    (table,) = answer.tables
    assert table.status == "playing" and table.turn is not None
    deciding = table.seats[table.turn].name
    assert deciding in tickets
    waiting = next(name for name in tickets if name != deciding)
    path = str(door_server.socket)
    me, turns = await asyncio.to_thread(status.my_turns, path, None, tickets[deciding])
    assert (me, [t["title"] for t in turns]) == (deciding, ["Door game"])
    me, turns = await asyncio.to_thread(status.my_turns, path, "ann", tickets[waiting])
    assert (me, turns) == (waiting, [])
    # The command reads the ticket from the environment, as a door's session has it.
    monkeypatch.setenv(TICKET_ENV, tickets[deciding])
    assert await asyncio.to_thread(status.main, ["--socket", path]) == 0
    assert capsys.readouterr().out.strip() == "Your turn at 1 table: Door game (s1)"
    hub.revoke_ticket(tickets[deciding])
    assert await asyncio.to_thread(status.main, ["--socket", path]) == 2
    assert ENDED in capsys.readouterr().err


def test_a_hello_without_a_ticket_is_the_hello_of_version_2() -> None:
    """The ticket is optional within protocol 2: a hello without one is sent as before
    (a server that does not know the field still reads it), and an old hello reads."""
    assert msgspec.json.decode(wire.frame(wire.Hello(wire.VERSION))[4:]) == {
        "t": "hello",
        "version": wire.VERSION,
    }
    with_ticket = msgspec.json.decode(wire.frame(wire.Hello(wire.VERSION, None, "k"))[4:])
    assert with_ticket == {"t": "hello", "version": wire.VERSION, "ticket": "k"}
    old = b'{"t": "hello", "version": 2, "player": "ann"}'
    assert wire.read_client(old) == wire.Hello(2, "ann", None)  # read, then told to update
    with pytest.raises(wire.ProtocolError):
        wire.read_client(b'{"t": "hello", "version": 2, "ticket": "' + b"k" * 129 + b'"}')
