"""The SSH door at the protocol's level, with asyncssh's own client: what the OpenSSH
client never does on its own (keyboard-interactive first, a password, a forwarding
request after sign-in) and the bounds on guessing codes.
The door as players use it, through the real ``ssh``, is tested in tests/door/."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import asyncssh
import pytest

from saves.format import decode
from table import protocol as wire
from table.client.connection import connect as table_connect
from table.doors.options import PORT_FILE
from table.host.players import Players, fingerprint
from tests.table_server.process import spawn, stop


class Door:
    """``mykerinos serve --ssh 127.0.0.1:0`` on temporary folders."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.db = folder / "data" / "tables.db"
        self.socket = folder / "t.sock"
        self.process = spawn(self.socket, self.db, "--ssh", "127.0.0.1:0")
        self.port = int((self.db.parent / PORT_FILE).read_text())

    def stop(self) -> None:
        stop(self.process)


@pytest.fixture(scope="module")
def door() -> Iterator[Door]:
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        running = Door(Path(folder))
        try:
            yield running
        finally:
            running.stop()


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


def known(door: Door, name: str) -> asyncssh.SSHKey:
    """A key of ``name``'s, added as the host does."""
    key = new_key()
    with Players(door.db) as players:
        players.add(name, key.export_public_key().decode())
    return key


class Typist(asyncssh.SSHClient):
    """Answers every keyboard-interactive prompt with the next of ``answers`` and
    keeps the prompts it was shown."""

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []
        self.lost: Exception | None = None
        """Why the connection ended (the server's disconnect, with its reason)."""

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = exc

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: Sequence[tuple[str, bool]]
    ) -> Sequence[str] | None:
        self.prompts += [prompt for prompt, _echo in prompts]
        if not self.answers:
            return None
        return [self.answers.pop(0) for _ in prompts]


async def connect(
    door: Door, key: asyncssh.SSHKey | None = None, answers: Sequence[str] = (), **options: object
) -> tuple[asyncssh.SSHClientConnection, Typist]:
    typist = Typist(answers)
    conn, _client = await asyncssh.create_connection(
        lambda: typist, "127.0.0.1", door.port, known_hosts=None, username="anyone",
        client_keys=[key] if key is not None else [], agent_path=None,
        preferred_auth="publickey,keyboard-interactive,password", **options,
    )  # fmt: skip
    return conn, typist


async def status(conn: asyncssh.SSHClientConnection) -> str:
    result = await conn.run("status", encoding="utf-8")
    return str(result.stdout)


async def test_a_known_key_signs_in_as_its_player(door: Door) -> None:
    conn, typist = await connect(door, known(door, "Ann"))
    async with conn:
        assert await status(conn) == "No table is waiting for Ann.\n"
    assert typist.prompts == []  # never asked for a code


async def test_no_key_gets_no_code_prompt_and_no_password_is_taken(door: Door) -> None:
    typist = Typist(["anything"])
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.create_connection(
            lambda: typist, "127.0.0.1", door.port, known_hosts=None, username="x",
            client_keys=[], agent_path=None, password="secret",
            preferred_auth="keyboard-interactive,password",
        )  # fmt: skip
    assert typist.prompts == []


async def test_an_unknown_key_redeems_a_code_and_is_its_players_from_then_on(door: Door) -> None:
    with Players(door.db) as players:
        code = players.invite("Cat")
    key = new_key()
    conn, typist = await connect(door, key, answers=["WRONG-CODE", code])
    async with conn:
        assert await status(conn) == "No table is waiting for Cat.\n"
    assert f"This key ({fingerprint(key.public_data)}) is not known here yet" in typist.prompts[0]
    assert typist.prompts[1].startswith("This is not an invitation code of this server.")
    again, typist = await connect(door, key)  # the key is Cat's now: no code
    async with again:
        assert await status(again) == "No table is waiting for Cat.\n"
    assert typist.prompts == []


async def test_a_used_code_is_refused_in_words_and_three_tries_end_the_connection(
    door: Door,
) -> None:
    with Players(door.db) as players:
        code = players.invite("Dan")
    first, _typist = await connect(door, new_key(), answers=[code])
    first.close()
    typist = Typist([code, code, code, ""])
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.create_connection(
            lambda: typist, "127.0.0.1", door.port, known_hosts=None, username="x",
            client_keys=[new_key()], agent_path=None,
        )  # fmt: skip
    assert "already used" in typist.prompts[1]
    assert "No more tries on this connection" in typist.prompts[3]
    assert len(typist.prompts) == 4


async def test_no_forwarding_of_any_kind(door: Door) -> None:
    conn, _typist = await connect(door, known(door, "Fay"))
    async with conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 22)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_unix_connection(asyncssh.SSHUNIXSession, str(door.socket))
        with pytest.raises(asyncssh.ChannelOpenError, match="Session request failed"):
            await conn.create_session(asyncssh.SSHClientSession, subsystem="sftp")


async def test_wrong_codes_from_one_address_are_bounded() -> None:
    """Ten wrong codes from one address in 15 minutes, then that address is told to
    wait; a known key from the same address still comes in."""
    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        door = await asyncio.to_thread(Door, Path(folder))
        try:
            for _ in range(4):
                with pytest.raises(asyncssh.PermissionDenied):
                    await connect(door, new_key(), answers=["BAD1", "BAD2", "BAD3", ""])
            with pytest.raises(asyncssh.DisconnectError, match="too many wrong invitation codes"):
                await connect(door, new_key(), answers=["BAD"])
            conn, _typist = await connect(door, known(door, "Gus"))
            async with conn:
                assert await status(conn) == "No table is waiting for Gus.\n"
        finally:
            door.stop()


async def test_a_removed_key_s_connection_starts_nothing_more(door: Door) -> None:
    """``mykerinos players remove`` while a connection of that key is signed in: the
    sessions it opens from then on are refused in words (not let in for the ten seconds
    until the door's next look at the keys, again and again on the same connection)."""
    key = known(door, "Ivy")
    conn, _typist = await connect(door, key)
    async with conn:
        assert await status(conn) == "No table is waiting for Ivy.\n"
        with Players(door.db) as players:
            players.remove("Ivy")
        for _ in range(2):
            result = await conn.run("status", encoding="utf-8")
            assert (result.stdout, result.exit_status) == ("", 1)
            assert result.stderr == "mykerinos: your key was removed from this server\r\n"


async def test_connections_signed_in_of_one_player_are_bounded(door: Door) -> None:
    """One player holds at most 8 connections signed in (twice the sessions a player may
    have, and 2): the next is told why, and one closed makes room again."""
    key = known(door, "Hal")
    held: list[asyncssh.SSHClientConnection] = []
    try:
        for _ in range(8):
            held.append((await connect(door, key))[0])
        reason = await refused_after_sign_in(door, key)
        assert "you have 8 connections open to this door already: close one first" in reason
        held.pop().close()
        deadline = time.monotonic() + 10
        while True:  # the door counts the closed one out once it sees it go
            assert time.monotonic() < deadline, "no room made by a closed connection"
            try:
                again, _typist = await connect(door, key)
            except asyncssh.DisconnectError:
                await asyncio.sleep(0.05)
                continue
            held.append(again)
            assert await status(again) == "No table is waiting for Hal.\n"
            break
    finally:
        for conn in held:
            conn.close()


async def refused_after_sign_in(door: Door, key: asyncssh.SSHKey) -> str:
    """The reason the door gave when it closed a connection it had just signed in (the
    client may see its sign-in succeed first)."""
    try:
        conn, typist = await connect(door, key)
    except asyncssh.DisconnectError as exc:
        return str(exc.reason)
    await asyncio.wait_for(conn.wait_closed(), 10)
    assert isinstance(typist.lost, asyncssh.DisconnectError), typist.lost
    return str(typist.lost.reason)


async def test_export_writes_a_table_s_save_to_the_guest_and_refuses_an_unknown_table(
    door: Door,
) -> None:
    """``ssh … export TABLE > game.json``: the table's save on the guest's stdout (an
    ordinary save file, nothing else), a table that does not exist refused in one line on
    stderr with exit 1, and a malformed command in one line with exit 2."""
    host = await table_connect(door.socket)  # the host's own account makes the table
    try:
        seats = (wire.SeatSpec("player", host.player), wire.SeatSpec("computer", level="easy"))
        created = await host.ask(wire.CreateTable(host.new_ref(), seats, title="exported"))
        assert isinstance(created, wire.Lobby), created
        (table,) = [info.id for info in created.tables if info.title == "exported"]
    finally:
        await host.close()
    conn, _typist = await connect(door, known(door, "Joy"))
    async with conn:
        result = await conn.run(f"export {table}", encoding=None)
        assert (result.exit_status, result.stderr) == (0, b"")
        assert isinstance(result.stdout, bytes), result.stdout
        save = decode(Path("game.json"), result.stdout)
        assert save.title == "exported"
        missing = await conn.run("export 999999", encoding="utf-8")
        assert (missing.exit_status, missing.stdout) == (1, "")
        assert missing.stderr == "mykerinos: there is no table 999999\r\n"
        wrong = await conn.run("export seven", encoding="utf-8")
        assert (wrong.exit_status, wrong.stdout) == (2, "")
        assert str(wrong.stderr).count("\n") == 1 and "a table's number" in str(wrong.stderr)
