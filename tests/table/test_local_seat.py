"""The local seat on its own (no Textual): it plays the computer seats while it runs,
tells every change to its listeners, and stops a search under way when it is cancelled
(the game screen cancels it when the game is left)."""

from __future__ import annotations

import asyncio
import threading

import core
import saves
from core.ai import HardBot
from table.local import LocalSeat
from table.seat import SeatError, Update

HUMAN_FIRST = [
    saves.SeatConfig("Ann", core.Colour.BLUE, "human"),
    saves.SeatConfig("Bot", core.Colour.RED, "computer", "easy"),
]


def seat_for(tmp_path, seats=HUMAN_FIRST, seed: int = 1) -> LocalSeat:
    store = saves.SaveStore(tmp_path / "saves")
    return LocalSeat(saves.Session.new(store, seats, seed=seed, name="g"), pace=0.0)


async def test_the_computer_answers_and_every_change_is_told(tmp_path) -> None:
    seat = seat_for(tmp_path)
    heard: list[Update] = []
    seat.listen(heard.append)
    runner = asyncio.create_task(seat.run())
    try:
        for _ in range(500):  # until a human decides (the computer may start)
            if seat.decides_here(seat.state.current_player):
                break
            await asyncio.sleep(0.01)
        assert seat.decides_here(seat.state.current_player)
        before = len(heard)
        seat.play(core.Pass())
        assert heard[before].kind == "played" and heard[before].action == core.Pass()
        for _ in range(500):
            if len(seat.history()[1]) > 1 + (before > 0):
                break
            await asyncio.sleep(0.01)
        assert any(not seat.decides_here(u.before.current_player) for u in heard if u.before)
    finally:
        runner.cancel()
    assert seat.session.actions == saves.SaveStore(tmp_path / "saves").watch("g").actions


async def test_a_move_for_a_computer_seat_is_refused(tmp_path) -> None:
    seat = seat_for(tmp_path)
    if seat.decides_here(seat.state.current_player):
        seat.play(core.Pass())  # Ann passes: the computer decides now
    deciding = seat.state.current_player
    assert deciding is not None and seat.players[deciding].computer == "easy"
    before = list(seat.session.actions)
    try:
        seat.play(core.Pass())
    except SeatError as exc:
        assert "not your decision" in str(exc)
    else:
        raise AssertionError("a human played the computer's move")
    assert seat.session.actions == before


async def test_cancelling_the_seat_stops_a_search_under_way(tmp_path, monkeypatch) -> None:
    """A hard search set to run for ten minutes ends soon after the seat is cancelled:
    the seat passes its stop flag to the search."""
    started, ended = threading.Event(), threading.Event()
    real = HardBot.choose

    def endless(self, state, stop=None):
        self.iterations, self.budget = 10**9, 600.0
        started.set()
        try:
            return real(self, state, stop)
        finally:
            ended.set()

    monkeypatch.setattr(HardBot, "choose", endless)
    seats = [
        saves.SeatConfig("Hal", core.Colour.BLUE, "computer", "hard"),
        saves.SeatConfig("Ann", core.Colour.RED, "human"),
    ]
    seat = seat_for(tmp_path, seats, seed=2)
    while seat.state.current_player != 0:  # let the human pass until Hal decides
        seat.play(core.Pass())
    runner = asyncio.create_task(seat.run())
    assert await asyncio.to_thread(started.wait, 10)
    runner.cancel()
    assert await asyncio.to_thread(ended.wait, 10), "the search went on after the cancel"
