"""Hostile clients against a real server: random and mutated frames, truncated frames, a
10 MB frame, hundreds of idle connections, a client that never reads. Each is bounded in
count and time; afterwards another table must still be served, and the server's memory
must stay within its bound."""

from __future__ import annotations

import asyncio
import random
import resource
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from table import protocol as wire
from table.client.connection import connect
from tests.table_server.bots import Bot, create, played

NAMES = ["ann", "ben"]
MEMORY_BOUND = 64 * 1024 * 1024
"""Bytes the server's resident memory may grow by under the whole barrage."""


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


async def still_served(server) -> None:
    """A fresh table still plays: a move is acknowledged and reaches the other player."""
    table = await create(server.socket, "ann", [wire.SeatSpec("player", n) for n in NAMES])
    ann, ben = [await Bot.join(server.socket, n, table, i) for i, n in enumerate(NAMES)]
    mover, other = (ann, ben) if ann.my_turn() else (ben, ann)
    assert played(await mover.play_one())
    for _ in range(20):  # a presence notice may come first
        if other.actions == mover.actions:
            break
        await other.listen(10)
    assert other.actions == mover.actions
    for bot in (ann, ben):
        await bot.connection.close()


async def raw(server) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_unix_connection(str(server.socket))


def hello() -> bytes:
    return wire.frame(wire.Hello(wire.VERSION, "ann"))


async def answer_or_close(reader: asyncio.StreamReader) -> wire.ServerMessage | None:
    """The next frame from the server, None if it closed the connection (or said nothing
    within a second)."""
    try:
        header = await asyncio.wait_for(reader.readexactly(4), 1.0)
        (size,) = struct.unpack(">I", header)
        return wire.read_server(await asyncio.wait_for(reader.readexactly(size), 1.0))
    except (asyncio.IncompleteReadError, TimeoutError, ConnectionError):
        return None


async def test_random_and_mutated_frames_harm_nobody_else(server) -> None:
    rng = random.Random(3)
    start = rss(server.process.pid)
    valid = wire.frame(wire.ListTables(1))
    for round_ in range(120):
        reader, writer = await raw(server)
        if round_ % 3 == 0:  # garbage from the first byte
            writer.write(rng.randbytes(rng.randrange(1, 300)))
        elif round_ % 3 == 1:  # a valid hello, then a mutated request
            body = bytearray(valid[4:])
            for _ in range(rng.randrange(1, 6)):
                body[rng.randrange(len(body))] = rng.randrange(256)
            writer.write(hello() + struct.pack(">I", len(body)) + bytes(body))
        else:  # a truncated frame, then the connection closes
            frame = hello() + wire.frame(wire.ListTables(2))
            writer.write(frame[: rng.randrange(1, len(frame))])
        await writer.drain()
        if round_ % 3 == 1:
            await answer_or_close(reader)  # the welcome
            answer = await answer_or_close(reader)
            assert answer is None or isinstance(answer, wire.Error | wire.Lobby)
        writer.close()
    await still_served(server)
    assert rss(server.process.pid) - start < MEMORY_BOUND


async def test_a_10_mb_frame_closes_that_connection_only(server) -> None:
    reader, writer = await raw(server)
    # The length and the start of the frame in one write (the server closes on seeing the
    # length, and a second write could then be reset): it must not wait for the rest.
    writer.write(hello() + struct.pack(">I", 10 * 1024 * 1024) + b"x" * 1024)
    await writer.drain()
    welcome = await answer_or_close(reader)
    assert isinstance(welcome, wire.Welcome)
    refusal = await answer_or_close(reader)
    assert isinstance(refusal, wire.Error) and "too long" in refusal.reason
    assert await answer_or_close(reader) is None  # closed
    writer.close()
    await still_served(server)


IDLE = """
import os, socket, sys, time
os.setgroups([]); os.setgid(54321); os.setuid(54321)
idle = []
for _ in range(int(sys.argv[2])):
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(sys.argv[1])
    idle.append(sock)
print("open", flush=True)
time.sleep(60)
"""


async def test_hundreds_of_idle_connections_do_not_stop_the_others(server) -> None:
    """Another login (uid 54321) opens hundreds of connections and says nothing: the
    players are still served, and the server's memory stays bounded."""
    wanted = 500
    server.socket.parent.chmod(0o755)
    server.socket.chmod(0o777)
    start = rss(server.process.pid)
    flood = subprocess.Popen([sys.executable, "-c", IDLE, str(server.socket), str(wanted)],
                             stdout=subprocess.PIPE, preexec_fn=_more_descriptors)  # fmt: skip
    try:
        assert flood.stdout is not None and flood.stdout.readline() == b"open\n"
        await still_served(server)
        assert rss(server.process.pid) - start < MEMORY_BOUND
    finally:
        flood.kill()
        flood.wait(10)


def _more_descriptors() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 1024), hard))


async def test_a_client_that_never_reads_is_dropped_not_buffered(server) -> None:
    """It asks for snapshots (tens of KB each) and never reads them: the server drops it
    once its backlog passes the limit, and keeps its memory."""
    table = await create(server.socket, "ann", [wire.SeatSpec("player", n) for n in NAMES])
    ann = await Bot.join(server.socket, "ann", table, 1)
    ben = await Bot.join(server.socket, "ben", table, 2)
    for _ in range(60):  # some history, so that each snapshot weighs
        mover = ann if ann.my_turn() else ben
        await mover.play_one()
        other = ben if mover is ann else ann
        await other.listen(5)
    start = rss(server.process.pid)
    _, writer = await raw(server)
    writer.write(hello())
    request = b"".join(wire.frame(wire.Watch(i + 1, table)) for i in range(400))
    dropped = False
    for _ in range(40):
        try:
            writer.write(request)
            await asyncio.wait_for(writer.drain(), 2.0)
        except (ConnectionError, TimeoutError):
            dropped = True
            break
        await asyncio.sleep(0.05)
    assert dropped, "the server kept buffering for a client that never reads"
    writer.transport.abort()
    assert rss(server.process.pid) - start < MEMORY_BOUND
    await still_served(server)


@pytest.mark.parametrize("claimed", ["x" * 41, "", "a\u202eb"])
async def test_a_bad_name_in_the_hello_is_refused_in_words(server, claimed) -> None:
    with pytest.raises(ConnectionError):
        await connect(server.socket, claimed)
    await still_served(server)
