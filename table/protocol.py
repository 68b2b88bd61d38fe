"""The table protocol: what the server and its clients say to each other.

A connection carries **frames**: a 4-byte big-endian length, then one message of JSON
(not msgpack: the board's masks are integers of up to 72 bits). Every message is a
``msgspec`` Struct tagged by its class (``"t"``), so a frame decodes to exactly one
:data:`ClientMessage` or :data:`ServerMessage`; anything else is refused.

The exchange:

1. The client sends :class:`Hello` (the protocol version, the player name it claims, and
   in a door's session the ticket the door gave it). The server answers :class:`Welcome`
   (the name it grants, from the socket's peer credentials or the ticket) or
   :class:`Error` and closes.
2. Requests (:data:`Request`) each carry a ``ref`` chosen by the client; the answer (or
   :class:`Error`) carries the same ``ref``.
3. While a client sits at or watches a table it receives, unasked (``ref`` 0), a
   :class:`Told` for every change of the table: the entries it added to the table's
   journal (:mod:`table.journal`: a move, an undo, a line of chat, a pause and its end, a
   hand-over, a player away or back, the end), the table as it stands after them, and for
   a move the public position after it; and an :class:`Error` with ``ref`` 0 when the
   server stops. Sitting or watching is answered by a :class:`Snapshot` (the history and
   the journal so far).
4. A finished table's analysis is the server's (:class:`Analyse`): its progress comes
   unasked as :class:`Analysing`, its result as :class:`Analysed`. These messages were
   added without a new version: an older client never asks, an older server refuses the
   request as malformed (which a newer client says in words).
5. A player's notices away from the terminal (:mod:`table.protocol_notices`): five
   requests, each answered by a ``NoticeState``; added in the same way.

**Hidden information never crosses**: every :class:`core.GameState` the server sends is a
public view (``core.public.public_view``: the undealt parcels in a canonical order, the
seed 0). A :class:`Snapshot`'s ``start`` is built so that replaying its ``actions`` ends
at the public view of the table's position and passes through positions with the same
public views as the real ones: its deck is the parcels dealt so far, in the order they
were dealt, then the undealt ones in canonical order (``core.public_start``).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Annotated, Final

import msgspec

import core
from core.analysis import Analysis
from core.levels import Level
from table import journal
from table.protocol_notices import NoticeRequest as NoticeRequest
from table.protocol_notices import NoticeState as NoticeState
from table.protocol_tables import Pace as Pace
from table.protocol_tables import SeatInfo as SeatInfo
from table.protocol_tables import SeatKind as SeatKind
from table.protocol_tables import SeatSpec as SeatSpec
from table.protocol_tables import TableInfo as TableInfo
from table.protocol_tables import TableStatus as TableStatus

if TYPE_CHECKING:
    import asyncio

VERSION: Final = 3
"""The protocol version; a server refuses a client speaking another one, in one line that
says to update (3: the table's journal replaced the chat, notes and stand-ins of 2)."""

HEADER: Final = struct.Struct(">I")
"""A frame's length prefix."""

MAX_REQUEST: Final = 64 * 1024
"""The largest frame a server reads from a client; a longer one closes the connection."""

MAX_FRAME: Final = 8 * 1024 * 1024
"""The largest frame a client reads from the server (a long game's snapshot is ~30 KB)."""

MAX_CHAT: Final = 200
"""Characters in one line of chat."""
CHAT_KEPT: Final = 200
"""Lines of chat a snapshot's journal carries at most (every other entry is always there)."""

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
Ref = Annotated[int, msgspec.Meta(ge=0, le=2**31)]
TableId = Annotated[int, msgspec.Meta(ge=1, le=2**62)]
SeatIndex = Annotated[int, msgspec.Meta(ge=0, le=3)]


class _Message(msgspec.Struct, frozen=True, tag_field="t", forbid_unknown_fields=True):
    pass


# ---------------------------------------------------------------- client → server


class Hello(_Message, frozen=True, tag="hello", omit_defaults=True):
    """Sent without its defaults, so a hello without a ticket is the hello of every
    client of version 2 (a server that does not know ``ticket`` still reads it)."""

    version: int
    player: Name | None = None
    """The name claimed: honoured from a trusted account, else it must be the login."""
    ticket: Annotated[str, msgspec.Meta(max_length=128)] | None = None
    """A door's session: the ticket the door gave the process it started; the server
    grants the ticket's player whatever ``player`` says (only to the server's own
    account, as which the door's sessions run)."""


class ListTables(_Message, frozen=True, tag="list"):
    ref: Ref


class CreateTable(_Message, frozen=True, tag="create"):
    ref: Ref
    seats: Annotated[tuple[SeatSpec, ...], msgspec.Meta(min_length=2, max_length=4)]
    title: Annotated[str, msgspec.Meta(max_length=60)] = ""
    pace: Pace = "days"
    wait: Annotated[float, msgspec.Meta(ge=1, le=86400)] = 300
    """Seconds away before a live table's present players may hand the seat over."""
    hints: bool | None = None  # None: the server's rule (table.server.rules.default_hints)


class Join(_Message, frozen=True, tag="join"):
    """Sit at ``table``: your reserved seat, or ``seat`` if it is open (None: the first
    open seat). Sitting again where you already sit just resumes (a new Snapshot).
    ``back``: the player comes back (a seat a computer plays for them is theirs again);
    False when a terminal reconnects by itself, which changes nobody's seat."""

    ref: Ref
    table: TableId
    seat: SeatIndex | None = None
    back: bool = True


class Watch(_Message, frozen=True, tag="watch"):
    ref: Ref
    table: TableId


class Play(_Message, frozen=True, tag="play"):
    """Play ``action`` at ``table`` as the position after ``seq`` actions: a stale ``seq``
    (someone acted meanwhile) is refused, never applied to the wrong position."""

    ref: Ref
    table: TableId
    seq: Annotated[int, msgspec.Meta(ge=0)]
    action: core.Action


class Undo(_Message, frozen=True, tag="undo"):
    """Take back your own last action (only until the next player acts or parcels are dealt)."""

    ref: Ref
    table: TableId
    seq: Annotated[int, msgspec.Meta(ge=0)]


class Leave(_Message, frozen=True, tag="leave"):
    ref: Ref
    table: TableId


class HandOver(_Message, frozen=True, tag="hand-over"):
    """Hand your seat at ``table`` to a computer player of ``level`` (None: take it back);
    at a live table, ``seat`` names a player's seat away longer than the table's wait.
    Answered by :class:`Told`."""

    ref: Ref
    table: TableId
    level: Level | None
    seat: SeatIndex | None = None


class Pause(_Message, frozen=True, tag="pause"):
    """Pause a live table for everyone ("back in 10 minutes"): once per player per season.
    Answered by :class:`Told`."""

    ref: Ref
    table: TableId
    minutes: Annotated[int, msgspec.Meta(ge=1, le=30)] = 10


class Resume(_Message, frozen=True, tag="resume"):
    """End your pause of ``table`` now, for everyone (only the player who paused it, while
    the pause runs). Answered by :class:`Told`."""

    ref: Ref
    table: TableId


class Say(_Message, frozen=True, tag="say"):
    """A line of chat at ``table`` (players and spectators; answered by :class:`Told`)."""

    ref: Ref
    table: TableId
    text: Annotated[str, msgspec.Meta(max_length=MAX_CHAT)]


class Ladder(_Message, frozen=True, tag="ladder"):
    """The server's ladder (answered by :class:`Standings`)."""

    ref: Ref


class Export(_Message, frozen=True, tag="export"):
    ref: Ref
    table: TableId


class Analyse(_Message, frozen=True, tag="analyse"):
    """Have the server analyse the finished game at ``table``, the decisions of ``seats``
    (None: everyone's), as anyone who may replay it. Answered by :class:`Analysed` when
    all is kept already, else by a first :class:`Analysing` and then, unasked (``ref``
    0), one more as each decision is judged and the :class:`Analysed` once done. A table
    has one analysis at a time, shared by all who follow it. ``kept``: only what is kept
    (:class:`Analysed`, None if nothing), no analysis starts."""

    ref: Ref
    table: TableId
    seats: Annotated[tuple[SeatIndex, ...], msgspec.Meta(min_length=1, max_length=4)] | None = None
    kept: bool = False


class StopAnalysing(_Message, frozen=True, tag="stop-analysing"):
    """Stop following the analysis of ``table``: answered by :class:`Analysed` with what is
    judged so far; the analysis stops once nobody follows it, keeping what is done."""

    ref: Ref
    table: TableId


Request = (
    ListTables
    | CreateTable
    | Join
    | Watch
    | Play
    | Undo
    | Leave
    | HandOver
    | Pause
    | Resume
    | Say
    | Ladder
    | Export
    | Analyse
    | StopAnalysing
    | NoticeRequest  # a player's notices far from the terminal (table.protocol_notices)
)
"""What a client may ask once it has said hello (each carries a ``ref``)."""
ClientMessage = Hello | Request


# ---------------------------------------------------------------- server → client


class Welcome(_Message, frozen=True, tag="welcome"):
    version: int
    player: str
    """The name this connection plays as."""


class Error(_Message, frozen=True, tag="error"):
    """A request refused (``ref`` of the request; 0 when the frame could not be read).
    ``reason`` is a sentence a player can read."""

    ref: int
    reason: str
    table: int | None = None


class Lobby(_Message, frozen=True, tag="lobby"):
    ref: int
    tables: tuple[TableInfo, ...]


class Snapshot(_Message, frozen=True, tag="snapshot"):
    """The whole public history of a table: ``start`` then ``actions``; ``seats_here`` are
    the seats this connection decides for (empty when watching); ``journal`` is the
    table's journal so far (:mod:`table.journal`) less its oldest lines of chat beyond
    :data:`CHAT_KEPT` (never another entry), and ``first`` how many were so left out: the
    table's has ``first + len(journal)`` entries, the next Told's ``n`` (a count only)."""

    ref: int
    table: TableInfo
    start: core.GameState
    actions: tuple[core.Action, ...]
    seats_here: tuple[int, ...]
    journal: tuple[journal.Any, ...] = ()
    first: int = 0


class Told(_Message, frozen=True, tag="told"):
    """``entries`` were added to the journal of table ``table.id``, the first as entry
    number ``n``; ``table`` is how it stands after them. When they hold a move,
    ``state`` is the public position after it and ``events`` what it did in words (an
    undo's entry: the client drops the last action and position itself). ``ref`` answers
    the request (0: another's news); no entry: a change no log says, or none (sender only)."""

    ref: int
    table: TableInfo
    n: int
    entries: tuple[journal.Any, ...]
    state: core.GameState | None = None
    events: tuple[core.Event, ...] = ()


class Standing(msgspec.Struct, frozen=True):
    """A player's line of the ladder: rating ``mu`` ± ``sigma`` (ranked by
    ``mu - 3 sigma``), games finished and won."""

    name: str
    mu: float
    sigma: float
    games: int
    wins: int


class Standings(_Message, frozen=True, tag="standings"):
    """The ladder, best first."""

    ref: int
    rows: tuple[Standing, ...]


class Exported(_Message, frozen=True, tag="exported"):
    ref: int
    save: bytes  # an ordinary save file's bytes (``saves`` JSON)


class Analysing(_Message, frozen=True, tag="analysing"):
    """How far the analysis of ``table`` is for the seats asked: ``done`` decisions of
    ``total`` judged, ``left`` seconds to go (None until a pace is known)."""

    ref: int
    table: int
    done: int
    total: int
    left: float | None = None


class Analysed(_Message, frozen=True, tag="analysed"):
    """The analysis of ``table`` for the seats asked, as far as it went (``complete``
    False: stopped part-way). Never longer than :data:`MAX_FRAME`: the server refuses
    rather than send it."""

    ref: int
    table: int
    analysis: Analysis | None


ServerMessage = (
    Welcome | Error | Lobby | Snapshot | Told | Standings | Exported | Analysing | Analysed
    | NoticeState
)  # fmt: skip


# ---------------------------------------------------------------- frames

_ENCODER = msgspec.json.Encoder()
_CLIENT: msgspec.json.Decoder[ClientMessage] = msgspec.json.Decoder(ClientMessage)
_SERVER: msgspec.json.Decoder[ServerMessage] = msgspec.json.Decoder(ServerMessage)


class ProtocolError(Exception):
    """A frame that is not a message of this protocol (``str``: why, in words); ``ref``: the
    request's own if it could be read (0 otherwise), so the refusal answers it; ``fatal``:
    the connection cannot go on (the stream is out of step)."""

    def __init__(self, reason: str, ref: int = 0, *, fatal: bool = False) -> None:
        super().__init__(reason)
        self.ref = ref
        self.fatal = fatal


def frame(message: ClientMessage | ServerMessage) -> bytes:
    """``message`` as one frame: length prefix, then JSON."""
    body = _ENCODER.encode(message)
    return HEADER.pack(len(body)) + body


def read_client(body: bytes) -> ClientMessage:
    """Decode a frame's body from a client; raises :class:`ProtocolError`."""
    try:
        return _CLIENT.decode(body)
    except (msgspec.DecodeError, RecursionError, ValueError) as exc:  # ValueError: bad UTF-8
        raise ProtocolError(f"malformed request: {_said(exc)}", _ref_of(body)) from None


def _ref_of(body: bytes) -> int:
    """The ``ref`` of a request that did not decode as one, if it has a plausible one."""
    try:
        raw = msgspec.json.decode(body)
    except (msgspec.DecodeError, RecursionError, ValueError):
        return 0
    ref = raw.get("ref") if isinstance(raw, dict) else None
    return ref if type(ref) is int and 0 < ref <= 2**31 else 0


def read_server(body: bytes) -> ServerMessage:
    """Decode a frame's body from the server; raises :class:`ProtocolError`."""
    try:
        return _SERVER.decode(body)
    except (msgspec.DecodeError, RecursionError, ValueError) as exc:
        raise ProtocolError(f"malformed message from the server: {_said(exc)}") from None


def _said(exc: Exception) -> str:
    """A decoding error in words, short and printable (it may quote the hostile input)."""
    words = str(exc) or type(exc).__name__
    return "".join(c if c.isprintable() else "?" for c in words)[:120]


async def read_body(reader: asyncio.StreamReader, limit: int, what: str) -> bytes:
    """The body of the next frame on ``reader``; :class:`ProtocolError` if its length is
    over ``limit`` (``what``: "request", "frame from the server"), without reading it."""
    (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
    if size > limit:
        raise ProtocolError(f"a {what} of {size} bytes is too long")
    return await reader.readexactly(size)
