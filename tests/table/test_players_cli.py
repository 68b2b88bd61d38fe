"""The real ``mykerinos players …`` and ``mykerinos invite`` commands, in a process of
their own: what they print, that a mistake is one line and status 2 (never a traceback),
that names from the store are printed escaped, and that they work while a table server
runs on the same store."""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from table.host.players import CODE_ALPHABET, Players

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).with_name("mykerinos")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "tui"]
NOW_PLUS_A_DAY = 86400.0

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="no ssh-keygen")


def mykerinos(*args: str, db: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args, "--db", str(db)],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=30,
    )  # fmt: skip


def one_line_error(result: subprocess.CompletedProcess[str], words: str) -> None:
    """Status 2, nothing on stdout, one line on stderr holding ``words``."""
    assert result.returncode == 2, result
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, Path]:
    """Two key pairs, made once: name → the private key's path (its .pub beside it)."""
    folder = tmp_path_factory.mktemp("keys")
    for name, kind in (("ann", "ed25519"), ("ben", "ecdsa")):
        subprocess.run(
            ["ssh-keygen", "-t", kind, "-N", "", "-C", f"{name}@home", "-f", str(folder / name),
             "-q"],
            check=True,
        )  # fmt: skip
    return {"ann": folder / "ann", "ben": folder / "ben"}


def pub(keys: dict[str, Path], name: str) -> Path:
    return keys[name].with_suffix(".pub")


def fingerprint(path: Path) -> str:
    out = subprocess.run(["ssh-keygen", "-lf", str(path)], capture_output=True, text=True)
    return out.stdout.split()[1]


def test_add_list_remove(tmp_path, keys) -> None:
    """Keys added from a file and from stdin are listed under their player, then removed
    one by fingerprint and all by name."""
    db = tmp_path / "data" / "tables.db"
    added = mykerinos("players", "add", "Ann", str(pub(keys, "ann")), db=db)
    assert added.returncode == 0, added.stderr
    assert added.stdout == f"Ann: {fingerprint(pub(keys, 'ann'))} ssh-ed25519 ann@home\n"
    stdin = pub(keys, "ben").read_text()
    assert mykerinos("players", "add", "Ben", "-", db=db, stdin=stdin).returncode == 0
    listed = mykerinos("players", "list", db=db)
    assert listed.returncode == 0
    lines = listed.stdout.splitlines()
    assert lines[0] == "Ann" and lines[2] == "Ben"
    assert lines[1].startswith(f"  {fingerprint(pub(keys, 'ann'))} ssh-ed25519 ann@home, added ")
    removed = mykerinos("players", "remove", "Ben", fingerprint(pub(keys, "ben")), db=db)
    assert (removed.returncode, removed.stdout) == (0, "Ben: 1 key removed\n")
    key_line = pub(keys, "ann").read_text().split()[:2]
    removed = mykerinos("players", "remove", "Ann", *key_line, db=db)  # a key line, unquoted
    assert (removed.returncode, removed.stdout) == (0, "Ann: 1 key removed\n")
    listed = mykerinos("players", "list", db=db)
    assert listed.stdout == "No players known by their keys yet.\n"


def test_invite_prints_a_code_that_redeems(tmp_path, keys) -> None:
    """The code on its own line, then how a friend uses it; the code lets a key in."""
    db = tmp_path / "tables.db"
    invited = mykerinos("invite", "Cat", "--days", "2", db=db)
    assert invited.returncode == 0, invited.stderr
    code, hint = invited.stdout.splitlines()
    assert len(code) == 19 and set(code) <= set(CODE_ALPHABET + "-")
    assert "ssh -p 2222 " in hint and "type this code when asked" in hint and "2 days" in hint
    assert "Cat, valid until" in mykerinos("players", "list", db=db).stdout
    with Players(db) as players:
        assert players.redeem(code, pub(keys, "ann").read_text()) == "Cat"
    assert "Cat\n  SHA256:" in mykerinos("players", "list", db=db).stdout


def test_invite_tells_the_port_and_host_key_of_the_door_last_opened(tmp_path, keys) -> None:
    """Once a door has opened on the store, the hint gives its port and its host key's
    fingerprint (what the friend's ssh shows on first connecting), as ssh-keygen says it."""
    db = tmp_path / "tables.db"
    shutil.copy(pub(keys, "ben"), tmp_path / "ssh_host_ed25519_key.pub")  # any public key will do
    (tmp_path / "ssh_door.port").write_text("2022\n")
    invited = mykerinos("invite", "Cat", db=db)
    assert invited.returncode == 0, invited.stderr
    _code, hint, key_line = invited.stdout.splitlines()
    assert "ssh -p 2022 " in hint
    expected = subprocess.run(
        ["ssh-keygen", "-lf", str(pub(keys, "ben"))], capture_output=True, text=True, check=True
    ).stdout.split()[1]
    assert key_line.endswith(f": {expected}")


@pytest.mark.parametrize(
    ("written", "url"),
    [
        (None, None),
        ("https://games.example/mykerinos/\n", "https://games.example/mykerinos/"),
        ("http://127.0.0.1:8081", "http://127.0.0.1:8081/"),
        ("javascript:alert(1)\n", None),
        ("https://x.example/\x1b[2J/\n", None),
    ],
)
def test_invite_web_prints_a_link_that_redeems(tmp_path, written, url) -> None:
    """``invite --web``: the code, then the link on a line of its own, from the URL the
    web door wrote beside the store (a slash added if it lacks one), or this host's port
    8080 with a note saying so when there is none (or not a web address); the link's code
    signs a browser in, and the code no longer lets a key in."""
    db = tmp_path / "tables.db"
    if written is not None:
        (tmp_path / "web_door.url").write_text(written)
    invited = mykerinos("invite", "Cat", "--web", "--days", "3", db=db)
    assert invited.returncode == 0, invited.stderr
    code, link, hint, *note = invited.stdout.splitlines()
    assert len(code) == 19 and set(code) <= set(CODE_ALPHABET + "-")
    base = url or f"http://{socket.gethostname()}:8080/"
    assert link == f"{base}join?code={code}"
    assert "For Cat, once, for 3 days: opening the link signs one browser in" in hint
    if url is None:
        assert note == [
            "The link assumes `mykerinos serve --web 8080` on this host "
            "(no web door has opened on this store yet)."
        ]
    else:
        assert note == []
    with Players(db) as players:
        name, token = players.redeem_web(link.partition("?code=")[2])
        assert name == "Cat" and players.web_player(token) == "Cat"
    assert "Cat, valid until" not in mykerinos("players", "list", db=db).stdout


def test_players_list_shows_web_sessions(tmp_path, keys) -> None:
    """Each player by name, with their keys and how many browsers are signed in; a
    player known only by web sessions is listed too."""
    db = tmp_path / "tables.db"
    assert mykerinos("players", "add", "Ann", str(pub(keys, "ann")), db=db).returncode == 0
    with Players(db) as players:
        for name in ("Cat", "Ann", "Ann"):
            players.redeem_web(players.invite(name))
    listed = mykerinos("players", "list", db=db)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0] == "Ann" and lines[1].startswith(f"  {fingerprint(pub(keys, 'ann'))} ")
    assert lines[2:] == ["  2 web sessions", "Cat", "  1 web session"]


def test_players_remove_ends_web_sessions(tmp_path, keys) -> None:
    """A player with only web sessions is removed (signed out everywhere); one with a key
    and a session loses both; the same again has nothing left to remove."""
    db = tmp_path / "tables.db"
    assert mykerinos("players", "add", "Ann", str(pub(keys, "ann")), db=db).returncode == 0
    with Players(db) as players:
        tokens = [players.redeem_web(players.invite(name))[1] for name in ("Cat", "Cat", "Ann")]
    removed = mykerinos("players", "remove", "Cat", db=db)
    assert (removed.returncode, removed.stdout) == (0, "Cat: 2 web sessions ended\n")
    removed = mykerinos("players", "remove", "Ann", db=db)
    assert (removed.returncode, removed.stdout) == (0, "Ann: 1 key removed, 1 web session ended\n")
    with Players(db) as players:
        assert [players.web_player(token) for token in tokens] == [None] * 3
    one_line_error(mykerinos("players", "remove", "Cat", db=db), "Cat has no keys or web sessions")
    listed = mykerinos("players", "list", db=db)
    assert listed.stdout == "No players known by their keys yet.\n"


def test_web_session_names_are_printed_escaped(tmp_path) -> None:
    db = tmp_path / "tables.db"
    with Players(db) as players:
        players.redeem_web(players.invite("Eve"))
        players.store.db.execute("UPDATE web_sessions SET name = ?", ("\x1b[2JEve",))
    listed = mykerinos("players", "list", db=db)
    assert listed.returncode == 0 and "\x1b" not in listed.stdout
    assert listed.stdout == "\\x1b[2JEve\n  1 web session\n"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("players", "add", "Ann", "{private}"), "is a private key: give its .pub file"),
        (("players", "add", "Ann", "{missing}"), "cannot read the key file"),
        (("players", "add", "Ann", "{garbage}"), "line 1: 'hello' is not a key line"),
        (("players", "add", "Ann\u202e", "{public}"), "U+202E"),
        (("players", "add", "Ann"), "required: keyfile"),
        (("players", "remove", "Nobody"), "Nobody has no keys or web sessions here"),
        (("players", "remove", "Nobody", "SHA256:x"), "Nobody has no such key here"),
        (("players", "frob"), "invalid choice: 'frob'"),
        (("invite", "Cat", "--days", "0"), "at most 365 days"),
        (("invite", "Cat", "--days", "soon"), "invalid float value: 'soon'"),
    ],
)
def test_a_mistake_is_one_line_and_status_2(tmp_path, keys, args, words) -> None:
    """Bad key files, names, codes' days, commands: one line on stderr, never a traceback."""
    garbage = tmp_path / "garbage.pub"
    garbage.write_text("hello\n")
    paths = {
        "private": str(keys["ann"]),
        "missing": str(tmp_path / "nope.pub"),
        "garbage": str(garbage),
        "public": str(pub(keys, "ann")),
    }
    result = mykerinos(*(arg.format(**paths) for arg in args), db=tmp_path / "tables.db")
    one_line_error(result, words)


def test_a_key_of_someone_else_is_refused_naming_them(tmp_path, keys) -> None:
    db = tmp_path / "tables.db"
    assert mykerinos("players", "add", "Ann", str(pub(keys, "ann")), db=db).returncode == 0
    one_line_error(
        mykerinos("players", "add", "Ben", str(pub(keys, "ann")), db=db), "is already Ann's"
    )


def test_a_file_that_is_not_a_store_is_one_line(tmp_path) -> None:
    db = tmp_path / "tables.db"
    db.write_bytes(b"not a database at all" * 100)
    one_line_error(mykerinos("invite", "Cat", db=db), "cannot be the table store")


def test_a_store_failing_under_us_is_one_line_and_status_1(tmp_path) -> None:
    """Not a mistake of the host's (status 2) but of the store: one line saying so."""
    db = tmp_path / "tables.db"
    with Players(db) as players:
        players.store.db.execute("DROP TABLE player_keys")
    listed = mykerinos("players", "list", db=db)
    assert (listed.returncode, listed.stdout) == (1, "") and "Traceback" not in listed.stderr
    assert listed.stderr == ("mykerinos players: the store failed: no such table: player_keys\n"), (
        listed.stderr
    )


def test_names_and_comments_from_the_store_are_printed_escaped(tmp_path, keys) -> None:
    """A store written by hand with escape sequences in a name and a comment: the list
    shows them as text, sending none to the terminal."""
    db = tmp_path / "tables.db"
    assert mykerinos("players", "add", "Ann", str(pub(keys, "ann")), db=db).returncode == 0
    with sqlite3.connect(db) as store:
        store.execute("UPDATE player_keys SET name = ?, comment = ?", ("\x1b[2JEve", "\x1b]0;x\a"))
    listed = mykerinos("players", "list", db=db)
    assert listed.returncode == 0 and "\x1b" not in listed.stdout and "\a" not in listed.stdout
    assert "\\x1b[2JEve" in listed.stdout


def test_the_commands_work_while_a_server_runs_on_the_store(server, keys) -> None:
    """Add, invite, redeem, list and remove on the store the running server writes; the
    server keeps serving and stops cleanly, and its store opens again."""
    assert mykerinos("players", "add", "Ann", str(pub(keys, "ann")), db=server.db).returncode == 0
    code = mykerinos("invite", "Ben", db=server.db).stdout.splitlines()[0]
    with Players(server.db) as players:
        assert players.redeem(code, pub(keys, "ben").read_text()) == "Ben"
    listed = mykerinos("players", "list", db=server.db).stdout
    assert "Ann\n" in listed and "Ben\n" in listed
    status = subprocess.run(
        [*COMMAND, "status", "--socket", str(server.socket)],
        capture_output=True, text=True, cwd=ROOT, timeout=30,
    )  # fmt: skip
    assert status.returncode in (0, 1), status.stderr  # the server answers
    assert mykerinos("players", "remove", "Ann", db=server.db).returncode == 0
    assert server.process is not None and server.process.poll() is None
    server.stop()
    assert server.process.returncode == 0
    with Players(server.db) as players:
        assert [name for name, _ in players.list()] == ["Ben"]


def test_invite_into_a_pipe_closed_early_says_nothing_and_succeeds(tmp_path) -> None:
    """``mykerinos invite NAME | head -1``: the reader may be gone before the hint is
    written; the invitation stands, and nothing complains (a pipe whose reading end is
    already closed makes every write fail, as it does then)."""
    db = tmp_path / "tables.db"
    reading, writing = os.pipe()
    os.close(reading)
    try:
        result = subprocess.run(
            [*COMMAND, "invite", "Cat", "--web", "--db", str(db)],
            stdout=writing, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=30,
        )  # fmt: skip
    finally:
        os.close(writing)
    assert (result.returncode, result.stderr) == (0, "")
    assert "Cat, valid until" in mykerinos("players", "list", db=db).stdout


def test_a_player_named_like_a_login_of_this_host_is_said_to_be_that_login(tmp_path) -> None:
    """The names are one namespace at the tables: inviting "root" warns, and goes on."""
    db = tmp_path / "tables.db"
    invited = mykerinos("invite", "root", db=db)
    assert invited.returncode == 0
    assert "root is also a login on this host" in invited.stderr
    other = mykerinos("invite", "Nobody Here", db=db)
    assert other.returncode == 0 and other.stderr == ""
