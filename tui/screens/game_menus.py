"""The game screen's doors to other screens: save as, load, help, quit, and at a shared
table the chat, handing one's seat to a computer and going back to the lobby.

A mixin of `GameScreen` (which binds the keys), kept apart so that the game screen holds
only the playing of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual.binding import Binding, BindingType
from textual.screen import Screen

from core.levels import LEVELS
from tui import prompts
from tui.messages import LoadRequested, TablesRequested
from tui.screens.styled import LaidOutPerSize, StyledAtMount

if TYPE_CHECKING:
    from table.seat import GameSeat
    from tui.app import MykerinosApp


EXPORT_OVER_SSH = (
    "To get a copy of this table's game (the table plays on), run this on your own "
    "machine; it writes the save file there:\n\n  {command}"
)
"""What Ctrl+S at a table says through the SSH door (``command``: the real one)."""

PAUSE_MINUTES = 10
"""How long ``P`` pauses a live table for everyone."""


class GameMenus(StyledAtMount, LaidOutPerSize, Screen[None]):
    """The dialogs and screens the game screen opens over the game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Offered only at a shared table (``check_action`` asks the seat's table). H says
        # what it does now: one of its two bindings is enabled, as a computer plays the
        # seat or not (both open the same question, which offers what applies).
        Binding("H", "hand_over", "Hand to computer", key_display="H"),
        Binding("H", "take_back", "Take seat back", key_display="H"),
        Binding("c", "chat", "Chat"),
        Binding("P", "pause", "Pause", key_display="P"),
    ]

    seat: GameSeat

    def action_save_as(self) -> None:
        """Rename this game's save; at a shared table, export a copy of its game to where
        the player is: a save here, a browser's download, or through the SSH door the
        command that writes it on the guest's own machine (the host's folder is out of
        their reach)."""
        from tui.screens.dialogs import InfoScreen, SaveAsScreen

        def saved(words: str | None) -> None:
            if words:
                self.notify(words, markup=False)

        table = self.seat.table
        if table is None:
            self.app.push_screen(SaveAsScreen(self.seat.name, self.seat.save_as), saved)
            return
        app = cast("MykerinosApp", self.app)
        command = app.export_over_ssh(table.info.id)
        if command is not None:
            self.app.push_screen(InfoScreen(EXPORT_OVER_SSH.format(command=command)))
            return
        where = "browser" if app.door == "web" else "here"
        # No notice now: the outcome comes as a line of the table's log, which a notice
        # popping up beside it would half cover.
        self.app.push_screen(SaveAsScreen(self.seat.name, self.seat.save_as, export=where))

    def action_chat(self) -> None:
        """At a shared table: a line of chat, to players and spectators."""
        from table.protocol import MAX_CHAT
        from tui.screens.dialogs import LinePrompt

        table = self.seat.table
        if table is None:
            return  # the key is not offered: nobody to talk to

        def say(line: str) -> str:
            table.say(line)
            return ""  # the line shows in the log when the server has it

        question = f"Say to the table ({MAX_CHAT} characters at most):"
        prompt = LinePrompt(question, "", say, verb="say", empty="Type what to say.",
                            max_length=MAX_CHAT, what="the message")  # fmt: skip
        self.app.push_screen(prompt)

    def action_hand_over(self) -> None:
        """At a shared table: a computer plays this player's seat, or stops playing it."""
        from table.seat import SeatError
        from tui.screens.dialogs import HandOverScreen

        table = self.seat.table
        if table is None:
            return  # the key is not offered: every seat is set in the new-game form
        absent = table.absent_seats()

        def chosen(choice: str | None) -> None:
            try:
                if choice == "absent":
                    table.hand_over("normal", absent[0][0])
                elif choice == "back":
                    table.hand_over(None)
                elif choice in LEVELS:  # Escape chose "": nothing
                    table.hand_over(choice)
            except SeatError as exc:  # the table changed while the question was open
                self.refuse(str(exc), standing=True)

        name = absent[0][1] if absent else None
        self.app.push_screen(HandOverScreen(table.handed_to, name), chosen)

    def action_take_back(self) -> None:
        """At a shared table whose computer plays this player's seat: the same question,
        which then offers to take it back."""
        self.action_hand_over()

    def refuse(self, reason: str, *, standing: bool = False) -> None:
        """Say why a key does nothing now (the game screen says it in its action bar, in
        place of the options, where no notice covers the prompt). ``standing``: the
        reason is how the game or the table stands (a pause…), not the half-built action."""
        self.notify(reason, severity="warning", markup=False)

    def action_pause(self) -> None:
        """A live shared table, paused for everyone for 10 minutes (once a season); P
        again while one's own pause runs ends it. A pause the table would refuse is
        refused before the question."""
        from tui.screens.dialogs import ConfirmScreen

        table = self.seat.table
        if table is None:
            return  # the key is not offered: a game here just stops
        if table.can_resume():
            question = "Resume the table now? Your pause ends for everyone."
            self.app.push_screen(ConfirmScreen(question), self._resume_answered)
            return
        why = table.why_no_pause()
        if why is not None:
            self.refuse(why, standing=True)
            return
        question = f"Pause the table for everyone for {PAUSE_MINUTES} minutes? (once per season)"
        self.app.push_screen(ConfirmScreen(question), self._pause_answered)

    def _pause_answered(self, yes: bool | None) -> None:
        from table.seat import SeatError

        if yes and self.seat.table is not None:
            try:
                self.seat.table.pause(PAUSE_MINUTES)
            except SeatError as exc:  # the table changed while the question was open
                self.refuse(str(exc), standing=True)

    def _resume_answered(self, yes: bool | None) -> None:
        from table.seat import SeatError

        if yes and self.seat.table is not None:
            try:
                self.seat.table.resume()
            except SeatError as exc:  # the pause ran out while the question was open
                self.refuse(str(exc), standing=True)

    def action_lobby(self) -> None:
        """At a shared table: back to the lobby. A seated player is asked first; their
        seat stays theirs (the table shows them away, as when a link drops)."""
        from tui.screens.dialogs import ConfirmScreen

        table = self.seat.table
        if table is None:
            return  # the key is not offered: a game here has no lobby
        if not table.seats_here:
            self.post_message(TablesRequested())  # watching: nothing to keep
            return

        def leave(yes: bool | None) -> None:
            if yes:
                self.post_message(TablesRequested())

        question = "Back to the lobby? Your seat stays yours; the table shows you away."
        self.app.push_screen(ConfirmScreen(question), leave)

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
