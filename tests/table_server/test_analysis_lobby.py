"""The lobby's replay of a finished shared table hands the replay screen the server's
analysis of it (what the server keeps, shown at once), when the replay screen takes one
(its ``analysis`` keyword, issue 27). The replay screen here is a stand-in that takes it;
the real one gains the keyword in its own branch."""

from __future__ import annotations

import asyncio

import saves
from table import protocol as wire
from table.client.analysis import TableAnalysis
from table.client.connection import connect
from tests.table_server.test_analysis import (  # noqa: F401 (a fixture)
    ANALYSIS_WAIT,
    finished_table,
    server,
)
from tests.tui.conftest import app_for, settle
from tui.screens.lobby import LobbyScreen
from tui.screens.replay import ReplayScreen


class Replay(ReplayScreen):
    """The replay screen, taking the analysis as the issue's does."""

    def __init__(self, source, *, analysis=None, **options) -> None:
        super().__init__(source, **options)
        self.analysis = analysis


async def test_the_replay_of_a_finished_table_gets_its_kept_analysis(
    server,  # noqa: F811
    tmp_path,
    monkeypatch,
) -> None:
    table, _states, _actions = finished_table(server)
    ann = await connect(server.socket, "ann")
    first = await ann.ask(wire.Analyse(ann.new_ref(), table, (0,)))
    while not isinstance(first, wire.Analysed):
        first = await asyncio.wait_for(ann.unasked(), ANALYSIS_WAIT)
    await ann.close()
    monkeypatch.setattr("tui.screens.replay.ReplayScreen", Replay)
    app = app_for(saves.SaveStore(tmp_path / "saves"), server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await settle(pilot, lambda: bool(lobby.tables) and lobby.tables[0].status == "over")
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, Replay))
        replay = app.screen
        assert isinstance(replay, Replay)
        source = replay.analysis
        assert isinstance(source, TableAnalysis) and source.table == table
        assert source.kept == first.analysis and source.kept is not None
