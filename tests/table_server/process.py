"""A real table server process for tests: ``python -m table.serve`` on a Unix socket in
a short temporary folder (never TCP), trusting this login to name its players as a shared
game account would (``--trust-account``)."""

from __future__ import annotations

import getpass
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from table.client.directory import ServerAddress

START_LIMIT = 20.0
"""Seconds a server may take to listen (a bound against hangs, not a timing)."""


class Server:
    """A table server process on a socket of its own."""

    def __init__(
        self,
        folder: Path,
        *,
        trust: bool = True,
        commit_delay: float = 0.0,
        options: tuple[str, ...] = (),
    ) -> None:
        self.trust = trust
        self.commit_delay = commit_delay
        """Seconds each group commit sleeps first (the server's hidden ``--commit-delay``)."""
        self.options = options
        """More of the server's options (``--minute 0.5``…)."""
        self.socket = folder / "t.sock"
        self.db = folder / "tables.db"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.socket.unlink(missing_ok=True)
        self.process = spawn(
            self.socket, self.db,
            *(["--trust-account", getpass.getuser()] if self.trust else []),
            *(["--commit-delay", str(self.commit_delay)] if self.commit_delay else []),
            *self.options,
        )  # fmt: skip

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)

    def address(self, player: str) -> ServerAddress:
        return ServerAddress(self.socket, player)


def spawn(socket: Path, db: Path, *options: str) -> subprocess.Popen[bytes]:
    """``python -m table.serve --socket SOCKET --db DB OPTIONS``, returned once it
    listens (its socket appears only then, with its doors open); its stderr is piped."""
    process = subprocess.Popen(
        [sys.executable, "-m", "table.serve", "--socket", str(socket), "--db", str(db),
         *options],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + START_LIMIT
    while not socket.exists():
        assert process.poll() is None, process.stderr and process.stderr.read()
        assert time.monotonic() < deadline, "the server never listened"
        time.sleep(0.02)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL if it has not ended within 10 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@pytest.fixture
def server() -> Iterator[Server]:
    # A short folder: a Unix socket's path must fit in 108 bytes, pytest's tmp_path may not.
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        running = Server(Path(folder))
        running.start()
        try:
            yield running
        finally:
            running.stop()
