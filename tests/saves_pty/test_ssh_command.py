"""The forced command of docs/playing-over-ssh.md, run as sshd runs it (``sh -c``, in a
pseudo-terminal) with a hostile environment: nothing from outside reaches the game.

The command is read from the document itself, so the test checks what people copy. Only
the installation paths are swapped for this checkout's Python and temporary folders.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import shlex
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX ptys and sh")

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "playing-over-ssh.md"
DOC_PYTHON = "/opt/mykerinos/venv/bin/python"
DOC_SAVES = "/var/lib/mykerinos/saves"
DOC_HOME = "HOME=/var/lib/mykerinos "


def documented_command() -> str:
    """The ForceCommand of the document, as written there."""
    lines = [line.strip() for line in DOC.read_text(encoding="utf-8").splitlines()]
    [line] = [line for line in lines if line.startswith("ForceCommand ")]
    return line.removeprefix("ForceCommand ")


def local_command(tmp_path: Path) -> str:
    """The documented command with this checkout's Python and temporary folders."""
    command = documented_command()
    for installed in (DOC_PYTHON, DOC_SAVES, DOC_HOME):
        assert installed in command, f"the document no longer uses {installed}"
    return (
        command.replace(DOC_SAVES, shlex.quote(str(tmp_path / "saves")))
        .replace(DOC_HOME, f"HOME={shlex.quote(str(tmp_path / 'home'))} ")
        .replace(DOC_PYTHON, shlex.quote(sys.executable))
    )


def hostile_environment(tmp_path: Path) -> dict[str, str]:
    """What a client passing variables through sshd could set: each one, if it reached
    Python or Textual, leaves a file in ``tmp_path`` or a ``>>>`` prompt on the screen."""
    evil = tmp_path / "evil"
    evil.mkdir()
    marker = tmp_path / "code-ran"
    code = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
    for module in ("sitecustomize", "usercustomize", "startup"):
        (evil / f"{module}.py").write_text(code)
    (evil / "shell-env").write_text(f"echo shell >> {shlex.quote(str(marker))}\n")
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "TERM": "xterm-256color",
        "PYTHONINSPECT": "1",
        "PYTHONPATH": str(evil),
        "PYTHONSTARTUP": str(evil / "startup.py"),
        "PYTHONUSERBASE": str(evil),
        "TEXTUAL_LOG": str(tmp_path / "textual.log"),
        "TEXTUAL_SCREENSHOT": "0",
        "TEXTUAL_SCREENSHOT_LOCATION": str(tmp_path / "shots"),
        "TEXTUAL_SCREENSHOT_FILENAME": "shot.svg",
        "BASH_ENV": str(evil / "shell-env"),
        "ENV": str(evil / "shell-env"),
    }


def _left_behind(tmp_path: Path) -> list[str]:
    names = ("code-ran", "textual.log", "shots")
    return [name for name in names if (tmp_path / name).exists()]


def test_documented_command_ignores_a_hostile_environment(tmp_path: Path) -> None:
    """In a pty, the game reaches its first screen and quits on ctrl+q with status 0; no
    Python prompt appears and no variable from outside ran code or wrote a file."""
    (tmp_path / "home").mkdir()
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen(
        ["/bin/sh", "-c", local_command(tmp_path)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=hostile_environment(tmp_path),
        cwd=tmp_path,
        preexec_fn=os.setsid,
        close_fds=True,
    )
    os.close(slave)
    try:
        seen = _read_until(master, b"new game", timeout=20)
        assert b"new game" in seen, seen[-800:]
        os.write(master, b"\x11")  # ctrl+q
        seen += _read_until(master, b"\x00never", timeout=2)
        status = process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    assert status == 0
    assert b">>>" not in seen, "a Python prompt after the game"
    assert _left_behind(tmp_path) == []


def test_without_the_clean_environment_the_same_variables_do_act(tmp_path: Path) -> None:
    """The control: the same Python, without `env -i` and `-I`, runs the planted code (so
    the test above would see a leak)."""
    command = f"{shlex.quote(sys.executable)} -m tui --list --save-dir {tmp_path / 'saves'}"
    subprocess.run(
        ["/bin/sh", "-c", command],
        env=hostile_environment(tmp_path),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert "code-ran" in _left_behind(tmp_path)


def test_the_documented_command_starts_clean_and_isolated() -> None:
    """What the two tests above rely on is in the document: env -i first, python -I."""
    command = documented_command()
    assert command.startswith("/usr/bin/env -i ")
    assert f"{DOC_PYTHON} -I -m tui " in command


def _read_until(fd: int, wanted: bytes, timeout: float) -> bytes:
    """What ``fd`` gives until ``wanted`` appears (case-insensitively), it closes, or
    ``timeout`` seconds pass."""
    seen = b""
    deadline = time.monotonic() + timeout
    while wanted not in seen.lower() and (left := deadline - time.monotonic()) > 0:
        if not select.select([fd], [], [], min(left, 0.1))[0]:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the other end is closed
            break
        if not chunk:
            break
        seen += chunk
    return seen
