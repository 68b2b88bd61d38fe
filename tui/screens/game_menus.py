"""The game screen's doors to other screens: save as, load, help, quit, and at a shared
table the chat and handing one's seat to a computer.

A mixin of `GameScreen` (which binds the keys), kept apart so that the game screen holds
only the playing of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.screen import Screen

from core.levels import LEVELS
from tui import prompts
from tui.messages import LoadRequested

if TYPE_CHECKING:
    from table.seat import GameSeat


MENU_KEYS = frozenset({"save_as", "hint", "hand_over", "chat", "pause"})
"""The menus' keys that a narrow keys bar may leave out (the help names them)."""


class GameMenus(Screen[None]):
    """The dialogs and screens the game screen opens over the game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Shown only at a shared table (``check_action`` asks the seat).
        Binding("H", "hand_over", "Hand to computer", key_display="H"),
        Binding("c", "chat", "Chat"),
        Binding("P", "pause", "Pause", key_display="P"),
    ]

    seat: GameSeat

    def action_save_as(self) -> None:
        from tui.screens.dialogs import SaveAsScreen

        def saved(words: str | None) -> None:
            if words:
                self.notify(words, markup=False)

        self.app.push_screen(SaveAsScreen(self.seat.name, self.seat.save_as), saved)

    def action_chat(self) -> None:
        """At a shared table: a line of chat, to players and spectators."""
        from table.protocol import MAX_CHAT
        from tui.screens.dialogs import LinePrompt

        def say(line: str) -> str:
            self.seat.say(line)
            return ""  # the line shows in the log when the server has it

        question = f"Say to the table ({MAX_CHAT} characters at most):"
        prompt = LinePrompt(question, "", say, verb="say", empty="Type what to say.",
                            max_length=MAX_CHAT)  # fmt: skip
        self.app.push_screen(prompt)

    def action_hand_over(self) -> None:
        """At a shared table: a computer plays this player's seat, or stops playing it."""
        from table.seat import SeatError
        from tui.screens.dialogs import HandOverScreen

        absent = self.seat.absent_seats()

        def chosen(choice: str | None) -> None:
            try:
                if choice == "absent":
                    self.seat.hand_over("normal", absent[0][0])
                elif choice == "back":
                    self.seat.hand_over(None)
                elif choice in LEVELS:  # Escape chose "": nothing
                    self.seat.hand_over(choice)
            except SeatError as exc:
                self.notify(str(exc), severity="warning", markup=False)

        name = absent[0][1] if absent else None
        self.app.push_screen(HandOverScreen(self.seat.handed_to, name), chosen)

    def action_pause(self) -> None:
        """A live shared table, paused for everyone for 10 minutes (once a season)."""
        from table.seat import SeatError
        from tui.screens.dialogs import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                try:
                    self.seat.pause(10)
                except SeatError as exc:
                    self.notify(str(exc), severity="warning", markup=False)

        question = "Pause the table for everyone for 10 minutes? (once per season)"
        self.app.push_screen(ConfirmScreen(question), answered)

    def action_load(self) -> None:
        self.post_message(LoadRequested())

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_quit_game(self) -> None:
        from tui.screens.dialogs import ConfirmScreen

        def leave(yes: bool | None) -> None:
            if yes:
                self.app.exit()

        self.app.push_screen(ConfirmScreen(prompts.quit_question(self.seat)), leave)
