"""The `mykerinos` command: options, the SSH escape delay, the saves list, no suspend key."""

from __future__ import annotations

import contextlib
import subprocess
import sys

import pytest

from tests.tui.conftest import HOT_SEAT_3, session_for
from tui.__main__ import SSH_ESCDELAY_MS, main, parse_args, set_escape_delay


def test_options_parse() -> None:
    args = parse_args(["--save-dir", "/tmp/x", "--resume", "--seed", "9"])
    assert (args.save_dir, args.resume, args.seed, args.list) == ("/tmp/x", "", 9, False)
    assert parse_args(["--resume", "sunday"]).resume == "sunday"
    assert parse_args([]).resume is None


@pytest.mark.parametrize("variable", ["SSH_TTY", "SSH_CONNECTION"])
def test_escape_delay_is_longer_over_ssh(variable: str) -> None:
    environ = {variable: "x"}
    set_escape_delay(environ)
    assert environ["ESCDELAY"] == SSH_ESCDELAY_MS


def test_escape_delay_untouched_locally_or_when_chosen() -> None:
    local: dict[str, str] = {}
    set_escape_delay(local)
    assert "ESCDELAY" not in local
    chosen = {"SSH_TTY": "x", "ESCDELAY": "50"}
    set_escape_delay(chosen)
    assert chosen["ESCDELAY"] == "50"


def test_escdelay_is_set_before_textual_is_imported() -> None:
    """In a fresh interpreter: run main's set-up over SSH and check Textual read the delay."""
    code = (
        "import os, sys; os.environ['SSH_TTY'] = '/dev/pts/9'; os.environ.pop('ESCDELAY', None)\n"
        "from tui import __main__ as m\n"
        "assert 'textual' not in sys.modules\n"
        "m.set_escape_delay()\n"
        "import textual.constants as c; print(c.ESCAPE_DELAY)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert float(out.stdout) == int(SSH_ESCDELAY_MS) / 1000


def test_list_prints_the_saves(store, capsys) -> None:
    session_for(store, HOT_SEAT_3, seed=7, name="sunday")
    assert main(["--save-dir", str(store.folder), "--list"]) == 0
    out = capsys.readouterr().out
    assert "sunday" in out and "Ann, Ben, Cleo" in out and "season 1" in out


def test_list_of_an_empty_folder(tmp_path, capsys) -> None:
    assert main(["--save-dir", str(tmp_path), "--list"]) == 0
    assert "No saved games" in capsys.readouterr().out


def test_no_suspend_key_anywhere() -> None:
    """No binding of ctrl+z in the app or any of its screens (a suspended game over SSH
    looks frozen)."""
    import importlib
    import pkgutil

    from textual.app import App
    from textual.dom import DOMNode

    import tui

    for info in pkgutil.walk_packages(tui.__path__, "tui."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    classes = [App, *_subclasses(DOMNode)]
    keys = {
        key.strip()
        for cls in classes
        for binding in getattr(cls, "BINDINGS", [])
        for key in (binding.key if hasattr(binding, "key") else binding[0]).split(",")
        if cls.__module__.startswith(("tui", "textual.app"))
    }
    assert "ctrl+z" not in keys
    assert "q" in keys  # the check does see the game's keys


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


@pytest.mark.parametrize("signal_name", ["SIGHUP", "SIGTERM"])
def test_hangup_or_terminate_leaves_cleanly_and_keeps_the_game(store, signal_name) -> None:
    """In a real pty: the game runs, the line drops (SIGHUP) or it is told to stop
    (SIGTERM); it exits by itself and the save still loads with every move."""
    import os
    import pty
    import select
    import signal
    import time

    import core

    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    session.apply(core.legal_actions(session.state)[0])
    session.close()  # the game in the pty takes it over
    command = [sys.executable, "-m", "tui", "--save-dir", str(store.folder), "--resume", "pos"]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game, in the pty
        os.execv(sys.executable, command)
    seen = b""
    deadline = time.monotonic() + 20
    while b"choose" not in seen and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    assert b"choose" in seen, seen[-500:]
    os.kill(pid, getattr(signal, signal_name))
    status = None
    deadline = time.monotonic() + 10
    while status is None and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            with contextlib.suppress(OSError):
                os.read(fd, 65536)
        done, code = os.waitpid(pid, os.WNOHANG)
        status = code if done else None
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)
    assert status is not None, f"the game did not exit after {signal_name}"
    assert os.WIFEXITED(status), f"killed by a signal instead of exiting: {status}"
    assert store.load("pos").actions == session.actions
