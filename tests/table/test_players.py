"""Players known by their SSH keys or their browsers' web sessions, and one-time
invitations (table.host.players), with real keys made by ``ssh-keygen``: what a key line may be,
whose a key is, that a code lets one key or one browser in once, never stored in clear,
and whose a web session's token is while it lasts."""

from __future__ import annotations

import base64
import re
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest

import table.host.players as players_module
from table.host.players import (
    CODE_ALPHABET,
    CODE_GROUP_LENGTH,
    CODE_GROUPS,
    DAY,
    MAX_WEB_TOKEN,
    WEB_SESSION_DAYS,
    Key,
    Players,
    PlayersError,
    Removed,
    parse_keys,
    token_hash,
)
from table.store import (
    MIGRATIONS,
    InvitationRow,
    KeyRow,
    PlayerStore,
    StoreBusy,
    StoreError,
    TableStore,
)

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
        assert players.remove("Ann", ann[0].fingerprint).keys == 1
        assert players.remove("Ann", text(keys, "rsa")).keys == 1  # the comment does not matter
        assert players.remove("Ben", ann[2].fingerprint).keys == 0  # not Ben's
        assert players.remove("Ann", ann[0].fingerprint).keys == 0  # gone already
        players.add("Ben", text(keys, "ed25519b"))
        assert players.remove("Ann").keys == 1
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


class TestWebSessions:
    def test_a_code_signs_a_browser_in_and_binds_no_key(self, players, keys) -> None:
        """redeem_web: the invited name and a fresh urlsafe token that is theirs; no key
        is bound, the code is used up by "web", and no longer lets a key (or a browser) in."""
        code = players.invite("Cat", now=NOW)
        name, token = players.redeem_web(code, now=NOW + 60)
        assert name == "Cat" and re.fullmatch(r"[A-Za-z0-9_-]{43}", token)
        assert players.web_player(token, now=NOW + 61) == "Cat"
        assert players.list() == [] and players.invitations(now=NOW) == []
        used = players.store.db.execute("SELECT used_at, used_by_key FROM invitations").fetchall()
        assert used == [(NOW + 60, "web")]
        with pytest.raises(PlayersError, match="already used on 20"):
            players.redeem(code, text(keys, "ed25519"), now=NOW + 120)
        assert players.player_of(text(keys, "ed25519")) is None
        with pytest.raises(PlayersError, match="already used on 20"):
            players.redeem_web(code, now=NOW + 120)
        assert players.web_sessions(now=NOW + 120) == [("Cat", 1)]

    def test_a_code_a_key_used_lets_no_browser_in(self, players, keys) -> None:
        code = players.invite("Cat", now=NOW)
        assert players.redeem(code, text(keys, "ed25519"), now=NOW) == "Cat"
        with pytest.raises(PlayersError, match="already used on 20"):
            players.redeem_web(code, now=NOW + 1)
        assert players.web_sessions(now=NOW + 1) == []

    def test_wrong_and_expired_codes_are_refused_in_words(self, players) -> None:
        """Nothing is opened for them; a code typed loosely is the same code."""
        code = players.invite("Cat", days=2, now=NOW)
        with pytest.raises(PlayersError, match="not an invitation code"):
            players.redeem_web("AAAA-BBBB-CCCC-DDDD", now=NOW)
        with pytest.raises(PlayersError, match="expired on 20"):
            players.redeem_web(code, now=NOW + 2 * DAY)
        assert players.store.db.execute("SELECT COUNT(*) FROM web_sessions").fetchone() == (0,)
        assert players.redeem_web(code.lower().replace("-", " "), now=NOW)[0] == "Cat"

    def test_a_session_lasts_its_days_then_is_nobodys(self, players) -> None:
        _, token = players.redeem_web(players.invite("Cat", now=NOW), now=NOW)
        last = NOW + WEB_SESSION_DAYS * DAY
        assert players.web_player(token, now=last - 1) == "Cat"
        assert players.web_sessions(now=last - 1) == [("Cat", 1)]
        assert players.web_player(token, now=last) is None
        assert players.web_sessions(now=last) == []
        assert players.web_player(token) == "Cat"  # the clock, for the default

    def test_expired_sessions_are_cleared_by_the_next_sign_in(self, players) -> None:
        players.redeem_web(players.invite("Cat", now=NOW), now=NOW)
        _, kept = players.redeem_web(players.invite("Ann", now=NOW), now=NOW + DAY)
        later = NOW + WEB_SESSION_DAYS * DAY
        players.redeem_web(players.invite("Ben", now=later), now=later)
        names = players.store.db.execute("SELECT name FROM web_sessions ORDER BY name").fetchall()
        assert names == [("Ann",), ("Ben",)] and players.web_player(kept, now=later) == "Ann"

    def test_tokens_that_are_nobodys(self, players) -> None:
        """Made up, empty, not text a browser sends, or too long: None, and a token over
        MAX_WEB_TOKEN characters is not looked up at all (even when a hash of it is there)."""
        players.redeem_web(players.invite("Cat", now=NOW), now=NOW)
        long = "x" * (MAX_WEB_TOKEN + 1)
        players.store.db.execute(
            "INSERT INTO web_sessions VALUES (?, 'Eve', ?, ?)", (token_hash(long), NOW, NOW + DAY)
        )
        statements: list[str] = []
        players.store.db.set_trace_callback(statements.append)
        assert players.web_player(long, now=NOW) is None
        players.end_web_session(long)
        assert statements == []
        for token in ("", "nobody's", "\ud800\x00", "é" * MAX_WEB_TOKEN):
            assert players.web_player(token, now=NOW) is None
        assert players.web_sessions(now=NOW) == [("Cat", 1), ("Eve", 1)]

    def test_signing_out_ends_that_session_only(self, players) -> None:
        _, first = players.redeem_web(players.invite("Cat", now=NOW), now=NOW)
        _, second = players.redeem_web(players.invite("Cat", now=NOW), now=NOW)
        assert first != second and players.web_sessions(now=NOW) == [("Cat", 2)]
        players.end_web_session(first)
        assert players.web_player(first, now=NOW) is None
        assert players.web_player(second, now=NOW) == "Cat"
        players.end_web_session(first)  # again: no error
        players.end_web_session("made up")
        assert players.web_sessions(now=NOW) == [("Cat", 1)]

    def test_removing_a_player_ends_their_sessions(self, players, keys) -> None:
        """remove(name) signs every browser of the player out and still counts keys;
        removing one key leaves the sessions; a player with only sessions counts them."""
        players.add("Ann", text(keys, "ed25519"))
        _, ann = players.redeem_web(players.invite("Ann", now=NOW), now=NOW)
        _, ben = players.redeem_web(players.invite("Ben", now=NOW), now=NOW)
        assert players.remove("Ann", text(keys, "ed25519")).keys == 1
        assert players.web_player(ann, now=NOW) == "Ann"
        players.add("Ann", text(keys, "ed25519"))
        assert players.remove("Ann").keys == 1
        assert players.web_player(ann, now=NOW) is None
        assert players.web_player(ben, now=NOW) == "Ben"
        assert players.remove("Ben", now=NOW) == Removed(keys=0, web_sessions=1)
        assert players.web_player(ben, now=NOW) is None
        assert players.remove("Ben", now=NOW) == Removed(keys=0, web_sessions=0)

    def test_an_expired_session_is_removed_uncounted(self, players) -> None:
        players.redeem_web(players.invite("Cat", now=NOW), now=NOW)
        later = NOW + WEB_SESSION_DAYS * DAY
        assert players.remove("Cat", now=later) == Removed(keys=0, web_sessions=0)
        assert players.store.db.execute("SELECT COUNT(*) FROM web_sessions").fetchone() == (0,)

    def test_tokens_are_never_stored_in_clear(self, tmp_path) -> None:
        path = tmp_path / "tables.db"
        with Players(path) as players:
            tokens = [players.redeem_web(players.invite("Cat"))[1] for _ in range(3)]
            stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
            assert [players.web_player(token) for token in tokens] == ["Cat"] * 3
        for token in tokens:
            assert token.encode() not in stored

    def test_two_browsers_redeeming_one_code_at_once_one_wins(self, tmp_path) -> None:
        """Two Players on one file, in two threads, the same code: exactly one session."""
        path = tmp_path / "tables.db"
        for _ in range(5):
            with Players(path) as host:
                code = host.invite("Cat", now=NOW)
            results = race_calls(path, [partial(Players.redeem_web, code=code, now=NOW)] * 2)
            won = [result for result in results if isinstance(result, tuple)]
            assert len(won) == 1 and won[0][0] == "Cat"
            assert sum("already used" in str(result) for result in results) == 1
            with Players(path) as host:
                assert host.web_sessions(now=NOW) == [("Cat", 1)]
                assert host.web_player(won[0][1], now=NOW) == "Cat"
                host.remove("Cat")

    def test_a_browser_and_a_key_redeeming_one_code_at_once_one_wins(self, tmp_path, keys) -> None:
        path = tmp_path / "tables.db"
        line = text(keys, "ed25519")
        for _ in range(5):
            with Players(path) as host:
                code = host.invite("Cat", now=NOW)
            web = partial(Players.redeem_web, code=code, now=NOW)
            results = race_calls(path, [web, partial(Players.redeem, code=code, key=line)])
            assert sum("already used" in str(result) for result in results) == 1
            with Players(path) as host:
                bound = host.player_of(line) == "Cat"
                assert bound + len(host.web_sessions(now=NOW)) == 1
                host.remove("Cat")


def race_calls(path: Path, calls: list[Callable[[Players], object]]) -> list[object]:
    """What each call returns (or its PlayersError), each made at once on its own
    Players of ``path`` in its own thread."""
    doors = [Players(path) for _ in calls]
    start = threading.Barrier(len(calls))
    results: list[object] = []

    def run(door: Players, call: Callable[[Players], object]) -> None:
        start.wait()
        try:
            results.append(call(door))
        except PlayersError as exc:
            results.append(exc)

    threads = [threading.Thread(target=run, args=pair) for pair in zip(doors, calls, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for door in doors:
        door.close()
    assert len(results) == len(calls), results
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
            (version,) = players.store.db.execute("PRAGMA user_version").fetchone()
            assert version == len(MIGRATIONS)
        store = TableStore(path)
        try:
            assert [row.title for row in store.tables()] == ["t"]
        finally:
            store.close()

    def test_a_store_of_schema_8_is_migrated_and_keeps_keys_and_invitations(
        self, tmp_path, keys
    ) -> None:
        """Schema 9 adds the web sessions: the keys and invitations a host already made
        stay, an unused code signs a browser in, a used one stays used."""
        path = tmp_path / "tables.db"
        with Players(tmp_path / "made.db") as made:  # rows as schema 8 wrote them
            made.add("Ann", text(keys, "ed25519"), now=NOW)
            fresh, spent = made.invite("Cat", now=NOW), made.invite("Dan", now=NOW)
            made.redeem(spent, text(keys, "rsa"), now=NOW)
            rows = {
                table: made.store.db.execute(f"SELECT * FROM {table}").fetchall()
                for table in ("player_keys", "invitations")
            }
        with sqlite3.connect(path) as db:
            for migration in MIGRATIONS[:8]:
                for statement in migration.split(";"):
                    if statement.strip():
                        db.execute(statement)
            db.execute("PRAGMA user_version = 8")
            db.executemany("INSERT INTO player_keys VALUES (?, ?, ?, ?, ?)", rows["player_keys"])
            db.executemany("INSERT INTO invitations VALUES (?, ?, ?, ?, ?, ?)", rows["invitations"])
        db.close()
        with Players(path) as players:
            (version,) = players.store.db.execute("PRAGMA user_version").fetchone()
            assert version == len(MIGRATIONS) >= 9
            assert players.player_of(text(keys, "ed25519")) == "Ann"
            assert players.player_of(text(keys, "rsa")) == "Dan"
            assert [i.name for i in players.invitations(now=NOW)] == ["Cat"]
            assert players.web_sessions(now=NOW) == []
            with pytest.raises(PlayersError, match="already used"):
                players.redeem_web(spent, now=NOW)
            name, token = players.redeem_web(fresh, now=NOW)
            assert name == "Cat" and players.web_player(token, now=NOW) == "Cat"
            indexes = players.store.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'web_sessions'"
            ).fetchall()
            assert ("web_sessions_by_name",) in indexes

    def test_a_file_that_is_not_a_store_is_refused_in_words(self, tmp_path) -> None:
        path = tmp_path / "tables.db"
        path.write_bytes(b"not a database at all" * 100)
        with pytest.raises(PlayersError, match="cannot be the table store"):
            Players(path)

    def test_a_busy_store_is_said_in_words_and_nothing_is_half_done(
        self, tmp_path, keys, monkeypatch
    ) -> None:
        """Another process holding the write lock past the busy timeout: a PlayersError
        saying so, the code still unused; once the lock is let go, the same call works."""
        monkeypatch.setattr(players_module, "BUSY_TIMEOUT", 0.05)
        path = tmp_path / "tables.db"
        with Players(path) as players:
            code = players.invite("Cat", now=NOW)
            holder = sqlite3.connect(path, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            with pytest.raises(PlayersError, match=r"^the store is busy \(.*\); try again$"):
                players.redeem(code, text(keys, "ed25519"), now=NOW)
            assert players.invitations(now=NOW)[0].name == "Cat"  # readers are not held
            holder.execute("ROLLBACK")
            holder.close()
            assert players.redeem(code, text(keys, "ed25519"), now=NOW) == "Cat"

    def test_a_store_failing_under_us_is_a_store_error(self, tmp_path, keys) -> None:
        """Not the host's mistake, so not a PlayersError: the command says the store
        failed; the transaction it broke is rolled back, and the next one begins."""
        with Players(tmp_path / "tables.db") as players:
            code = players.invite("Cat", now=NOW)
            players.store.db.execute("DROP TABLE player_keys")
            with pytest.raises(StoreError, match="no such table: player_keys"):
                players.redeem(code, text(keys, "ed25519"), now=NOW)
            assert not players.store.db.in_transaction
            assert [i.name for i in players.invitations(now=NOW)] == ["Cat"]
            assert players.invite("Dan", now=NOW)


class TestPlayerStore:
    """The store's side alone: rows in, rows out, one transaction all or nothing."""

    def test_rows_round_trip(self, tmp_path) -> None:
        store = PlayerStore(tmp_path / "tables.db")
        try:
            row = KeyRow("Ann", "ssh-ed25519 AAAA", "SHA256:x", "ann@home", NOW)
            store.add_key(row)
            store.add_key(row._replace(name="Ben"))  # kept as it was
            assert store.player_keys() == [row] and store.key_owner(row.line) == "Ann"
            store.add_invitation("h", "Cat", NOW, NOW + DAY)
            assert store.invitation("h") == InvitationRow("Cat", NOW, NOW + DAY, None)
            assert store.use_invitation("h", NOW + 1, "web")
            assert not store.use_invitation("h", NOW + 2, "web")
            assert store.invitation("h") == InvitationRow("Cat", NOW, NOW + DAY, NOW + 1)
            assert store.open_invitations(NOW) == [] and store.invitation("g") is None
            store.add_web_session("t", "Cat", NOW, NOW + DAY)
            store.add_web_session("u", "Cat", NOW, NOW + 1)
            assert store.web_sessions(NOW) == [("Cat", 2)]
            assert store.web_session_player("u", NOW + 1) is None
            assert store.end_web_sessions("Cat", NOW + 1) == 1
            assert store.web_sessions(NOW) == []
        finally:
            store.close()

    def test_a_transaction_is_all_or_nothing(self, tmp_path) -> None:
        store = PlayerStore(tmp_path / "tables.db")
        try:
            with pytest.raises(RuntimeError), store.transaction():
                store.add_invitation("h", "Cat", NOW, NOW + DAY)
                raise RuntimeError("a check further on failed")
            assert store.invitation("h") is None and not store.db.in_transaction
            with store.transaction():
                store.add_invitation("h", "Cat", NOW, NOW + DAY)
            assert store.invitation("h") is not None
        finally:
            store.close()

    def test_a_transaction_waits_its_busy_timeout_then_says_busy(self, tmp_path) -> None:
        path = tmp_path / "tables.db"
        store = PlayerStore(path, busy_timeout=0.05)
        holder = sqlite3.connect(path, isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            with pytest.raises(StoreBusy), store.transaction():
                pytest.fail("ran without the write lock")
            assert not store.db.in_transaction
        finally:
            holder.close()
            store.close()
