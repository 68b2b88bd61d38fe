"""A bounded randomized test of the table server's ordering: several tables, several real
clients at each (players, two clients racing for the one open seat, a spectator), each
firing requests at random moments against a server whose commits are slowed, so that
plays, undos (own and others'), joins, watches, chat and hand-overs interleave.

Each client decides on the public position it was last told, and sometimes on purpose
with a stale action number. Once the clients are done and the tables have settled, the
server is stopped, and for every table: what every client was last told is the store's
history, position by position; every acknowledged move is stored unless an acknowledged
undo took it back later; the stored game replays with core; the seats and the chat are
those the clients were told; and a new server starts on the store and lists every table.

Three seeds run with the fast tests, more under ``slow``; every loop is bounded in count,
and the whole run in time (a hang bound).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Literal

import pytest

import core
from table import journal
from table import protocol as wire
from table.store import TableRow
from tests.table_server.history import has, told_entries
from tests.table_server.witness import (
    WAIT,
    Verdict,
    Witness,
    answer_to,
    answers_on_restart,
    check_told_the_store,
    described,
    is_refusal,
    new_table,
    slow_server,
    stored_tables,
)

COMMIT_DELAY = 0.03
"""Seconds each group commit sleeps first: long enough for requests to meet in one."""
REQUESTS = 30
"""Requests each client sends after sitting down (or starting to watch)."""
IN_FLIGHT = 2
"""Requests one client may have unanswered at once."""
PAUSE = 0.04
"""The longest random pause between two of a client's requests, in seconds."""
RUN_LIMIT = 60.0
"""Seconds one seed may run before it counts as hung (a hang bound, not a timing)."""
ENTER_TRIES = 100
"""Tries to sit or watch while the table still waits for a seat to be taken."""
STALE = 0.15
"""The share of requests sent with an action number one off, on purpose."""
WEIGHTS = {"say": 1.0, "enter": 1.0, "undo": 1.0, "wait": 2.0}
"""How often each kind of request is drawn; a player also moves and hands over."""
FAST_SEEDS = [1, 2, 3]
SLOW_SEEDS = range(4, 24)

RESERVED = ["ann", "ben"]
JOINERS = ["cleo", "dan"]
SPECTATOR = "eve"

Role = Literal["player", "joiner", "spectator"]


@dataclass
class Client:
    """A witness at one table, the dice it throws, and what it was acknowledged."""

    witness: Witness
    role: Role
    rng: random.Random
    plays: list[tuple[int, core.Action, int]] = field(default_factory=list)
    """(seq, action, arrival order) of each Play acknowledged."""
    undos: list[tuple[int, int]] = field(default_factory=list)
    """(actions left, arrival order) of each Undo acknowledged."""
    said: list[str] = field(default_factory=list)
    seat_given: bool = False
    """This joiner's Join was answered with the open seat."""

    @property
    def name(self) -> str:
        return self.witness.name

    @property
    def sits(self) -> bool:
        return bool(self.witness.seats_here)


@dataclass
class Table:
    id: int
    open_seat: int
    clients: list[Client]


# ---------------------------------------------------------------- setting the tables


async def set_table(server, rng: random.Random) -> Table:
    """A table of 2 or 3 seats, the last one open; its clients sit or watch."""
    reserved = RESERVED[: rng.choice([1, 2])]
    seats = [wire.SeatSpec("player", n) for n in reserved] + [wire.SeatSpec("open")]
    table_id = await new_table(server, seats)
    table = Table(table_id, len(reserved), [])
    roles: list[tuple[str, Role]] = [(n, "player") for n in reserved]
    roles += [(n, "joiner") for n in JOINERS] + [(SPECTATOR, "spectator")]
    for name, role in roles:
        witness = await Witness.connect(server.socket, name)
        table.clients.append(Client(witness, role, random.Random(rng.random())))
    return table


async def enter(client: Client, table: Table) -> None:
    """Sit at (or watch) the table, trying again while a seat is still open."""
    witness = client.witness
    for _ in range(ENTER_TRIES):
        if client.role == "player":
            answer = await witness.ask(wire.Join(witness.ref(), table.id))
        else:
            answer = await witness.ask(wire.Watch(witness.ref(), table.id))
        if isinstance(answer, wire.Snapshot):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{client.name} never entered table {table.id}")


async def race_for_the_open_seat(verdict: Verdict, table: Table, rng: random.Random) -> None:
    """Both joiners Join the open seat at the same moment; whoever is refused watches."""
    await asyncio.sleep(rng.uniform(0, 0.2))
    joiners = [c for c in table.clients if c.role == "joiner"]
    answers = await asyncio.gather(
        *[c.witness.ask(wire.Join(c.witness.ref(), table.id, table.open_seat)) for c in joiners]
    )
    for client, answer in zip(joiners, answers, strict=True):
        client.seat_given = isinstance(answer, wire.Snapshot) and answer.seats_here != ()
        if not client.seat_given:
            verdict.check(is_refusal(answer), f"{client.name}'s Join was answered "
                                              f"{described(answer)}")  # fmt: skip
            client.role = "spectator"
            if not isinstance(answer, wire.Snapshot):
                await enter(client, table)


# ---------------------------------------------------------------- random requests


def next_request(client: Client, number: int) -> wire.ClientMessage | None:
    """A random request on the position ``client`` was last told (None: wait instead):
    mostly a move when it is theirs to decide, else anything, moves and undos included."""
    witness, rng = client.witness, client.rng
    if not witness.states:
        return None
    seq = len(witness.actions)
    if rng.random() < STALE:
        seq = max(0, seq + rng.choice([-1, 1]))
    ref, table = witness.ref(), witness.table
    weights = dict(WEIGHTS)
    if client.sits:
        weights["hand"] = 1
        weights["play"] = 12 if witness.my_turn() else 1
        weights["undo"] = 4 if mine_last(client) else 1
    kind = rng.choices(list(weights), list(weights.values()))[0]
    if kind == "play" and not core.is_over(witness.state):
        return wire.Play(ref, table, seq, rng.choice(core.legal_actions(witness.state)))
    if kind == "undo":
        return wire.Undo(ref, table, seq)
    if kind == "say":
        return wire.Say(ref, table, f"{witness.name} says {number} at table {table}")
    if kind == "enter":
        return wire.Join(ref, table) if client.sits else wire.Watch(ref, table)
    if kind == "hand":
        handed = witness.info is not None and witness.info.seats[witness.seats_here[0]].standin
        return wire.HandOver(ref, table, None if handed else "easy")
    return None


def mine_last(client: Client) -> bool:
    """The last action told was this client's own (so it may try to take it back)."""
    states = client.witness.states
    return len(states) > 1 and states[-2].current_player in client.witness.seats_here


async def send(verdict: Verdict, client: Client, request: wire.ClientMessage) -> None:
    """Send ``request`` and keep what its answer acknowledged."""
    witness = client.witness
    try:
        answer = await witness.ask(request)
    except (ConnectionError, TimeoutError) as exc:
        verdict.broken(f"{client.name}'s {type(request).__name__} got {described(exc)}")
        return
    heard = answer_to(witness, getattr(request, "ref", 0))
    order = heard.order if heard is not None else 0
    entries = told_entries(answer)
    if isinstance(request, wire.Play) and has(answer, journal.Move):
        client.plays += [(e.seq, e.action, order) for e in entries if isinstance(e, journal.Move)]
    elif isinstance(request, wire.Undo) and has(answer, journal.Undo):
        client.undos += [(e.seq, order) for e in entries if isinstance(e, journal.Undo)]
    elif isinstance(request, wire.Say) and has(answer, journal.Chat):
        client.said.append(request.text)
    elif isinstance(answer, wire.Error):
        verdict.check(is_refusal(answer), f"{client.name}'s {type(request).__name__} was "
                                          f"answered {described(answer)}")  # fmt: skip


async def act(verdict: Verdict, client: Client) -> None:
    """:data:`REQUESTS` random requests at random moments, up to :data:`IN_FLIGHT` at once."""
    flying: set[asyncio.Task[None]] = set()
    for number in range(REQUESTS):
        await asyncio.sleep(client.rng.uniform(0, PAUSE))
        request = next_request(client, number)
        if request is None:
            continue
        if len(flying) >= IN_FLIGHT:
            _, flying = await asyncio.wait(flying, return_when=asyncio.FIRST_COMPLETED)
        flying.add(asyncio.get_running_loop().create_task(send(verdict, client, request)))
    if flying:
        await asyncio.wait(flying)


async def settle(verdict: Verdict, table: Table, server) -> Witness:
    """Every player takes their seat back from the computer; then a line of chat, which
    commits after everything already asked, must reach every client: nothing more is
    on its way. Returns the client that said it (it watches the table too)."""
    for client in table.clients:
        if client.sits:
            await send(verdict, client, wire.HandOver(client.witness.ref(), table.id, None))
    last = await Witness.connect(server.socket, "zed")
    await enter(Client(last, "spectator", random.Random(0)), table)
    text = f"the last word at table {table.id}"
    answer = await last.ask(wire.Say(last.ref(), table.id, text))
    said = has(answer, journal.Chat)
    verdict.check(said, f"table {table.id}: the last word was answered {described(answer)}")
    for client in table.clients:
        for _ in range(int(WAIT / 0.05)):  # a hang bound
            if not said or ("zed", text) in client.witness.chat or client.witness.gone:
                break
            await asyncio.sleep(0.05)
        await client.witness.barrier()
    return last


# ---------------------------------------------------------------- the checks


def check_table(verdict: Verdict, table: Table, row: TableRow, witnesses: list[Witness]) -> None:
    """What the clients of ``table`` were told and acknowledged, against the store."""
    check_told_the_store(verdict, row, witnesses)
    undos = [undo for client in table.clients for undo in client.undos]
    for client in table.clients:
        for seq, action, order in client.plays:
            kept = seq < len(row.actions) and row.actions[seq] == action
            undone = any(left <= seq and when > order for left, when in undos)
            verdict.check(
                kept or undone,
                f"table {table.id}: {client.name}'s acknowledged action {seq} is not stored, "
                "and no acknowledged undo took it back",
            )
    given = [c.name for c in table.clients if c.seat_given]
    verdict.check(len(given) <= 1, f"table {table.id}: {given} were all given the open seat")
    seated = row.seats[table.open_seat].name
    verdict.check(
        not given or seated == given[0],
        f"table {table.id}: the store seats {seated} where {given and given[0]} was seated",
    )
    stored_seats = [(s.name, s.standin) for s in row.seats]
    chat = [(e.name, e.text) for e in row.journal if isinstance(e, journal.Chat)]
    for witness in witnesses:
        told = [(s.name, s.standin) for s in witness.info.seats] if witness.info else None
        verdict.check(told == stored_seats, f"table {table.id}: {witness.name} was told the "
                      f"seats are {told}, the store has {stored_seats}")  # fmt: skip
        verdict.check(witness.chat == chat[len(chat) - len(witness.chat) :],
                      f"table {table.id}: {witness.name}'s chat is not the store's")  # fmt: skip
    for client in table.clients:
        lost = [t for t in client.said if (client.name, t) not in chat]
        verdict.check(not lost, f"table {table.id}: {client.name}'s chat {lost} was not stored")


# ---------------------------------------------------------------- the run


async def interleave(seed: int) -> None:
    rng = random.Random(seed)
    verdict = Verdict()
    with slow_server(COMMIT_DELAY) as server:
        tables: list[Table] = []
        lasts: list[Witness] = []
        async with asyncio.timeout(RUN_LIMIT):
            for _ in range(rng.randint(2, 4)):
                tables.append(await set_table(server, rng))
            await asyncio.gather(
                *[enter(c, t) for t in tables for c in t.clients if c.role != "joiner"],
                *[race_for_the_open_seat(verdict, t, rng) for t in tables],
            )
            await asyncio.gather(*[act(verdict, c) for t in tables for c in t.clients])
            lasts = [await settle(verdict, t, server) for t in tables]
        everyone = [c.witness for t in tables for c in t.clients] + lasts
        for witness in everyone:
            await witness.close()
        server.stop()
        rows = stored_tables(server.db)
        for table, last in zip(tables, lasts, strict=True):
            check_table(verdict, table, rows[table.id], [c.witness for c in table.clients] + [last])
        with verdict.step("the restart"):
            problem = await answers_on_restart(server, set(rows))
            assert problem is None, problem
    verdict.settle()


@pytest.mark.parametrize("seed", FAST_SEEDS)
async def test_interleaved_requests_leave_every_table_as_its_clients_were_told(seed: int) -> None:
    """Concurrent plays, undos, joins, watches, chat and hand-overs at several tables: the
    store holds what every client was told and acknowledged, and the server restarts."""
    await interleave(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SLOW_SEEDS)
async def test_interleaved_requests_over_more_seeds(seed: int) -> None:
    """The same as the fast test, for more seeds."""
    await interleave(seed)
