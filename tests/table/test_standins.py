"""Who made each move at a shared table: a computer standing in for a player is recorded
with the move, so the ladder rates people's play (issue 18 #7), the player cannot take
back the computer's move, and everyone's log places the chat the same way (#4)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

import core
from table import journal, ladder
from table import protocol as wire
from table.server import rules
from table.server.room import Room
from table.store import Append, Change, SeatRow, TableRow
from tests.table.tables import T0, Ear, refused, view


class Store:
    def __init__(self) -> None:
        self.changes: list[Change] = []

    async def __call__(self, changes: Sequence[Change]) -> None:
        self.changes += changes


def ann_and_ben() -> tuple[Room, Store]:
    seats = [SeatRow("player", "ann", None, core.Colour.BLUE),
             SeatRow("player", "ben", None, core.Colour.RED)]  # fmt: skip
    store = Store()
    row = TableRow(7, "ann, ben", 5, T0, T0, seats, pace="live", creator="ann")
    return Room(row, store, lambda: T0), store


async def play_to_the_end(room: Room, ears: dict[int, Ear], chance: random.Random) -> None:
    """Every decision: a stand-in's by the computer path, a player's by a Play."""
    while (state := room.state) is not None and not core.is_over(state):
        seat = state.current_player
        assert seat is not None
        action = chance.choice(core.legal_actions(state))
        if room.row.seats[seat].standin:
            assert await room.computer_moved(seat, len(room.row.actions), action)
        else:
            await room.play(ears[seat], 0, len(room.row.actions), action)


def test_a_player_is_rated_as_themselves_unless_stand_ins_made_most_of_their_moves() -> None:
    assert ladder.rated_as("ann", [None, None, "easy"]) == "ann"
    assert ladder.rated_as("ann", [None, "easy"]) == "ann"  # half is not most
    assert ladder.rated_as("ann", [None, "easy", "easy"]) == "computer (easy)"
    assert ladder.rated_as("ann", ["hard", "easy", None, "hard"]) == "computer (hard)"
    assert ladder.rated_as("ann", ["hard", "easy", "easy", "hard"]) == "computer (easy)"
    assert ladder.rated_as("ann", []) == "ann"


async def test_a_seat_handed_over_at_the_first_move_is_rated_as_its_computer() -> None:
    room, store = ann_and_ben()
    ann, ben = Ear("ann"), Ear("ben")
    await room.enter(ann, 1, False, None)
    await room.enter(ben, 2, False, None)
    await room.hand_over(ben, 3, "easy", None)
    await play_to_the_end(room, {0: ann, 1: ben}, random.Random(2))
    made = [c.standin for c in store.changes if isinstance(c, Append)]
    movers = [s.current_player for s in room.states[:-1]]
    assert {m for m, by in zip(movers, made, strict=True) if by == "easy"} == {1}
    assert room.row.standins == made
    assert rules.rated_names(room.row, room.states) == ["ann", "computer (easy)"]
    moves = [e for m in ann.heard if isinstance(m, wire.Told) for e in m.entries
             if isinstance(e, journal.Move)]  # fmt: skip
    assert [move.standin for move in moves] == made  # told with each move


async def test_the_computers_move_is_not_the_players_to_take_back() -> None:
    room, _ = ann_and_ben()
    ann, ben = Ear("ann"), Ear("ben")
    await room.enter(ann, 1, False, None)
    await room.enter(ben, 2, False, None)
    state = room.state
    assert state is not None and state.current_player == 0  # ann starts (seed 5)
    await room.hand_over(ann, 3, "normal", None)
    action = core.legal_actions(state)[0]
    assert await room.computer_moved(0, 0, action)
    await room.hand_over(ann, 4, None, None)
    with refused("a computer made that move for you: only your own can be taken back"):
        await room.undo(ann, 5, 1)


async def test_a_chat_line_keeps_its_place_among_the_moves_for_everyone() -> None:
    room, _ = ann_and_ben()
    ann, ben = Ear("ann"), Ear("ben")
    await room.enter(ann, 1, False, None)
    await room.enter(ben, 2, False, None)
    state = room.state
    assert state is not None
    await room.play(ann, 3, 0, core.legal_actions(state)[0])
    await room.say(ben, 4, "nice")
    late = Ear("cleo")
    await room.enter(late, 5, True, None)
    snapshot = late.heard[-1]
    assert isinstance(snapshot, wire.Snapshot)
    chat = [e for e in snapshot.journal if isinstance(e, journal.Chat)]
    assert [(line.text, line.seq) for line in chat] == [("nice", 1)]
    said = [e for m in ann.heard if isinstance(m, wire.Told) for e in m.entries
            if isinstance(e, journal.Chat)]  # fmt: skip
    assert said[0].seq == 1
    assert len(view(late)) == 2


async def test_a_terminal_reconnecting_by_itself_keeps_the_stand_in_coming_back_ends_it() -> None:
    """Ann hands her seat over and walks away; her terminal redials after a server restart
    (it is not her coming back): the computer keeps her seat. Her Join ends it."""
    room, _ = ann_and_ben()
    ann, ben = Ear("ann"), Ear("ben")
    await room.enter(ann, 1, False, None)
    await room.enter(ben, 2, False, None)
    await room.hand_over(ann, 3, "hard", None)
    room.leave(ann)
    await asyncio.sleep(0)
    redial = Ear("ann")
    await room.enter(redial, 4, False, None, back=False)
    assert room.row.seats[0].standin == "hard"
    again = Ear("ann")
    await room.enter(again, 5, False, None)
    assert room.row.seats[0].standin is None
    snapshot = again.heard[-1]
    assert isinstance(snapshot, wire.Snapshot)
    assert journal.words(snapshot.journal[-1]) == "ann plays their own seat again."
