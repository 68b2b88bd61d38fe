"""Small modal dialogs: confirm, save as, resume-or-new."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from saves.text import JOINERS, check_shown_text, hidden_character
from table.seat import SeatError
from tui.widgets.textfield import TextField


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or Enter says yes, n or Esc says no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, markup=False)  # it quotes titles and names
            yield Static("[b]y[/b] yes    [b]n[/b] no", classes="keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ShownLineField(TextField):
    """The field of a line shown to others: a key or a paste holding a character that does
    not show as itself is not taken (the field says so, naming it, in :class:`Refused`);
    a zero-width joiner is typed, to be judged in context when the line is sent.

    Handled here, in typing order, and not where the key bubbles to: the keys that follow
    it may already be typed by then."""

    class Refused(Message):
        def __init__(self, character: str, left_out: str) -> None:
            super().__init__()
            self.character = character
            """In words: "U+202E RIGHT-TO-LEFT OVERRIDE"."""
            self.left_out = left_out
            """What was left out: "it was not typed", "the paste was left out"."""

    async def on_key(self, event: events.Key) -> None:
        char = event.character
        if char is None or len(char) != 1 or unicodedata.category(char) == "Cc":
            return  # a control key (Tab, Ctrl+A…) edits: not a character of the line
        if char in JOINERS:
            self.insert_text_at_cursor(char)
        elif (hidden := hidden_character(char)) is not None:
            self.post_message(self.Refused(hidden, "it was not typed"))
        else:
            return
        event.stop()
        event.prevent_default()

    def on_paste(self, event: events.Paste) -> None:
        hidden = next(
            (h for c in event.text if c not in JOINERS and (h := hidden_character(c))), None
        )
        if hidden is not None:
            self.post_message(self.Refused(hidden, "the paste was left out"))
            event.stop()
            event.prevent_default()


class LinePrompt(ModalScreen[str | None]):
    """Ask for one line and act on it; Enter acts, Esc cancels. ``act(line)`` does it and
    returns what to tell the player, or raises ``SeatError`` saying why not: the dialog
    then stays open with the reason, so the line can be corrected. Dismisses with the
    sentence to tell, or None when cancelled.

    Keys typed with the key that opened it reach this screen before its field has focus
    (the game screen binds Ctrl+S with priority, so they do not go to the board): they are
    typed into the field, in order.

    A line shown to others (``what`` names it: "the message") holds only characters that
    show as themselves: one that does not (a bidi override, a zero-width space, a blank
    look-alike…) is refused as it is typed or pasted, naming the character as the server
    would, and the line stays open to be corrected; a zero-width joiner, allowed between
    two visible characters, is judged at Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        question: str,
        value: str,
        act: Callable[[str], str],
        *,
        verb: str,
        empty: str,
        max_length: int = 0,
        what: str | None = None,
    ) -> None:
        """``verb`` names what Enter does ("save"); ``empty`` says what to type when the
        line is empty; ``max_length`` bounds the line (0: no bound); ``what`` names a line
        shown to others, whose hidden characters are refused (None: not checked here)."""
        super().__init__()
        self.question, self.value, self.act = question, value, act
        self.verb, self.empty, self.max_length, self.what = verb, empty, max_length, what

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, markup=False)
            field = TextField if self.what is None else ShownLineField
            yield field(value=self.value, max_length=self.max_length, id="name")
            yield Static("", id="refusal", markup=False)
            yield Static(f"[b]Enter[/b] {self.verb}    [b]Esc[/b] cancel", classes="keys")

    async def on_key(self, event: events.Key) -> None:
        if await self.query_one(TextField).take(event):
            event.stop()

    def on_shown_line_field_refused(self, event: ShownLineField.Refused) -> None:
        self._refuse(f"{event.character} is not allowed in {self.what}: {event.left_out}")

    def on_text_field_cut(self, event: TextField.Cut) -> None:
        what = self.what or "the line"
        self._refuse(f"{what} holds at most {event.most} characters: {event.kept} of the "
                     f"{event.pasted} pasted were kept")  # fmt: skip

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        try:
            if not line:
                raise SeatError(self.empty)
            if self.what is not None:
                self._check_shown(line, self.what)
            said = self.act(line)
        except SeatError as exc:
            self._refuse(str(exc))
            return
        self.dismiss(said)

    @staticmethod
    def _check_shown(line: str, what: str) -> None:
        """Refuse, as the server would, a line holding a character that does not show as
        itself: a joiner not between two visible characters, too many combining marks in
        a row (the field never takes the others)."""
        try:
            check_shown_text(line, what)
        except ValueError as exc:
            raise SeatError(str(exc)) from None

    def _refuse(self, reason: str) -> None:
        self.query_one("#refusal", Static).update(f"✗ {reason}")
        self.app.bell()

    def action_cancel(self) -> None:
        self.dismiss(None)


class SaveAsScreen(LinePrompt):
    """Name the game (its save is renamed): ``save(name)`` as in :class:`LinePrompt`. At a
    shared table, ``export`` says where the copy exported from it goes (``here``: a save
    on this machine; ``browser``: a download); the table itself is left as it is."""

    QUESTIONS: ClassVar[dict[str | None, str]] = {
        None: "Name this game (its save is renamed):",
        "here": "Export a copy of this table's game to a save here (the table plays on). "
        "Name the copy:",
        "browser": "Export a copy of this table's game: your browser downloads it "
        "(the table plays on). Name the file:",
    }

    def __init__(self, current: str, save: Callable[[str], str], export: str | None = None) -> None:
        super().__init__(
            self.QUESTIONS[export],
            current,
            save,
            verb="save" if export is None else "export",
            empty="Type a name for the save (letters, digits, spaces, _ and -).",
        )


class InfoScreen(ModalScreen[None]):
    """Words to read (shown as they are, no markup); Enter or Esc closes."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter", "close", "Close")]

    def __init__(self, words: str) -> None:
        super().__init__()
        self.words = words

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):  # a command stays on one line, to copy
            yield Static(self.words, markup=False, id="info")
            yield Static("[b]Enter[/b] close", classes="keys")

    def action_close(self) -> None:
        self.dismiss(None)


class ResumeScreen(ModalScreen[str]):
    """On launch with an unfinished game: resume it, start a new one, or load another."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r,enter", "pick('resume')", "Resume"),
        Binding("n", "pick('new')", "New game"),
        Binding("o", "pick('load')", "Load…"),
        Binding("q,escape", "pick('quit')", "Quit"),
    ]

    def __init__(self, title: str, season: int, elsewhere: str | None = None) -> None:
        """``elsewhere``: who has the game open in another window, if anyone."""
        super().__init__()
        self.title_text = title
        self.season = season
        self.elsewhere = elsewhere

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("[b]An unfinished game is waiting[/b]")
            yield Static(f"{self.title_text}, season {self.season}", markup=False)
            if self.elsewhere:
                yield Static(f"Open {self.elsewhere}.", markup=False, id="elsewhere")
            yield Static(
                "[b]r[/b]/Enter resume   [b]n[/b] new game   [b]o[/b] load…   [b]q[/b] quit",
                classes="keys",
            )

    def action_pick(self, choice: str) -> None:
        self.dismiss(choice)


class ElsewhereScreen(ModalScreen[str | None]):
    """A game open in another window (a second login): watch it read-only, or take it
    over (the other window becomes read-only at its next move). Dismisses with
    ``"watch"``, ``"take"`` or None (back)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w,enter", "pick('watch')", "Watch"),
        Binding("t", "pick('take')", "Take over"),
        Binding("escape,n", "pick(None)", "Back"),
    ]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("[b]This game is open in another window[/b]")
            yield Static(self.message, markup=False)
            yield Static(
                "[b]w[/b]/Enter watch it (read-only)   [b]t[/b] take it over   [b]Esc[/b] back",
                classes="keys",
            )

    def action_pick(self, choice: str | None) -> None:
        self.dismiss(choice)


class HandOverScreen(ModalScreen[str | None]):
    """At a shared table: hand your seat to a computer player (e easy, n normal, h hard),
    or take it back (t) when one plays it; at a live table, ``a`` hands the seat of a
    player away longer than the wait to a normal computer player. Dismisses with the
    level, ``"back"``, ``"absent"``, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "choose('easy')", "Easy"),
        Binding("n", "choose('normal')", "Normal"),
        Binding("h", "choose('hard')", "Hard"),
        Binding("t", "choose('back')", "Take it back"),
        Binding("a", "choose('absent')", "Absent player's seat"),
        Binding("escape", "choose('')", "Cancel"),
    ]

    def __init__(self, handed_to: str | None, absent: str | None = None) -> None:
        """``absent``: the name of an absent player whose seat may be handed over."""
        super().__init__()
        self.handed_to = handed_to
        self.absent = absent

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            if self.handed_to:
                yield Static(f"A computer ({self.handed_to}) plays your seat now.")
                keys = "[b]t[/b] take it back    [b]Esc[/b] leave it"
            else:
                yield Static("Let a computer play your seat until you take it back (H again):")
                keys = "[b]e[/b] easy   [b]n[/b] normal   [b]h[/b] hard    [b]Esc[/b] cancel"
            if self.absent:
                yield Static(
                    f"{self.absent} has been away longer than the table's wait: a hands "
                    "their seat to a normal computer player until they come back.",
                    markup=False,
                )
                keys += "    [b]a[/b] their seat"
            yield Static(keys, classes="keys")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        choice = parameters[0] if action == "choose" and parameters else None
        if choice == "back":
            return self.handed_to is not None
        if choice in ("easy", "normal", "hard"):
            return self.handed_to is None
        if choice == "absent":
            return self.absent is not None
        return True

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)


class NoticesScreen(ModalScreen[None]):
    """How a turn at another table is told: l line, b bell, d desktop notice, each on or
    off; kept at once in the user config folder. Esc closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("l", "switch('line')", "Line"),
        Binding("b", "switch('bell')", "Bell"),
        Binding("d", "switch('desktop')", "Desktop"),
        Binding("escape,enter", "close", "Close"),
    ]

    WORDS: ClassVar[dict[str, str]] = {
        "line": "l  a line on screen",
        "bell": "b  the terminal bell",
        "desktop": "d  a desktop notice (OSC 9 / OSC 777)",
    }

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("When it is your turn at another table, tell me with:")
            yield Static(id="notice-choices", markup=False)
            yield Static("", id="notice-problem", markup=False)
            yield Static("[b]l b d[/b] turn on or off    [b]Esc[/b] close", classes="keys")

    def on_mount(self) -> None:
        from tui import notices

        self.settings = notices.load()
        self._show()

    def _show(self) -> None:
        lines = [
            f"[{'x' if getattr(self.settings, key) else ' '}] {words}"
            for key, words in self.WORDS.items()
        ]
        self.query_one("#notice-choices", Static).update("\n".join(lines))

    def action_switch(self, key: str) -> None:
        import msgspec

        from tui import notices

        self.settings = msgspec.structs.replace(
            self.settings, **{key: not getattr(self.settings, key)}
        )
        problem = notices.save(self.settings)
        self.query_one("#notice-problem", Static).update(f"✗ {problem}" if problem else "")
        self._show()

    def action_close(self) -> None:
        self.dismiss(None)
