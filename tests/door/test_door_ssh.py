"""The SSH door, end to end, with the real OpenSSH client in a real pseudo-terminal: a
known key lands in the lobby at the client's size and follows its resizes; two players
meet at a table through the door and see each other's moves; ``status`` answers over SSH;
a client killed mid-turn leaves nothing running and finds its seat as it left it; a
hostile TERM, environment or agent forwarding reaches nothing."""

from __future__ import annotations

import signal
import stat
import sys
import time
from collections.abc import Callable

import pytest

from tests.door.conftest import (
    LOBBY,
    LOBBY_KEYS,
    ROOT,
    SSH_AGENT,
    Door,
    clean_environment,
    fingerprint,
    leave,
    wait_no_sessions,
)
from tests.door.sshpty import PtyProcess, alive, environment, wait_until

LEFT, RIGHT, DOWN = "\x1b[D", "\x1b[C", "\x1b[B"
GONE_LIMIT = 2.0
"""Seconds within which a dropped client's session must be gone (issue 19)."""
GAME_ROWS = 10
"""The rows of the game screen that show the position: the title, the board, the players."""


def keys_row(terminal: PtyProcess) -> int:
    """The screen row of the lobby's keys bar."""
    rows = [i for i, line in enumerate(terminal.lines()) if line.lstrip().startswith(LOBBY_KEYS)]
    assert len(rows) == 1, terminal.screen_text()
    return rows[0]


def keys_on_row(terminal: PtyProcess, row: int) -> Callable[[str], bool]:
    """A check for :meth:`PtyProcess.wait_for`: the lobby is drawn with its keys bar on
    that row."""

    def check(_screen: str) -> bool:
        lines = terminal.lines()
        return (
            len(lines) > row
            and lines[row].lstrip().startswith(LOBBY_KEYS)
            and lines[0].startswith(LOBBY)
        )

    return check


def create_table(terminal: PtyProcess, *, computer: bool) -> None:
    """In the lobby: a table of two, you and an open seat (or an easy computer)."""
    terminal.send("c")
    terminal.wait_for("New table")
    terminal.send(LEFT)  # players: 3 → 2
    terminal.wait_for("Waits for 1 open seat")
    if computer:
        terminal.send(DOWN + DOWN + RIGHT + RIGHT)  # seat 2: open → player → computer easy
        terminal.wait_for("Starts now.")
    terminal.send("\r")


def position(screen: str) -> list[str]:
    """The rows of the game screen that show the position, the mark of a move just seen
    arrive (``{N}`` on the board, drawn only live, not when the table is opened again)
    taken out."""
    return [row.replace("{", " ").replace("}", " ") for row in screen.split("\n")[:GAME_ROWS]]


def my_turn_prompt(name: str) -> str:
    return f"{name} (B): choose an action"


# ---------------------------------------------------------------- the host key


def test_host_key_is_made_at_first_start_and_its_fingerprint_logged(door: Door) -> None:
    """The server made its ed25519 host key beside the store, private to its account, and
    logged the fingerprint a player checks on first contact: ssh-keygen's own."""
    pub = door.host_key.with_name(door.host_key.name + ".pub")
    assert pub.read_text().startswith("ssh-ed25519 ")
    assert stat.S_IMODE(door.host_key.stat().st_mode) & 0o077 == 0, "the host key is readable"
    expected = fingerprint(pub)
    lines = [line for line in door.log().splitlines() if "SHA256:" in line]
    assert lines, door.log()
    assert any(expected in line for line in lines), (expected, lines)


# ---------------------------------------------------------------- the lobby


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_known_key_lands_in_the_lobby_at_the_terminal_s_size(
    door: Door, cols: int, rows: int
) -> None:
    """Any user name, a key the host added for ann: ann's lobby, drawn to the client's
    size (the keys bar on its last row), with strict host key checking passed."""
    key = door.player("ann")
    terminal = door.ssh(key, cols=cols, rows=rows)
    screen = terminal.wait_for(f"{LOBBY} ann", 30)
    assert "No tables yet" in terminal.wait_for("No tables yet"), screen
    terminal.wait_for(LOBBY_KEYS)
    assert keys_row(terminal) == rows - 1
    assert terminal.lines()[0].startswith(LOBBY)
    leave(terminal)
    assert terminal.wait(10) == 0


def test_a_resize_of_the_client_redraws_the_lobby_at_the_new_size(door: Door) -> None:
    """The pty grows from 80×24 to 120×40, then shrinks to 100×30: each time the lobby is
    drawn again to the new size (the keys bar on the new last row)."""
    key = door.player("ann")
    terminal = door.lobby(key, "ann")
    terminal.wait_for(LOBBY_KEYS)
    assert keys_row(terminal) == 23
    for cols, rows in ((120, 40), (100, 30)):
        terminal.wait_quiet()
        terminal.resize(cols, rows)
        terminal.wait_for(
            keys_on_row(terminal, rows - 1),
            10,
            what=f"the keys bar on the last row of {cols}×{rows}",
        )
        assert terminal.lines()[0].startswith(LOBBY)


# ---------------------------------------------------------------- two players


def test_two_players_meet_at_a_table_through_the_door(door: Door) -> None:
    """ann creates a table for two with an open seat; bob sees it and takes the seat; the
    game starts; whoever's turn it is passes and the other sees it; then the other passes,
    which ends the season, and the first sees that (the season's end over the log)."""
    ann = door.lobby(door.player("ann"), "ann")
    bob = door.lobby(door.player("bob"), "bob")
    create_table(ann, computer=False)
    ann.wait_for("waiting for 1")
    bob.wait_for("a seat is free. Enter: take it")
    bob.send("\r")
    bob.wait_for("to decide", 20)
    ann.wait_for("your table. Enter: play.", 10)
    ann.send("\r")
    ann.wait_for("to decide", 20)
    names = {ann: "ann", bob: "bob"}
    first = ann if "ann (" in _decider(ann) else bob
    second = bob if first is ann else ann
    first.wait_for(f"{names[first]} (", 20)
    first.wait_for("choose an action", 20)
    first.send("p")
    second.wait_for(f"{names[first]} passes", 20)
    second.wait_for("choose an action", 20)
    second.send("p")  # the last action of the season: its summary covers the log
    first.wait_for(
        lambda screen: (
            f"{names[second]} passes" in screen
            or "Season 2 begins" in screen
            or "Season 2/4" in screen
        ),
        20,
        what=f"{names[second]}'s pass",
    )


def _decider(terminal: PtyProcess) -> str:
    """The game screen's first row: ``Season 1/4  Excavation · ann (B) to decide …``."""
    return terminal.wait_for("to decide", 20).split("\n")[0]


# ---------------------------------------------------------------- status


def test_status_over_ssh_says_whether_it_is_your_turn(door: Door) -> None:
    """``ssh host status``: ann's `mykerinos status` line and its exit status: 1 with no
    table waiting for her, 0 once a table (against a computer) waits for her move."""
    key = door.player("ann")
    done = door.ssh_run(key, command=["status"])
    assert (done.returncode, done.stdout.strip()) == (1, "No table is waiting for ann."), done
    terminal = door.lobby(key, "ann")
    create_table(terminal, computer=True)
    terminal.wait_for(my_turn_prompt("ann"), 30)
    done = door.ssh_run(key, command=["status"])
    assert done.returncode == 0, done
    assert done.stdout.strip().startswith("Your turn at 1 table"), done
    assert len(done.stdout.strip().splitlines()) == 1, done


# ---------------------------------------------------------------- a dropped client


def test_client_killed_mid_turn_ends_its_session_and_finds_its_seat_as_left(door: Door) -> None:
    """kill -9 of the ssh client at ann's turn: the session's processes are gone within
    2 s, the table shows ann away, and ann back through the door is at that table again,
    her turn at the same position."""
    key = door.player("ann")
    before = door.processes()
    terminal = door.lobby(key, "ann")
    sessions = door.sessions(before)
    assert sessions, "no process of the session found under the server"
    create_table(terminal, computer=True)
    screen = terminal.wait_for(my_turn_prompt("ann"), 30)
    left = position(screen)
    [table] = door.tables()
    assert table["status"] == "playing" and table["turn"] == 0
    assert table["seats"][0]["present"] is True

    killed = time.monotonic()
    terminal.kill(signal.SIGKILL)
    wait_no_sessions(door, sessions, GONE_LIMIT - (time.monotonic() - killed))
    wait_until(
        lambda: door.tables()[0]["seats"][0].get("present") is False,
        5,
        lambda: f"ann's seat not shown away: {door.tables()[0]['seats'][0]}",
    )
    [after] = door.tables()
    assert (after["actions"], after["turn"]) == (table["actions"], table["turn"])

    back = door.ssh(key)  # straight back to the table she sat at, not the lobby
    screen = back.wait_for(my_turn_prompt("ann"), 30)
    assert position(screen) == left
    [again] = door.tables()
    assert again["actions"] == table["actions"] and again["seats"][0]["present"] is True


# ---------------------------------------------------------------- hostile clients


def test_hostile_term_and_environment_change_nothing(door: Door) -> None:
    """A 10 KB TERM full of escape sequences, and PYTHONINSPECT / TEXTUAL_DRIVER sent with
    SendEnv and SetEnv: the lobby starts as ever, the session's processes have none of
    them, and quitting ends the connection (no Python prompt left behind)."""
    key = door.player("ann")
    hostile = "xterm\x1b]0;owned\x07\x1b[2J\x1b[31m" + "A" * 10_000 + "\x1b]52;c;cHduZWQ=\x07"
    environ = clean_environment(
        TERM=hostile, PYTHONINSPECT="1", PYTHONSTARTUP="/dev/null", TEXTUAL_DRIVER="x"
    )
    before = door.processes()
    terminal = door.ssh(
        key,
        "-o", "SendEnv=PYTHON* TEXTUAL_* TERM LC_*",
        "-o", "SetEnv=PYTHONINSPECT=1 TEXTUAL_DRIVER=x PYTHONPATH=/tmp",
        environ=environ,
    )  # fmt: skip
    terminal.wait_for(f"{LOBBY} ann", 30)
    terminal.wait_for(LOBBY_KEYS)
    sessions = door.sessions(before)
    assert sessions, "no process of the session found under the server"
    for pid in sessions:
        seen = environment(pid)
        assert seen is not None, f"pid {pid}'s environment cannot be read"
        leaked = {k: v[:40] for k, v in seen.items() if k.startswith(("PYTHON", "TEXTUAL"))}
        assert not leaked, f"pid {pid} started with {leaked}"
        assert not [k for k, v in seen.items() if "\x1b" in v or "\x07" in v], seen.keys()
        assert len(seen.get("TERM", "")) < 100, seen.get("TERM", "")[:100]
    leave(terminal)
    assert terminal.wait(10) == 0, terminal.screen_text()
    assert ">>>" not in terminal.screen_text()


def test_agent_forwarding_is_not_granted(door: Door) -> None:
    """``ssh -A`` with a running agent: the door still serves the lobby, and no agent
    socket reaches the session's processes."""
    agent_socket = door.folder / "agent.sock"
    agent = door.popen([SSH_AGENT, "-D", "-a", str(agent_socket)])
    wait_until(agent_socket.exists, 10, "ssh-agent never listened")
    assert agent.poll() is None
    key = door.player("ann")
    before = door.processes()
    environ = clean_environment(TERM="xterm-256color", SSH_AUTH_SOCK=str(agent_socket))
    terminal = door.ssh(key, "-A", "-o", "ForwardAgent=yes", environ=environ)
    terminal.wait_for(f"{LOBBY} ann", 30)
    sessions = door.sessions(before)
    assert sessions
    for pid in sessions:
        seen = environment(pid)
        assert seen is not None, f"pid {pid}'s environment cannot be read"
        assert "SSH_AUTH_SOCK" not in seen, f"pid {pid}: {seen}"
    leave(terminal)
    assert terminal.wait(10) == 0


def test_any_user_name_is_the_key_s_player(door: Door) -> None:
    """The user name a client gives changes nothing: the key names the player."""
    key = door.player("ann")
    for user in ("root", "bob", "x" * 64):
        done = door.ssh_run(key, command=["status"], user=user)
        assert (done.returncode, done.stdout.strip()) == (1, "No table is waiting for ann."), done


# ---------------------------------------------------------------- the harness itself


def test_the_harness_reads_a_real_app_in_a_pty(tmp_path) -> None:
    """sshpty on the game on this machine: its new-game screen at 80×24, redrawn after a
    resize; a wait that fails shows the screen; closing leaves no process."""
    command = [sys.executable, "-m", "tui", "--local", "--save-dir", str(tmp_path / "saves")]
    environ = clean_environment(
        TERM="xterm-256color", XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path)
    )
    with PtyProcess(command, cols=80, rows=24, env=environ, cwd=ROOT) as terminal:
        terminal.wait_for("new game", 30)
        terminal.wait_for(lambda _screen: "Quit" in terminal.lines()[23], 10)
        terminal.wait_quiet()
        terminal.resize(100, 30)
        terminal.wait_for(lambda _screen: "Quit" in terminal.lines()[29], 10)
        with pytest.raises(AssertionError, match="new game"):
            terminal.wait_for("no such words", 0.2)
        pid = terminal.pid
    assert not alive(pid) and terminal.process.returncode is not None
