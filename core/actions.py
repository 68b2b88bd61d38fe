"""Actions: every decision a player makes, as small frozen values with a text notation.

Each action is a tagged ``msgspec.Struct`` (so it encodes to JSON as is) and has an
integer code used on the fast internal path: ``kind | a << 4 | b << 11 | c << 18``.
The text notation round-trips through :func:`format_action` / :func:`parse_action`::

    A c3            start an excavation on c3
    B c3 c4         extend: c3 next to one of your cubes, then c4 next to c3
    pass            take the next passing space
    violet c3 [d3]  Lady Violet: a cube from reserve to stock, then A or B
    lemon c3 [d3]   Lord Lemon: A or B with exactly one cube on a pyramid
    brown T3        Sir Brown: a cube from stock to a Museum room
    blackmore c3 d3 Mrs. Blackmore: any free space, then one next to it
    tangerine c3 d3 e3   Colonel Tangerine: a chain of three from one of your cubes
    nA c3 / nB c3 d3 / nskip    2 players: place neutral cubes after A or B, or not
    take P3 / book T3           survey: take a parcel, or book a Museum room
    neutral P3                  survey, 2 players: the parcel the neutral takes
"""

from __future__ import annotations

from typing import Any, Final, cast

import msgspec

from core.cards import Patron
from core.errors import MalformedActionError
from core.museum import ROOMS, parse_room, room_name
from core.region import SPACES, parse_space, space_name


class Excavate(msgspec.Struct, frozen=True, tag="excavate"):
    """A: one cube from stock onto any free space."""

    space: int


class Extend(msgspec.Struct, frozen=True, tag="extend"):
    """B: ``first`` next to one of the player's cubes, ``second`` next to ``first``."""

    first: int
    second: int


class Pass(msgspec.Struct, frozen=True, tag="pass"):
    """C: take the lowest free passing space; no more actions this season."""


class Violet(msgspec.Struct, frozen=True, tag="violet"):
    """Lady Violet: a cube from reserve to stock, then A (one space) or B (two)."""

    spaces: tuple[int, ...]


class Lemon(msgspec.Struct, frozen=True, tag="lemon"):
    """Lord Lemon: A or B with exactly one of the cubes on a pyramid."""

    spaces: tuple[int, ...]


class Brown(msgspec.Struct, frozen=True, tag="brown"):
    """Sir Brown: one cube from stock into a legal Museum room."""

    room: int


class Blackmore(msgspec.Struct, frozen=True, tag="blackmore"):
    """Mrs. Blackmore: ``first`` on any free space, ``second`` next to it."""

    first: int
    second: int


class Tangerine(msgspec.Struct, frozen=True, tag="tangerine"):
    """Colonel Tangerine: three cubes in a chain starting next to one of the player's."""

    spaces: tuple[int, int, int]


class NeutralExcavate(msgspec.Struct, frozen=True, tag="neutral-excavate"):
    """2 players, after A or B: one neutral cube on any free space."""

    space: int


class NeutralExtend(msgspec.Struct, frozen=True, tag="neutral-extend"):
    """2 players, after A or B: a neutral cube next to a neutral cube, one next to that."""

    first: int
    second: int


class NeutralSkip(msgspec.Struct, frozen=True, tag="neutral-skip"):
    """2 players: place no neutral cube this turn."""


class TakeParcel(msgspec.Struct, frozen=True, tag="take"):
    """Survey: take a parcel of the area being surveyed (0..11 in reading order)."""

    parcel: int


class BookRoom(msgspec.Struct, frozen=True, tag="book"):
    """Survey, 1st or 2nd: a cube from reserve into a legal Museum room instead."""

    room: int


class NeutralParcel(msgspec.Struct, frozen=True, tag="neutral-parcel"):
    """Survey, 2 players: which parcel the neutral takes (it is discarded)."""

    parcel: int


Action = (
    Excavate
    | Extend
    | Pass
    | Violet
    | Lemon
    | Brown
    | Blackmore
    | Tangerine
    | NeutralExcavate
    | NeutralExtend
    | NeutralSkip
    | TakeParcel
    | BookRoom
    | NeutralParcel
)

# Action kinds of the integer codes.
EXCAVATE: Final = 0
EXTEND: Final = 1
PASS: Final = 2
VIOLET_A: Final = 3
VIOLET_B: Final = 4
LEMON_A: Final = 5
LEMON_B: Final = 6
BROWN: Final = 7
BLACKMORE: Final = 8
TANGERINE: Final = 9
NEUTRAL_A: Final = 10
NEUTRAL_B: Final = 11
NEUTRAL_SKIP: Final = 12
TAKE: Final = 13
BOOK: Final = 14
NEUTRAL_PARCEL: Final = 15


PLACED_COUNT: dict[int, int] = {
    EXCAVATE: 1, EXTEND: 2, VIOLET_A: 1, VIOLET_B: 2, LEMON_A: 1, LEMON_B: 2,
    BLACKMORE: 2, TANGERINE: 3, NEUTRAL_A: 1, NEUTRAL_B: 2,
}  # fmt: skip
"""How many cubes each placing kind puts on the region (in code fields a, b, c)."""

KIND_PATRON: dict[int, Patron] = {
    VIOLET_A: Patron.VIOLET, VIOLET_B: Patron.VIOLET, LEMON_A: Patron.LEMON,
    LEMON_B: Patron.LEMON, BROWN: Patron.BROWN, BLACKMORE: Patron.BLACKMORE,
    TANGERINE: Patron.TANGERINE,
}  # fmt: skip
"""The patron whose card an action kind turns."""


def code(kind: int, a: int = 0, b: int = 0, c: int = 0) -> int:
    return kind | a << 4 | b << 11 | c << 18


def _fields(action_code: int) -> tuple[int, int, int, int]:
    return (
        action_code & 15,
        action_code >> 4 & 127,
        action_code >> 11 & 127,
        action_code >> 18 & 127,
    )


def _build(action_code: int) -> Action:
    kind, a, b, c = _fields(action_code)
    builders: dict[int, Action] = {
        EXCAVATE: Excavate(a),
        EXTEND: Extend(a, b),
        PASS: Pass(),
        VIOLET_A: Violet((a,)),
        VIOLET_B: Violet((a, b)),
        LEMON_A: Lemon((a,)),
        LEMON_B: Lemon((a, b)),
        BROWN: Brown(a),
        BLACKMORE: Blackmore(a, b),
        TANGERINE: Tangerine((a, b, c)),
        NEUTRAL_A: NeutralExcavate(a),
        NEUTRAL_B: NeutralExtend(a, b),
        NEUTRAL_SKIP: NeutralSkip(),
        TAKE: TakeParcel(a),
        BOOK: BookRoom(a),
        NEUTRAL_PARCEL: NeutralParcel(a),
    }
    return builders[kind]


_FROM_CODE: dict[int, Action] = {}
_TO_CODE: dict[Action, int] = {}


def from_code(action_code: int) -> Action:
    """The action of an integer code (interned: equal codes give the same object)."""
    action = _FROM_CODE.get(action_code)
    if action is None:
        action = _FROM_CODE[action_code] = _build(action_code)
        _TO_CODE[action] = action_code
    return action


# The checks of a value read from outside raise ValueError with the reason alone; the
# caller (to_code, parse_action) turns it into a MalformedActionError naming the input.


def _space(value: object) -> int:
    if type(value) is not int or not 0 <= value < SPACES:
        raise ValueError(f"{value!r} is not a space of the region")
    return value


def _spaces(values: object, counts: tuple[int, ...]) -> tuple[int, ...]:
    if not isinstance(values, tuple) or len(values) not in counts:
        raise ValueError(f"expected {' or '.join(map(str, counts))} spaces, got {values!r}")
    return tuple(_space(v) for v in values)


def _index(value: object, limit: int, what: str) -> int:
    if type(value) is not int or not 0 <= value < limit:
        raise ValueError(f"{value!r} is not a {what}")
    return value


def to_code(action: Action) -> int:
    """The integer code of an action; raises :class:`MalformedActionError` if malformed."""
    try:
        return _TO_CODE[action]
    except (KeyError, TypeError):
        pass
    try:
        result = _encode(action)
    except ValueError as exc:
        raise MalformedActionError(action, str(exc)) from None
    _TO_CODE[action] = result
    _FROM_CODE.setdefault(result, action)
    return result


def _encode(action: object) -> int:
    """The code of a well-formed action; ``ValueError`` (the reason alone) otherwise."""
    match action:
        case Excavate(space=s):
            return code(EXCAVATE, _space(s))
        case Extend(first=a, second=b):
            return code(EXTEND, _space(a), _space(b))
        case Pass():
            return code(PASS)
        case Violet(spaces=ss):
            ss = _spaces(ss, (1, 2))
            return code(VIOLET_A, *ss) if len(ss) == 1 else code(VIOLET_B, *ss)
        case Lemon(spaces=ss):
            ss = _spaces(ss, (1, 2))
            return code(LEMON_A, *ss) if len(ss) == 1 else code(LEMON_B, *ss)
        case Brown(room=r):
            return code(BROWN, _index(r, ROOMS, "Museum room"))
        case Blackmore(first=a, second=b):
            return code(BLACKMORE, _space(a), _space(b))
        case Tangerine(spaces=ss):
            return code(TANGERINE, *_spaces(ss, (3,)))
        case NeutralExcavate(space=s):
            return code(NEUTRAL_A, _space(s))
        case NeutralExtend(first=a, second=b):
            return code(NEUTRAL_B, _space(a), _space(b))
        case NeutralSkip():
            return code(NEUTRAL_SKIP)
        case TakeParcel(parcel=p):
            return code(TAKE, _index(p, 12, "parcel"))
        case BookRoom(room=r):
            return code(BOOK, _index(r, ROOMS, "Museum room"))
        case NeutralParcel(parcel=p):
            return code(NEUTRAL_PARCEL, _index(p, 12, "parcel"))
    raise ValueError("not an action")


# ---------------------------------------------------------------- text notation

_WORDS: dict[type, str] = {
    Excavate: "A",
    Extend: "B",
    Pass: "pass",
    Violet: "violet",
    Lemon: "lemon",
    Brown: "brown",
    Blackmore: "blackmore",
    Tangerine: "tangerine",
    NeutralExcavate: "nA",
    NeutralExtend: "nB",
    NeutralSkip: "nskip",
    TakeParcel: "take",
    BookRoom: "book",
    NeutralParcel: "neutral",
}
_TYPE_OF_WORD = {word.lower(): action_type for action_type, word in _WORDS.items()}


def format_action(action: Action) -> str:
    """The action in the compact notation of this module (e.g. ``B c3 c4``)."""
    kind, a, b, c = _fields(to_code(action))
    word = _WORDS[type(action)]
    if kind in (PASS, NEUTRAL_SKIP):
        return word
    if kind in (BROWN, BOOK):
        return f"{word} {room_name(a)}"
    if kind in (TAKE, NEUTRAL_PARCEL):
        return f"{word} P{a + 1}"
    count = {EXTEND: 2, VIOLET_B: 2, LEMON_B: 2, BLACKMORE: 2, TANGERINE: 3, NEUTRAL_B: 2}
    spaces = (a, b, c)[: count.get(kind, 1)]
    return " ".join([word, *map(space_name, spaces)])


def parse_action(text: str) -> Action:
    """Parse the notation of :func:`format_action`; raises :class:`MalformedActionError`."""
    if not isinstance(text, str):
        raise MalformedActionError(text, "not an action in notation")
    word, *args = text.split() or [""]
    kind = _TYPE_OF_WORD.get(word.lower())
    if kind is None:
        raise MalformedActionError(text, f"unknown action {word!r}")
    try:
        action = _parse_args(kind, args)
        _encode(action)  # range checks
    except TypeError:  # an action built with too few or too many spaces
        raise MalformedActionError(text, f"wrong number of spaces for {word!r}") from None
    except ValueError as exc:
        raise MalformedActionError(text, str(exc)) from None
    return action


def _parse_args(kind: Any, args: list[str]) -> Action:
    """Build an action of ``kind`` from the words after its name."""
    if kind in (Pass, NeutralSkip):
        if args:
            raise ValueError("it takes no argument")
        return cast(Action, kind())
    one = (Brown, BookRoom, TakeParcel, NeutralParcel, Excavate, NeutralExcavate)
    if kind in one and len(args) != 1:
        raise ValueError("it takes one argument")
    if kind in (Brown, BookRoom):
        return cast(Action, kind(parse_room(args[0])))
    if kind in (TakeParcel, NeutralParcel):
        token = args[0]
        if token[:1].upper() != "P" or not token[1:].isdigit():
            raise ValueError(f"{token!r} is not a parcel (P1..P12)")
        return cast(Action, kind(int(token[1:]) - 1))
    spaces = tuple(parse_space(a) for a in args)
    if kind in (Violet, Lemon, Tangerine):
        return cast(Action, kind(spaces))
    return cast(Action, kind(*spaces))
