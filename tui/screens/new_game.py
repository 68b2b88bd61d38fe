"""New game: 2–4 players with names, colours, human or computer (easy/normal/hard), a seed.

Returns a `NewGameChoice` (dismiss); the app starts the session. Tab or ↑/↓ move between
fields, ←/→ change a choice, Enter starts.
"""

from __future__ import annotations

from typing import ClassVar, cast

import msgspec
from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, Static

import core
from core.levels import Level
from saves import check_player_name
from tui.messages import LoadRequested, TablesRequested
from tui.screens.styled import LaidOutPerSize, StyledAtMount
from tui.widgets.cycler import Cycler
from tui.widgets.keys import KeysBar
from tui.widgets.textfield import TextField

COLOURS = [c.value for c in core.Colour]
SEAT_KINDS = ["human", "computer easy", "computer normal", "computer hard"]
DEFAULT_NAMES = ["Ann", "Ben", "Cleo", "Dan"]
NEUTRAL_NOTE = "2 players: a neutral archaeologist (N) joins in"
SEED_NOTE = "empty: a random deal; same number, same deal"
FIRST_COUNT = 3
"""Players the form offers first."""
NAME_CELLS = 12
"""A name's width in terminal cells (not characters): the panels and tables are laid out
for it."""


def name_or(name: str, fallback: str) -> str:
    """``name`` if it can be a player's name in the form, else ``fallback``."""
    try:
        check_player_name(name)
    except ValueError:
        return fallback
    return name if cell_len(name) <= NAME_CELLS else fallback


def _seat_row(seat: int) -> Horizontal:
    """The form's row of ``seat`` (0-based): its name, colour and kind, as first offered."""
    return Horizontal(
        Static(f"Seat {seat + 1}", classes="label"),
        TextField(DEFAULT_NAMES[seat], max_length=NAME_CELLS, compact=True, id=f"name-{seat}"),
        Cycler(COLOURS, seat, id=f"colour-{seat}"),
        Cycler(SEAT_KINDS, 0 if seat == 0 else 2, id=f"kind-{seat}"),
        classes="field seat",
        id=f"seat-{seat}",
    )


class SeatChoice(msgspec.Struct, frozen=True):
    name: str
    colour: core.Colour
    kind: str
    level: Level | None


class NewGameChoice(msgspec.Struct, frozen=True):
    """What the players chose: the seats in turn order and an optional seed."""

    seats: tuple[SeatChoice, ...]
    seed: int | None


class NewGameScreen(StyledAtMount, LaidOutPerSize, Screen[None]):
    """The form; posts `Chosen` with the choice, or with None on Esc (back to the game)."""

    class Chosen(Message):
        """The players started a game (or went back: ``choice`` None)."""

        def __init__(self, choice: NewGameChoice | None) -> None:
            self.choice = choice
            super().__init__()

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", "Start"),
        Binding("down", "app.focus_next", "Next field", show=False),
        Binding("up", "app.focus_previous", "Previous field", show=False),
        # Esc goes back to the game in progress, or quits when there is none (check_action
        # enables one of the two, so the keys bar names what Esc does).
        Binding("escape", "cancel", "Back"),
        Binding("escape", "quit", "Quit"),
        Binding("question_mark,f1", "help", "Help"),
        # o is typed into a name field; Ctrl+O opens the list from anywhere.
        Binding("o,ctrl+o", "load", "Load…", key_display="o"),
        # Shown when a table server answered: its lobby (t is typed into a name field).
        Binding("ctrl+t", "tables", "Play with others", key_display="^t"),
        # L is typed into a name field (and l changes a choice); Ctrl+L works everywhere.
        Binding("L,ctrl+l", "learn", "Learn to play", key_display="L"),
        # q is typed into a name field when one has focus; Esc and ctrl+q work everywhere.
        Binding("q,ctrl+q", "quit", "Quit", show=False),
    ]

    def __init__(
        self,
        seed: int | None = None,
        can_cancel: bool = False,
        tables: bool = False,
        cards: str | None = None,
    ) -> None:
        """``tables``: a table server answered, so its lobby is one key away; ``cards``:
        the cards file new games are played with (None: the built-in deck)."""
        super().__init__()
        self.cards = cards
        self.seed = seed
        self.can_cancel = can_cancel
        self.tables = tables

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.can_cancel
        if action == "tables":
            return self.tables
        return True

    def action_tables(self) -> None:
        self.post_message(TablesRequested())

    def compose(self) -> ComposeResult:
        with Vertical(id="new-game"):
            yield Static("[b]Mykerinos[/b] — new game", id="new-game-title")
            with Horizontal(classes="field"):
                yield Static("Players", classes="label")
                yield Cycler(["2", "3", "4"], FIRST_COUNT - 2, id="count")
                yield Static(NEUTRAL_NOTE, id="neutral-note", classes="note")
            # The rows of the first count only: a row is five widgets, and Textual spends a
            # couple of milliseconds on each as the form opens (_show_seats adds the rest).
            yield from map(_seat_row, range(FIRST_COUNT))
            with Horizontal(classes="field"):
                yield Static("Seed", classes="label")
                seed = "" if self.seed is None else str(self.seed)
                yield TextField(seed, placeholder="random", max_length=9, compact=True, id="seed")
                yield Static(SEED_NOTE, classes="note")
            if self.cards is not None:
                with Horizontal(classes="field"):
                    yield Static("Cards", classes="label")
                    yield Static(Text(f"{self.cards} (custom, --cards)"), id="cards-note")
            yield Static("", id="new-game-error")
            yield Static(
                "Tab/↑↓ fields · ←→ change · Enter starts · o saved games · L learn to play · "
                + ("^t play with others · " if self.tables else "")
                + ("Esc back to the game" if self.can_cancel else "Esc quits"),
                classes="keys",
            )
        yield KeysBar()

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#count", Cycler).focus()

    def on_cycler_changed(self, event: Cycler.Changed) -> None:
        if event.cycler.id == "count":
            self._show_seats()
        self._clear_error()

    def on_input_changed(self, _event: Input.Changed) -> None:
        self._clear_error()

    def say_wrong_key(self, words: str) -> None:
        """A key that means nothing here (the app found it so), on the error line."""
        self.query_one("#new-game-error", Static).update(Text(f"✗ {words}", "reverse"))

    def _clear_error(self) -> None:
        """A refusal is about the fields as they were: once they change it no longer holds."""
        self.query_one("#new-game-error", Static).update("")

    def _show_seats(self) -> None:
        """The rows of the seats in play shown, the others hidden (each keeps what was
        typed or chosen in it); a row never shown yet is added now, after the last one."""
        count = self.player_count
        rows = list(self.query(".seat"))
        if len(rows) < count:
            more = [_seat_row(seat) for seat in range(len(rows), count)]
            # mount() puts them in the DOM at once, so choice() finds them straight away.
            self.query_one("#new-game").mount_all(more, after=rows[-1])
            rows += more
        for seat, row in enumerate(rows):
            row.display = seat < count
        self.query_one("#neutral-note").display = count == 2

    @property
    def player_count(self) -> int:
        return int(self.query_one("#count", Cycler).value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def choice(self) -> NewGameChoice | str:
        """The form's choice, or the reason it cannot start yet."""
        seats = []
        for seat in range(self.player_count):
            name = self.query_one(f"#name-{seat}", Input).value.strip() or DEFAULT_NAMES[seat]
            colour = core.Colour(self.query_one(f"#colour-{seat}", Cycler).value)
            kind, _, level = self.query_one(f"#kind-{seat}", Cycler).value.partition(" ")
            seats.append(SeatChoice(name, colour, kind, cast(Level, level) if level else None))
        for seat_choice in seats:
            try:
                check_player_name(seat_choice.name)
            except ValueError as exc:
                return f"{seat_choice.name!r} cannot be a name: {exc}."
        colours = [s.colour for s in seats]
        if len(set(colours)) != len(colours):
            return "Two players have the same colour: give each player a different colour."
        wide = next((s.name for s in seats if cell_len(s.name) > NAME_CELLS), None)
        if wide is not None:
            return (
                f"{wide!r} is too wide: a name fits in {NAME_CELLS} columns "
                "(日本語 letters and most emoji take two)."
            )
        names = [s.name.lower() for s in seats]
        if len(set(names)) != len(names):
            return "Two players have the same name: give each player a different name."
        text = self.query_one("#seed", Input).value.strip()
        if text and not (text.isascii() and text.isdigit()):
            return f"The seed must be a whole number (digits only), not {text!r}, or empty."
        return NewGameChoice(tuple(seats), int(text) if text else None)

    def action_start(self) -> None:
        choice = self.choice()
        if isinstance(choice, str):
            # A Text, not markup: the reason quotes what was typed ('[b' must not be a tag).
            self.query_one("#new-game-error", Static).update(Text(f"✗ {choice}", "reverse"))
            self.app.bell()
            return
        self.post_message(self.Chosen(choice))

    def action_cancel(self) -> None:
        """Esc: back to the game in progress."""
        self.post_message(self.Chosen(None))

    def action_quit(self) -> None:
        """Leave the program: nothing has started, so nothing is lost."""
        self.app.exit()

    def action_load(self) -> None:
        """The saved games (finished ones to replay, too); Esc there comes back here."""
        self.post_message(LoadRequested())

    def action_learn(self) -> None:
        """The lessons; Esc there comes back to this form."""
        from tui.screens.lessons import LessonsRequested

        self.post_message(LessonsRequested("new"))

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())
