"""The Museum: fifteen rooms around a central hall, as a graph (RULES.md §6).

Wing ``i`` (0..4) has a 3-room opening onto its 5-room. Between wings ``i`` and ``i+1``
(wing 4 next to wing 0) is a 2-room that belongs to both and opens onto both 5-rooms.
Room ids: ``0..4`` the 5-rooms, ``5..9`` the 3-rooms, ``10..14`` the 2-rooms (room
``10 + i`` sits between wings ``i`` and ``i+1``).
"""

from __future__ import annotations

import enum

WINGS = 5
ROOMS = 15


class Room(enum.IntEnum):
    """A Museum room: ``F*`` 5-rooms, ``T*`` 3-rooms, ``D*`` 2-rooms (between two wings)."""

    F1, F2, F3, F4, F5 = range(5)
    T1, T2, T3, T4, T5 = range(5, 10)
    D12, D23, D34, D45, D51 = range(10, 15)


def five_room(wing: int) -> int:
    return wing


def three_room(wing: int) -> int:
    return WINGS + wing


def two_room(wing: int, other: int) -> int:
    """The 2-room between two neighbouring wings."""
    if (wing + 1) % WINGS == other:
        return 2 * WINGS + wing
    if (other + 1) % WINGS == wing:
        return 2 * WINGS + other
    raise ValueError(f"wings {wing} and {other} are not neighbours")


def room_points(room: int) -> int:
    """The room's printed value: 5, 3 or 2."""
    return 5 if room < WINGS else 3 if room < 2 * WINGS else 2


def room_wings(room: int) -> tuple[int, ...]:
    """The wing(s) a room belongs to (two for a 2-room)."""
    if room < 2 * WINGS:
        return (room % WINGS,)
    wing = room - 2 * WINGS
    return (wing, (wing + 1) % WINGS)


FIVE_ROOM_DOORS: tuple[tuple[int, ...], ...] = tuple(
    (three_room(w), two_room((w - 1) % WINGS, w), two_room(w, (w + 1) % WINGS))
    for w in range(WINGS)
)
"""The 3- and 2-rooms opening onto each wing's 5-room."""


_SMALL_ROOMS = range(WINGS, ROOMS)


def open_rooms(museum: tuple[int, ...], holder: int) -> list[int]:
    """Rooms ``holder`` may place a cube in now: any empty 2- or 3-room, or an empty 5-room
    opening onto a 2- or 3-room where ``holder`` already has a cube. Increasing room order."""
    rooms = [
        wing
        for wing, (a, b, c) in enumerate(FIVE_ROOM_DOORS)
        if museum[wing] < 0 and holder in (museum[a], museum[b], museum[c])
    ]
    rooms += [room for room in _SMALL_ROOMS if museum[room] < 0]
    return rooms


def best_room_value(museum: tuple[int, ...], holder: int, wing: int) -> tuple[int, int | None]:
    """The value of the best room ``holder`` holds for ``wing`` and that room (or None).

    5 for the wing's 5-room, 3 for its 3-room, 2 for a 2-room next to it, else 1.
    """
    for room in (five_room(wing), three_room(wing), *FIVE_ROOM_DOORS[wing][1:]):
        if museum[room] == holder:
            return room_points(room), room
    return 1, None


def room_name(room: int) -> str:
    return Room(room).name


def parse_room(text: str) -> int:
    try:
        return int(Room[text.strip().upper()])
    except KeyError:
        raise ValueError(f"{text!r} is not a Museum room (F1..F5, T1..T5, D12..D51)") from None


def room_label(wings: tuple[int, ...], room: int) -> str:
    """A room in words, with the patrons of its wings: ``Lemon 3-room``, ``Lemon/Brown 2-room``."""
    from core.cards import Patron  # local: museum is data-only and does not need cards otherwise

    names = "/".join(Patron(wings[w]).name.title() for w in room_wings(room))
    return f"{names} {room_points(room)}-room"
