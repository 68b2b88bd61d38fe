"""The table server, through its socket, with protocol-level clients: whole games across
separate clients, what may cross the socket, the undo rule, spectators, refusals, a
client vanishing mid-turn. Each test runs a real ``python -m table.serve`` process."""

from __future__ import annotations

import asyncio
import getpass
import random
import tempfile
from pathlib import Path

import pytest
from msgspec.structs import replace

import core
from core.public import public_start, public_view
from saves.format import decode
from table import journal
from table import protocol as wire
from table.client.connection import Refused, connect
from table.store import TableStore
from tests.table_server.bots import WAIT, Bot, catch_up, create, encoded, play_to_the_end, played
from tests.table_server.process import Server

NAMES = ["ann", "ben", "cleo", "dan"]


def real_game(server, table: int) -> tuple[int, list[core.GameState]]:
    """The real seed and positions of ``table``, read from the server's store."""
    store = TableStore(server.db)
    try:
        row = next(r for r in store.tables() if r.id == table)
    finally:
        store.close()
    state = core.new_game(len(row.seats), row.seed, [s.name or "?" for s in row.seats],
                          [s.colour for s in row.seats])  # fmt: skip
    states = [state]
    for action in row.actions:
        states.append(core.apply_action(states[-1], action))
    return row.seed, states


async def seated(server, players: int, seed: int = 0) -> list[Bot]:
    names = NAMES[:players]
    table = await create(server.socket, names[0], [wire.SeatSpec("player", n) for n in names])
    return [await Bot.join(server.socket, n, table, seed + i) for i, n in enumerate(names)]


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_whole_game_across_separate_clients_ends_as_a_local_replay(server, players) -> None:
    """Every client sees every move; the final scores are those of the real game replayed
    here from the stored seed and actions."""
    bots = await seated(server, players, seed=players)
    await play_to_the_end(bots)
    _, real = real_game(server, bots[0].table)
    assert len(real) == len(bots[0].states)
    for bot in bots:
        assert bot.actions == bots[0].actions
        assert bot.states[-1] == public_view(real[-1])
    assert core.final_scores(bots[0].state) == core.final_scores(real[-1])


async def test_no_frame_ever_shows_the_undealt_order_or_the_seed(server) -> None:
    """Over a whole 3-player game, every position a client received has its undealt
    parcels in the canonical order and seed 0, and the real seed's bytes never appear."""
    bots = await seated(server, 3, seed=9)
    await play_to_the_end(bots)
    seed, real = real_game(server, bots[0].table)
    positions = 0
    for bot in bots:
        for frame in bot.frames:
            states: list[core.GameState] = []
            if isinstance(frame, wire.Told) and frame.state is not None:
                states = [frame.state]
            elif isinstance(frame, wire.Snapshot):
                states = [frame.start]
            for state in states:
                positions += 1
                assert state.seed == 0
                undealt = state.deck[len(state.deck) - len(public_view(state).deck) :]
                assert undealt == public_view(state).deck  # canonical, unrotated
            assert encoded(seed) not in encoded(frame)
    assert positions > 300
    # The real undealt order differs from the canonical one (or this proves nothing).
    assert any(s.deck != public_view(s).deck for s in real[:-1])


async def test_undo_only_your_own_last_action_before_the_next_player(server) -> None:
    ann, ben = await seated(server, 2, seed=3)
    mover, other = (ann, ben) if ann.my_turn() else (ben, ann)
    assert played(await mover.play_one())
    await catch_up([ann, ben])
    undo = wire.Undo(other.connection.new_ref(), other.table, len(other.actions))
    refusal = await other.ask(undo)
    assert isinstance(refusal, wire.Error) and "not yours" in refusal.reason
    back = await mover.ask(wire.Undo(mover.connection.new_ref(), mover.table, 1))
    assert isinstance(back, wire.Told) and mover.actions == []
    (undone,) = back.entries
    assert isinstance(undone, journal.Undo) and "took back" in (journal.words(undone) or "")
    while other.actions:
        await other.listen(WAIT)
    assert other.actions == [] and other.state == mover.state
    # After the next player acts, the first one's action is behind theirs for good.
    while not ann.my_turn() and not ben.my_turn():
        await ann.listen(WAIT)
    first = ann if ann.my_turn() else ben
    while first.my_turn():
        await first.play_one()
    await catch_up([ann, ben])
    second = ben if first is ann else ann
    await second.play_one()
    await catch_up([ann, ben])
    late = await first.ask(wire.Undo(first.connection.new_ref(), first.table, len(first.actions)))
    assert isinstance(late, wire.Error)


async def test_undo_after_new_parcels_were_dealt_is_refused(server) -> None:
    ann, ben = await seated(server, 2, seed=4)
    bots = [ann, ben]
    for _ in range(2000):
        mover = next(b for b in bots if b.my_turn())
        season = mover.state.season
        await mover.play_one()
        await catch_up(bots)
        if mover.state.season != season:
            break
    answer = await mover.ask(wire.Undo(mover.connection.new_ref(), mover.table, len(mover.actions)))
    assert isinstance(answer, wire.Error)
    assert "dealt" in answer.reason or "not yours" in answer.reason


async def test_a_spectator_hears_everything_and_can_do_nothing(server) -> None:
    ann, ben = await seated(server, 2, seed=5)
    eve = Bot(await connect(server.socket, "eve"), ann.rng)
    await eve.enter(wire.Watch(eve.connection.new_ref(), ann.table))
    assert eve.seats == ()
    mover = ann if ann.my_turn() else ben
    await mover.play_one()
    await catch_up([ann, ben, eve])
    assert eve.state == mover.state
    action = core.legal_actions(eve.state)[0]
    refusal = await eve.ask(
        wire.Play(eve.connection.new_ref(), eve.table, len(eve.actions), action)
    )
    assert isinstance(refusal, wire.Error)


async def test_stale_out_of_turn_wrong_table_and_illegal_actions_are_refused(server) -> None:
    ann, ben = await seated(server, 2, seed=6)
    mover, other = (ann, ben) if ann.my_turn() else (ben, ann)
    action = core.legal_actions(mover.state)[0]
    ref = other.connection.new_ref
    out_of_turn = await other.ask(wire.Play(ref(), other.table, 0, action))
    assert isinstance(out_of_turn, wire.Error) and "not your decision" in out_of_turn.reason
    stale = await mover.ask(wire.Play(mover.connection.new_ref(), mover.table, 5, action))
    assert isinstance(stale, wire.Error) and "meanwhile" in stale.reason
    wrong = await mover.ask(wire.Play(mover.connection.new_ref(), 999, 0, action))
    assert isinstance(wrong, wire.Error) and "no table 999" in wrong.reason
    illegal = await mover.ask(wire.Play(mover.connection.new_ref(), mover.table, 0,
                                        core.TakeParcel(0)))  # fmt: skip
    assert isinstance(illegal, wire.Error)
    assert mover.actions == [] and played(await mover.play_one())


async def test_a_claimed_name_is_refused_from_an_untrusted_login() -> None:
    """Without --trust-account, a client may only play as its own login."""
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as short:
        plain = Server(Path(short), trust=False)
        plain.start()
        try:
            with pytest.raises(Refused, match="not 'mallory'"):
                await connect(plain.socket, "mallory")
            connection = await connect(plain.socket)
            assert connection.player == getpass.getuser()
            await connection.close()
        finally:
            plain.stop()


async def test_a_client_gone_mid_turn_shows_away_and_comes_back_to_the_same_position(
    server,
) -> None:
    ann, ben = await seated(server, 2, seed=7)
    mover, other = (ann, ben) if ann.my_turn() else (ben, ann)
    await mover.play_one()
    await catch_up([ann, ben])
    position = other.state
    other.connection.writer.transport.abort()  # as the kernel does for a killed process
    for _ in range(100):
        await mover.listen(0.2)
        told = [f for f in mover.frames if isinstance(f, wire.Told)]
        if told and not told[-1].table.seats[other.seats[0]].present:
            break
    away = told[-1].table.seats[other.seats[0]]
    assert not away.present and away.away_since is not None
    assert [type(e) for e in told[-1].entries] == [journal.Away]
    back = await Bot.join(server.socket, NAMES[other.seats[0]], ann.table)
    assert back.state == position and back.seats == other.seats


async def test_a_computer_seat_plays_on_the_server(server) -> None:
    seats = [wire.SeatSpec("player", "ann"), wire.SeatSpec("computer", level="easy")]
    table = await create(server.socket, "ann", seats)
    ann = await Bot.join(server.socket, "ann", table, 1)
    for _ in range(10):
        if ann.my_turn():
            await ann.play_one()
        else:
            await ann.listen(WAIT)
    assert len(ann.actions) >= 10
    assert any(ann.states[i].current_player == 1 for i in range(len(ann.actions)))


async def test_computer_seats_are_named_by_their_level_everywhere(server) -> None:
    """In the lobby, in the game's own names (its log and scores) and in an export: two
    of one level are told apart; none is '?' or shown as an open seat."""
    levels: tuple[core.Level, ...] = ("normal", "normal", "hard")
    seats = [wire.SeatSpec("player", "ann"), *(wire.SeatSpec("computer", level=v) for v in levels)]
    table = await create(server.socket, "ann", seats)
    ann = await Bot.join(server.socket, "ann", table, 1)
    names = ["ann", "Normal", "Normal 2", "Hard"]
    snapshot = ann.frames[-1]
    assert isinstance(snapshot, wire.Snapshot)
    assert [s.name for s in snapshot.table.seats] == names
    assert [p.name for p in ann.state.players] == names
    exported = await ann.ask(wire.Export(ann.connection.new_ref(), table))
    assert isinstance(exported, wire.Exported)
    assert [p.name for p in decode(Path("t.json"), exported.save).players] == names


def test_public_start_replays_to_the_public_view_of_every_position() -> None:
    """core.public_start: replaying a table's actions from its public start gives every real
    position as the table saw it (all but the undealt order, which the start must not
    know), and exactly the public view of the position now; for prefixes of random 2-, 3-
    and 4-player games."""
    rng = random.Random(1)
    for players in (2, 3, 4):
        real, actions = [core.new_game(players, rng.randrange(10**6))], []
        while not core.is_over(real[-1]):
            actions.append(rng.choice(core.legal_actions(real[-1])))
            real.append(core.apply_action(real[-1], actions[-1]))
        for cut in range(0, len(real), 7):
            start = public_start(real[0], real[cut])
            assert start.seed == 0
            seen = core.replay(start, actions[:cut])
            assert seen[-1] == public_view(real[cut])
            for mine, theirs in zip(seen, real, strict=False):
                assert replace(mine, deck=()) == replace(theirs, deck=(), seed=0)
                assert sorted(f >> 1 for f in mine.deck) == sorted(f >> 1 for f in theirs.deck)


async def test_each_request_is_answered_even_when_many_come_at_once(server) -> None:
    bots = await seated(server, 2, seed=8)
    answers = await asyncio.gather(*[
        bots[0].ask(wire.ListTables(bots[0].connection.new_ref())) for _ in range(50)
    ])  # fmt: skip
    assert all(isinstance(a, wire.Lobby) for a in answers)


def test_sigterm_stops_the_server_cleanly(server) -> None:
    """SIGTERM: the server stops at once with status 0, its socket file removed, and its
    log names each connection and table event, one line each."""
    server.process.terminate()
    assert server.process.wait(10) == 0
    assert not server.socket.exists()
    assert server.process.stderr is not None
    log = server.process.stderr.read().decode()
    assert "serving 0 tables" in log and log.rstrip().endswith("stopping")


def test_a_store_that_is_not_one_is_refused_in_one_line(tmp_path, capsys) -> None:
    from table.serve import main

    bad = tmp_path / "tables.db"
    bad.write_bytes(b"not a database at all" * 100)
    assert main(["--socket", str(tmp_path / "s.sock"), "--db", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be the table store" in err
    assert bad.read_bytes() == b"not a database at all" * 100


def test_a_store_from_a_newer_server_is_refused_and_an_old_one_migrated(tmp_path) -> None:
    import sqlite3

    from table.store import MIGRATIONS, StoreError

    newer = tmp_path / "newer.db"
    TableStore(newer).close()
    with sqlite3.connect(newer) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(StoreError, match="newer server"):
        TableStore(newer)
    older = tmp_path / "older.db"
    with sqlite3.connect(older) as db:  # a version-1 store, as the first server wrote it
        for statement in MIGRATIONS[0].split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute("PRAGMA user_version = 1")
        db.execute("INSERT INTO tables (title, seed, created, updated) VALUES ('t', 5, 0, 0)")
    store = TableStore(older)
    try:
        (row,) = store.tables()
        assert (
            row.title == "t" and row.pace == "days" and row.journal == [] and store.ratings() == {}
        )
    finally:
        store.close()
