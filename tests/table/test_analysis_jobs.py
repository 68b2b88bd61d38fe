"""A finished table's analysis on the server (:mod:`table.server.analysis`), driven
directly: the judge is a hand the test answers (no worker processes), the store a fake
commit that keeps each change, the connections fakes that keep what they hear. So the
promises are shown without timings: one job a table whatever the number of followers,
each decision judged once, everyone told, a stop or a dropped connection stopping the job
only when nobody follows it any more, what is judged kept (never judged again), and the
refusals in words."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

import pytest

import core
from core.analysis import ANALYSIS_VERSION, Analysis, Judgement, decisions
from table import protocol as wire
from table.server.analysis import PER_PLAYER, Analyses
from table.server.room import Room
from table.store import Analysed, Change, SeatRow, TableRow
from tests.table.tables import T0, Ear, refused

SEED = 3


def finished_row(table: int = 7) -> TableRow:
    """Ann and Ben's game played to its end by random legal actions."""
    colours = [core.Colour.BLUE, core.Colour.RED]
    state = core.new_game(2, SEED, ["ann", "ben"], colours)
    chance, actions = random.Random(table), []
    while not core.is_over(state):
        action = chance.choice(core.legal_actions(state))
        actions.append(action)
        state = core.apply_action(state, action)
    seats = [
        SeatRow("player", name, None, colour)
        for name, colour in zip(("ann", "ben"), colours, strict=True)
    ]
    return TableRow(table, "", SEED, T0, T0, seats, actions=actions, creator="ann")


class Hand:
    """The judge: keeps each judgement asked for, which the test answers."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, asyncio.Future[Judgement | None]]] = []

    def __call__(
        self, owner: str, state: core.GameState, action: core.Action, index: int, seed: int
    ) -> asyncio.Future[Judgement | None]:
        assert state == core.public_view(state)  # the worker never sees the deck's order
        future: asyncio.Future[Judgement | None] = asyncio.get_running_loop().create_future()
        self.asked.append((index, future))
        return future

    def waiting(self) -> list[int]:
        return [index for index, future in self.asked if not future.done()]

    def answer(self, count: int, room: Room) -> None:
        """Judge the first ``count`` decisions waiting."""
        for index, future in [(i, f) for i, f in self.asked if not f.done()][:count]:
            future.set_result(judgement(room, index))


def judgement(room: Room, index: int) -> Judgement:
    state = room.states[index]
    played = core.format_action(room.row.actions[index])
    return Judgement(index, state.season, state.current, played, played, 0.0,
                     {played: 1.0}, (1.0, -1.0), False)  # fmt: skip


class Store:
    def __init__(self) -> None:
        self.kept: list[Analysis] = []

    async def __call__(self, changes: Sequence[Change]) -> None:
        for change in changes:
            assert isinstance(change, Analysed)
            self.kept.append(change.analysis)


def dones(ear: Ear) -> list[int]:
    return [m.done for m in ear.heard if isinstance(m, wire.Analysing)]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


@pytest.fixture
def setup() -> tuple[Room, Analyses, Hand, Store]:
    store, hand = Store(), Hand()
    room = Room(finished_row(), store)
    return room, Analyses(hand, store), hand, store


def ask(analyses: Analyses, room: Room, ear: Ear, seats=None, ref: int = 1, kept=False) -> None:
    analyses.analyse(room, ear, wire.Analyse(ref, room.id, seats, kept))


async def test_two_followers_share_one_job_each_decision_judged_once(setup) -> None:
    room, analyses, hand, store = setup
    ann, ben = Ear("ann"), Ear("ben")
    wanted = decisions(room.states, room.row.actions)
    ask(analyses, room, ann)
    ask(analyses, room, ben, ref=2)
    assert sorted(hand.waiting()) == wanted  # once each, whoever asked
    assert ann.heard == [wire.Analysing(1, room.id, 0, len(wanted), None)]
    assert ben.heard == [wire.Analysing(2, room.id, 0, len(wanted), None)]
    hand.answer(3, room)
    await settle()
    assert dones(ann) == [0, 1, 2, 3] == dones(ben)
    hand.answer(len(wanted), room)
    await settle()
    assert isinstance(ann.heard[-1], wire.Analysed) and ann.heard[-1] == ben.heard[-1]
    analysis = ann.heard[-1].analysis
    assert analysis is not None and analysis.complete and analysis.seed == room.id
    assert analysis.version == ANALYSIS_VERSION and [j.index for j in analysis.decisions] == wanted
    assert store.kept[-1] == analysis == room.row.analysis and not analyses.jobs

    cleo = Ear("cleo")
    ask(analyses, room, cleo, ref=5)  # kept: answered at once, nothing judged again
    assert cleo.heard == [wire.Analysed(5, room.id, analysis)]
    ask(analyses, room, cleo, (1,), ref=6)
    only = cleo.heard[-1]
    assert isinstance(only, wire.Analysed) and only.analysis is not None
    assert only.analysis.seats == (1,) and {j.seat for j in only.analysis.decisions} == {1}
    assert len(hand.asked) == len(wanted)


async def test_the_job_stops_when_its_last_follower_stops_or_goes_keeping_what_is_done(
    setup,
) -> None:
    room, analyses, hand, store = setup
    ann, ben = Ear("ann"), Ear("ben")
    ask(analyses, room, ann)
    ask(analyses, room, ben)
    hand.answer(2, room)
    await settle()
    analyses.stop(room, ann, 9)  # ben still follows: the job goes on
    stopped = ann.heard[-1]
    assert isinstance(stopped, wire.Analysed) and stopped.ref == 9 and stopped.analysis
    assert not stopped.analysis.complete and len(stopped.analysis.decisions) == 2
    assert hand.waiting() and room.id in analyses.jobs
    hand.answer(1, room)
    await settle()
    assert len(ann.heard) == 4  # not told any more
    analyses.gone(ben)  # ben's connection drops: nobody follows, the job stops
    await settle()
    assert not analyses.jobs and not hand.waiting()  # what waited is given up
    assert all(future.cancelled() for _, future in hand.asked[3:])
    kept = store.kept[-1]
    assert not kept.complete and len(kept.decisions) == 3 and room.row.analysis == kept

    ask(analyses, room, ann, ref=11)  # later: only what is not kept is judged
    first = ann.heard[-1]
    assert isinstance(first, wire.Analysing) and first.done == 3
    assert not {j.index for j in kept.decisions} & set(hand.waiting())


async def test_a_table_not_over_bad_seats_and_too_many_analyses_are_refused(setup) -> None:
    room, analyses, hand, store = setup
    ann = Ear("ann")
    playing = Room(TableRow(8, "", SEED, T0, T0, finished_row().seats), store)
    with refused("a table being played cannot be analysed: it can be once the game is over"):
        ask(analyses, playing, ann)
    with refused(f"table {room.id} has 2 seats: there is no seat 3"):
        ask(analyses, room, ann, (2,))
    with refused(f"nothing of table {room.id} is being analysed for you"):
        analyses.stop(room, ann, 1)
    ask(analyses, room, ann, kept=True)
    assert ann.heard[-1] == wire.Analysed(1, room.id, None)
    assert not hand.asked
    for table in range(20, 20 + PER_PLAYER):
        ask(analyses, Room(finished_row(table), store), ann)
    with refused(
        f"{PER_PLAYER} games are being analysed for you already: wait for one, or stop it"
    ):
        ask(analyses, room, ann)
    nobody = Analyses(None, store)
    with refused("this table server does not analyse games"):
        ask(nobody, room, ann)
