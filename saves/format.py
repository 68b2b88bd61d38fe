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

from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import msgspec

import core
from core.ai import LEVELS, Level
from saves.errors import SaveError, load_error, mismatch
from saves.migrations import OLDEST_VERSION, migrate

FORMAT: Final = "mykerinos-save"
VERSION: Final = 1
"""The version this code writes. Older versions are migrated on load."""

MAX_FILE_BYTES: Final = 4 * 1024 * 1024
"""Files above this size are refused before being read whole (a real save is a few KiB)."""
MAX_ACTIONS: Final = 4000
"""Far above the longest possible game; bounds the work a hostile file can ask for."""
MAX_SEED: Final = 2**63 - 1
NOT_AN_OBJECT: Final = "it is not a Mykerinos save (the file is not a JSON object)"

_PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""No control characters: names and titles are printed on a terminal, where a hostile
file could otherwise move the cursor or change colours."""

PlayerName = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=_PRINTABLE)]


class SeatConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who sits at a seat: a name, a colour, and a human or a computer of some level."""

    name: PlayerName
    colour: core.Colour
    kind: Literal["human", "computer"]
    level: Level | None = None
    """The computer's level (``core.ai.Level``: msgspec refuses any other word, and the
    JSON Schema lists them); None for a human."""


class SaveFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One saved game, as stored on disk (current version)."""

    format: Literal["mykerinos-save"]
    version: int
    title: Annotated[str, msgspec.Meta(max_length=200, pattern=_PRINTABLE)]
    seed: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEED)]
    players: Annotated[list[SeatConfig], msgspec.Meta(min_length=2, max_length=4)]
    actions: Annotated[list[core.Action], msgspec.Meta(max_length=MAX_ACTIONS)]
    created: datetime
    updated: datetime


class Header(msgspec.Struct):
    """The first thing read from a file: what it claims to be, before trusting anything."""

    format: Any = None
    version: Any = None


_ENCODER = msgspec.json.Encoder()


def encode(save: SaveFile) -> bytes:
    """The JSON bytes of ``save`` (compact, newline-terminated)."""
    return _ENCODER.encode(save) + b"\n"


def decode(path: Path, data: bytes) -> SaveFile:
    """The save in ``data`` (the bytes of ``path``), migrated to the current version.

    Raises :class:`SaveError` naming ``path`` for anything that is not a valid save.
    """
    header = _peek(path, data)
    version = header.version
    if version == VERSION:
        return _decode_current(path, data)
    try:
        old = msgspec.json.decode(data)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise load_error(path, _json_problem(exc)) from None
    return _decode_current(path, msgspec.json.encode(migrate(path, old, version)))


def _peek(path: Path, data: bytes) -> Header:
    try:
        header = msgspec.json.decode(data, type=Header)
    except msgspec.ValidationError:
        raise load_error(path, NOT_AN_OBJECT) from None
    except (msgspec.DecodeError, RecursionError) as exc:
        raise load_error(path, _json_problem(exc)) from None
    if header.format != FORMAT:
        raise load_error(path, f"it is not a Mykerinos save (format is {_shown(header.format)})")
    version = header.version
    if type(version) is not int:
        raise load_error(path, f"the save format version {_shown(version)} is not a number")
    if version > VERSION:
        raise load_error(
            path,
            f"it was written by a newer Mykerinos (save format version {_shown(version)}; "
            f"this one reads versions up to {VERSION})",
        )
    if version < OLDEST_VERSION:
        raise load_error(path, f"the save format version {version} is unknown")
    return header


def _decode_current(path: Path, data: bytes) -> SaveFile:
    try:
        return msgspec.json.decode(data, type=SaveFile)
    except msgspec.ValidationError as exc:
        raise load_error(path, mismatch(str(exc))) from None
    except (msgspec.DecodeError, RecursionError) as exc:
        raise load_error(path, _json_problem(exc)) from None


def _json_problem(exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return "the JSON is nested too deeply"
    text = str(exc)
    if "truncated" in text:
        return "the file is cut short (truncated JSON)"
    return f"the file is not valid JSON ({_lower_first(text)})"


def _shown(value: object) -> str:
    """A value from a file, quoted and cut short so a hostile value cannot flood a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def check_new(save: SaveFile) -> None:
    """Raise ``ValueError`` if ``save``, written now, would not load back (e.g. a player's
    name too long): a game must never be saved in a form that cannot be resumed."""
    try:
        msgspec.json.decode(encode(save), type=SaveFile)
    except msgspec.ValidationError as exc:
        raise ValueError(f"this game cannot be saved: {_lower_first(str(exc))}") from None
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
            "has no level" if seat.level is None else f"has unknown level {_shown(seat.level)}"
        )
        raise ValueError(
            f"the computer player {seat.name!r} {problem} (choose one of {', '.join(LEVELS)})"
        )
    if seat.kind == "human" and seat.level is not None:
        raise ValueError(f"the human player {seat.name!r} has a computer level")


__all__ = [
    "FORMAT",
    "MAX_FILE_BYTES",
    "VERSION",
    "Header",
    "SaveError",
    "SaveFile",
    "SeatConfig",
    "check_new",
    "check_save",
    "check_seat",
    "decode",
    "encode",
]
