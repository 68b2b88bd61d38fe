"""`mykerinos status` wall time, as a shell prompt or a login message pays it: the whole
command (a new Python process, connect, hello, the lobby, one line) with 1, 10 and 50
tables on a real server. Medians of RUNS runs; the target is ≤ 100 ms at 50 tables.

Run: .venv/bin/python bench/bench_status.py
"""

from __future__ import annotations

import asyncio
import getpass
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from table import protocol as wire  # noqa: E402 - after the path, like the other benches
from table.client.connection import connect  # noqa: E402

RUNS = 15
MYKERINOS = str(Path(sys.executable).parent / "mykerinos")


async def add_tables(socket: Path, count: int) -> None:
    connection = await connect(socket, "ann")
    seats = (wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben"))
    for _ in range(count):
        await connection.ask(wire.CreateTable(connection.new_ref(), seats))
    await connection.close()


def timed(socket: Path) -> float:
    command = [MYKERINOS, "status", "--socket", str(socket), "--player", "ann"]
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, check=False)
    return time.perf_counter() - started


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        socket = Path(folder) / "t.sock"
        server = subprocess.Popen(
            [sys.executable, "-m", "table.serve", "--socket", str(socket),
             "--db", f"{folder}/t.db", "--trust-account", getpass.getuser()],
            cwd=ROOT, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            while not socket.exists():
                time.sleep(0.02)
            have = 0
            for count in (1, 10, 50):
                asyncio.run(add_tables(socket, count - have))
                have = count
                timed(socket)  # warm the file cache
                runs = [timed(socket) for _ in range(RUNS)]
                print(
                    f"{count:3d} tables: mykerinos status {1000 * statistics.median(runs):5.1f} ms"
                    f" median, {1000 * max(runs):5.1f} ms worst (target ≤ 100 ms)"
                )
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
