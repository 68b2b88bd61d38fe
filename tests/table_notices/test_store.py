"""The notices' rows: a turn's notice is written with the change that began the turn, to
confirmed channels only, due after the player's delay; a code confirms; off is off."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.notices import DEFAULT_DELAY
from table.notices.checks import code_hash
from table.store import SitDown, StoreError, TurnBegan
from tests.table_notices.helpers import a_table, confirmed, stores, turn


def test_a_turn_notice_is_due_after_the_players_delay_on_confirmed_channels(
    tmp_path: Path,
) -> None:
    store, notices = stores(tmp_path)
    table = a_table(store)
    confirmed(notices, "ben", "email", "ben@example.org")
    notices.add_channel("ben", "ntfy", "https://ntfy.sh/ben", code_hash("1"), 9e9,
                        ("confirm.x", "s", "b"), 0)  # fmt: skip  # never confirmed
    notices.set_player("ben", 900, False)
    turn(store, table, 1, "ben", 1000.0)
    assert notices.due(1000.0 + 899) == [row for row in notices.due(1000.0 + 899)
                                         if row.kind == "confirm"]  # fmt: skip
    (due,) = [row for row in notices.due(1900.0) if row.kind == "turn"]
    assert (due.name, due.table, due.seq, due.since, due.channel_kind) == (
        "ben", table, 1, 1000.0, "email",
    )  # fmt: skip
    turn(store, table, 1, "ben", 1000.0)  # the same turn again: still one notice
    assert len([row for row in notices.due(1900.0) if row.kind == "turn"]) == 1


def test_the_notice_is_in_the_changes_transaction_or_not_at_all(tmp_path: Path) -> None:
    """A commit the store refuses (here a seat no longer open) leaves no notice."""
    store, notices = stores(tmp_path)
    table = a_table(store)
    confirmed(notices, "ben", "email", "ben@example.org")
    with pytest.raises(StoreError, match="is not open"):
        store.commit([TurnBegan(table, 1, "ben", 5.0), SitDown(table, 0, "eve")])
    assert [row for row in notices.due(1e9) if row.kind == "turn"] == []


def test_default_delay_and_off(tmp_path: Path) -> None:
    store, notices = stores(tmp_path)
    table = a_table(store)
    confirmed(notices, "cleo", "email", "cleo@example.org")
    assert notices.player("cleo") == (DEFAULT_DELAY, False)
    turn(store, table, 2, "cleo", 0.0)
    assert [r.kind for r in notices.due(DEFAULT_DELAY)] == ["turn"]
    notices.set_player("cleo", DEFAULT_DELAY, True)  # off: what was pending is dropped
    assert notices.due(1e9) == []
    turn(store, table, 5, "cleo", 0.0)  # and nothing new is queued
    assert notices.due(1e9) == []


def test_a_wrong_code_does_not_confirm_and_too_many_remove_the_address(tmp_path: Path) -> None:
    _, notices = stores(tmp_path)
    channel = notices.add_channel("ben", "email", "ben@example.org", code_hash("424242"), 100.0,
                                  ("confirm.1", "s", "424242"), 0.0)  # fmt: skip
    assert notices.confirm("alice", channel, code_hash("424242"), 1.0, 3) == "unknown"
    assert notices.confirm("ben", channel, code_hash("000000"), 1.0, 3) == "wrong"
    assert notices.confirm("ben", channel, code_hash("424242"), 101.0, 3) == "expired"
    assert notices.confirm("ben", channel, code_hash("000001"), 1.0, 3) == "wrong"
    assert notices.confirm("ben", channel, code_hash("000002"), 1.0, 3) == "unknown"
    assert notices.channels("ben") == []


def test_a_game_that_starts_at_its_creation_queues_its_first_players_notice(
    tmp_path: Path,
) -> None:
    import core
    from table.store import SeatRow

    store, notices = stores(tmp_path)
    confirmed(notices, "ben", "email", "ben@example.org")
    seats = [SeatRow("player", name, None, colour)
             for name, colour in zip(("alice", "ben"), core.Colour, strict=False)]  # fmt: skip
    table = store.create("t", 1, seats, first="ben", creator="alice").id
    (row,) = [r for r in notices.due(1e12) if r.kind == "turn"]
    assert (row.table, row.seq, row.name) == (table, 0, "ben")
