"""Every patch of a library's internals, pinned: one test each, failing with the patch's
name and what to re-check when the library changes under it.

The list is docs/ARCHITECTURE.md's "Library internals"; the patches themselves say what
they rely on (:mod:`table.doors.ssh.internals`, :mod:`table.doors.web.internals`,
:mod:`tui.terminal`), and the doors and the game check the same at start. Each test
checks that shape, then, where it is cheap, that the patch is in effect against the
installed library (a real asyncssh connection on loopback, a pipe for the keyboard).
Where a patch copies or mirrors library code, the code it mirrors is pinned by a digest:
a change there means reading the new version and carrying it over, then the new digest.
The doors' own tests hold the promises behind the patches as players meet them
(tests/door, tests/web, tests/table/test_door_flow.py, tests/table/test_web_review.py).
"""

from __future__ import annotations

import ast
import asyncio
import dis
import hashlib
import inspect
import os
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import asyncssh
import pytest

from table.doors.internals import Patch
from table.doors.ssh import internals as ssh
from table.doors.ssh.session import wanted_environment
from table.doors.web import internals as web

ROOT = Path(__file__).resolve().parent.parent
WITHIN = 20.0
"""Seconds any wait here may take (a bound against hangs, not a timing)."""


def holds(patch: Patch) -> None:
    """The installed library still has what ``patch`` relies on."""
    problem = patch.problem()
    assert problem is None, problem


def mirrors(function: Callable[..., Any], digest: str, patch: Patch, what: str) -> None:
    """``function``'s source is still the one ``patch`` was written against."""
    source = inspect.getsource(function)
    found = hashlib.sha256(source.encode()).hexdigest()[:16]
    name = function.__qualname__
    assert found == digest, (
        f"{patch.name} ({patch.where}): {patch.library} changed {name}, which {what}. "
        f"Read the new {name}, carry over what matters, then pin its digest {found} here."
    )


async def until(check: Callable[[], bool], what: str) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + WITHIN
    while not check():
        assert loop.time() < end, f"never {what} within {WITHIN:g} s"
        await asyncio.sleep(0.01)


# ---------------------------------------------------------------- asyncssh

HOST_KEY = asyncssh.generate_private_key("ssh-ed25519")


class Probe(asyncssh.SSHServer):
    """A bare SSH server on which one patch at a time is put, as the door puts it."""

    def __init__(
        self,
        patch: Callable[[asyncssh.SSHServerConnection], None],
        session: Callable[[], asyncssh.SSHServerSession[bytes]] | None = None,
    ) -> None:
        self.patch = patch
        self.session = session
        self.conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.patch(conn)

    def begin_auth(self, username: str) -> bool:
        return False  # no sign-in (except where a test says otherwise)

    def session_requested(self) -> asyncssh.SSHServerSession[bytes] | bool:
        return self.session() if self.session is not None else False


@asynccontextmanager
async def probe(
    server: Callable[[], asyncssh.SSHServer], **options: Any
) -> AsyncIterator[asyncssh.SSHAcceptor]:
    acceptor = await asyncssh.create_server(
        server, "127.0.0.1", 0, server_host_keys=[HOST_KEY], encoding=None,
        line_editor=False, **options,
    )  # fmt: skip
    try:
        yield acceptor
    finally:
        acceptor.close()
        await acceptor.wait_closed()


def connect(acceptor: asyncssh.SSHAcceptor, **options: Any) -> Any:
    port = acceptor.sockets[0].getsockname()[1]
    return asyncssh.connect(
        "127.0.0.1", port, known_hosts=None, username="anyone", agent_path=None, **options
    )


async def test_asyncssh_signature_check() -> None:
    """:data:`~table.doors.ssh.internals.SIGNATURE_CHECK`: the gate learns of a key only
    once its signature is verified, and a key it refuses fails that step, so the client
    goes on to its next key (a stranger's key, then a friend's)."""
    holds(ssh.SIGNATURE_CHECK)
    stranger, friend = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    verified: list[bytes] = []

    def signs_in(key: bytes) -> bool:
        verified.append(key)
        return key == friend.public_data

    class Gate(Probe):
        def begin_auth(self, username: str) -> bool:
            return True

        def public_key_auth_supported(self) -> bool:
            return True

        def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
            return True  # any key may sign; the patch decides who signs in

    def patch(conn: asyncssh.SSHServerConnection) -> None:
        ssh.after_signature_check(conn, signs_in)

    async with (
        probe(lambda: Gate(patch)) as acceptor,
        connect(acceptor, client_keys=[stranger, friend]),
    ):
        pass  # signed in
    assert verified == [stranger.public_data, friend.public_data], (
        f"{ssh.SIGNATURE_CHECK.name}: the patch in {ssh.SIGNATURE_CHECK.where} was not "
        "asked after each verified signature: re-check how asyncssh checks a signature"
    )


class Flood(asyncssh.SSHServerSession[bytes]):
    """Writes :data:`FLOOD` bytes to its channel at the client's word."""

    FLOOD = 32 * 1024 * 1024

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def shell_requested(self) -> bool:
        return True

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.chan.write(b"x" * self.FLOOD)


async def test_asyncssh_connection_flow() -> None:
    """:data:`~table.doors.ssh.internals.CONNECTION_FLOW`: a client that opened a 4 GB
    window and reads nothing fills the connection's socket; the patch is told, and the
    connection is read no more until the client reads again. asyncssh's own
    ``pause_writing`` still does nothing (else the patch may no longer be needed)."""
    holds(ssh.CONNECTION_FLOW)
    for name in ("pause_writing", "resume_writing"):
        function = getattr(asyncssh.connection.SSHConnection, name)
        acts = [i.opname for i in dis.get_instructions(function) if not _nothing_done(i)]
        assert not acts, (
            f"{ssh.CONNECTION_FLOW.name}: asyncssh's SSHConnection.{name} now does "
            f"something ({acts}): re-check whether {ssh.CONNECTION_FLOW.where} is still "
            "needed (its test: tests/table/test_door_flow.py)"
        )
    events: list[str] = []
    servers: list[Probe] = []

    def patch(conn: asyncssh.SSHServerConnection) -> None:
        ssh.watch_output(conn, lambda: events.append("held"), lambda: events.append("freed"))
        getattr(conn, "_transport").set_write_buffer_limits(high=64 * 1024)  # noqa: B009

    def server() -> Probe:
        servers.append(Probe(patch, Flood))
        return servers[-1]

    async with probe(server) as acceptor, connect(acceptor) as conn:
        chan, _session = await conn.create_session(
            asyncssh.SSHClientSession, encoding=None, window=2**32 - 1
        )
        client: asyncio.Transport = getattr(conn, "_transport")  # noqa: B009
        client.pause_reading()
        chan.write(b"go")
        await until(lambda: "held" in events, f"told {ssh.CONNECTION_FLOW.name} of a full socket")
        door_side: asyncio.Transport = getattr(servers[0].conn, "_transport")  # noqa: B009
        assert not door_side.is_reading(), (
            f"{ssh.CONNECTION_FLOW.name}: {ssh.CONNECTION_FLOW.where} was told, but the "
            "connection is still read: re-check asyncssh's SSHConnection._transport"
        )
        client.resume_reading()
        await until(lambda: "freed" in events, f"told {ssh.CONNECTION_FLOW.name} of its drain")
        assert door_side.is_reading()
        chan.close()


def _nothing_done(instruction: dis.Instruction) -> bool:
    """Whether ``instruction`` is one of those of a function that only returns None."""
    if instruction.opname in {"LOAD_CONST", "RETURN_CONST"}:
        return instruction.argval is None
    return instruction.opname in {"RESUME", "NOP", "RETURN_VALUE"}


async def test_asyncssh_environment() -> None:
    """:data:`~table.doors.ssh.internals.ENVIRONMENT`: of the ``env`` requests a client
    sends, the channel keeps only those the door wants."""
    holds(ssh.ENVIRONMENT)
    mirrors(
        asyncssh.channel.SSHServerChannel._process_env_request,
        "c6847fe6051100fa",
        ssh.ENVIRONMENT,
        "table.doors.ssh.internals.keep_environment's env_request stands in for",
    )
    kept: asyncio.Future[dict[bytes, bytes]] = asyncio.get_running_loop().create_future()

    class Session(asyncssh.SSHServerSession[bytes]):
        def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
            self.chan = chan
            ssh.keep_environment(chan, wanted_environment)

        def shell_requested(self) -> bool:
            return True

        def session_started(self) -> None:
            kept.set_result(dict(self.chan.get_environment_bytes()))

    def server() -> Probe:
        return Probe(lambda conn: None, Session)

    async with probe(server) as acceptor, connect(acceptor) as conn:
        sent = {f"JUNK_{n}": "x" for n in range(50)} | {"LANG": "fr_FR.UTF-8"}
        chan, _session = await conn.create_session(
            asyncssh.SSHClientSession, encoding=None, env=sent
        )
        environment = await asyncio.wait_for(kept, WITHIN)
        chan.close()
    assert environment == {b"LANG": b"fr_FR.UTF-8"}, (
        f"{ssh.ENVIRONMENT.name}: the channel kept {len(environment)} variables: "
        f"{ssh.ENVIRONMENT.where} is no longer asked: re-check asyncssh's channel requests"
    )


# ---------------------------------------------------------------- textual-serve


def test_textual_serve_app_service() -> None:
    """:data:`~table.doors.web.internals.APP_SERVICE`: the door drives textual-serve's
    AppService itself (its use is tested by tests/table/test_web_protocol.py)."""
    holds(web.APP_SERVICE)


async def test_textual_serve_app_process(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """:data:`~table.doors.web.internals.APP_PROCESS`: AppService starts the game through
    the door's own ``_open_app_process`` (no shell, none of the server's environment) and
    then talks to the process it set, until the game ends."""
    holds(web.APP_PROCESS)
    from textual_serve.app_service import AppService
    from textual_serve.download_manager import DownloadManager

    from table.doors.web.game import Game

    for function in (AppService._open_app_process, AppService._build_environment):
        mirrors(
            function,
            {"_open_app_process": "1202e78eb3e9d5d6", "_build_environment": "7411a31d53d5e8ae"}[
                function.__name__
            ],
            web.APP_PROCESS,
            "table.doors.web.game.Game._open_app_process stands in for (a new variable or "
            "option the web driver needs must be carried over)",
        )
    monkeypatch.setenv("MYKERINOS_NOT_FOR_GAMES", "the server's own")
    started: dict[str, Any] = {}
    written: list[bytes] = []

    async def exec_(*command: str, **options: Any) -> Any:
        started.update(options, command=command)
        output, errors = asyncio.StreamReader(), asyncio.StreamReader()
        # The game leaves at once, but not before AppService has begun reading it.
        asyncio.get_running_loop().call_later(0.01, output.feed_eof)
        errors.feed_eof()
        stdin = SimpleNamespace(write=written.append, drain=_nothing)
        return SimpleNamespace(stdin=stdin, stdout=output, stderr=errors, returncode=0)

    monkeypatch.setattr(asyncio, "create_subprocess_exec", exec_)
    door = SimpleNamespace(
        folder=tmp_path, socket=tmp_path / "t.sock", downloads=DownloadManager(), zygote=None
    )  # without the doors' warm process: the game is a new interpreter (its fork: tests/web)
    tab = SimpleNamespace(send_bytes=_nothing, send_str=_nothing, close=_nothing)
    game = Game(door, "ticket", "ann", tab)  # type: ignore[arg-type]
    await game.start(80, 24)
    await asyncio.wait_for(game.stop(), WITHIN)  # the quit reaches the process it set
    patch = f"{web.APP_PROCESS.name} ({web.APP_PROCESS.where})"
    assert started.get("command", ())[1:4] == ("-I", "-m", "tui.web"), f"{patch} is not used"
    assert "MYKERINOS_NOT_FOR_GAMES" not in started["env"], f"{patch}: the server's env leaks"
    assert started["env"]["MYKERINOS_TICKET"] == "ticket"
    assert any(b'"quit"' in packet for packet in written), (
        f"{patch}: AppService no longer talks to the process the patch set (_stdin)"
    )


async def _nothing(*_: object) -> None:
    return None


def test_textual_serve_page_files() -> None:
    """:data:`~table.doors.web.internals.PAGE`: the door's page loads textual-serve's
    terminal from its package (the page itself: tests/web)."""
    holds(web.PAGE)


# ---------------------------------------------------------------- textual


def test_textual_input_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """:data:`tui.terminal.INPUT_THREAD`: the copied loop, run on a pipe against the
    installed Textual's parser, reads a key past a byte that is not UTF-8 and ends at
    the end of input (the app in a pty: tests/tui/test_terminal.py)."""
    from textual import events
    from textual.drivers.linux_driver import LinuxDriver

    from tui import terminal

    holds(terminal.INPUT_THREAD)
    mirrors(
        LinuxDriver.run_input_thread,
        "d796af6d69db337d",
        terminal.INPUT_THREAD,
        "tui.terminal.TerminalDriver.run_input_thread is a copy of",
    )
    ended = threading.Event()
    monkeypatch.setattr(terminal, "end_of_input", ended.set)
    keyboard, typist = os.pipe()
    driver = object.__new__(terminal.TerminalDriver)  # not started: no terminal to take
    driver.fileno, driver.exit_event, driver._debug = keyboard, threading.Event(), False
    seen: list[object] = []
    driver.process_message = seen.append  # type: ignore[method-assign,assignment]
    os.write(typist, b"\xe9a")
    os.close(typist)
    reader = threading.Thread(target=driver.run_input_thread, daemon=True)
    reader.start()
    reader.join(WITHIN)
    os.close(keyboard)
    keys = [event.key for event in seen if isinstance(event, events.Key)]
    patch = f"{terminal.INPUT_THREAD.name} ({terminal.INPUT_THREAD.where})"
    assert not reader.is_alive() and ended.is_set(), f"{patch} no longer ends with the input"
    assert "a" in keys, f"{patch} read {keys}: re-check textual._xterm_parser against the copy"


def test_textual_app_driver() -> None:
    """:data:`tui.terminal.APP_DRIVER`: the app writes desktop notices through
    ``App._driver``; while the app (tui/app.py and its mixins beside it) does, Textual
    must still have it (and once it no longer does, the patch leaves the list)."""
    from tui import terminal

    app = [path for path in (ROOT / "tui").glob("*.py") if path.name != "terminal.py"]
    reads = any("self._driver" in path.read_text(encoding="utf-8") for path in app)
    assert reads == (terminal.APP_DRIVER in terminal.PATCHES), (
        "the app and tui/terminal.PATCHES disagree on App._driver: list it while the "
        "app reads it, drop it (and its row in docs/ARCHITECTURE.md) once it does not"
    )
    holds(terminal.APP_DRIVER)


def test_textual_crash() -> None:
    """:data:`tui.terminal.CRASH`: the app's one line for an unexpected error overrides
    ``App._fatal_error`` (the app crashing in a pty: tests/tui/test_terminal.py)."""
    from textual.app import App

    from tui import terminal
    from tui.app import MykerinosApp

    assert MykerinosApp._fatal_error is not App._fatal_error
    holds(terminal.CRASH)


def test_textual_settings_of_a_forked_session() -> None:
    """:data:`tui.fresh.SETTINGS`: a session forked by the doors' warm process reads
    Textual's settings again from its own environment, by reloading textual.constants
    (the sessions through both doors: tests/door, tests/web, tests/table/test_door_zygote.py)."""
    import subprocess
    import sys

    from tui import fresh

    holds(fresh.SETTINGS)
    probe = (
        "import importlib, os, textual.constants as c; before = c.ESCAPE_DELAY, c.COLOR_SYSTEM; "
        "os.environ.update(ESCDELAY='400', TEXTUAL_COLOR_SYSTEM='truecolor'); "
        "importlib.reload(c); print(before, (c.ESCAPE_DELAY, c.COLOR_SYSTEM))"
    )
    env = {"PATH": os.defpath, "LANG": "C.UTF-8"}
    done = subprocess.run(
        [sys.executable, "-I", "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.split(") (") == ["(0.1, 'auto'", "0.4, 'truecolor')\n"], (
        f"{fresh.SETTINGS.name} ({fresh.SETTINGS.where}): textual.constants no longer "
        f"reads its settings again when reloaded: {done.stdout!r}"
    )


# ---------------------------------------------------------------- the list is whole


def _sources() -> Iterator[Path]:
    for package in ("table", "tui"):
        yield from sorted((ROOT / package).rglob("*.py"))


LIBRARIES = ("asyncssh", "aiohttp", "textual", "textual_serve", "rich")
PRIVATE_MODULES = {
    ("tui/terminal.py", "textual._parser"): "tui.terminal.INPUT_THREAD",
    ("tui/terminal.py", "textual._xterm_parser"): "tui.terminal.INPUT_THREAD",
}
PRIVATE_NAMES = {
    ("table/doors/ssh/internals.py", "_transport"): "ssh.CONNECTION_FLOW",
    ("table/doors/ssh/internals.py", "_env"): "ssh.ENVIRONMENT",
    ("table/doors/ssh/internals.py", "_process_env_request"): "ssh.ENVIRONMENT",
}


def _imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return [node.module]
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    return []


def _private_module(module: str) -> bool:
    top, *rest = module.split(".")
    return top in LIBRARIES and any(part.startswith("_") for part in rest)


def _reached(node: ast.AST) -> str | None:
    """The name ``getattr``/``setattr``/``hasattr`` reaches for, when written out."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    if node.func.id not in {"getattr", "setattr", "hasattr"} or len(node.args) < 2:
        return None
    name = node.args[1]
    return name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None


def test_no_other_private_module_or_attribute_of_a_library_is_used() -> None:
    """A private module of a library imported, or a private name reached by
    ``getattr``/``setattr``/``hasattr``, only where a listed patch says so: a new one is
    added to its module's ``PATCHES``, to docs/ARCHITECTURE.md and to this file."""
    found: set[tuple[str, str]] = set()
    for path in _sources():
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found |= {(where, module) for module in _imported(node) if _private_module(module)}
            name = _reached(node)
            if name is not None and name.startswith("_") and not name.startswith("__"):
                found.add((where, name))
    unlisted = found - set(PRIVATE_MODULES) - set(PRIVATE_NAMES)
    assert not unlisted, f"library internals used without a listed patch: {sorted(unlisted)}"


def test_every_patch_is_in_the_architecture_notes() -> None:
    """Each patch has its row in docs/ARCHITECTURE.md's "Library internals"."""
    from tui import fresh, terminal

    notes = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert "## Library internals" in notes
    section = notes.split("## Library internals", 1)[1]
    for patch in (*ssh.PATCHES, *web.PATCHES, *terminal.PATCHES, *fresh.PATCHES):
        assert patch.where.split(",")[0].split(" ")[0] in section, (
            f"{patch.name} ({patch.where}) has no row in docs/ARCHITECTURE.md"
        )


def test_the_doors_and_the_game_refuse_a_library_that_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The start-up check names the patch and the installed version (a method the patch
    relies on, taken away)."""
    from table.doors.internals import LibraryChanged

    async def validate_public_key(self: object, username: str, key_data: bytes) -> bool:
        return False

    monkeypatch.setattr(asyncssh.SSHServerConnection, "validate_public_key", validate_public_key)
    with pytest.raises(LibraryChanged) as refused:
        ssh.check_asyncssh()
    words = str(refused.value)
    assert ssh.SIGNATURE_CHECK.name in words
    assert (
        "takes (self, username, key_data), not (self, username, key_data, msg, signature)" in words
    )
    assert f"asyncssh {version('asyncssh')}" in words
