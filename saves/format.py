"""The save file format: one msgspec JSON document per game.

A save holds what is needed to rebuild the game, never the game state itself: the seed,
the seats, and the log of actions. Loading replays that log through ``core.apply_action``
(see :mod:`saves.replay`), so a tampered file cannot inject a position.

Decoding is in two steps: a tiny :class:`Header` is peeked first, older versions are
migrated dict-wise (:mod:`saves.migrations`), then the full :class:`SaveFile` is decoded
with unknown fields forbidden. Every failure becomes a :class:`saves.SaveError` that names
the file and, for a wrong value, its JSON path.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from itertools import accumulate
from pathlib import Path
from typing import Annotated, Any, Final, Literal, TypeVar

import msgspec

import core
import core.analysis
from core.levels import LEVELS, Level
from saves.errors import SaveError, load_error, lower_first, mismatch
from saves.migrations import OLDEST_VERSION, migrate
from saves.text import MAX_PLAYER_NAME, check_text, quoted, tame

FORMAT: Final = "mykerinos-save"
VERSION: Final = 4
"""The version this code writes. Older versions are migrated on load."""

MAX_FILE_BYTES: Final = 4 * 1024 * 1024
"""Files above this size are refused before being read whole (a real save is a few KiB)."""
MAX_ACTIONS: Final = 4000
"""Far above the longest possible game; bounds the work a hostile file can ask for."""
MAX_LINES: Final = 3000
"""Lines of a shared table's journal a save keeps (:class:`TableLine`): far more than an
evening's chat and notes, and few enough that the longest lines stay well inside
:data:`MAX_FILE_BYTES`."""
MAX_LINE_TEXT: Final = 400
"""Characters of one such line (a line of chat has at most 200; a note, a sentence)."""
MAX_SEED: Final = 2**63 - 1
MAX_CARDS_TEXT: Final = 20_000
"""Characters of a recorded cards file (the built-in one has about 1,100)."""
NOT_AN_OBJECT: Final = "it is not a Mykerinos save (the file is not a JSON object)"

EARLIEST: Final = datetime(1, 1, 2, tzinfo=UTC)
LATEST: Final = datetime(9999, 12, 30, tzinfo=UTC)
"""Times in a save are brought into this range (a day inside what ``datetime`` holds), so
converting one to any time zone can never overflow."""
LATEST_SECONDS: Final = LATEST.timestamp()

_PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""No control characters: names and titles are printed on a terminal, where a hostile
file could otherwise move the cursor or change colours. The other characters that do not
show as themselves (format characters such as U+202E, separators, private use, unassigned)
are refused after decoding, by :func:`check_texts` (see :mod:`saves.text`)."""

PlayerName = Annotated[
    str, msgspec.Meta(min_length=1, max_length=MAX_PLAYER_NAME, pattern=_PRINTABLE)
]


class SeatConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who sits at a seat: a name, a colour, and a human or a computer of some level."""

    name: PlayerName
    colour: core.Colour
    kind: Literal["human", "computer"]
    level: Level | None = None
    """The computer's level (``core.ai.Level``: msgspec refuses any other word, and the
    JSON Schema lists them); None for a human."""


class TableLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A line of a shared table's journal as its players saw it, kept with the table's
    exported game so that its replay shows it where it was said: a line of chat (``name``
    said ``text``) or a note in words ("ann took back their last action.")."""

    seq: Annotated[int, msgspec.Meta(ge=0, le=MAX_ACTIONS)]
    """How many actions had been played when it was said: it shows after that many."""
    at: Annotated[float, msgspec.Meta(ge=0, le=LATEST_SECONDS)]
    """When (Unix seconds; within what a clock can show)."""
    text: Annotated[str, msgspec.Meta(max_length=MAX_LINE_TEXT, pattern=_PRINTABLE)]
    name: PlayerName | None = None
    """The sayer of a line of chat; None for a note."""
    spectator: bool = False
    """Said by someone watching the table, not playing at it."""


def places(lines: Sequence[TableLine], actions: int) -> list[int]:
    """After how many of the game's ``actions`` each of ``lines`` (in the journal's order)
    shows: its ``seq`` (a line with seq k after the k-th action), yet never after a line
    said later (a line said before an undo shows before the undo's note, although it was
    said with one more action on the board), and never past the last action."""
    backwards = accumulate(reversed(lines), lambda low, line: min(low, line.seq), initial=actions)
    return list(reversed(list(backwards)[1:]))


class SaveFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One saved game, as stored on disk (current version); a field at its default is
    not written."""

    format: Literal["mykerinos-save"]
    version: int
    title: Annotated[str, msgspec.Meta(max_length=200, pattern=_PRINTABLE)]
    seed: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEED)]
    players: Annotated[list[SeatConfig], msgspec.Meta(min_length=2, max_length=4)]
    actions: Annotated[list[core.Action], msgspec.Meta(max_length=MAX_ACTIONS)]
    created: datetime
    updated: datetime
    cards: Annotated[str, msgspec.Meta(max_length=MAX_CARDS_TEXT)] | None = None
    """The cards file (TOML) the game is played with, when not the built-in deck
    (``mykerinos --cards FILE``); checked by ``core.parse_cards`` on load."""
    deal: core.Deal | None = None
    """What chance decided at setup, when the seed must not say it: a game exported from a
    shared table (its seed would deal the real order of the parcels not yet dealt, which
    nobody at the table knew). None: the deal comes from ``seed``."""
    lines: Annotated[list[TableLine], msgspec.Meta(max_length=MAX_LINES)] = []
    """A shared table's journal as its players saw it (chat and notes, in the journal's
    order), kept by an export so that the replay shows them where they were said; empty
    for a game played here."""
    standins: Annotated[list[Level | None], msgspec.Meta(max_length=MAX_ACTIONS)] = []
    """For each action, the computer level that made it standing in for the seat's player
    at a shared table (None: the seat's own player or computer); empty when none did,
    else exactly as long as ``actions``."""
    analysis: core.analysis.Analysis | None = None
    """The computer's analysis of the finished game (``mykerinos analyse``, ``a`` on the
    final scores), kept so that a second look is instant and it travels with the game."""


class _Loaded(SaveFile, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A save as first decoded: its analysis kept as raw JSON, decoded on its own after,
    so that an analysis that does not decode is left out alone, never the game."""

    analysis: msgspec.Raw = msgspec.Raw(b"null")  # type: ignore[assignment]


class Header(msgspec.Struct):
    """The first thing read from a file: what it claims to be, before trusting anything."""

    format: Any = None
    version: Any = None


_ENCODER = msgspec.json.Encoder()


def encode(save: SaveFile) -> bytes:
    """The JSON bytes of ``save`` (compact, newline-terminated)."""
    return _ENCODER.encode(save) + b"\n"


def decode(path: Path, data: bytes) -> SaveFile:
    """The save in ``data`` (the bytes of ``path``), migrated to the current version, its
    times made time-zone aware (UTC when the file gives none) and brought into range; an
    analysis that does not decode is left out (see :func:`decode_game`).

    Raises :class:`SaveError` naming ``path`` for anything that is not a valid save.
    """
    return decode_game(path, data)[0]


def decode_game(path: Path, data: bytes) -> tuple[SaveFile, str | None]:
    """:func:`decode`, and why the analysis kept in the file was left out (a sentence
    naming ``path``), or None. Such an analysis never stops the game from loading: it is
    the one field a player can do without, and it is made again on request."""
    data = _utf8_text(path, data)
    header = _peek(path, data)
    version = header.version
    if version == VERSION:
        return _decode_current(path, data)
    try:
        old = msgspec.json.decode(data)
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError) as exc:
        raise load_error(path, _json_problem(exc, data)) from None
    return _decode_current(path, msgspec.json.encode(migrate(path, old, version)))


_BOMS: Final = (
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xfe\xff", "UTF-16"),
    (b"\xff\xfe", "UTF-16"),
)
_UTF16_STARTS: Final = frozenset(
    pair for char in b"{[ \t\r\n" for pair in (bytes([char, 0]), bytes([0, char]))
)
"""The first two bytes of JSON written in UTF-16 without a byte order mark."""


def _utf8_text(path: Path, data: bytes) -> bytes:
    """``data`` without a UTF-8 byte order mark; a file in another Unicode encoding is
    refused by name."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:]
    encoding = next((name for bom, name in _BOMS if data.startswith(bom)), None)
    if encoding is None and data[:2] in _UTF16_STARTS:
        encoding = "UTF-16"
    if encoding is not None:
        raise load_error(path, f"the file is {encoding} encoded; saves are UTF-8")
    return data


_Shape = TypeVar("_Shape")


def _decode(path: Path, data: bytes, shape: type[_Shape]) -> _Shape:
    """``data`` decoded as ``shape``; any problem is a :class:`SaveError` naming ``path``."""
    try:
        return msgspec.json.decode(data, type=shape)
    except msgspec.ValidationError as exc:
        message = str(exc)
        whole = message.startswith("Expected `object`") and " - at `$" not in message
        raise load_error(path, NOT_AN_OBJECT if whole else mismatch(message)) from None
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError) as exc:
        raise load_error(path, _json_problem(exc, data)) from None


def _peek(path: Path, data: bytes) -> Header:
    header = _decode(path, data, Header)
    if header.format != FORMAT:
        raise load_error(path, f"it is not a Mykerinos save (format is {quoted(header.format)})")
    version = header.version
    if type(version) is not int:
        raise load_error(path, f"the save format version {quoted(version)} is not a number")
    if version > VERSION:
        raise load_error(
            path,
            f"it was written by a newer Mykerinos (save format version {quoted(version)}; "
            f"this one reads versions up to {VERSION})",
        )
    if version < OLDEST_VERSION:
        raise load_error(path, f"the save format version {version} is unknown")
    return header


def _decode_current(path: Path, data: bytes) -> tuple[SaveFile, str | None]:
    loaded = _decode(path, data, _Loaded)
    analysis, problem = _analysis(path, loaded.analysis)
    fields = {name: getattr(loaded, name) for name in SaveFile.__struct_fields__}
    save = SaveFile(**{**fields, "analysis": analysis})
    try:
        check_texts(save)
        check_standins(save)
    except ValueError as exc:
        raise load_error(path, str(exc)) from None
    return msgspec.structs.replace(
        save, created=safe_time(save.created), updated=safe_time(save.updated)
    ), problem


def analysis_left_out(path: Path, problem: str) -> str:
    """The sentence saying the analysis kept in ``path`` was left out, and why."""
    return f"The computer's analysis kept in {path} was left out: {problem}. The game is whole."


def _analysis(path: Path, raw: msgspec.Raw) -> tuple[core.analysis.Analysis | None, str | None]:
    """The analysis in ``raw`` JSON, or None and why it was left out."""
    try:
        return msgspec.json.decode(raw, type=core.analysis.Analysis | None), None
    except msgspec.ValidationError as exc:
        where = str(exc).replace(" - at `$", " - at `$.analysis", 1)  # where in the file
        return None, analysis_left_out(path, f"it does not match its format ({tame(where)})")
    except (msgspec.DecodeError, RecursionError):
        return None, analysis_left_out(path, "it is not valid JSON")


_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
"""A ``\\u`` escape of half a surrogate pair, which msgspec reports in misleading words
("truncated", "end of hex escape")."""


def _json_problem(exc: Exception, data: bytes) -> str:
    if isinstance(exc, RecursionError):
        return "the JSON is nested too deeply"
    if isinstance(exc, UnicodeDecodeError):
        return f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x} at byte {exc.start})"
    text = str(exc)
    misleading = any(word in text for word in ("truncated", "escape", "surrogate"))
    if misleading and _LONE_SURROGATE.search(data):
        return "the file holds a \\u escape of half a UTF-16 surrogate pair"
    if "truncated" in text:
        return "the file is cut short (truncated JSON)"
    return f"the file is not valid JSON ({lower_first(tame(text))})"


def safe_time(when: datetime) -> datetime:
    """``when`` in UTC (a time without a time zone is taken as UTC), brought into
    [:data:`EARLIEST`, :data:`LATEST`] so that it converts to any time zone."""
    if when.tzinfo is None or when.utcoffset() is None:
        when = when.replace(tzinfo=UTC)
    try:
        when = when.astimezone(UTC)
    except OverflowError:
        return EARLIEST if when.year < 5000 else LATEST
    return min(max(when, EARLIEST), LATEST)


def check_texts(save: SaveFile) -> None:
    """Raise ``ValueError`` if a player's name, the title or a line of the table's journal
    holds a character that does not show as itself (see :mod:`saves.text`)."""
    check_text(save.title, "the title")
    for number, seat in enumerate(save.players, start=1):
        check_text(seat.name, f"the name of player {number}")
    for number, line in enumerate(save.lines, start=1):
        check_text(line.text, f"line {number} of the table's journal")
        if line.name is not None:
            check_text(line.name, f"the sayer of line {number} of the table's journal")


def check_standins(save: SaveFile) -> None:
    """Raise ``ValueError`` unless the stand-ins are absent or one for each action."""
    count, actions = len(save.standins), len(save.actions)
    if count and count != actions:
        raise ValueError(
            f"its stand-ins do not match its actions ({count} stand-ins for {actions} actions)"
        )


def check_new(save: SaveFile) -> None:
    """Raise ``ValueError`` if ``save``, written now, would not load back (e.g. a player's
    name too long): a game must never be saved in a form that cannot be resumed."""
    try:
        msgspec.json.decode(encode(save), type=SaveFile)
    except msgspec.ValidationError as exc:
        raise ValueError(f"this game cannot be saved: {lower_first(tame(str(exc)))}") from None
    check_texts(save)
    check_standins(save)
    check_save(save)


def check_save(save: SaveFile) -> None:
    """Checks beyond types that do not need the rules (raised as ``ValueError``)."""
    colours = [seat.colour for seat in save.players]
    if len(set(colours)) != len(colours):
        raise ValueError("two players have the same colour")
    for seat in save.players:
        check_seat(seat)


def check_seat(seat: SeatConfig) -> None:
    """A computer seat needs a level; a human seat has none (``ValueError`` if not).

    Decoding already refuses an unknown level (the type is ``core.ai.Level``); a seat built
    in Python is not decoded, so its level is checked against ``core.ai.LEVELS`` here too.
    """
    if seat.kind == "computer" and seat.level not in LEVELS:
        problem = (
            "has no level" if seat.level is None else f"has unknown level {quoted(seat.level)}"
        )
        raise ValueError(
            f"the computer player {quoted(seat.name)} {problem} (choose one of {', '.join(LEVELS)})"
        )
    if seat.kind == "human" and seat.level is not None:
        raise ValueError(f"the human player {quoted(seat.name)} has a computer level")


__all__ = [
    "FORMAT",
    "MAX_FILE_BYTES",
    "MAX_LINES",
    "VERSION",
    "Header",
    "SaveError",
    "SaveFile",
    "SeatConfig",
    "TableLine",
    "analysis_left_out",
    "check_new",
    "check_save",
    "check_seat",
    "check_standins",
    "check_texts",
    "decode",
    "decode_game",
    "encode",
    "places",
    "safe_time",
]
