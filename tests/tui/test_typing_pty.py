"""Fast typing into the real `mykerinos` app in a real pty, as `tmux send-keys` does it:
every key in one write. Only a real terminal hands the app a whole burst in one read, so
this checks what the Pilot test of the same path cannot fully show (slow: the app starts
several times)."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

import core
import saves

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX ptys"),
]

ROOT = Path(__file__).resolve().parents[2]
SEATS = [
    saves.SeatConfig(name, colour, "human")
    for name, colour in zip(("Ann", "Ben", "Cleo"), list(core.Colour), strict=False)
]
BURST = b"\x7f" * 30 + b"my save 1\r"
"""30 Backspaces, a name and Enter, as in the playtest."""


def _take_terminal() -> None:
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _drain(master: int, seconds: float) -> bytes:
    """Read the app's screen output for ``seconds`` (a pty whose output nobody reads
    blocks the app)."""
    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                out += os.read(master, 65536)
            except OSError:
                break
    return out


def _save_as_at_once(folder: Path, pause: float) -> list[str]:
    """Open the game, press Ctrl+S then (after ``pause`` seconds; 0: in the same write)
    the burst; return the save names after."""
    store = saves.SaveStore(folder)
    saves.Session.new(store, SEATS, seed=3, name="pos")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    script = Path(sys.executable).with_name("mykerinos")
    start = [str(script)] if script.exists() else [sys.executable, "-m", "tui"]
    process = subprocess.Popen(
        [*start, "--save-dir", str(folder), "--resume", "pos"],
        stdin=slave, stdout=slave, stderr=slave, cwd=ROOT,
        env=dict(os.environ, TERM="xterm-256color"), preexec_fn=_take_terminal,
    )  # fmt: skip
    os.close(slave)
    try:
        assert b"choose an action" in _drain(master, 4.0), "the game did not open"
        if pause:
            os.write(master, b"\x13")
            _drain(master, pause)
            os.write(master, BURST)
        else:
            os.write(master, b"\x13" + BURST)
        _drain(master, 2.0)
        return sorted(s.name for s in store.list())
    finally:
        process.kill()
        process.wait()
        os.close(master)


@pytest.mark.parametrize("pause", [0.0, 1.0], ids=["with-ctrl-s", "dialog-open"])
def test_a_burst_typed_into_save_as_is_kept_whole(tmp_path: Path, pause: float) -> None:
    """Before the fix none of these bursts saved `my save 1` (0 of 9 tries)."""
    for run in range(3):
        names = _save_as_at_once(tmp_path / str(run), pause)
        assert "my save 1" in names, f"run {run}: {names}"
