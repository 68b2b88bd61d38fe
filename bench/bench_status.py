"""`mykerinos status` wall time, as a shell prompt or a login message pays it: the whole
command (a new Python process, connect, hello, the lobby, one line) with 1, 10 and 50
tables on a real server. Medians of RUNS runs; the target is ≤ 100 ms at 50 tables.

Each line also gives the command's own CPU time (user + system, of the new process: about
its wall time on an idle machine, where nothing else waits for the cores) and the load
average before and after (``os.getloadavg``): a wall time is only worth quoting with its
load.

Run: .venv/bin/python bench/bench_status.py
"""

from __future__ import annotations

import asyncio
import getpass
import os
import resource
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


def timed(socket: Path) -> tuple[float, float]:
    """The command's wall time and its CPU time (user + system), in seconds."""
    command = [MYKERINOS, "status", "--socket", str(socket), "--player", "ann"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


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
                load = os.getloadavg()[0]
                runs = [timed(socket) for _ in range(RUNS)]
                walls, cpus = [wall for wall, _ in runs], [cpu for _, cpu in runs]
                print(
                    f"{count:3d} tables: mykerinos status {1000 * statistics.median(walls):5.1f} ms"
                    f" median, {1000 * max(walls):5.1f} ms worst (target ≤ 100 ms);"
                    f" CPU {1000 * statistics.median(cpus):5.1f} ms median;"
                    f" load average {load:.1f} before, {os.getloadavg()[0]:.1f} after"
                )
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
