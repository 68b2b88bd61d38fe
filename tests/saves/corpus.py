"""A corpus of hostile save files, one per kind, for every layer that reads a save folder.

:data:`CASES` lists them: each has an id, a function that writes it, and the words its
error must hold (None for a file that is hostile but valid: markup in every name, extreme
times..., which must load and show as written). :func:`write_case` puts one into a save
folder under a given name, so the saves tests, the command line tests and the load screen
tests can all parametrize over the same list::

    @pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
    def test_x(tmp_path, case):
        path = write_case(case, tmp_path / "saves", "bad")
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import os
import random
import stat
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import core
import saves
from saves import format as save_format

Document = dict[str, Any]
Maker = Callable[[Path], None]


@dataclass(frozen=True)
class Case:
    """One kind of hostile file: ``make(path)`` writes it at ``path`` (a ``.json`` path in
    an existing folder); ``words`` must be in its error, None when it must load."""

    id: str
    make: Maker
    words: str | None

    @property
    def loads(self) -> bool:
        return self.words is None


# ---------------------------------------------------------------- the good document


def _seats() -> list[saves.SeatConfig]:
    colours = list(core.Colour)
    return [
        saves.SeatConfig(n, c, "human") for n, c in zip(("Ann", "Bob", "Cy"), colours, strict=False)
    ]


@functools.cache
def _document_bytes(actions: int | None) -> bytes:
    """A valid save of a 3-player game after ``actions`` random actions (None: to the end)."""
    seats = _seats()
    state = core.new_game(3, 11, names=[s.name for s in seats], colours=[s.colour for s in seats])
    rng, log = random.Random(3), list[core.Action]()
    while not core.is_over(state) and (actions is None or len(log) < actions):
        log.append(rng.choice(core.legal_actions(state)))
        state = core.apply_action(state, log[-1])
    when = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    save = saves.SaveFile(
        format=saves.FORMAT,
        version=saves.VERSION,
        title="Ann, Bob, Cy (01 Jan 2026 12:00)",
        seed=11,
        players=seats,
        actions=log,
        created=when,
        updated=when,
    )
    return save_format.encode(save)


def good_document(actions: int | None = 12) -> Document:
    """A fresh copy of the JSON object of a valid save (see :func:`_document_bytes`)."""
    document: Document = json.loads(_document_bytes(actions))
    return copy.deepcopy(document)


def good_bytes() -> bytes:
    return _document_bytes(12)


# ---------------------------------------------------------------- makers


def _raw(data: bytes | Callable[[], bytes]) -> Maker:
    def make(path: Path) -> None:
        path.write_bytes(data() if callable(data) else data)

    return make


_DEEP = "<deep>"
_DEEP_TEXT = "[" * 100_000 + "]" * 100_000


def _dumps(document: Document) -> bytes:
    """Compact JSON, with ``"<deep>"`` standing for a list nested 100 000 deep."""
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    return text.replace(f'"{_DEEP}"', _DEEP_TEXT).encode("utf-8", "surrogatepass")


def _edit(change: Callable[[Document], object], actions: int | None = 12) -> Maker:
    def make(path: Path) -> None:
        document = good_document(actions)
        change(document)
        path.write_bytes(_dumps(document))

    return make


def _set(key: str, value: object) -> Maker:
    return _edit(lambda d: d.__setitem__(key, value))


def _player(index: int, **fields: object) -> Maker:
    return _edit(lambda d: d["players"][index].update(fields))


def _name(name: str) -> Maker:
    return _player(0, name=name)


def _names(*names: str) -> Maker:
    def rename(document: Document) -> None:
        for player, name in zip(document["players"], names, strict=True):
            player["name"] = name

    return _edit(rename)


def _action(index: int, **fields: object) -> Maker:
    return _edit(lambda d: d["actions"][index].update(fields))


def _append_action(action: object, actions: int | None = 12) -> Maker:
    return _edit(lambda d: d["actions"].append(action), actions)


def _replace_bytes(old: bytes, new: bytes) -> Maker:
    return _raw(lambda: good_bytes().replace(old, new, 1))


def _encoded(codec: str) -> Maker:
    return _raw(lambda: good_bytes().decode().encode(codec))


def _nested(depth: int) -> list[object]:
    nested: list[object] = []
    for _ in range(depth):
        nested = [nested]
    return nested


def _illegal(document: Document) -> None:
    # Excavating the space just excavated is never legal.
    document["actions"] += [dict(document["actions"][-1])] * 2


def _huge_lemon(path: Path) -> None:
    """A Lemon action of 1.9 million spaces: 3.8 MB, just under the size cap."""
    head = good_bytes().rstrip(b"\n")
    spaces = b"[" + b"1," * 1_899_999 + b"1]"
    action = b'{"type":"lemon","spaces":' + spaces + b"}"
    path.write_bytes(head.replace(b'"actions":[', b'"actions":[' + action + b",", 1))


def _sparse(size: int) -> Maker:
    def make(path: Path) -> None:
        with path.open("wb") as file:
            file.write(good_bytes())
            file.truncate(size)

    return make


def _symlink_out(path: Path) -> None:
    outside = path.parent.parent / "outside.json"
    outside.write_bytes(good_bytes())
    os.symlink(outside, path)


def _symlink_in(path: Path) -> None:
    target = path.parent / "target-of-link.json"
    target.write_bytes(good_bytes())
    os.symlink(target.name, path)


def _symlink_loop(path: Path) -> None:
    os.symlink(f"{path.stem}-loop.json", path)
    os.symlink(path.name, path.with_name(f"{path.stem}-loop.json"))


def _node(kind: int) -> Maker:
    return lambda path: os.mknod(path, kind | 0o600)


def _version_0(moves: list[object]) -> Maker:
    """A save in the prototype format 0 (see saves.migrations) with these moves."""
    players = [{"name": n, "colour": c, "computer": None} for n, c in (("A", "blue"), ("B", "red"))]
    document = {"format": "mykerinos-save", "version": 0, "seed": 1, "players": players}
    return _raw(_dumps({**document, "moves": moves, "saved": "2025-01-01T00:00:00Z"}))


def _line(text: str = "good game", **fields: object) -> dict[str, object]:
    """A line of a shared table's journal as a save keeps it (a note, or chat with a name)."""
    return {"seq": 2, "at": 1767268800.0, "text": text, **fields}


def _lines(*lines: dict[str, object]) -> Maker:
    return _set("lines", list(lines))


def _standins(count: int, level: object = "normal") -> Maker:
    return _set("standins", [level] + [None] * (count - 1))


def _timestamp(value: object) -> Maker:
    return _edit(lambda d: d.update(created=value, updated=value))


# ---------------------------------------------------------------- the corpus

CASES: list[Case] = [
    # bytes and encodings
    Case("truncated", _raw(lambda: good_bytes()[:150]), "truncated"),
    Case("empty", _raw(b""), "truncated"),
    Case("whitespace-only", _raw(b"  \n\t "), "truncated"),
    Case("not-json", _raw(b"Mykerinos, season 2, Ann leads\n"), "not valid JSON"),
    Case("binary", _raw(bytes(range(256))), "not valid JSON"),
    Case("nul-bytes", _raw(b"\x00" * 64), "not valid JSON"),
    Case("raw-nul-in-string", _replace_bytes(b'"Ann"', b'"A\x00nn"'), "not valid JSON"),
    Case("invalid-utf8-in-title", _replace_bytes(b'"Ann, ', b'"A\xff\xfenn, '), "not valid UTF-8"),
    Case("invalid-utf8-in-name", _replace_bytes(b'"Bob"', b'"B\xc3b"'), "not valid UTF-8"),
    Case("overlong-utf8", _replace_bytes(b'"Cy"', b'"\xc0\xafCy"'), "not valid UTF-8"),
    Case("bom-and-truncated", _raw(lambda: b"\xef\xbb\xbf" + good_bytes()[:90]), "truncated"),
    Case("utf16-with-bom", _encoded("utf-16"), "UTF-16 encoded"),
    Case("utf16-big-endian", _encoded("utf-16-be"), "UTF-16 encoded"),
    Case("utf16-without-bom", _encoded("utf-16-le"), "UTF-16 encoded"),
    Case("utf32", _encoded("utf-32"), "UTF-32 encoded"),
    Case("lone-high-surrogate", _replace_bytes(b'"Cy"', b'"\\ud800Cy"'), "surrogate"),
    Case("lone-low-surrogate", _replace_bytes(b'"Cy"', b'"\\udc00Cy"'), "surrogate"),
    Case("trailing-garbage", _raw(lambda: good_bytes() + b"x"), "not valid JSON"),
    Case("two-documents", _raw(lambda: good_bytes() * 2), "not valid JSON"),
    # not a save at all
    Case("not-an-object", _raw(b"[1, 2, 3]"), "not a JSON object"),
    Case("json-string", _raw(b'"a save"'), "not a JSON object"),
    Case("json-null", _raw(b"null"), "not a JSON object"),
    Case("wrong-format", _set("format", "chess-save"), "not a Mykerinos save"),
    Case("no-format", _edit(lambda d: d.pop("format")), "not a Mykerinos save"),
    Case("markup-format", _set("format", "[bold]x[/]"), "not a Mykerinos save"),
    Case("escape-format", _set("format", "\x1b[2J\x1b]0;pwned\x07"), "not a Mykerinos save"),
    Case("huge-format", _set("format", "f" * 1_000_000), "not a Mykerinos save"),
    # versions
    Case("future-version", _set("version", 7), "newer Mykerinos"),
    Case("huge-version", _set("version", 10**40), "newer Mykerinos"),
    Case(
        "bignum-version",
        _replace_bytes(b'"version":%d' % saves.VERSION, b'"version":' + b"9" * 5000),
        "version",
    ),
    Case("negative-version", _set("version", -1), "version -1 is unknown"),
    Case("text-version", _set("version", "1"), "version '1' is not a number"),
    Case("cards-not-toml", _set("cards", "[[[ \x1b[2J"), "its cards are wrong"),
    Case(
        "cards-wrong-value",
        _set("cards", core.DEFAULT_TEXT.replace("value = 5", "value = 500")),
        "whole number",
    ),
    Case("cards-markup", _set("cards", core.DEFAULT_TEXT + "\n[/] = 1\n"), "its cards are wrong"),
    Case("cards-huge", _set("cards", "#" * 100_000), "cards"),
    Case("cards-not-text", _set("cards", 42), "cards"),
    Case("float-version", _set("version", 1.0), "is not a number"),
    Case("null-version", _set("version", None), "is not a number"),
    Case("version-0-hostile-move", _version_0(["\x1b[2J" + "x" * 100_000]), "move 1 cannot be"),
    Case("version-0-move-not-text", _version_0([["deep"] * 1000]), "$.moves[0]"),
    # fields
    Case("seed-is-text", _set("seed", "eleven"), "$.seed"),
    Case("seed-is-float", _set("seed", 11.5), "$.seed"),
    Case("absurd-seed", _set("seed", 10**30), "$.seed"),
    Case("bignum-seed", _replace_bytes(b'"seed":11', b'"seed":' + b"7" * 5000), "seed"),
    Case("negative-seed", _set("seed", -5), "$.seed"),
    Case("players-not-list", _set("players", {"Ann": "blue"}), "$.players"),
    Case("one-player", _edit(lambda d: d.update(players=d["players"][:1])), "$.players"),
    Case("five-players", _edit(lambda d: d.update(players=d["players"] * 2)), "$.players"),
    Case("colour-unknown", _player(1, colour="pink"), "$.players[1]"),
    Case("colour-markup", _player(1, colour="[/]"), "$.players[1]"),
    Case("colour-huge", _player(1, colour="c" * 100_000), "$.players[1]"),
    Case("same-colours", _player(1, colour="blue"), "same colour"),
    Case("kind-unknown", _player(2, kind="ghost"), "$.players[2].kind"),
    Case("unknown-level", _player(1, kind="computer", level="god"), "god"),
    Case("level-markup", _player(1, kind="computer", level="[bold]x[/]"), "[bold]x[/]"),
    Case("human-with-level", _player(1, level="easy"), "has a computer level"),
    Case("unknown-field", _set("cheat", True), "unknown field `cheat`"),
    Case("huge-unknown-field", _set("k" * 100_000, 1), "unknown field"),
    Case("escape-unknown-field", _set("\x1b]8;;http://x\x1b\\", 1), "unknown field"),
    Case("unknown-player-field", _player(0, score=99), "`score`"),
    Case("missing-field", _edit(lambda d: d.pop("seed")), "`seed`"),
    # names and the title
    Case("empty-name", _name(""), "$.players[0].name"),
    Case("huge-name", _name("A" * 9999), "$.players[0].name"),
    Case("escape-in-name", _name("A\x1b[31m"), "$.players[0].name"),
    Case("bell-in-name", _name("A\x07"), "$.players[0].name"),
    Case("c1-control-in-name", _name("A\x9b2J"), "$.players[0].name"),
    Case("rtl-override-in-name", _name("Ann\u202enib"), "U+202E RIGHT-TO-LEFT OVERRIDE"),
    Case("zero-width-space-in-name", _name("An\u200bn"), "U+200B ZERO WIDTH SPACE"),
    Case("bom-character-in-name", _name("\ufeffAnn"), "U+FEFF"),
    Case("leading-joiner-in-name", _name("\u200dAnn"), "U+200D ZERO WIDTH JOINER"),
    Case("line-separator-in-name", _name("Ann\u2028Bob"), "U+2028 LINE SEPARATOR"),
    Case("private-use-in-name", _name("Ann\ue000"), "U+E000"),
    Case("unassigned-in-name", _name("Ann\u0378"), "U+0378"),
    Case("tag-character-in-name", _name("Ann\U000e0041"), "U+E0041"),
    Case("escape-in-title", _set("title", "Ann\x1b[2J\x1b[31m"), "$.title"),
    Case("osc-in-title", _set("title", "\x1b]0;owned\x07Ann"), "$.title"),
    Case("escaped-nul-in-title", _set("title", "A\x00B"), "$.title"),
    Case("rtl-override-in-title", _set("title", "Ann\u202e"), "the title contains U+202E"),
    Case("huge-title", _set("title", "T" * 1_000_000), "$.title"),
    # a shared table's journal (lines and stand-ins of an exported game)
    Case("lines-not-list", _set("lines", "ann: hi"), "$.lines"),
    Case("line-not-object", _lines("hi"), "$.lines[0]"),  # type: ignore[arg-type]
    Case("escape-in-line", _lines(_line("\x1b[2J\x1b]0;pwned\x07hi")), "$.lines[0].text"),
    Case("escape-in-sayer", _lines(_line(name="A\x1b[31m")), "$.lines[0].name"),
    Case("rtl-override-in-line", _lines(_line(), _line("gg\u202eolleh")), "line 2 of the"),
    Case("rtl-override-in-sayer", _lines(_line(name="Ann\u202e")), "the sayer of line 1"),
    Case("huge-line", _lines(_line("x" * 100_000)), "$.lines[0].text"),
    Case("too-many-lines", _set("lines", [_line()] * 3001), "$.lines"),
    Case("line-before-the-game", _lines(_line(seq=-1)), "$.lines[0].seq"),
    Case("line-past-any-game", _lines(_line(seq=10**9)), "$.lines[0].seq"),
    Case("line-at-no-time", _lines(_line(at=1e300)), "$.lines[0].at"),
    Case("unknown-line-field", _lines(_line(colour="red")), "`colour`"),
    Case("standins-too-few", _standins(5), "5 stand-ins for 12 actions"),
    Case("standins-too-many", _standins(13), "13 stand-ins for 12 actions"),
    Case("standin-unknown-level", _standins(12, "god"), "$.standins[0]"),
    Case("standin-markup", _standins(12, "[/]"), "$.standins[0]"),
    # times
    Case("bad-time", _set("updated", "last tuesday"), "$.updated"),
    Case("time-is-number", _set("updated", 1767268800), "$.updated"),
    Case("time-25-hours", _set("updated", "2026-01-01T25:00:00Z"), "$.updated"),
    # actions
    Case("actions-not-list", _set("actions", {"0": "pass"}), "$.actions"),
    Case("action-not-object", _edit(lambda d: d["actions"].insert(0, 7)), "$.actions[0]"),
    Case("action-unknown-kind", _action(0, type="fly"), "$.actions[0]"),
    Case("action-kind-markup", _action(0, type="[/]"), "$.actions[0]"),
    Case("action-space-text", _action(2, space="c3"), "$.actions[2]"),
    Case("absurd-space", _action(0, space=10**12), "malformed"),
    Case("negative-space", _action(0, space=-3), "malformed"),
    Case("long-space-number", _action(0, space=10**30), "malformed"),
    Case(
        "bignum-space",
        _replace_bytes(b'"space":', b'"space":' + b"9" * 5000 + b',"x":'),
        "$.actions[0]",
    ),
    Case("absurd-room", _append_action({"type": "book", "room": 99}), "malformed"),
    Case("illegal-action", _edit(_illegal), "is not legal"),
    Case("action-past-the-end", _append_action({"type": "pass"}, actions=None), "action"),
    Case("too-many-actions", _set("actions", [{"type": "pass"}] * 5000), "$.actions"),
    Case("huge-lemon", _huge_lemon, "it names 1900000 spaces"),
    Case("lemon-spaces-text", _append_action({"type": "lemon", "spaces": "all"}), "$.actions"),
    # nesting and size
    Case("deep-actions", _edit(lambda d: d["actions"].insert(0, _DEEP)), "nested too deeply"),
    Case("deep-unknown", _set("extra", _DEEP), "nested too deeply"),
    Case("deep-version", _set("version", _DEEP), "nested too deeply"),
    Case("deep-in-depth-limit", _set("version", _nested(50)), "is not a number"),
    Case("multi-megabyte", _set("pad", "x" * 5_000_000), "MiB"),
    Case("fifty-megabytes-sparse", _sparse(50 * 2**20), "50.0 MiB"),
    # not plain files
    Case("symlink-out-of-folder", _symlink_out, "symbolic link"),
    Case("symlink-in-folder", _symlink_in, "symbolic link"),
    Case("symlink-loop", _symlink_loop, "symbolic link"),
    Case("symlink-dangling", lambda path: os.symlink("nowhere.json", path), "symbolic link"),
    Case("fifo", lambda path: os.mkfifo(path), "FIFO"),
    Case("directory", lambda path: path.mkdir(), "a folder"),
    Case("socket", _node(stat.S_IFSOCK), "a socket"),
    # hostile but valid: they load, and show as written
    Case("markup-in-title", _set("title", "[bold]x[/] [link=file:///etc/passwd]y[/link][/]"), None),
    Case("markup-in-names", _names("[/]", "[bold]Bob", "[@click=app.quit]x[/]"), None),
    Case("emoji-and-scripts-in-names", _names("👩\u200d🚀 Ann", "Zoë محمد", "李 क्षि"), None),
    Case("utf8-bom", _raw(lambda: b"\xef\xbb\xbf" + good_bytes()), None),
    Case(
        "markup-in-lines",
        _lines(
            _line("[/] [bold]x [link=file:///etc/passwd]y[/link]", name="[/]", spectator=True),
            _line("[@click=app.quit]x[/]", seq=0),
            _line("late", seq=3000),
        ),
        None,
    ),
    Case("standins-all-along", _standins(12, "hard"), None),
    Case("times-without-zone", _timestamp("2026-01-01T10:00:00"), None),
    Case("time-in-year-1", _timestamp("0001-01-01T00:00:00Z"), None),
    Case("time-in-year-9999", _timestamp("9999-12-31T23:59:59Z"), None),
    Case("year-1-east-of-utc", _timestamp("0001-01-01T00:00:00+14:00"), None),
    Case("year-9999-west-of-utc", _timestamp("9999-12-31T23:59:59-14:00"), None),
]
CASE_IDS = [case.id for case in CASES]
DAMAGED = [case for case in CASES if not case.loads]
VALID = [case for case in CASES if case.loads]


def case_named(case_id: str) -> Case:
    return next(case for case in CASES if case.id == case_id)


def write_case(case: Case | int | str, folder: Path, name: str = "hostile") -> Path:
    """Write ``case`` (a :class:`Case`, its index in :data:`CASES` or its id) into
    ``folder`` (made if needed) as save ``name``; returns the file's path."""
    if isinstance(case, int):
        case = CASES[case]
    elif isinstance(case, str):
        case = case_named(case)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    case.make(path)
    return path


def fingerprint(path: Path) -> tuple[object, ...]:
    """What must not change when a hostile file is listed or loaded: its kind, and its
    bytes for a plain file or its target for a link (and the target's bytes)."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        target = path.parent / os.readlink(path)
        inner = fingerprint(target) if target.exists() and target != path else None
        return ("link", os.readlink(path), inner)
    if stat.S_ISREG(info.st_mode):
        digest = hashlib.sha256()
        with path.open("rb") as file:
            while chunk := file.read(1 << 22):
                digest.update(chunk)
        return ("file", info.st_size, info.st_mtime_ns, digest.hexdigest())
    return ("other", stat.S_IFMT(info.st_mode), info.st_ino, info.st_mtime_ns)
