"""The marks of unseen cubes with stand-ins playing (issue 26, item 12): {B}/{R} marks
the cubes placed since this terminal's player's last turn, whoever played it (their own
hand or a computer standing in for them, watched here), not every computer move of the
season; a rebuild (an undo, a reconnection) keeps to the same rule. The shared table is
the scripted one of tests/table/test_remote_seat.py."""

from __future__ import annotations

import random

import core
from core.region import spaces_of
from tests.table.test_remote_seat import FakeTable, start_state
from tests.tui.conftest import app_for, settle
from tests.tui.test_table_seat import show, sit
from tui.widgets.region import new_cubes

ANN, BEN = 0, 1


def play_on(table: FakeTable, rng: random.Random, least: int) -> None:
    """At least ``least`` seeded random actions of season 1, ann's made by her stand-in,
    ending on one of ben's that placed a cube (so that something is to be marked)."""
    played = 0
    while True:
        before = table.state()
        if before.season != 1 or core.is_over(before):
            raise AssertionError("season 1 ended before the test's moves")
        seat = before.current_player
        action = rng.choice(core.legal_actions(before))
        table.play(action, standin="normal" if seat == ANN else None)
        played += 1
        if played >= least and seat == BEN and new_cubes(before, table.state()):
            return


def since_anns_turn(table: FakeTable) -> frozenset[int]:
    """The cubes placed since the last turn of ann's seat (by anyone: ben, the neutral
    cubes he places) and still on the region: what this terminal marks."""
    states = core.replay(table.start, table.actions)
    last = max(i for i in range(len(table.actions)) if states[i].current_player == ANN)
    placed = frozenset().union(
        *(new_cubes(states[i], states[i + 1]) for i in range(last + 1, len(table.actions)))
    )
    occupied = 0
    for mask in states[-1].cubes:
        occupied |= mask
    return frozenset(space for space in placed if occupied >> space & 1)


def anns_cubes(state: core.GameState) -> frozenset[int]:
    return frozenset(spaces_of(state.cubes[ANN]))


async def test_with_a_stand_in_only_the_cubes_since_the_seats_last_turn_are_marked(store):
    table = FakeTable(start_state())
    table.hand_over("ann", "normal")
    app = app_for(store, offer_resume=False)
    rng = random.Random(0)
    async with app.run_test(size=(80, 24)) as pilot:
        seat, _ = await sit(table, "ann")
        game = await show(app, pilot, seat)
        play_on(table, rng, 12)
        await settle(pilot, lambda: len(seat.known.actions) == len(table.actions))
        await pilot.pause()
        state = table.state()
        assert game.recent, "ben's last cube is marked"
        assert not game.recent & anns_cubes(state), "her stand-in's cubes were seen here"
        assert game.recent == since_anns_turn(table)
        table.undo("ben")  # a rebuild: the marks as they were one action earlier
        await settle(pilot, lambda: len(seat.known.actions) == len(table.actions))
        await pilot.pause()
        assert not game.recent & anns_cubes(table.state())
        assert game.recent == since_anns_turn(table)
