"""Actions: every decision a player makes, as small frozen values with a text notation.

Each action is a tagged ``msgspec.Struct`` (so it encodes to JSON as is) and has an
integer code used on the fast internal path: its :class:`ActionKind` and up to three fields
(spaces, a room or a parcel), packed as named once in this module (:func:`code`,
:func:`kind_of`, :func:`field`, :func:`code_spaces`).
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

import enum
from typing import Any, Final, cast

import msgspec

from core.caches import register
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


class ActionKind(enum.IntEnum):
    """The kind of an action: one per action type, except that Lady Violet and Lord Lemon
    have two (one cube or two). It is the low bits of the action's integer code."""

    EXCAVATE = 0
    EXTEND = 1
    PASS = 2
    VIOLET_A = 3
    VIOLET_B = 4
    LEMON_A = 5
    LEMON_B = 6
    BROWN = 7
    BLACKMORE = 8
    TANGERINE = 9
    NEUTRAL_A = 10
    NEUTRAL_B = 11
    NEUTRAL_SKIP = 12
    TAKE = 13
    BOOK = 14
    NEUTRAL_PARCEL = 15


# The kinds as plain ints, which core's own code uses. Measured on Python 3.11: reading
# ``ActionKind.PASS`` costs about 200 ns against 15 ns for a module global, and an enum
# member as a dict key or list item hashes and compares slower than an int, on the paths
# that list and apply thousands of moves per game (bench/bench_core.py). Codes stay ints.
EXCAVATE: Final = int(ActionKind.EXCAVATE)
EXTEND: Final = int(ActionKind.EXTEND)
PASS: Final = int(ActionKind.PASS)
VIOLET_A: Final = int(ActionKind.VIOLET_A)
VIOLET_B: Final = int(ActionKind.VIOLET_B)
LEMON_A: Final = int(ActionKind.LEMON_A)
LEMON_B: Final = int(ActionKind.LEMON_B)
BROWN: Final = int(ActionKind.BROWN)
BLACKMORE: Final = int(ActionKind.BLACKMORE)
TANGERINE: Final = int(ActionKind.TANGERINE)
NEUTRAL_A: Final = int(ActionKind.NEUTRAL_A)
NEUTRAL_B: Final = int(ActionKind.NEUTRAL_B)
NEUTRAL_SKIP: Final = int(ActionKind.NEUTRAL_SKIP)
TAKE: Final = int(ActionKind.TAKE)
BOOK: Final = int(ActionKind.BOOK)
NEUTRAL_PARCEL: Final = int(ActionKind.NEUTRAL_PARCEL)

PLACED_COUNT: tuple[int, ...] = tuple(
    {EXCAVATE: 1, EXTEND: 2, VIOLET_A: 1, VIOLET_B: 2, LEMON_A: 1, LEMON_B: 2,
     BLACKMORE: 2, TANGERINE: 3, NEUTRAL_A: 1, NEUTRAL_B: 2}.get(kind, 0)
    for kind in ActionKind
)  # fmt: skip
"""``PLACED_COUNT[kind]``: how many cubes a kind puts on the region (in code fields a, b,
c); 0 for the kinds that place none."""

KIND_PATRON: tuple[Patron | None, ...] = tuple(
    {VIOLET_A: Patron.VIOLET, VIOLET_B: Patron.VIOLET, LEMON_A: Patron.LEMON,
     LEMON_B: Patron.LEMON, BROWN: Patron.BROWN, BLACKMORE: Patron.BLACKMORE,
     TANGERINE: Patron.TANGERINE}.get(kind)
    for kind in ActionKind
)  # fmt: skip
"""``KIND_PATRON[kind]``: the patron whose card a kind turns (None: no patron)."""


# ---------------------------------------------------------------- integer codes
# An action's code packs its kind and up to three fields (spaces, a room or a parcel):
#     kind | a << A_SHIFT | b << B_SHIFT | c << C_SHIFT
# This is the one place that knows the layout; everything else goes through these names.

KIND_BITS: Final = 4
FIELD_BITS: Final = 7
"""Bits per field: enough for a space (0..71), a Museum room (0..14) or a parcel (0..11)."""
KIND_MASK: Final = (1 << KIND_BITS) - 1
FIELD_MASK: Final = (1 << FIELD_BITS) - 1
A_SHIFT: Final = KIND_BITS
B_SHIFT: Final = A_SHIFT + FIELD_BITS
C_SHIFT: Final = B_SHIFT + FIELD_BITS
FIELD_SHIFTS: Final = (A_SHIFT, B_SHIFT, C_SHIFT)

if len(ActionKind) > 1 << KIND_BITS or SPACES > 1 << FIELD_BITS:  # pragma: no cover
    raise AssertionError("the code layout is too narrow for the kinds or the spaces")


def code(kind: int, a: int = 0, b: int = 0, c: int = 0) -> int:
    """The integer code of an action of ``kind`` with fields ``a``, ``b``, ``c``."""
    return kind | a << A_SHIFT | b << B_SHIFT | c << C_SHIFT


def kind_of(action_code: int) -> int:
    """The kind of a code, as the plain int of an :class:`ActionKind`."""
    return action_code & KIND_MASK


def field(action_code: int, index: int) -> int:
    """Field ``index`` (0, 1, 2: a, b, c) of a code: a space, a room or a parcel."""
    return action_code >> FIELD_SHIFTS[index] & FIELD_MASK


def code_spaces(action_code: int) -> tuple[int, ...]:
    """The spaces a code puts cubes on, in order (empty for kinds that place none)."""
    count = PLACED_COUNT[action_code & KIND_MASK]
    return tuple(action_code >> shift & FIELD_MASK for shift in FIELD_SHIFTS[:count])


def _build(action_code: int) -> Action:
    kind = kind_of(action_code)
    a, b, c = field(action_code, 0), field(action_code, 1), field(action_code, 2)
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


# The intern tables of from_code / to_code (every code met so far, a few thousand).
_FROM_CODE: dict[int, Action] = register({})
_TO_CODE: dict[Action, int] = register({})


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


def action_kind(action: Action) -> ActionKind:
    """The kind of ``action`` (Violet and Lemon by their number of cubes); raises
    :class:`MalformedActionError` if it is malformed."""
    return ActionKind(kind_of(to_code(action)))


def placed_spaces(action: Action) -> tuple[int, ...]:
    """The spaces ``action`` puts cubes on, in the order they are placed (empty for an
    action that places none); raises :class:`MalformedActionError` if it is malformed."""
    return code_spaces(to_code(action))


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
    action_code = to_code(action)
    kind, index = kind_of(action_code), field(action_code, 0)
    word = _WORDS[type(action)]
    if kind in (BROWN, BOOK):
        return f"{word} {room_name(index)}"
    if kind in (TAKE, NEUTRAL_PARCEL):
        return f"{word} P{index + 1}"
    return " ".join([word, *map(space_name, code_spaces(action_code))])


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
