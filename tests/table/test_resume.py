"""Ending a pause early (issue 18): the room's change (only the player who paused, only
while the pause runs: :func:`table.rules.why_no_resume`, whose own cases are in
``test_table_rules.py``; stored, told, and the game goes on at once) and the store's (the
table is no longer paused when read again).

The room is driven as in ``test_room.py``: fake listeners, a fake store, a clock the test
sets."""

from __future__ import annotations

from pathlib import Path

import pytest

import core
from table import journal
from table import protocol as wire
from table.store import Paused, Resumed, SeatRow, StoreError, TableStore
from tests.table.tables import T0, refused
from tests.table.test_room import NOT_STORED, TABLE, Table, row, words

TEN_MINUTES = 600


# ---------------------------------------------------------------- the room


class TestRoomResume:
    async def test_a_resumed_table_is_stored_told_and_played_at_once(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        await table.room.pause(ann, 1, 10)
        for ear in (ann, ben):
            ear.mark()
        table.clock.now = T0 + 60

        await table.room.resume(ann, 7)

        assert table.store.changes[-1] == Resumed(TABLE, "ann")
        assert table.store.entries[-1] == journal.PauseEnd(T0 + 60, 0, "ann", early=True)
        assert table.room.row.paused_until is None and table.room.row.paused_by is None
        (answer,) = ann.news()
        (told,) = ben.news()
        assert isinstance(answer, wire.Told) and answer.ref == 7
        assert isinstance(told, wire.Told) and told.ref == 0
        assert answer.entries == told.entries
        assert words(told) == ["ann ended their pause: play on."]
        assert told.table.paused_until is None and told.table.paused_by is None
        action = table.choices()[0]
        await table.room.play(table.deciding(), 1, 0, action)  # no wait for the old end
        assert table.room.row.actions == [action]

    async def test_only_the_player_who_paused_resumes(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        await table.room.pause(ann, 1, 10)
        stored = list(table.store.changes)
        with refused("ann paused the table until", whole=False):
            await table.room.resume(ben, 1)
        carl = await table.enter("carl", watch=True)
        with refused("only a player of the table can resume it"):
            await table.room.resume(carl, 1)
        assert table.store.changes == stored
        assert table.room.info().paused_until == T0 + TEN_MINUTES

    async def test_a_pause_that_ran_out_cannot_be_resumed(self):
        table = Table(row())
        ann, _ = await table.everyone("ann", "ben")
        await table.room.pause(ann, 1, 10)
        table.clock.now = T0 + TEN_MINUTES
        with refused("the table is not paused"):
            await table.room.resume(ann, 1)

    async def test_resuming_does_not_give_the_seasons_pause_back(self):
        table = Table(row())
        ann, _ = await table.everyone("ann", "ben")
        assert table.room.info().paused_this_season == ()
        await table.room.pause(ann, 1, 10)
        await table.room.resume(ann, 2)
        assert table.room.info().paused_this_season == ("ann",)
        with refused("you have paused this table once this season already"):
            await table.room.pause(ann, 3, 10)

    async def test_a_pause_of_another_season_is_not_counted(self):
        old = row()
        old.pauses.add(("ann", 2))  # the table is in season 1
        table = Table(old)
        assert table.room.info().paused_this_season == ()

    async def test_a_computer_whose_turn_it_is_plays_again_once_resumed(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        deciding = table.seat_deciding()
        table.room.row.seats[deciding].standin = "easy"
        pauser = [ann, ben][1 - deciding]
        await table.room.pause(pauser, 1, 10)
        assert table.room.computer_due() is None
        await table.room.resume(pauser, 2)
        due = table.room.computer_due()
        assert due is not None and due[:2] == (deciding, "easy")

    async def test_a_resume_the_store_refuses_changes_nothing(self):
        table = Table(row())
        ann, ben = await table.everyone("ann", "ben")
        await table.room.pause(ann, 1, 10)
        for ear in (ann, ben):
            ear.mark()
        table.store.failing = OSError("disk full")
        with refused(NOT_STORED):
            await table.room.resume(ann, 1)
        assert table.room.row.paused_until == T0 + TEN_MINUTES
        assert ann.news() == ben.news() == []


# ---------------------------------------------------------------- the store


class TestStoredResume:
    def test_a_resumed_table_reads_back_unpaused_with_its_pause_counted(self, tmp_path: Path):
        store = TableStore(tmp_path / "tables.db")
        colours = {"ann": core.Colour.BLUE, "ben": core.Colour.RED}
        seats = [SeatRow("player", name, None, colour) for name, colour in colours.items()]
        table = store.create("t", 5, seats, "live", 300, "ann").id
        store.commit([Paused(table, "ann", 1, T0 + TEN_MINUTES)])
        with pytest.raises(StoreError, match="not paused by ben"):
            store.commit([Resumed(table, "ben")])
        store.commit([Resumed(table, "ann")])
        (read,) = store.tables()
        assert (read.paused_until, read.paused_by, read.pauses) == (None, None, {("ann", 1)})
        store.close()
