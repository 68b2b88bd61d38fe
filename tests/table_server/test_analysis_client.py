"""A shared table's analysis from a terminal (:mod:`table.client.analysis`), at a real
server: ``run`` blocks in a thread while the connection lives on the event loop, hears the
server's progress in that thread, stops when asked (keeping what is judged), and says a
refusal or a dropped server in words; what the server keeps is there at once for the next
look (the lobby's replay asks for it)."""

from __future__ import annotations

import asyncio
import threading

from table import protocol as wire
from table.analysis import AnalysisRefused, Progress
from table.client.analysis import GONE, TableAnalysis
from table.client.connection import connect
from table.client.directory import ServerAddress
from tests.table_server.test_analysis import finished_table, server  # noqa: F401 (a fixture)


async def test_run_follows_the_server_in_a_thread_and_the_next_look_has_it_kept(server) -> None:  # noqa: F811
    table, _states, _actions = finished_table(server)
    directory = await ServerAddress(server.socket, "ann").directory()
    source = await directory.analysis(table)
    assert source.kept is None
    heard: list[tuple[Progress, bool]] = []

    def progress(step: Progress) -> None:
        heard.append((step, threading.current_thread() is threading.main_thread()))

    analysis = await asyncio.to_thread(source.run, (0,), progress, threading.Event())
    assert analysis.complete and analysis.seats == (0,) and analysis.seed == table
    assert heard and not any(on_loop for _, on_loop in heard)  # in the caller's thread
    assert heard[-1][0].total == len(analysis.decisions)
    assert source.kept == analysis

    again = await directory.analysis(table)
    assert again.kept == analysis  # a second look: at once
    assert await asyncio.to_thread(again.run, (0,), progress, threading.Event()) == analysis
    await directory.close()


async def test_a_stop_returns_what_is_judged_and_refusals_are_sentences(server) -> None:  # noqa: F811
    table, _states, _actions = finished_table(server)
    directory = await ServerAddress(server.socket, "ann").directory()
    source = await directory.analysis(table)
    stop = threading.Event()

    def progress(step: Progress) -> None:
        if step.done >= 1:
            stop.set()

    partial = await asyncio.to_thread(source.run, None, progress, stop)
    assert not partial.complete and partial.decisions

    ann = await connect(server.socket, "ann")
    seats = (wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben"))
    created = await ann.ask(wire.CreateTable(ann.new_ref(), seats))
    assert isinstance(created, wire.Lobby)
    await ann.close()
    playing = TableAnalysis(directory.dial, created.tables[0].id, asyncio.get_running_loop())
    try:
        await asyncio.to_thread(playing.run, None, progress, threading.Event())
        raise AssertionError("a table being played was analysed")
    except AnalysisRefused as refused:
        assert str(refused) == (
            "A table being played cannot be analysed: it can be once the game is over."
        )

    going = threading.Event()
    running = asyncio.ensure_future(
        asyncio.to_thread(source.run, None, lambda step: going.set(), threading.Event())
    )
    for _ in range(2000):
        if going.is_set():
            break
        await asyncio.sleep(0.01)
    server.kill()  # the server goes while the analysis runs: said in words
    try:
        await asyncio.wait_for(running, 60)
        raise AssertionError("an analysis without a server")
    except AnalysisRefused as refused:
        assert str(refused) == GONE
    await directory.close()
