"""Hints at a shared table (issue 26, item 6): chosen at creation, the server's rule by
default (off where two or more people play, an open seat counting as a person to come),
kept by the store (schema 11, which gives the tables made before the same rule) and told
to everyone in the table's line."""

from __future__ import annotations

import sqlite3

import pytest

import core
from table import protocol as wire
from table.client.connection import connect
from table.server.rules import default_hints
from table.store import SeatRow, TableStore
from table.store.schema import MIGRATIONS

ANN, BEN = wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben")
BLUE, RED = core.Colour.BLUE, core.Colour.RED
OPEN, EASY = wire.SeatSpec("open"), wire.SeatSpec("computer", level="easy")


async def created(server, seats: tuple[wire.SeatSpec, ...], hints: bool | None) -> wire.TableInfo:
    connection = await connect(server.socket, "ann")
    try:
        request = wire.CreateTable(connection.new_ref(), seats, hints=hints)
        answer = await connection.ask(request)
    finally:
        await connection.close()
    assert isinstance(answer, wire.Lobby), answer
    return answer.tables[0]


@pytest.mark.parametrize(
    ("seats", "hints", "told"),
    [
        ((ANN, EASY), None, True),
        ((ANN, BEN), None, False),
        ((ANN, OPEN, EASY), None, False),
        ((ANN, BEN), True, True),
        ((ANN, EASY), False, False),
    ],
)
async def test_the_table_says_what_its_creator_chose_or_the_rule(server, seats, hints, told):
    assert (await created(server, seats, hints)).hints is told


async def test_the_lobby_of_another_player_tells_the_setting(server) -> None:
    table = await created(server, (ANN, BEN), True)
    ben = await connect(server.socket, "ben")
    try:
        answer = await ben.ask(wire.ListTables(ben.new_ref()))
    finally:
        await ben.close()
    assert isinstance(answer, wire.Lobby)
    assert [t.hints for t in answer.tables if t.id == table.id] == [True]


def test_the_rule_counts_people_not_computers() -> None:
    assert default_hints(
        [
            SeatRow("player", "ann", None, core.Colour.BLUE),
            SeatRow("computer", None, "easy", core.Colour.RED),
        ]
    )
    assert not default_hints(
        [
            SeatRow("player", "ann", None, core.Colour.BLUE),
            SeatRow("open", None, None, core.Colour.RED),
        ]
    )


def test_the_store_keeps_the_setting_and_older_tables_get_the_rule(tmp_path) -> None:
    path = tmp_path / "tables.db"
    with sqlite3.connect(path) as db:
        for migration in MIGRATIONS[:10]:
            for statement in migration.split(";"):
                if statement.strip():
                    db.execute(statement)
        db.execute("PRAGMA user_version = 10")
        for table_id, second in ((1, "computer"), (2, "player")):
            db.execute(
                "INSERT INTO tables (id, title, seed, created, updated) VALUES (?, 't', 5, 0, 0)",
                (table_id,),
            )
            db.execute(
                "INSERT INTO seats VALUES (?, 0, 'player', 'ann', NULL, 'blue', NULL)", (table_id,)
            )
            name, level = ("ben", None) if second == "player" else (None, "easy")
            db.execute(
                "INSERT INTO seats VALUES (?, 1, ?, ?, ?, 'red', NULL)",
                (table_id, second, name, level),
            )
    db.close()
    store = TableStore(path)
    try:
        assert [row.hints for row in store.tables()] == [True, False]
        people = [SeatRow("player", n, None, c) for n, c in (("ann", BLUE), ("ben", RED))]
        assert store.create("h", 1, people, hints=True).hints is True
        assert [row.hints for row in store.tables()] == [True, False, True]
    finally:
        store.close()
