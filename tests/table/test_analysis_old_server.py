"""A terminal of this version at a table server older than the analysis (protocol 3
without it): the server refuses the request as malformed, which the terminal says in
words; the lobby's replay still opens (no kept analysis)."""

from __future__ import annotations

import asyncio
import itertools
import threading

import pytest

from table import protocol as wire
from table.analysis import AnalysisRefused
from table.client.analysis import OLDER_SERVER, TableAnalysis
from table.client.directory import TableDirectory


class OldServer:
    """A link to a server that knows no analysis (it answers as protocol 3's did)."""

    player = "ann"

    def __init__(self) -> None:
        self.refs = itertools.count(1)

    def new_ref(self) -> int:
        return next(self.refs)

    async def ask(self, message: wire.ClientMessage) -> wire.ServerMessage:
        ref = getattr(message, "ref", 0)
        return wire.Error(ref, "malformed request: Invalid value 'analyse' - at `$.t`")

    async def unasked(self) -> wire.ServerMessage:
        await asyncio.Event().wait()
        raise AssertionError("never")

    async def close(self) -> None:
        pass


async def test_an_older_server_is_said_in_words() -> None:
    async def dial() -> OldServer:
        return OldServer()

    directory = TableDirectory(OldServer(), dial, "old.sock")
    source = await directory.analysis(4)
    assert isinstance(source, TableAnalysis) and source.kept is None
    with pytest.raises(AnalysisRefused) as caught:
        await asyncio.to_thread(source.run, None, lambda step: None, threading.Event())
    assert str(caught.value) == OLDER_SERVER
    again = TableAnalysis(dial, 4, asyncio.get_running_loop())
    with pytest.raises(AnalysisRefused):
        await asyncio.to_thread(again.run, (0,), lambda step: None, threading.Event())
