"""One server per store, whatever its socket (issue 17): a second server on the same store
exits 1 in one line naming the holder's pid, two started at once leave exactly one
running, and deleting the first one's socket file does not let another in."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from tests.table_server.test_processes import ANSWER_WITHIN, Launch, Launched, servers

RACES = 3
"""Rounds of two servers started at the same instant."""


@pytest.fixture
def launch() -> Iterator[Launch]:
    with servers() as start:
        yield start


def refused_by(loser: Launched, holder: Launched) -> None:
    """``loser`` exited 1 with one line that names ``holder``'s pid."""
    assert loser.exited() == 1, loser.stderr()
    lines = loser.lines()
    assert len(lines) == 1, lines
    assert f"pid {holder.pid}" in lines[0], lines


async def test_a_second_server_on_the_same_store_exits_1_naming_the_holder(launch) -> None:
    """Another socket, the same store: refused in one line with the first server's pid."""
    first = launch()
    await first.answering()
    second = launch(socket="other.sock")
    refused_by(second, first)
    assert not second.socket.exists()
    await first.answering()


async def test_two_servers_started_at_once_on_one_store_leave_exactly_one(launch) -> None:
    """Two servers, two sockets, one store, started together: one runs, the other exits 1
    naming it (in each of a few rounds)."""
    for round_ in range(RACES):
        pair = [launch(socket=f"r{round_}{side}.sock") for side in "ab"]
        began = time.monotonic()
        while all(server.process.poll() is None for server in pair):
            assert time.monotonic() - began < ANSWER_WITHIN, "two servers run on one store"
            await asyncio.sleep(0.02)
        losers = [server for server in pair if server.process.poll() is not None]
        assert len(losers) == 1, [server.stderr() for server in pair]
        (winner,) = [server for server in pair if server is not losers[0]]
        refused_by(losers[0], winner)
        await winner.answering()
        winner.stop()
        assert winner.process.returncode == 0, winner.stderr()


async def test_a_deleted_socket_file_does_not_let_a_second_server_in(launch) -> None:
    """The first server's socket file deleted while it runs: a server started on that very
    path and store is refused by the store's lock, and the first one goes on."""
    first = launch()
    await first.answering()
    first.socket.unlink()
    second = launch()
    refused_by(second, first)
    assert first.process.poll() is None
    assert not first.socket.exists()  # the second one never listened there
