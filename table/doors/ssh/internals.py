"""The SSH door's three patches of asyncssh, each where asyncssh has no public way.

- :func:`after_signature_check`: asyncssh has no "partial success" (OpenSSH's
  ``AuthenticationMethods publickey,keyboard-interactive``), and its public
  ``SSHServer.validate_public_key`` is asked before the signature is checked; only the
  connection's own ``validate_public_key`` knows that a key's signature was verified.
- :func:`watch_output`: asyncssh (2.24) ignores its transport's ``pause_writing``, so a
  client that opens a 4 GB window and reads nothing has every frame buffered.
  ``SSHServerProcess.redirect`` does not help: it follows the channel's window only
  (measured: 20 MB held after 3 s of a deaf client, growing), and it hands the client's
  terminal size to the pty unbounded (30000×30000 taken as is).
- :func:`keep_environment`: asyncssh keeps every ``env`` request of a channel, without
  limit, and offers no callback to refuse one.

:data:`PATCHES` lists what each relies on; :meth:`Door.start
<table.doors.ssh.server.Door.start>` checks them before it listens.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping

import asyncssh
from asyncssh.packet import SSHPacket

from table.doors.internals import LibraryChanged, Patch, check, first, has_signature, uses
from table.server.log import log_once

CHECKED = "asyncssh 2.24.1"

SIGNATURE_CHECK = Patch(
    name="the gate's check after a verified signature",
    where="table.doors.ssh.internals.after_signature_check, from Visitor.connection_made",
    library="asyncssh",
    checked=CHECKED,
    relies_on="SSHServerConnection.validate_public_key(username, key_data, msg, signature), "
    "a coroutine its public-key authentication calls through the connection object",
    missing=lambda: first(
        has_signature(
            "asyncssh",
            "SSHServerConnection.validate_public_key",
            ["self", "username", "key_data", "msg", "signature"],
            coroutine=True,
        ),
        uses("asyncssh.auth", "_ServerPublicKeyAuth._start", "_conn", "validate_public_key"),
    ),
)
CONNECTION_FLOW = Patch(
    name="the connection's flow control",
    where="table.doors.ssh.internals.watch_output, from Visitor.connection_made",
    library="asyncssh",
    checked=CHECKED,
    relies_on="SSHConnection._transport (its asyncio transport, set before the server's "
    "connection_made is called) and the connection's pause_writing()/resume_writing(), "
    "which that transport calls",
    missing=lambda: first(
        uses("asyncssh.connection", "SSHConnection.connection_made", "_transport", "_owner"),
        has_signature("asyncssh.connection", "SSHConnection.pause_writing", ["self"]),
        has_signature("asyncssh.connection", "SSHConnection.resume_writing", ["self"]),
    ),
)
ENVIRONMENT = Patch(
    name="the bound on a session's environment",
    where="table.doors.ssh.internals.keep_environment, from DoorSession.connection_made",
    library="asyncssh",
    checked=CHECKED,
    relies_on="SSHChannel._env (the variables kept, which get_environment_bytes() shows) "
    "and SSHServerChannel._process_env_request(packet), found by name for each 'env' "
    "request, whose packet it reads with SSHPacket.get_string() and check_end()",
    missing=lambda: first(
        uses("asyncssh.channel", "SSHChannel.__init__", "_env"),
        uses("asyncssh.channel", "SSHChannel.get_environment_bytes", "_env"),
        has_signature(
            "asyncssh.channel", "SSHServerChannel._process_env_request", ["self", "packet"]
        ),
        uses("asyncssh.channel", "SSHChannel._service_next_request", "_process_", "_request"),
        has_signature("asyncssh.packet", "SSHPacket.get_string", ["self"]),
        has_signature("asyncssh.packet", "SSHPacket.check_end", ["self"]),
    ),
)
PATCHES = (SIGNATURE_CHECK, CONNECTION_FLOW, ENVIRONMENT)


def check_asyncssh() -> None:
    """Raise :class:`~table.doors.internals.LibraryChanged` when this asyncssh lacks what
    a patch relies on."""
    check(PATCHES)


SignatureCheck = Callable[[str, bytes, bytes, bytes], Awaitable[bool]]


def after_signature_check(
    conn: asyncssh.SSHServerConnection, verified: Callable[[bytes], bool]
) -> None:
    """Once asyncssh has verified a signature by a key it was willing to look at, ask
    ``verified(key)`` whether that key signs in (False: the public-key step fails, and
    the client goes on to its next method). A query (no signature yet) is answered by
    asyncssh alone."""
    original: SignatureCheck = conn.validate_public_key

    async def validate_public_key(
        username: str, key_data: bytes, msg: bytes, signature: bytes
    ) -> bool:
        if not await original(username, key_data, msg, signature):
            return False
        return verified(key_data) if msg else True

    conn.validate_public_key = validate_public_key  # type: ignore[method-assign]


def watch_output(
    conn: asyncssh.SSHServerConnection, held: Callable[[], None], freed: Callable[[], None]
) -> None:
    """While ``conn``'s socket holds as much unsent output as it may, stop reading it
    (a client that reads nothing sends nothing more to answer) and call ``held``;
    ``freed`` once it drains. asyncssh's own callbacks are still called first."""
    transport = getattr(conn, "_transport", None)
    if not isinstance(transport, asyncio.Transport):
        problem = f"{CONNECTION_FLOW.name}: this asyncssh keeps no transport in _transport"
        log_once("door internals", f"door: {problem}")
        raise LibraryChanged(problem)
    pause, resume = conn.pause_writing, conn.resume_writing

    def pause_writing() -> None:
        pause()
        transport.pause_reading()
        held()

    def resume_writing() -> None:
        resume()
        if not transport.is_closing():
            transport.resume_reading()
        freed()

    conn.pause_writing = pause_writing  # type: ignore[method-assign]
    conn.resume_writing = resume_writing  # type: ignore[method-assign]


EnvWanted = Callable[[Mapping[bytes, bytes], bytes, bytes], bool]
"""Whether a channel keeps an ``env`` request: (what it kept so far, name, value)."""


def keep_environment(chan: asyncssh.SSHServerChannel[bytes], wanted: EnvWanted) -> None:
    """Make ``chan`` keep an ``env`` request only when ``wanted(kept, name, value)``, and
    refuse the others (``kept``: the variables kept so far). ``chan`` must be asyncssh's
    own channel (the door's ``line_editor=False``): a line editor's wrapper passes every
    name on to the channel it wraps, but keeps what is set on it."""
    env = getattr(chan, "_env", None)
    if not isinstance(env, dict) or not hasattr(chan, "_process_env_request"):
        problem = f"{ENVIRONMENT.name}: this asyncssh keeps a session's environment elsewhere"
        log_once("door internals", f"door: {problem}")
        raise LibraryChanged(problem)

    def env_request(packet: SSHPacket) -> bool:
        name, value = packet.get_string(), packet.get_string()
        packet.check_end()
        if not wanted(env, name, value):
            return False
        env[name] = value
        return True

    setattr(chan, "_process_env_request", env_request)  # noqa: B010 - asyncssh's own name
