"""The table server orders each table's changes: one regression test per race a tester
found (issue 17), each through real sockets against a real server process whose commits
are slowed (``--commit-delay``) so that the conflicting requests meet in the middle of one.

Each test fires the conflicting requests at once from separate connections, then checks
what was promised: at most one of them is acknowledged and the other refused in words,
every client was told the same history, the store holds exactly that history with no gap,
the stored game replays with core, the table plays on, and a new server starts on the
store. A :class:`Verdict` lists every promise broken, not only the first.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest

import core
from table import journal
from table import protocol as wire
from tests.table_server.history import has
from tests.table_server.witness import (
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

COMMIT_DELAY = 0.2
"""Seconds each commit sleeps first: the window in which the second request arrives."""
STAGGER = 0.05
"""Seconds between the two conflicting requests, to choose which one the server reads
first (well inside :data:`COMMIT_DELAY`)."""
KILL_DELAY = 1.0
KILL_AT = 0.3
"""The kill -9 test's commits sleep KILL_DELAY seconds; the server dies KILL_AT seconds
after the move was sent, with the move's commit still asleep."""
NEXT_MOVES = 3
"""Moves played after a race, each of which must be acknowledged."""


async def seated(server, seed: int) -> tuple[Witness, Witness]:
    """ann and ben at a new two-player table, both sitting."""
    names = ["ann", "ben"]
    table = await new_table(server, [wire.SeatSpec("player", n) for n in names])
    players = []
    for name in names:
        witness = await Witness.connect(server.socket, name)
        answer = await witness.ask(wire.Join(witness.ref(), table))
        assert isinstance(answer, wire.Snapshot), described(answer)
        players.append(witness)
    return players[0], players[1]


async def play(witness: Witness, rng: random.Random) -> wire.ServerMessage:
    """``witness`` plays a random legal action on the position it was last told."""
    action = rng.choice(core.legal_actions(witness.state))
    return await witness.ask(wire.Play(witness.ref(), witness.table, len(witness.actions), action))


async def barrier(witnesses: list[Witness]) -> None:
    for witness in witnesses:
        await witness.barrier()


async def until_the_turn_passes(players: list[Witness], rng: random.Random) -> Witness:
    """Play until the last action was one player's and the next decision is another's,
    in the same season (so the first may still undo it); returns the one who acted."""
    for _ in range(200):
        table = players[0]
        if len(table.actions) > 0:
            before, now = table.states[-2], table.state
            if (before.current_player != now.current_player and now.current_player is not None
                    and before.season == now.season):  # fmt: skip
                return next(p for p in players if before.current_player in p.seats_here)
        mover = next(p for p in players if p.my_turn())
        answer = await play(mover, rng)
        assert has(answer, journal.Move), described(answer)
        await barrier(players)
    raise AssertionError("the turn never passed")


async def after(delay: float, ask: Callable[[], Awaitable[wire.ServerMessage]]) -> object:
    await asyncio.sleep(delay)
    return await ask()


async def next_moves_work(verdict: Verdict, players: list[Witness], rng: random.Random) -> None:
    """The table plays on: each of :data:`NEXT_MOVES` moves by whoever decides is acknowledged."""
    with verdict.step("the next moves"):
        for number in range(NEXT_MOVES):
            await barrier(players)
            mover = next((p for p in players if p.my_turn()), None)
            assert mover is not None, "the players were not told whose decision it is"
            answer = await play(mover, rng)
            assert has(answer, journal.Move), (
                f"move {number + 1} after the race was answered {described(answer)}"
            )
        await barrier(players)


async def check_store_and_restart(verdict: Verdict, server, witnesses: list[Witness]) -> None:
    """Stop the server; the store holds what the witnesses were told; it starts again."""
    for witness in witnesses:
        await witness.close()
    server.stop()
    table = witnesses[0].table
    row = stored_tables(server.db)[table]
    check_told_the_store(verdict, row, witnesses)
    with verdict.step("the restart"):
        problem = await answers_on_restart(server, {table})
        assert problem is None, problem


@pytest.mark.parametrize("first", ["undo", "play"])
async def test_an_undo_racing_the_next_players_play_leaves_one_history(first: str) -> None:
    """The mover's Undo and the next player's Play of the same position, back to back from
    two connections: one is acknowledged, the other refused; both players hear the history
    the store keeps, with no gap, and the game goes on, also after a restart."""
    rng = random.Random(3)
    verdict = Verdict()
    with slow_server(COMMIT_DELAY) as server:
        ann, ben = await seated(server, seed=3)
        players = [ann, ben]
        mover = await until_the_turn_passes(players, rng)
        following = ben if mover is ann else ann
        seq = len(mover.actions)
        action = core.legal_actions(following.state)[0]
        undo = wire.Undo(mover.ref(), mover.table, seq)
        move = wire.Play(following.ref(), following.table, seq, action)
        undone, played = await asyncio.gather(
            after(0 if first == "undo" else STAGGER, lambda: mover.ask(undo)),
            after(STAGGER if first == "undo" else 0, lambda: following.ask(move)),
            return_exceptions=True,
        )
        took_back = isinstance(undone, wire.Told) and has(undone, journal.Undo)
        moved = isinstance(played, wire.Told) and has(played, journal.Move)
        verdict.check(not (took_back and moved), "both the Undo and the Play were acknowledged")
        verdict.check(took_back or is_refusal(undone), f"the Undo was answered {described(undone)}")
        verdict.check(moved or is_refusal(played), f"the Play was answered {described(played)}")
        await barrier(players)
        verdict.check(ann.actions == ben.actions, "the two players were told different histories")
        expected = seq - 1 if took_back else seq + 1 if moved else seq
        for player in players:
            verdict.check(len(player.actions) == expected,
                          f"{player.name} holds {len(player.actions)} actions after "
                          f"{'the undo' if took_back else 'the move' if moved else 'two refusals'}"
                          f", not {expected}")  # fmt: skip
        await next_moves_work(verdict, players, rng)
        await check_store_and_restart(verdict, server, players)
    verdict.settle()


async def test_two_players_joining_the_last_open_seat_at_once_get_it_once() -> None:
    """Two clients Join the one open seat at once: one sits, the other is refused; the
    store, the players and the table's news name the same player in that seat."""
    rng = random.Random(4)
    verdict = Verdict()
    with slow_server(COMMIT_DELAY) as server:
        table = await new_table(server, [wire.SeatSpec("player", "ann"), wire.SeatSpec("open")])
        ben = await Witness.connect(server.socket, "ben")
        cleo = await Witness.connect(server.socket, "cleo")
        answers = await asyncio.gather(
            ben.ask(wire.Join(ben.ref(), table, 1)),
            cleo.ask(wire.Join(cleo.ref(), table, 1)),
            return_exceptions=True,
        )
        sat = [w for w, a in zip([ben, cleo], answers, strict=True)
               if isinstance(a, wire.Snapshot) and 1 in a.seats_here]  # fmt: skip
        told = ", ".join(
            f"{w.name}: {described(a)}" for w, a in zip([ben, cleo], answers, strict=True)
        )
        verdict.check(len(sat) == 1, f"{len(sat)} of the two joiners got the seat ({told})")
        for witness, answer in zip([ben, cleo], answers, strict=True):
            verdict.check(witness in sat or is_refusal(answer),
                          f"{witness.name}'s Join was answered {described(answer)}")  # fmt: skip
            if witness not in sat:  # the one refused watches instead
                watched = await witness.ask(wire.Watch(witness.ref(), table))
                verdict.check(isinstance(watched, wire.Snapshot), f"Watch: {described(watched)}")
        ann = await Witness.connect(server.socket, "ann")
        joined = await ann.ask(wire.Join(ann.ref(), table))
        verdict.check(isinstance(joined, wire.Snapshot), f"ann's Join: {described(joined)}")
        everyone = [ann, ben, cleo]
        await barrier(everyone)
        for witness in everyone:
            name = witness.info.seats[1].name if witness.info else None
            verdict.check(not sat or name == sat[0].name,
                          f"{witness.name} was told seat 2 is {name}'s")  # fmt: skip
        await next_moves_work(verdict, [w for w in everyone if w.seats_here], rng)
        for witness in everyone:
            await witness.close()
        server.stop()
        row = stored_tables(server.db)[table]
        told_seated = sat[0].name if sat else None
        verdict.check(
            told_seated is None or row.seats[1].name == told_seated,
            f"the store seats {row.seats[1].name} where {told_seated} was told they sit",
        )
        check_told_the_store(verdict, row, everyone)
        with verdict.step("the restart"):
            problem = await answers_on_restart(server, {table})
            assert problem is None, problem
    verdict.settle()


async def enter(visitor: Witness, how: str, table: int) -> wire.ServerMessage:
    if how == "watch":
        return await visitor.ask(wire.Watch(visitor.ref(), table))
    return await visitor.ask(wire.Join(visitor.ref(), table))


@dataclass
class Visit:
    """A visitor entering a table while a move commits (see :func:`visit_while_committing`)."""

    players: list[Witness]
    mover: Witness
    visitor: Witness
    move: wire.Play
    sent: float
    """When the move was sent (the event loop's clock)."""
    asking: list[asyncio.Task[wire.ServerMessage]]
    """The move and the visit, answered or not."""


async def visit_while_committing(server, how: str) -> Visit:
    """ann and ben sit; the one to decide sends a move and, 0.1 s later, while its commit
    sleeps, a visitor enters (``how``: eve watches, or the other player joins again from a
    second connection). Neither answer is awaited."""
    ann, ben = await seated(server, seed=5)
    mover, other = (ann, ben) if ann.my_turn() else (ben, ann)
    visitor = await Witness.connect(server.socket, "eve" if how == "watch" else other.name)
    move = wire.Play(
        mover.ref(), mover.table, len(mover.actions), core.legal_actions(mover.state)[0]
    )
    loop = asyncio.get_running_loop()
    sent = loop.time()
    asking = [loop.create_task(mover.ask(move))]
    await asyncio.sleep(0.1)
    asking.append(loop.create_task(enter(visitor, how, mover.table)))
    return Visit([ann, ben], mover, visitor, move, sent, asking)


def check_shown_only_when_acknowledged(verdict: Verdict, visit: Visit, commit_delay: float) -> None:
    """The visitor's Snapshot may show the move only if it came once the move's commit
    could have ended (``commit_delay`` after it was sent) and the mover had its answer."""
    move, sent, visitor = visit.move, visit.sent, visit.visitor
    acked = answer_to(visit.mover, move.ref)
    for heard in visitor.heard:
        snapshot = heard.message
        if not isinstance(snapshot, wire.Snapshot) or len(snapshot.actions) <= move.seq:
            continue
        early = heard.at - sent < commit_delay
        if early or acked is None or acked.order > heard.order:
            verdict.broken(f"{visitor.name}'s Snapshot, {heard.at - sent:.2f} s after the move "
                           f"was sent (its commit sleeps {commit_delay} s), shows action "
                           f"{move.seq} before it was acknowledged")  # fmt: skip


@pytest.mark.parametrize("how", ["watch", "join"])
async def test_a_snapshot_taken_while_a_move_commits_leaves_it_out(how: str) -> None:
    """A Watch (or a player's second Join) arriving while a move's commit sleeps gets a
    Snapshot without that move, and then hears it played, once, like everyone else."""
    verdict = Verdict()
    with slow_server(0.5) as server:
        visit = await visit_while_committing(server, how)
        everyone = [*visit.players, visit.visitor]
        await asyncio.gather(*visit.asking, return_exceptions=True)
        await barrier(everyone)
        check_shown_only_when_acknowledged(verdict, visit, 0.5)
        await check_store_and_restart(verdict, server, everyone)
    verdict.settle()


@pytest.mark.parametrize("how", ["watch", "join"])
async def test_a_snapshot_taken_while_a_move_commits_survives_a_kill_9(how: str) -> None:
    """A Watch (or Join) while a move's commit sleeps, then kill -9 before the commit ends:
    no client was ever shown an action the store lacks, and the server starts again."""
    verdict = Verdict()
    with slow_server(KILL_DELAY) as server:
        visit = await visit_while_committing(server, how)
        await asyncio.sleep(max(0.0, visit.sent + KILL_AT - asyncio.get_running_loop().time()))
        server.kill()
        await asyncio.gather(*visit.asking, return_exceptions=True)
        everyone = [*visit.players, visit.visitor]
        for witness in everyone:
            await witness.ended()
        check_shown_only_when_acknowledged(verdict, visit, KILL_DELAY)
        table = visit.mover.table
        stored = stored_tables(server.db)[table].actions
        for witness in everyone:
            lacking = [(seq, action) for seq, action in witness.shown()
                       if seq >= len(stored) or stored[seq] != action]  # fmt: skip
            numbers = sorted({seq for seq, _ in lacking})
            verdict.check(
                not lacking, f"{witness.name} was shown action(s) {numbers} the store lacks"
            )
        with verdict.step("the restart"):
            problem = await answers_on_restart(server, {table})
            assert problem is None, problem
    verdict.settle()
