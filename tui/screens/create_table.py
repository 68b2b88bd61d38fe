"""Create a table on the server: 2–4 seats, each yours, reserved for a named player, open
to the first who joins, or a computer. The game starts as soon as no seat is open: a seat
kept for a named friend counts as taken (the game starts at once, and they join it when
they come), an open seat makes the table wait for someone to take it. The form says which,
in words, before the table is created.

Dismisses with the new table as the lobby lists it, or None when cancelled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from core.levels import Level
from saves import check_player_name
from table.protocol import TableInfo
from tui.widgets.cycler import Cycler
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
        Binding("down", "app.focus_next", "Next field", show=False),
        Binding("up", "app.focus_previous", "Previous field", show=False),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, directory: TableDirectory) -> None:
        super().__init__()
        self.directory = directory

    def compose(self) -> ComposeResult:
        with Vertical(id="create"):
            yield Static(Text("New table", style="bold"))
            with Horizontal(classes="field"):
                yield Static("Players", classes="label")
                yield Cycler(["2", "3", "4"], 1, id="count")
            for seat in range(MAX_SEATS):
                with Horizontal(classes="field seat", id=f"seat-{seat}"):
                    yield Static(f"Seat {seat + 1}", classes="label")
                    kind = 0 if seat == 0 else 1
                    yield Cycler(SEAT_KINDS, kind, id=f"kind-{seat}")
                    yield TextField("", placeholder="name", max_length=12, compact=True,
                                    id=f"name-{seat}")  # fmt: skip
                    yield Static(KIND_NOTES[SEAT_KINDS[kind]], classes="note", id=f"note-{seat}")
            with Horizontal(classes="field"):
                yield Static("Pace", classes="label")
                yield Cycler(list(PACES), 0, id="pace")
            with Horizontal(classes="field"):
                yield Static("Hints", classes="label")
                yield Cycler(list(HINTS), 0, id="hints")
            yield Static("", id="start-words")
            yield Static("", id="create-error")
            yield Static(
                "↑↓ fields · ←→ change · Enter creates the table · Esc cancel", classes="note"
            )

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#count", Cycler).focus()

    def on_cycler_changed(self, _event: Cycler.Changed) -> None:
        self._show_seats()
        self.query_one("#create-error", Static).update("")

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
        hints = HINTS[self.query_one("#hints", Cycler).value]
        try:
            table = await self.directory.create(specs, "", pace, wait, hints)  # type: ignore[arg-type]
        except (TableUnavailable, SeatError) as exc:
            self.query_one("#create-error", Static).update(Text(f"✗ {exc}", "reverse"))
            return
        self.dismiss(table)

    def action_cancel(self) -> None:
        self.dismiss(None)
