"""Players known by their SSH keys, and one-time invitations (table.players), with real
keys made by ``ssh-keygen``: what a key line may be, whose a key is, and that a code lets
one key in once, never stored in clear."""

from __future__ import annotations

import base64
import re
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from table.players import (
    CODE_ALPHABET,
    CODE_GROUP_LENGTH,
    CODE_GROUPS,
    DAY,
    Key,
    Players,
    PlayersError,
    parse_keys,
)
from table.store import MIGRATIONS, TableStore

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="no ssh-keygen")

KINDS = {
    "ed25519": ["-t", "ed25519"],
    "ed25519b": ["-t", "ed25519"],
    "rsa": ["-t", "rsa", "-b", "3072"],
    "rsa1024": ["-t", "rsa", "-b", "1024"],
    "ecdsa256": ["-t", "ecdsa", "-b", "256"],
    "ecdsa384": ["-t", "ecdsa", "-b", "384"],
    "ecdsa521": ["-t", "ecdsa", "-b", "521"],
}
NOW = 1_800_000_000.0


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, Path]:
    """A key of each kind, made once: name → the .pub file."""
    folder = tmp_path_factory.mktemp("keys")
    made = {}
    for name, options in KINDS.items():
        path = folder / name
        subprocess.run(
            ["ssh-keygen", *options, "-N", "", "-C", f"{name}@test", "-f", str(path), "-q"],
            check=True,
        )
        made[name] = path.with_suffix(".pub")
    return made


def text(keys: dict[str, Path], name: str) -> str:
    return keys[name].read_text()


def openssh_fingerprint(path: Path) -> str:
    out = subprocess.run(["ssh-keygen", "-lf", str(path)], capture_output=True, text=True)
    return out.stdout.split()[1]


@pytest.fixture
def players(tmp_path) -> Iterator[Players]:
    with Players(tmp_path / "data" / "tables.db") as opened:
        yield opened


class TestKeyLines:
    @pytest.mark.parametrize("kind", ["ed25519", "rsa", "ecdsa256", "ecdsa384", "ecdsa521"])
    def test_a_real_key_parses_with_openssh_fingerprint(self, keys, kind) -> None:
        """Each kind of key a player may use parses, its fingerprint as ssh-keygen -l."""
        (key,) = parse_keys(text(keys, kind))
        type_, encoded, comment = text(keys, kind).split()
        assert key.line == f"{type_} {encoded}" and key.comment == comment == f"{kind}@test"
        assert key.fingerprint == openssh_fingerprint(keys[kind])
        assert Key.parse(str(key)) == key and key.kind == type_

    def test_comments_and_blank_lines_are_skipped(self, keys) -> None:
        """A file of several keys with comments and blank lines gives its keys, in order."""
        file = f"# ann's keys\n\n{text(keys, 'ed25519')}\n  \n{text(keys, 'rsa')}"
        assert [key.kind for key in parse_keys(file)] == ["ssh-ed25519", "ssh-rsa"]

    def test_a_key_without_comment(self, keys) -> None:
        line = " ".join(text(keys, "ed25519").split()[:2])
        assert Key.parse(line).comment == ""

    @pytest.mark.parametrize(
        ("line", "words"),
        [
            ("ssh-dss AAAAB3NzaC1kc3M=", "not a key type"),
            ('command="ls" ssh-ed25519 AAAA', "not a key type"),
            ("ssh-ed25519", "not a key line"),
            ("ssh-ed25519 not*base64!", "not valid base64"),
            ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA==", "cut short"),
            ("ssh-ed25519 " + base64.b64encode(b"\0\0\0\x0bssh-ed25519").decode(), "not 32"),
        ],
    )
    def test_bad_lines_are_refused_in_words(self, line, words) -> None:
        """Unknown types, options, missing or broken base64, truncated blobs: a sentence."""
        with pytest.raises(PlayersError, match=words):
            Key.parse(line)

    def test_a_blob_of_another_type_than_its_line_is_refused(self, keys) -> None:
        encoded = text(keys, "ed25519").split()[1]
        with pytest.raises(PlayersError, match="says it is 'ssh-ed25519', its line says ssh-rsa"):
            Key.parse(f"ssh-rsa {encoded}")

    def test_a_weak_rsa_key_is_refused(self, keys) -> None:
        with pytest.raises(PlayersError, match="1024 bits"):
            parse_keys(text(keys, "rsa1024"))

    def test_the_bad_line_is_named_and_an_empty_file_refused(self, keys) -> None:
        with pytest.raises(PlayersError, match=r"^line 4: "):
            parse_keys(f"{text(keys, 'ed25519')}\n\nssh-ed25519 !!")
        with pytest.raises(PlayersError, match="no public key"):
            parse_keys("# nothing\n\n")

    def test_a_hostile_line_is_quoted_escaped(self) -> None:
        with pytest.raises(PlayersError) as caught:
            Key.parse("\x1b[31mssh-evil AAAA")
        assert "\x1b" not in str(caught.value) and "\\x1b" in str(caught.value)


class TestKeysOfPlayers:
    def test_add_list_and_whose(self, players, keys) -> None:
        """Added keys are listed by player, and a presented key (line or blob) finds them."""
        added = players.add(" Ann ", text(keys, "ed25519") + text(keys, "rsa"), now=NOW)
        players.add("Ben", text(keys, "ecdsa256"), now=NOW + 1)
        assert [(name, [k.kind for k in ks]) for name, ks in players.list()] == [
            ("Ann", ["ssh-ed25519", "ssh-rsa"]),
            ("Ben", ["ecdsa-sha2-nistp256"]),
        ]
        assert players.list()[0][1] == added and added[0].added == NOW
        assert players.player_of(text(keys, "rsa")) == "Ann"
        assert players.player_of(added[0].line) == "Ann"
        assert players.player_of(added[0].blob) == "Ann"
        assert players.player_of(text(keys, "ecdsa384")) is None
        assert players.player_of("garbage") is None and players.player_of(b"\0\0") is None

    def test_a_key_of_another_player_is_refused_naming_them(self, players, keys) -> None:
        """The whole file is refused, and nothing of it is added."""
        players.add("Ann", text(keys, "ed25519"))
        with pytest.raises(PlayersError, match="already Ann's"):
            players.add("Ben", text(keys, "rsa") + text(keys, "ed25519"))
        assert [name for name, _ in players.list()] == ["Ann"]

    def test_the_same_key_twice_for_the_same_player_is_fine(self, players, keys) -> None:
        players.add("Ann", text(keys, "ed25519"), now=NOW)
        players.add("Ann", text(keys, "ed25519") * 2, now=NOW + 5)
        ((_, ann),) = players.list()
        assert len(ann) == 1 and ann[0].added == NOW

    def test_a_bad_name_is_refused(self, players, keys) -> None:
        for name in ("", "   ", "Ann\u202e", "x" * 41):
            with pytest.raises(PlayersError):
                players.add(name, text(keys, "ed25519"))
        assert players.list() == []

    def test_remove_one_by_fingerprint_or_line_then_all(self, players, keys) -> None:
        ann = players.add("Ann", "".join(text(keys, k) for k in ("ed25519", "rsa", "ecdsa256")))
        assert players.remove("Ann", ann[0].fingerprint) == 1
        assert players.remove("Ann", text(keys, "rsa")) == 1  # the comment does not matter
        assert players.remove("Ben", ann[2].fingerprint) == 0  # not Ben's
        assert players.remove("Ann", ann[0].fingerprint) == 0  # gone already
        players.add("Ben", text(keys, "ed25519b"))
        assert players.remove("Ann") == 1
        assert [name for name, _ in players.list()] == ["Ben"]

    def test_removing_a_player_cancels_their_invitations(self, players, keys) -> None:
        players.add("Ann", text(keys, "ed25519"))
        code = players.invite("Ann", now=NOW)
        players.remove("Ann")
        with pytest.raises(PlayersError, match="not an invitation"):
            players.redeem(code, text(keys, "rsa"), now=NOW)


class TestInvitations:
    def test_a_code_lets_one_key_in_once(self, players, keys) -> None:
        """Redeemed: the key is the player's; the same code again is refused, with when."""
        code = players.invite("Cat", now=NOW)
        assert re.fullmatch(
            "-".join([f"[{CODE_ALPHABET}]{{{CODE_GROUP_LENGTH}}}"] * CODE_GROUPS), code
        )
        assert players.redeem(code, text(keys, "ed25519"), now=NOW + 60) == "Cat"
        assert players.player_of(text(keys, "ed25519")) == "Cat"
        with pytest.raises(PlayersError, match="already used on 20"):
            players.redeem(code, text(keys, "rsa"), now=NOW + 120)
        assert players.player_of(text(keys, "rsa")) is None
        assert players.invitations(now=NOW) == []

    def test_a_code_is_typed_loosely(self, players, keys) -> None:
        """Lower case, spaces instead of dashes: the same code."""
        code = players.invite("Cat", now=NOW)
        typed = code.lower().replace("-", " ")
        assert players.redeem(typed, text(keys, "ed25519"), now=NOW) == "Cat"

    def test_a_wrong_code_is_refused(self, players, keys) -> None:
        players.invite("Cat", now=NOW)
        with pytest.raises(PlayersError, match="not an invitation code"):
            players.redeem("AAAA-BBBB-CCCC-DDDD", text(keys, "ed25519"), now=NOW)

    def test_an_expired_code_is_refused(self, players, keys) -> None:
        code = players.invite("Cat", days=2, now=NOW)
        assert [i.name for i in players.invitations(now=NOW + DAY)] == ["Cat"]
        with pytest.raises(PlayersError, match="expired on 20"):
            players.redeem(code, text(keys, "ed25519"), now=NOW + 2 * DAY)
        assert players.invitations(now=NOW + 2 * DAY) == []

    def test_a_key_of_someone_else_leaves_the_code_unused(self, players, keys) -> None:
        players.add("Ann", text(keys, "ed25519"))
        code = players.invite("Cat", now=NOW)
        with pytest.raises(PlayersError, match="already Ann's"):
            players.redeem(code, text(keys, "ed25519"), now=NOW)
        assert players.redeem(code, keys["rsa"].read_bytes().decode(), now=NOW) == "Cat"

    def test_a_key_blob_is_redeemed_as_its_line(self, players, keys) -> None:
        code = players.invite("Cat", now=NOW)
        (key,) = parse_keys(text(keys, "ecdsa521"))
        assert players.redeem(code, key.blob, now=NOW) == "Cat"
        assert players.player_of(text(keys, "ecdsa521")) == "Cat"

    def test_bad_days_are_refused(self, players) -> None:
        for days in (0, -1, 366, float("nan")):
            with pytest.raises(PlayersError, match="days"):
                players.invite("Cat", days=days)

    def test_codes_have_enough_entropy(self) -> None:
        assert len(set(CODE_ALPHABET)) ** (CODE_GROUPS * CODE_GROUP_LENGTH) >= 2**60
        assert not set(CODE_ALPHABET) & set("01OIL")

    def test_codes_are_never_stored_in_clear(self, tmp_path, keys) -> None:
        """Neither the code nor its characters without dashes are in the store's files."""
        path = tmp_path / "tables.db"
        with Players(path) as players:
            codes = [players.invite("Cat", now=NOW) for _ in range(3)]
            players.redeem(codes[0], text(keys, "ed25519"), now=NOW)
            stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
        for code in codes:
            for form in (code, code.replace("-", ""), code.lower()):
                assert form.encode() not in stored

    def test_two_doors_redeeming_one_code_at_once_one_wins(self, tmp_path, keys) -> None:
        """Two Players on one file, in two threads, the same code: exactly one key gets in."""
        path = tmp_path / "tables.db"
        lines = [text(keys, "ed25519"), text(keys, "rsa")]
        for _ in range(5):
            with Players(path) as host:
                code = host.invite("Cat", now=NOW)
            results = race(path, code, lines)
            assert results.count("Cat") == 1
            assert sum("already used" in result for result in results) == 1
            with Players(path) as host:
                assert [host.player_of(line) for line in lines].count("Cat") == 1
                host.remove("Cat")


def race(path: Path, code: str, lines: list[str]) -> list[str]:
    """What each of ``len(lines)`` doors says, redeeming ``code`` with its key at once."""
    doors = [Players(path) for _ in lines]
    start = threading.Barrier(len(lines))
    results: list[str] = []

    def redeem(door: Players, line: str) -> None:
        start.wait()
        try:
            results.append(door.redeem(code, line, now=NOW))
        except PlayersError as exc:
            results.append(str(exc))

    threads = [
        threading.Thread(target=redeem, args=pair) for pair in zip(doors, lines, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for door in doors:
        door.close()
    return results


class TestStore:
    def test_a_store_of_schema_7_is_migrated_and_keeps_its_tables(self, tmp_path) -> None:
        path = tmp_path / "tables.db"
        with sqlite3.connect(path) as db:
            for migration in MIGRATIONS[:7]:
                for statement in migration.split(";"):
                    if statement.strip():
                        db.execute(statement)
            db.execute("PRAGMA user_version = 7")
            db.execute("INSERT INTO tables (title, seed, created, updated) VALUES ('t', 5, 0, 0)")
        with Players(path) as players:
            assert players.list() == []
            (version,) = players.db.execute("PRAGMA user_version").fetchone()
            assert version == len(MIGRATIONS) == 8
        store = TableStore(path)
        try:
            assert [row.title for row in store.tables()] == ["t"]
        finally:
            store.close()

    def test_a_file_that_is_not_a_store_is_refused_in_words(self, tmp_path) -> None:
        path = tmp_path / "tables.db"
        path.write_bytes(b"not a database at all" * 100)
        with pytest.raises(PlayersError, match="cannot be the table store"):
            Players(path)
