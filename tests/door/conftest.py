"""Fixtures of the SSH door's end-to-end tests: a real ``mykerinos serve --ssh`` on a free
loopback port, in a short temporary folder of its own, reached with the real OpenSSH
client (``/usr/bin/ssh``, ``sftp``) in a pseudo-terminal (tests/door/sshpty.py).

The client is told everything on its command line (``-F /dev/null``): the one key given,
no agent, a known_hosts file made from the host key the server wrote, strict host key
checking. Nothing of the tester's own ~/.ssh is read, and nothing is written there.
The whole folder is skipped when there is no OpenSSH client (the Makefile installs it on
CI); every wait is bounded, and every process started here is killed at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.door.sshpty import PtyProcess, alive, command_line, descendants, wait_until

ROOT = Path(__file__).resolve().parents[2]
SSH = "/usr/bin/ssh"
SFTP = shutil.which("sftp") or "/usr/bin/sftp"
SSH_KEYGEN = shutil.which("ssh-keygen") or "/usr/bin/ssh-keygen"
SSH_AGENT = shutil.which("ssh-agent") or "/usr/bin/ssh-agent"
START_LIMIT = 30.0
"""Seconds the server may take to listen (a bound against hangs, not a timing)."""
RUN_LIMIT = 20.0
"""Seconds a command run to its end (ssh … status, players add…) may take."""
HOST = "127.0.0.1"

LOBBY = "Tables on the server · you play as"
"""The lobby's title, followed by the player's name."""
LOBBY_KEYS = "⏎  Play"
"""The start of the lobby's keys bar (its last row)."""


@pytest.fixture(autouse=True)
def _needs_openssh() -> None:
    if not os.access(SSH, os.X_OK) or shutil.which("ssh-keygen") is None:
        pytest.skip("the SSH door's tests need the OpenSSH client (/usr/bin/ssh, ssh-keygen)")


LEAVE_QUESTION = "Leave Mykerinos?"


def leave(terminal: Any) -> None:
    """Leave a door's session from its lobby as a player does: ``q``, then ``y`` to the
    question (leaving closes the connection, so the lobby asks first: issue 26)."""
    terminal.send("q")
    terminal.wait_for(LEAVE_QUESTION, 10)
    terminal.send("y")


def clean_environment(**extra: str) -> dict[str, str]:
    """This environment without PYTHON* variables, a Mykerinos socket, an SSH agent, or
    a terminal size (pytest's workers set COLUMNS and LINES, which Textual would obey
    over the terminal's own size)."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "MYKERINOS", "SSH_", "TEXTUAL"))
        and key not in ("COLUMNS", "LINES")
    }
    environ.update(extra)
    return environ


def free_port() -> int:
    """A loopback TCP port nobody listens on now (the server may lose it to another; the
    fixture then starts again on another)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def run(argv: Sequence[str], **options) -> subprocess.CompletedProcess[str]:
    """``argv`` run to its end (bounded), stdin empty, stdout and stderr captured."""
    options.setdefault("stdin", subprocess.DEVNULL)
    options.setdefault("env", clean_environment())
    return subprocess.run(
        list(argv), capture_output=True, text=True, timeout=RUN_LIMIT, check=False, **options
    )


def make_key(folder: Path, name: str) -> Path:
    """A new ed25519 key without a passphrase: its private file (the .pub beside it)."""
    path = folder / f"{name}_key"
    done = run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", f"{name}@test", "-f", str(path)])
    assert done.returncode == 0, done.stderr
    return path


def fingerprint(pub: Path) -> str:
    """``SHA256:…`` of a public key file, as ``ssh-keygen -lf`` says."""
    done = run([SSH_KEYGEN, "-lf", str(pub)])
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[1]


class Door:
    """``mykerinos serve --ssh 127.0.0.1:PORT`` on a store and socket of its own."""

    def __init__(self, folder: Path, *options: str) -> None:
        self.folder = folder
        self.options = list(options)
        self.socket = folder / "t.sock"
        self.db = folder / "tables.db"
        self.host_key = folder / "ssh_host_ed25519_key"
        self.known_hosts = folder / "known_hosts"
        self.log_path = folder / "server.log"
        self.keys = folder / "keys"
        self.keys.mkdir()
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.ptys: list[PtyProcess] = []
        self.others: list[subprocess.Popen[bytes]] = []
        xdg = folder / "xdg"
        self.environ = clean_environment(
            HOME=str(xdg / "home"),
            XDG_CONFIG_HOME=str(xdg / "config"),
            XDG_DATA_HOME=str(xdg / "data"),
            XDG_STATE_HOME=str(xdg / "state"),
            XDG_CACHE_HOME=str(xdg / "cache"),
            XDG_RUNTIME_DIR=str(xdg / "run"),
        )
        for path in ("home", "config", "data", "state", "cache", "run"):
            (xdg / path).mkdir(parents=True, mode=0o700)

    # ---------------------------------------------------------------- the server

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "tui", "serve", "--socket", str(self.socket),
            "--db", str(self.db), "--ssh", f"{HOST}:{self.port}", *self.options,
        ]  # fmt: skip

    def start(self, port: int | None = None) -> None:
        """Start the server (on another free port if it lost its port to someone; on
        ``port`` alone when given) and wait for its socket, which appears once the door
        listens too."""
        for _attempt in range(1 if port else 3):
            self.port = port or free_port()
            self.socket.unlink(missing_ok=True)
            with open(self.log_path, "ab") as log:
                self.process = subprocess.Popen(
                    self.command(), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                    env=self.environ, cwd=ROOT, start_new_session=True,
                )  # fmt: skip
            deadline = time.monotonic() + START_LIMIT
            while not self.socket.exists() and self.process.poll() is None:
                assert time.monotonic() < deadline, f"the server never listened:\n{self.log()}"
                time.sleep(0.02)
            if self.process.poll() is None:
                self.write_known_hosts()
                return
            if "in use" not in self.log():
                break
        status = self.process.poll() if self.process is not None else None
        raise AssertionError(f"the server ended at its start (status {status}):\n{self.log()}")

    def log(self) -> str:
        """What the server wrote on stderr so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def write_known_hosts(self) -> None:
        """known_hosts made of the host key the server wrote at its first start."""
        pub = self.host_key.with_name(self.host_key.name + ".pub")
        kind, blob = pub.read_text().split()[:2]
        self.known_hosts.write_text(f"[{HOST}]:{self.port} {kind} {blob}\n")

    def stop(self) -> None:
        """End every client started here, then the server (SIGTERM, then SIGKILL), then
        whatever of its processes is left."""
        for terminal in self.ptys:
            terminal.close()
        for other in self.others:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(other.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                other.wait(10)
        if self.process is None:
            return
        left = descendants(self.process.pid)
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)

    def sessions(self, before: Collection[int] = ()) -> set[int]:
        """The server's live processes not in ``before``, computer-player workers aside:
        after a login, those of its session."""
        assert self.process is not None
        return {
            pid
            for pid in descendants(self.process.pid) - set(before)
            if alive(pid) and "multiprocessing" not in command_line(pid)
        }

    def processes(self) -> set[int]:
        assert self.process is not None
        return descendants(self.process.pid)

    def crash_reports(self) -> list[str]:
        """The crash reports the sessions' games wrote (under the door's own folders)."""
        reports = sorted(self.folder.glob("**/crash-reports/*.txt"))
        return [f"{path}:\n{path.read_text(errors='replace')[:4000]}" for path in reports]

    # ---------------------------------------------------------------- players

    def mykerinos(self, *words: str) -> subprocess.CompletedProcess[str]:
        """``mykerinos WORDS… --db`` this server's store, run to its end."""
        return run(
            [sys.executable, "-m", "tui", *words, "--db", str(self.db)], env=self.environ, cwd=ROOT
        )

    def key(self, name: str) -> Path:
        """A new key, not known to the server (its private file)."""
        return make_key(self.keys, name)

    def player(self, name: str) -> Path:
        """A new key made ``name``'s with ``mykerinos players add`` (its private file)."""
        key = self.key(name)
        done = self.mykerinos("players", "add", name, f"{key}.pub")
        assert done.returncode == 0, done.stderr
        return key

    def invite(self, name: str, days: float | None = None) -> str:
        """A new invitation code for ``name`` (``mykerinos invite``'s first line)."""
        more = ["--days", repr(days)] if days is not None else []
        done = self.mykerinos("invite", name, *more)
        assert done.returncode == 0, done.stderr
        code = done.stdout.splitlines()[0].strip()
        assert code, done.stdout
        return code

    # ---------------------------------------------------------------- clients

    def client_options(self, key: Path) -> list[str]:
        """The options ssh and sftp share: this key alone, this host key alone, nothing
        from ~/.ssh or an agent."""
        return [
            "-F", "/dev/null", "-i", str(key),
            "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none",
            "-o", f"UserKnownHostsFile={self.known_hosts}",
            "-o", "GlobalKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=yes",
            "-o", "ControlPath=none", "-o", "ControlMaster=no", "-o", "LogLevel=ERROR",
            "-o", "ConnectTimeout=10", "-o", "ConnectionAttempts=1",
            "-o", "PreferredAuthentications=publickey,keyboard-interactive",
            "-o", "PasswordAuthentication=no",
        ]  # fmt: skip

    def ssh_options(self, key: Path) -> list[str]:
        """ssh's options: :meth:`client_options`, the door's port, no escape character."""
        return [*self.client_options(key), "-p", str(self.port), "-e", "none"]

    def ssh_argv(self, key: Path, *words: str, user: str = "guest") -> list[str]:
        return [SSH, *self.ssh_options(key), *words, "-l", user, HOST]

    def ssh_run(
        self,
        key: Path,
        *words: str,
        command: Sequence[str] = (),
        user: str = "guest",
        environ: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """``ssh -o BatchMode=yes [WORDS] host [COMMAND]`` without a terminal, run to its
        end (BatchMode: no prompt, so an unknown key is simply refused)."""
        return run(
            [*self.ssh_argv(key, "-o", "BatchMode=yes", *words, user=user), *command],
            env=environ or clean_environment(),
        )

    def ssh(
        self,
        key: Path,
        *words: str,
        command: Sequence[str] = (),
        cols: int = 80,
        rows: int = 24,
        environ: dict[str, str] | None = None,
    ) -> PtyProcess:
        """``ssh -t [WORDS] host [COMMAND]`` in a ``cols``×``rows`` pty (closed at the
        test's end)."""
        argv = [*self.ssh_argv(key, "-t", *words), *command]
        terminal = PtyProcess(
            argv, cols=cols, rows=rows, env=environ or clean_environment(TERM="xterm-256color")
        )
        self.ptys.append(terminal)
        return terminal

    def popen(self, argv: Sequence[str], **options) -> subprocess.Popen[bytes]:
        """A background process killed at the test's end (with its process group)."""
        options.setdefault("stdin", subprocess.DEVNULL)
        options.setdefault("stdout", subprocess.DEVNULL)
        options.setdefault("stderr", subprocess.DEVNULL)
        process = subprocess.Popen(list(argv), start_new_session=True, **options)
        self.others.append(process)
        return process

    def lobby(self, key: Path, name: str, cols: int = 80, rows: int = 24) -> PtyProcess:
        """``ssh -t`` with a known key, waited for until the lobby shows."""
        terminal = self.ssh(key, cols=cols, rows=rows)
        terminal.wait_for(f"{LOBBY} {name}", 30)
        return terminal

    # ---------------------------------------------------------------- the tables

    def tables(self) -> list[dict]:
        """The lobby's tables as the server lists them, asked over its Unix socket as
        this login (what any local client sees)."""
        return list_tables(self.socket)


def list_tables(path: Path) -> list[dict]:
    """``hello`` then ``list`` on the server's socket: its tables, as plain JSON."""
    header = struct.Struct(">I")

    def send(sock: socket.socket, message: dict) -> None:
        body = json.dumps(message).encode()
        sock.sendall(header.pack(len(body)) + body)

    def receive(sock: socket.socket) -> dict:
        def exactly(size: int) -> bytes:
            data = b""
            while len(data) < size:
                chunk = sock.recv(size - len(data))
                assert chunk, "the server closed the connection"
                data += chunk
            return data

        (size,) = header.unpack(exactly(header.size))
        answer: dict = json.loads(exactly(size))
        return answer

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(path))
        send(sock, {"t": "hello", "version": _protocol_version()})
        welcome = receive(sock)
        assert welcome.get("t") == "welcome", welcome
        send(sock, {"t": "list", "ref": 1})
        while True:
            answer = receive(sock)
            if answer.get("ref") == 1 or "tables" in answer:
                break
    tables = answer.get("tables")
    assert isinstance(tables, list), answer
    return tables


def _protocol_version() -> int:
    from table import protocol

    return protocol.VERSION


D = TypeVar("D", bound=Door)


@contextlib.contextmanager
def serving(door: D) -> Iterator[D]:
    """``door`` started; at the end, everything it and the test started is ended, and no
    session's game may have crashed (the web door's tests use it too)."""
    try:
        door.start()
        yield door
    finally:
        door.stop()
    reports = door.crash_reports()
    assert not reports, "a session's game crashed:\n" + "\n".join(reports)


@pytest.fixture
def door() -> Iterator[Door]:
    """A running server with its SSH door; everything it and the test started is ended."""
    # A short folder: a Unix socket's path must fit in 108 bytes, pytest's tmp_path may not.
    with (
        tempfile.TemporaryDirectory(prefix="myk-door-", dir="/tmp") as folder,
        serving(Door(Path(folder))) as running,
    ):
        yield running


def wait_no_sessions(door: Door, pids: set[int], limit: float) -> None:
    """Every process of ``pids`` is gone within ``limit`` seconds: dead and reaped (a
    zombie left unreaped counts as still there)."""

    def there(pid: int) -> bool:
        return os.path.exists(f"/proc/{pid}")

    def left() -> str:
        states = [(pid, "running" if alive(pid) else "zombie", command_line(pid)) for pid in pids]
        return f"still there after {limit:g} s: {[s for s in states if there(s[0])]}"

    wait_until(lambda: not any(there(pid) for pid in pids), limit, left)
