"""The SSH door's parts that need no SSH client: its address option, the environment a
session's game gets, the wrong-code bound, the host key. (The door end to end, with the
real OpenSSH client, is in tests/door/.)"""

from __future__ import annotations

import errno
import os
import stat

import pytest

from table.doors.options import KEY_NAME, AddressError, parse_address
from table.doors.ssh.gate import CHANNELS, Visitor, WrongCodes
from table.doors.ssh.hostkey import HostKeyError, fingerprint, host_key
from table.doors.ssh.session import DEFAULT_TERM, environment


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2222", (None, 2222)),
        ("127.0.0.1:2222", ("127.0.0.1", 2222)),
        ("[::1]:2022", ("::1", 2022)),
        (":2222", (None, 2222)),
        ("127.0.0.1:0", ("127.0.0.1", 0)),
    ],
)
def test_door_address(text: str, expected: tuple[str | None, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["", "host", "host:-1", "host:65536", "[::1]2222", "1:x"])
def test_a_door_address_without_a_port_is_refused(text: str) -> None:
    with pytest.raises(AddressError):
        parse_address(text)


def test_the_game_gets_only_the_terminal_the_language_and_no_color() -> None:
    sent = {
        "LANG": "fr_FR.UTF-8",
        "LC_ALL": "de_DE.UTF-8",
        "LC_TIME": "bad value; rm -rf /",
        "NO_COLOR": "yes",
        "PYTHONINSPECT": "1",
        "TEXTUAL_DRIVER": "evil:Driver",
        "PATH": "/tmp/evil",
        "LD_PRELOAD": "/tmp/evil.so",
        "MYKERINOS_TICKET": "forged",
    }
    env = environment("screen-256color", sent, "the-ticket", "/home/door")
    assert env == {
        "PATH": os.defpath,
        "HOME": "/home/door",
        "TERM": "screen-256color",
        "LANG": "fr_FR.UTF-8",
        "LC_ALL": "de_DE.UTF-8",
        "NO_COLOR": "1",
        "ESCDELAY": "400",
        "MYKERINOS_TICKET": "the-ticket",
    }


@pytest.mark.parametrize("term", ["\x1b]0;owned\x07", "x" * 10_000, "", None, "-rf", "a b"])
def test_a_hostile_term_becomes_the_default(term: str | None) -> None:
    assert environment(term, {}, "t", "/h")["TERM"] == DEFAULT_TERM


def test_wrong_codes_are_bounded_per_address_over_a_window() -> None:
    wrong = WrongCodes(limit=3, window=60)
    for moment in (0, 1, 2):
        assert wrong.blocked("10.0.0.1", now=moment) == 0
        wrong.add("10.0.0.1", now=moment)
    assert wrong.blocked("10.0.0.1", now=3) == pytest.approx(57)
    assert wrong.blocked("10.0.0.2", now=3) == 0  # another address is not held back
    assert wrong.blocked("10.0.0.1", now=60.5) == 0  # the first one is out of the window


def test_the_host_key_is_made_once_readable_by_its_owner_only(tmp_path) -> None:
    key = host_key(tmp_path)
    path = tmp_path / KEY_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert fingerprint(host_key(tmp_path)) == fingerprint(key)  # kept, not made again
    public = (tmp_path / f"{KEY_NAME}.pub").read_text()
    assert public.startswith("ssh-ed25519 ")


def test_a_host_key_others_can_read_is_refused(tmp_path) -> None:
    host_key(tmp_path)
    (tmp_path / KEY_NAME).chmod(0o644)
    with pytest.raises(HostKeyError, match="chmod 600") as refused:
        host_key(tmp_path)
    assert str(refused.value).count("host key") == 1  # said once, not wrapped again


def test_a_missing_public_half_of_the_host_key_is_written_again(tmp_path) -> None:
    """``mykerinos invite`` tells the fingerprint from the ``.pub``: gone (a start killed
    between the two files, a host's slip), it comes back at the next start."""
    key = host_key(tmp_path)
    public = tmp_path / f"{KEY_NAME}.pub"
    public.unlink()
    assert fingerprint(host_key(tmp_path)) == fingerprint(key)
    assert public.read_bytes() == key.export_public_key()


def test_a_host_key_whose_writing_failed_is_not_left_in_place(tmp_path, monkeypatch) -> None:
    """The disk full (or the start killed) while the new key is written: no key cut short
    stays under the key's name to stop every later start; the next start makes one."""

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        host_key(tmp_path)
    monkeypatch.undo()
    assert not (tmp_path / KEY_NAME).exists()
    host_key(tmp_path)
    assert stat.S_IMODE((tmp_path / KEY_NAME).stat().st_mode) == 0o600
    assert sorted(path.name for path in tmp_path.iterdir()) == [KEY_NAME, f"{KEY_NAME}.pub"]


def test_session_channels_on_one_connection_are_bounded() -> None:
    """A signed-in client cannot pile up channels that start nothing (the bound on
    sessions counts only those that start a game or a command)."""
    visitor = Visitor(gate=None, sessions=lambda v: object())  # type: ignore[arg-type,return-value]
    opened = [visitor.session_requested() for _ in range(CHANNELS)]
    assert all(opened) and visitor.session_requested() is False
    visitor.channels -= 1  # one closed (DoorSession.connection_lost)
    assert visitor.session_requested() is not False
