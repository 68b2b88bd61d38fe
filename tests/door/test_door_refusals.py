"""What the SSH door refuses, seen from the real OpenSSH client: an unknown key without a
good invitation code (wrong, used, expired: refused in words; none: ``Permission
denied``), a session without a terminal, any command but ``status``, port forwarding both
ways, and the sftp subsystem. A good code binds the key: the next login asks for none."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time

from table import protocol as wire
from table.client.connection import connect
from tests.door.conftest import (
    HOST,
    LOBBY,
    SFTP,
    Door,
    clean_environment,
    free_port,
    leave,
    run,
)
from tests.door.sshpty import PtyProcess, wait_until

NO_TABLE = "No table is waiting for {}."
PROMPT = "code:"
"""How the client's prompt for the invitation code ends (keyboard-interactive)."""


def prompts(text: str) -> int:
    return text.lower().count(PROMPT)


def type_code(terminal: PtyProcess, code: str) -> str:
    """Answer the client's prompt for the code; what the door wrote back (plain text, the
    code typed taken out) once it answered: the lobby, another prompt, or the end."""
    asked = terminal.wait_output(lambda text: prompts(text) >= 1, 30, what="a code prompt")
    start = len(terminal.output)
    terminal.send(code + "\r")

    def answered(text: str) -> bool:
        return (
            prompts(text) > prompts(asked)
            or not terminal.running
            or LOBBY in terminal.screen_text()
        )

    terminal.wait_output(answered, 30, what="the door's answer to the code")
    return terminal.text(start).replace(code, "")


def refusal_words(answer: str) -> str:
    """The door's words in ``answer``: the client's own (``(user@host)``, ``Permission
    denied``) and the prompt's last words taken out."""
    words = []
    for line in answer.split("\n"):
        if "Permission denied" in line:
            continue
        line = re.sub(r"^\s*\([^)]*@[^)]*\)", "", line)
        line = re.sub(r"[\w ]*code:\s*$", "", line, flags=re.IGNORECASE)
        words.append(line.strip())
    return " ".join(word for word in words if word)


def assert_refused(terminal: PtyProcess, answer: str, *words: str) -> str:
    """The code was refused: said in words (holding one of ``words``), no lobby; the
    client ends without a session once it gives up (Ctrl+C at a prompt). The words."""
    assert LOBBY not in terminal.screen_text(), answer
    said = refusal_words(answer)
    assert said, f"refused without a word: {answer!r}"
    assert any(word in said.lower() for word in words), f"{words} not in the refusal: {said!r}"
    if terminal.running:
        terminal.send("\x03")
    status = terminal.wait(15)
    assert status != 0, terminal.screen_text()
    return said


def assert_key_unknown(door: Door, key) -> None:
    """Without a code (BatchMode), the key is refused: it was not bound."""
    done = door.ssh_run(key, command=["status"])
    assert done.returncode == 255 and "Permission denied" in done.stderr, done


# ---------------------------------------------------------------- unknown keys


def test_unknown_key_without_a_code_is_denied(door: Door) -> None:
    """BatchMode (no prompt can be answered): ``Permission denied``, exit 255."""
    assert_key_unknown(door, door.key("stranger"))


def test_wrong_code_is_refused_in_words(door: Door) -> None:
    """A code the host never made: refused in a sentence, and the key stays unknown."""
    door.invite("cleo")
    key = door.key("cleo")
    terminal = door.ssh(key)
    answer = type_code(terminal, "ABCD-EFGH-JKMN-PQRS")
    assert_refused(terminal, answer, "not an invitation", "not valid", "wrong", "unknown")
    assert_key_unknown(door, key)


def test_good_code_binds_the_key_and_then_is_used_up(door: Door) -> None:
    """cleo's new key with her code: her lobby; the next login asks for nothing (status
    over BatchMode answers as cleo); the same code for another key is refused, in words."""
    code = door.invite("cleo")
    key = door.key("cleo")
    terminal = door.ssh(key)
    answer = type_code(terminal, code)
    assert f"{LOBBY} cleo" in terminal.wait_for(f"{LOBBY} cleo", 30), answer
    leave(terminal)
    assert terminal.wait(10) == 0
    done = door.ssh_run(key, command=["status"])
    assert (done.returncode, done.stdout.strip()) == (1, NO_TABLE.format("cleo")), done
    listed = door.mykerinos("players", "list")
    assert "cleo" in listed.stdout and "Invitations not used yet" not in listed.stdout, listed

    other = door.key("mallory")
    again = door.ssh(other)
    answer = type_code(again, code)
    assert_refused(again, answer, "used")
    assert_key_unknown(door, other)


def test_expired_code_is_refused_in_words(door: Door) -> None:
    """A code past its days: refused in a sentence saying it expired; the key stays
    unknown."""
    code = door.invite("cleo", days=0.00001)  # 0.864 s
    time.sleep(1.2)
    key = door.key("cleo")
    terminal = door.ssh(key)
    answer = type_code(terminal, code)
    assert_refused(terminal, answer, "expired")
    assert_key_unknown(door, key)


# ---------------------------------------------------------------- what a session may not do


def test_a_session_without_a_terminal_is_refused_in_one_line(door: Door) -> None:
    """``ssh -T``: one line saying a terminal is needed, a non-zero exit."""
    key = door.player("ann")
    done = door.ssh_run(key, "-T")
    said = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode != 0, done
    assert len(said) == 1 and "terminal" in said[0], done


def test_only_the_status_command_is_run(door: Door) -> None:
    """``ssh host ls -la /``: one line naming ``status``, a non-zero exit, nothing run."""
    key = door.player("ann")
    done = door.ssh_run(key, command=["ls", "-la", "/"])
    said = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode != 0, done
    assert len(said) == 1 and "status" in said[0], done
    assert "bin" not in done.stdout


def test_remote_forwarding_is_refused(door: Door) -> None:
    """``-R``: the door grants no listening port (with ExitOnForwardFailure the client
    gives up), and nothing listens on the port asked for."""
    key = door.player("ann")
    wanted = free_port()
    done = door.ssh_run(
        key, "-N", "-o", "ExitOnForwardFailure=yes", "-R", f"{HOST}:{wanted}:{HOST}:{door.port}"
    )
    assert done.returncode != 0, done
    assert "forwarding failed" in done.stderr, done
    with socket.socket() as probe:
        assert probe.connect_ex((HOST, wanted)) != 0, "something listens on the port asked for"


def test_local_forwarding_is_refused(door: Door) -> None:
    """``-L`` to the door's own port: a connection through the tunnel is closed without
    a byte (an open tunnel would answer with the door's SSH banner)."""
    key = door.player("ann")
    local = free_port()
    argv = door.ssh_argv(key, "-N", "-o", "BatchMode=yes", "-o", "ExitOnForwardFailure=yes",
                         "-L", f"{HOST}:{local}:{HOST}:{door.port}")  # fmt: skip
    tunnel = door.popen(argv, env=clean_environment())

    def listening() -> bool:
        assert tunnel.poll() is None, f"ssh -L ended with {tunnel.returncode}"
        with socket.socket() as probe:
            return probe.connect_ex((HOST, local)) == 0

    wait_until(listening, 20, "ssh -L never listened")
    with socket.create_connection((HOST, local), timeout=10) as through:
        through.settimeout(10)
        received = b""
        try:
            while chunk := through.recv(4096):
                received += chunk
                if b"\n" in received:
                    break
        except (TimeoutError, ConnectionResetError):
            pass
    assert not received.startswith(b"SSH-"), f"the tunnel reached the door: {received!r}"
    assert received == b"", received


def test_sftp_subsystem_is_refused(door: Door) -> None:
    """``sftp``: the subsystem request is refused, the client gives up, nothing listed."""
    key = door.player("ann")
    argv = [SFTP, "-b", "-", *door.client_options(key), "-P", str(door.port),
            "-o", "BatchMode=yes", f"guest@{HOST}"]  # fmt: skip
    done = run(argv, input="ls\n", stdin=None)
    assert done.returncode != 0, done
    assert "subsystem request failed" in done.stderr, done
    assert done.stdout == "", done


def test_export_writes_the_table_s_save_to_the_guest_s_own_stdout(door: Door) -> None:
    """``ssh host export TABLE > game.json`` with the real client: the table's save file
    on the guest's stdout and nothing else; a table that does not exist, one line on
    stderr and exit 1."""

    async def create() -> int:
        host = await connect(door.socket)  # the host's own account makes the table
        try:
            seats = (wire.SeatSpec("player", host.player), wire.SeatSpec("computer", level="easy"))
            lobby = await host.ask(wire.CreateTable(host.new_ref(), seats, title="to take home"))
        finally:
            await host.close()
        assert isinstance(lobby, wire.Lobby), lobby
        return max(info.id for info in lobby.tables if info.title == "to take home")

    table = asyncio.run(create())
    key = door.player("ann")
    done = door.ssh_run(key, command=["export", str(table)])
    assert (done.returncode, done.stderr) == (0, ""), done
    assert json.loads(done.stdout)["title"] == "to take home"
    missing = door.ssh_run(key, command=["export", "999999"])
    assert (missing.returncode, missing.stdout) == (1, ""), missing
    assert missing.stderr.strip().splitlines() == ["mykerinos: there is no table 999999"]
