"""Migrations: bring an older save up to the current version, one version at a time.

Each step takes the decoded JSON object of version ``n`` (plain dicts and lists) and
returns the object of version ``n + 1``; :func:`saves.format.decode` then checks the
result against the current Structs, so a step only reshapes data and never has to trust it.

Version 0 is the prototype format: ``moves`` in text notation (``"B c3 c4"``), players with
``computer: null | level``, and one ``saved`` time. No release wrote it; it is kept to
prove the migration path works before the first real one is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import msgspec

import core
from saves.errors import load_error, mismatch
from saves.text import tame

OLDEST_VERSION: Final = 0

Migration = Callable[[Path, dict[str, Any]], dict[str, Any]]


def migrate(path: Path, data: object, version: int) -> dict[str, Any]:
    """``data`` (a save of ``version``) migrated to the current version.

    Raises :class:`saves.SaveError` naming ``path`` when ``data`` cannot be migrated.
    """
    if not isinstance(data, dict):
        raise load_error(path, "it is not a Mykerinos save (the file is not a JSON object)")
    for step in _STEPS[version - OLDEST_VERSION :]:
        data = step(path, data)
    return data


def _v0_to_v1(path: Path, old: dict[str, Any]) -> dict[str, Any]:
    new = dict(old)
    players = new.pop("players", None)
    moves = new.pop("moves", None)
    saved = new.pop("saved", None)
    if not isinstance(players, list) or not isinstance(moves, list):
        raise load_error(path, "the version 0 save has no list of players or moves")
    seats = [_v0_seat(path, i, p) for i, p in enumerate(players)]
    new.update(
        version=1,
        title=" v ".join(str(seat.get("name")) for seat in seats),
        players=seats,
        actions=[_v0_action(path, i, text) for i, text in enumerate(moves)],
        created=saved,
        updated=saved,
    )
    return new


def _v0_seat(path: Path, index: int, player: object) -> dict[str, Any]:
    if not isinstance(player, dict):
        raise load_error(path, mismatch(f"expected an object - at `$.players[{index}]`"))
    seat = dict(player)
    level = seat.pop("computer", None)
    seat.update(kind="human" if level is None else "computer", level=level)
    return seat


def _v0_action(path: Path, index: int, text: object) -> object:
    if not isinstance(text, str):
        raise load_error(path, mismatch(f"expected a move - at `$.moves[{index}]`"))
    try:
        return msgspec.to_builtins(core.parse_action(text))
    except core.MalformedActionError as exc:
        raise load_error(path, f"move {index + 1} cannot be read: {tame(str(exc))}") from None


def _v1_to_v2(path: Path, old: dict[str, Any]) -> dict[str, Any]:
    """Version 2 adds ``deal`` (a game exported from a shared table) and ``cards`` (a game
    played with another cards file); none before."""
    return {**old, "version": 2}


def _v2_to_v3(path: Path, old: dict[str, Any]) -> dict[str, Any]:
    """Version 3 adds ``lines`` and ``standins`` (a shared table's journal, kept by its
    export); a game saved before has none."""
    return {**old, "version": 3}


def _v3_to_v4(path: Path, old: dict[str, Any]) -> dict[str, Any]:
    """Version 4 adds ``analysis`` (the computer's analysis of the finished game); a game
    saved before has none."""
    return {**old, "version": 4}


_STEPS: list[Migration] = [_v0_to_v1, _v1_to_v2, _v2_to_v3, _v3_to_v4]
"""``_STEPS[n - OLDEST_VERSION]`` turns version n into n + 1."""
