"""kill -9 of ``mykerinos serve --ssh`` with door sessions open, end to end with the real
OpenSSH client: no game is left running (each gets SIGHUP when its pty's other end goes
with the server), nor the doors' warm process that forked them; nothing acknowledged is
lost, and a new server on the same store and port lets the player back in to the same
table, at the same position."""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.door.conftest import HOST, Door, free_port, serving
from tests.door.sshpty import alive, command_line, wait_until
from tests.door.test_door_ssh import create_table, my_turn_prompt, position

GONE_LIMIT = 2.0
"""Seconds within which a session's game must be gone (issue 19)."""


def test_server_killed_leaves_no_game_and_comes_back_on_the_same_port(door: Door) -> None:
    """ann at her turn against a computer, bob in the lobby; kill -9 of the server: both
    games stop within 2 s (dead: orphans are reaped by the system's init, not by anyone
    here), both clients see their connection end; ``serve --ssh`` again on the same store
    and port, and ann's key finds her table with her turn and the position she left."""
    ann_key, bob_key = door.player("ann"), door.player("bob")
    before = door.processes()
    ann = door.lobby(ann_key, "ann")
    create_table(ann, computer=True)
    left = position(ann.wait_for(my_turn_prompt("ann"), 30))
    door.lobby(bob_key, "bob")
    games = door.sessions(before)
    assert len(games) >= 2, "no process of the sessions found under the server"
    # The doors' warm process, which forked the games (issue 29), goes with the server.
    games |= {pid for pid in before if "-m tui.zygote" in command_line(pid)}
    [table] = door.tables()
    port = door.port
    assert door.process is not None

    killed = time.monotonic()
    door.process.kill()
    door.process.wait(10)
    try:
        wait_until(
            lambda: not any(alive(pid) for pid in games),
            GONE_LIMIT - (time.monotonic() - killed),
            lambda: f"games still running: {[command_line(p) for p in games if alive(p)]}",
        )
    finally:
        for pid in games:  # whatever the result, nothing of this test stays behind
            with contextlib.suppress(ProcessLookupError, PermissionError):
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
    for terminal in door.ptys:
        assert terminal.wait(10) != 0  # ssh: the connection closed by the remote end

    door.start(port)
    assert door.port == port
    back = door.ssh(ann_key)
    prompt = my_turn_prompt("ann")
    screen = back.wait_for(lambda text: prompt in text or "YOUR TURN" in text, 30)
    if prompt not in screen:  # the lobby, the table first in it: play
        back.send("\r")
        screen = back.wait_for(prompt, 20)
    assert position(screen) == left
    [again] = door.tables()
    assert (again["id"], again["actions"], again["turn"]) == (
        table["id"],
        table["actions"],
        table["turn"],
    )


def test_a_stopped_server_says_only_that_it_stops() -> None:
    """SIGTERM with both doors open: the server stops cleanly, its warm process reaped
    before its event loop closes, so the host's log ends on "stopping" with no word of
    asyncio's. Before, the loop could close first and the log then ended on "Loop ... that
    handles pid N is closed" (a race: seen in 4 of 6 stops by hand, and so this test failed
    only now and then)."""
    web = free_port()
    with (
        tempfile.TemporaryDirectory(prefix="myk-door-", dir="/tmp") as folder,
        serving(Door(Path(folder), "--web", f"{HOST}:{web}")) as door,
    ):
        assert door.process is not None
        warm = [pid for pid in door.processes() if "-m tui.zygote" in command_line(pid)]
        assert warm, "no warm process under the server"
        wait_until(lambda: answers(f"http://{HOST}:{web}/"), 20, "the web door never answered")
        # As a host stops it: the warm process warmed up, waiting for requests.
        wait_until(lambda: idle(warm[0]), 30, "the warm process never finished warming up")
        door.process.terminate()
        assert door.process.wait(10) == 0
        log = door.log()
        assert log.rstrip().endswith("stopping"), log
        assert not any(alive(pid) for pid in warm)


def answers(url: str) -> bool:
    """Whether ``url`` answers HTTP at all (any status)."""
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


def idle(pid: int) -> bool:
    """Whether ``pid`` sleeps and used no CPU over a fifth of a second."""

    def state() -> tuple[str, int]:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return fields[0], int(fields[11]) + int(fields[12])  # state, utime + stime

    before = state()
    time.sleep(0.2)
    return before[0] == "S" and state() == before
