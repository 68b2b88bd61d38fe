"""Create a table on the server: 2–4 seats, each yours, reserved for a named player, open
to the first who joins, or a computer. The game starts as soon as no seat is open: a seat
kept for a named friend counts as taken (the game starts at once, and they join it when
they come), an open seat makes the table wait for someone to take it. The form says which,
in words, before the table is created.

It also takes the table's title (none: the table is named by its players) and your
colour; where you sit is the seat you make "you". The seats, the pace and the colour are
remembered for the player's next table (:class:`Remembered`, in the file the lobby gives).

Dismisses with the new table as the lobby lists it, or None when cancelled.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

import msgspec
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

import core
from core.levels import Level
from saves import check_player_name
from saves.atomic import write_atomically
from table.protocol import TableInfo
from tui.widgets.cycler import Cycler
from tui.widgets.keys import KeysBar
from tui.widgets.textfield import TextField

if TYPE_CHECKING:
    from table.client.directory import TableDirectory
    from table.protocol import SeatSpec, TableInfo

SEAT_KINDS = ["you", "open", "player", "computer easy", "computer normal", "computer hard"]
KIND_NOTES = {
    "you": "your own seat",
    "open": "the first who joins takes it",
    "player": "kept for them",
    "computer easy": "",
    "computer normal": "",
    "computer hard": "",
}
MAX_SEATS = 4
PACES = {
    "over days: the table waits": ("days", 300.0),
    "live: 2 min away, then a computer": ("live", 120.0),
    "live: 5 min away, then a computer": ("live", 300.0),
    "live: 15 min away, then a computer": ("live", 900.0),
}
"""The table's pace, from the slowest: a live table's present players may hand a seat to a
computer once its player has been away the time named (shortest wait first)."""
HINTS: dict[str, bool | None] = {
    "usual: on alone with computers, off with people": None,
    "on: / shows anyone the hard computer's move": True,
    "off for everyone": False,
}
"""Whether ``/`` gives hints at the table (None: the server's rule); everyone at the table
sees which on their status line."""


ANY_COLOUR = "any"
COLOURS = [ANY_COLOUR, *(colour.value for colour in core.Colour)]
"""Your colour: any (the first free one, by seat) or one of the game's."""

MAX_TITLE = 60
"""The longest title the server takes (``CreateTable.title``)."""

HINT = "Tab/↓ next field · ←→ change · Enter creates the table · Esc cancel"
"""The form's keys, under it: a friend's name is typed in its own field, reached by Tab
or ↓ (letters typed on the seat's selector go there too)."""


class Remembered(msgspec.Struct, frozen=True, kw_only=True):
    """The form as one player last sent it; wrong or unknown values fall back to the
    form's defaults (a preference is never worth refusing to open the form over)."""

    count: str = "3"
    kinds: list[str] = msgspec.field(default_factory=list)
    names: list[str] = msgspec.field(default_factory=list)
    pace: str = ""
    colour: str = ANY_COLOUR


def recall(path: Path | None, player: str) -> Remembered:
    """What ``player`` last chose in the form kept in ``path`` (one entry per player)."""
    if path is None:
        return Remembered()
    try:
        kept = msgspec.json.decode(path.read_bytes(), type=dict[str, Remembered])
    except (OSError, msgspec.DecodeError):
        return Remembered()
    return kept.get(player, Remembered())


def remember(path: Path | None, player: str, chosen: Remembered) -> None:
    """Keep ``chosen`` as ``player``'s entry in ``path``; a failure is silent (the table
    was created: only the next form's defaults are lost)."""
    if path is None:
        return
    try:
        kept = msgspec.json.decode(path.read_bytes(), type=dict[str, Remembered])
    except (OSError, msgspec.DecodeError):
        kept = {}
    kept[player] = chosen
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, msgspec.json.encode(kept) + b"\n")
    except OSError:
        pass


def start_words(kinds: list[str], names: list[str]) -> str:
    """When a table of these seats starts, in words: ``kinds`` as chosen in the form, and
    ``names`` the friends its ``player`` seats are kept for, as typed."""
    open_seats = kinds.count("open")
    if open_seats:
        seats = "1 open seat" if open_seats == 1 else f"{open_seats} open seats"
        return f"Waits for {seats} to be taken, then starts."
    if not names:
        return "Starts now."
    if not all(names):
        return "Starts now; the friends you name join when they come."
    if len(names) == 1:
        return f"Starts now; {names[0]} joins when they come."
    friends = ", ".join(names[:-1]) + " and " + names[-1]
    return f"Starts now; {friends} join when they come."


class CreateTableScreen(ModalScreen[TableInfo | None]):
    """The seats of a new table (see the module docstring)."""

    DEFAULT_CSS = """
    CreateTableScreen { align: center middle; }
    CreateTableScreen #create { width: 76; height: auto; border: thick $accent;
                                background: $surface; padding: 0 1; }
    CreateTableScreen .field { height: 1; }
    CreateTableScreen .label { width: 8; }
    CreateTableScreen TextField { width: 16; }
    CreateTableScreen .note { color: $text-muted; padding: 0 1; }
    CreateTableScreen #create-error { height: auto; }
    CreateTableScreen #start-words { height: auto; text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "create", "Create", priority=True),
        Binding("down", "app.focus_next", "Next field", key_display="Tab/↓"),
        Binding("up", "app.focus_previous", "Previous field", show=False),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, directory: TableDirectory, memory: Path | None = None) -> None:
        """``memory``: the file where the form's last settings are kept, per player (None:
        none is kept)."""
        super().__init__()
        self.directory = directory
        self.memory = memory
        self.last = recall(memory, directory.player)

    def compose(self) -> ComposeResult:
        with Vertical(id="create"):
            yield Static(Text("New table", style="bold"))
            last = self.last
            with Horizontal(classes="field"):
                yield Static("Players", classes="label")
                yield Cycler(["2", "3", "4"], _index(["2", "3", "4"], last.count, 1), id="count")
            for seat in range(MAX_SEATS):
                with Horizontal(classes="field seat", id=f"seat-{seat}"):
                    yield Static(f"Seat {seat + 1}", classes="label")
                    kinds = last.kinds[seat : seat + 1] or ["you" if seat == 0 else "open"]
                    kind = _index(SEAT_KINDS, kinds[0], 0 if seat == 0 else 1)
                    yield Cycler(SEAT_KINDS, kind, id=f"kind-{seat}")
                    name = (last.names[seat : seat + 1] or [""])[0][:12]
                    # Not selected on focus: a letter typed on the selector starts the name.
                    yield TextField(name, placeholder="name", max_length=12, compact=True,
                                    select_on_focus=False, id=f"name-{seat}")  # fmt: skip
                    yield Static(KIND_NOTES[SEAT_KINDS[kind]], classes="note", id=f"note-{seat}")
            with Horizontal(classes="field"):
                yield Static("Pace", classes="label")
                yield Cycler(list(PACES), _index(list(PACES), last.pace, 0), id="pace")
            with Horizontal(classes="field"):
                yield Static("Colour", classes="label")
                yield Cycler(COLOURS, _index(COLOURS, last.colour, 0), id="colour")
                yield Static("yours (any: the first free one)", classes="note")
            with Horizontal(classes="field"):
                yield Static("Title", classes="label")
                yield TextField("", placeholder="none: named by its players",
                                max_length=MAX_TITLE, compact=True, id="title")  # fmt: skip
            with Horizontal(classes="field"):
                yield Static("Hints", classes="label")
                yield Cycler(list(HINTS), 0, id="hints")
            yield Static("", id="start-words")
            yield Static("", id="create-error")
            yield Static(HINT, classes="note", id="create-hint")
        yield KeysBar()  # the form's keys, over the lobby's

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#count", Cycler).focus()

    def on_cycler_changed(self, _event: Cycler.Changed) -> None:
        self._show_seats()
        self.query_one("#create-error", Static).update("")

    def on_key(self, event: events.Key) -> None:
        """A letter typed on a seat's selector while it says "player" is the start of the
        friend's name: it goes into the name field (it was silently dropped)."""
        focused = self.focused
        character = event.character
        if not (isinstance(focused, Cycler) and (focused.id or "").startswith("kind-")):
            return
        if focused.value != "player" or character is None or not character.isalnum():
            return
        event.stop()
        event.prevent_default()
        field = self.query_one(f"#name-{(focused.id or '').removeprefix('kind-')}", Input)
        field.insert_text_at_cursor(character)
        field.focus()

    def on_input_changed(self, _event: Input.Changed) -> None:
        self._show_start()

    def _show_seats(self) -> None:
        count = int(self.query_one("#count", Cycler).value)
        for seat in range(MAX_SEATS):
            self.query_one(f"#seat-{seat}").display = seat < count
            kind = self.query_one(f"#kind-{seat}", Cycler).value
            self.query_one(f"#name-{seat}").display = kind == "player"
            self.query_one(f"#note-{seat}", Static).update(KIND_NOTES[kind])
        self._show_start()

    def _show_start(self) -> None:
        """Say when the table will start, as the seats now stand."""
        count = int(self.query_one("#count", Cycler).value)
        kinds = [self.query_one(f"#kind-{seat}", Cycler).value for seat in range(count)]
        names = [self.query_one(f"#name-{seat}", Input).value.strip()
                 for seat, kind in enumerate(kinds) if kind == "player"]  # fmt: skip
        words = start_words(kinds, names)
        self.query_one("#start-words", Static).update(Text(words))  # names as typed: plain

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_create()

    def seats(self) -> list[SeatSpec] | str:
        """The seats chosen, or why they cannot make a table."""
        from table.protocol import SeatSpec

        count = int(self.query_one("#count", Cycler).value)
        specs: list[SeatSpec] = []
        names: list[str] = []
        for seat in range(count):
            kind = self.query_one(f"#kind-{seat}", Cycler).value
            if kind == "you":
                specs.append(SeatSpec("player", self.directory.player))
                names.append(self.directory.player)
            elif kind == "open":
                specs.append(SeatSpec("open"))
            elif kind == "player":
                typed = self.query_one(f"#name-{seat}", Input).value.strip()
                try:
                    name = check_player_name(typed)
                except ValueError as exc:
                    return f"Seat {seat + 1}: {exc}."
                specs.append(SeatSpec("player", name))
                names.append(name)
            else:
                level = cast(Level, kind.partition(" ")[2])
                specs.append(SeatSpec("computer", level=level))
        colour = self.query_one("#colour", Cycler).value
        if colour != ANY_COLOUR:
            specs = [msgspec.structs.replace(spec, colour=core.Colour(colour))
                     if spec.name == self.directory.player else spec for spec in specs]  # fmt: skip
        if self.directory.player not in names:
            return "Keep a seat for yourself (“you”): you create the table to play at it."
        if len({n.lower() for n in names}) != len(names):
            return "Two seats are for the same player: each player sits once."
        return specs

    def action_create(self) -> None:
        specs = self.seats()
        if isinstance(specs, str):
            self.query_one("#create-error", Static).update(Text(f"✗ {specs}", "reverse"))
            self.app.bell()
            return
        self._create(specs)

    @work(exclusive=True)
    async def _create(self, specs: list[SeatSpec]) -> None:
        from table.client.directory import TableUnavailable
        from table.seat import SeatError

        pace, wait = PACES[self.query_one("#pace", Cycler).value]
        title = self.query_one("#title", Input).value.strip()
        hints = HINTS[self.query_one("#hints", Cycler).value]
        try:
            table = await self.directory.create(specs, title, pace, wait, hints)  # type: ignore[arg-type]
        except (TableUnavailable, SeatError) as exc:
            self.query_one("#create-error", Static).update(Text(f"✗ {exc}", "reverse"))
            return
        remember(self.memory, self.directory.player, self.chosen())
        self.dismiss(table)

    def chosen(self) -> Remembered:
        """The form's settings as they stand, to be the next form's (not the title: it
        names one table)."""
        return Remembered(
            count=self.query_one("#count", Cycler).value,
            kinds=[self.query_one(f"#kind-{seat}", Cycler).value for seat in range(MAX_SEATS)],
            names=[self.query_one(f"#name-{seat}", Input).value for seat in range(MAX_SEATS)],
            pace=self.query_one("#pace", Cycler).value,
            colour=self.query_one("#colour", Cycler).value,
        )

    def action_cancel(self) -> None:
        self.dismiss(None)


def _index(options: list[str], value: str, default: int) -> int:
    """Where ``value`` is among ``options``; ``default`` if it is not one (a file kept by
    another version, or edited)."""
    return options.index(value) if value in options else default
