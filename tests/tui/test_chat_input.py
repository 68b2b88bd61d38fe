"""A line of chat with a character that does not show as itself (issue 18): refused at the
input, naming the character as the server would, with the prompt left open to correct it;
the input used to drop a typed U+202E silently and send the rest."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.widgets import Static

from table import journal
from tests.tui.conftest import app_for, settle
from tests.tui.test_tables import new_table
from tui.screens.dialogs import LinePrompt
from tui.widgets.log import LogView
from tui.widgets.textfield import TextField

RLO = "\u202e"
"""U+202E RIGHT-TO-LEFT OVERRIDE: the rest of the line reads backwards on every terminal."""
ZWJ = "\u200d"
"""U+200D ZERO WIDTH JOINER: allowed between two visible characters (emoji sequences)."""


class ChatApp(App[None]):
    """The chat prompt as the game screen opens it (``what``: "the message"), keeping what
    it would send; ``max_length`` as the game's (0: none)."""

    def __init__(self, max_length: int = 0) -> None:
        super().__init__()
        self.said: list[str] = []
        self.max_length = max_length

    def on_mount(self) -> None:
        self.push_screen(LinePrompt("Say to the table:", "", self.say, verb="say",
                                    empty="Type what to say.", what="the message",
                                    max_length=self.max_length))  # fmt: skip

    def say(self, line: str) -> str:
        self.said.append(line)
        return ""


def refusal(app: App[None]) -> str:
    return str(app.screen.query_one("#refusal", Static).render())


def field(app: App[None]) -> TextField:
    return app.screen.query_one(TextField)


async def type_characters(app: App[None], pilot, text: str) -> None:
    """Each character as the terminal sends it: one key event each, printable or not."""
    for char in text:
        name = char if char.isalnum() else f"u{ord(char):04x}"
        app.post_message(events.Key(name, char))
    await pilot.pause()


class TestTyped:
    async def test_a_bidi_override_is_refused_by_name_and_the_rest_is_kept(self):
        app = ChatApp()
        async with app.run_test() as pilot:
            await type_characters(app, pilot, f"hi {RLO}dlrow")
            assert refusal(app) == (
                "✗ U+202E RIGHT-TO-LEFT OVERRIDE is not allowed in the message: it was not typed"
            )
            assert field(app).value == "hi dlrow"
            assert isinstance(app.screen, LinePrompt)  # open, to correct or send
            await pilot.press("enter")
        assert app.said == ["hi dlrow"]

    async def test_a_blank_look_alike_is_refused_although_printable(self):
        app = ChatApp()
        async with app.run_test() as pilot:
            await type_characters(app, pilot, "a\u3164b")
            assert refusal(app).startswith("✗ U+3164 HANGUL FILLER is not allowed")
            assert field(app).value == "ab"

    async def test_control_keys_still_edit(self):
        app = ChatApp()
        async with app.run_test() as pilot:
            await type_characters(app, pilot, "bc")
            await pilot.press("ctrl+a", "a")
            assert field(app).value == "abc" and refusal(app) == ""

    async def test_a_joiner_between_two_emoji_is_kept_a_stray_one_refused_at_enter(self):
        app = ChatApp()
        async with app.run_test() as pilot:
            await type_characters(app, pilot, f"👩{ZWJ}💻")
            assert refusal(app) == ""
            await pilot.press("enter")
            assert app.said == [f"👩{ZWJ}💻"]

        app = ChatApp()
        async with app.run_test() as pilot:
            await type_characters(app, pilot, f"hi{ZWJ}")
            await pilot.press("enter")
            assert refusal(app) == (
                "✗ the message contains U+200D ZERO WIDTH JOINER, which is not allowed"
            )
            assert isinstance(app.screen, LinePrompt) and app.said == []


class TestPasted:
    async def test_a_paste_holding_one_is_refused_whole_naming_it(self):
        app = ChatApp()
        async with app.run_test() as pilot:
            await type_characters(app, pilot, "ok ")
            field(app).post_message(events.Paste(f"look{RLO}here"))
            await pilot.pause()
            assert refusal(app) == (
                "✗ U+202E RIGHT-TO-LEFT OVERRIDE is not allowed in the message: the paste was "
                "left out"
            )
            assert field(app).value == "ok "
            await pilot.press("enter")
        assert app.said == ["ok"]

    async def test_a_paste_too_long_for_the_line_is_cut_to_fit_and_says_so(self):
        """Textual's field left a paste that would overflow it out whole, without a word:
        a friend's long paste vanished and Enter then said "Type what to say." """
        app = ChatApp(max_length=20)
        async with app.run_test() as pilot:
            await type_characters(app, pilot, "ok ")
            field(app).post_message(events.Paste("0123456789" * 3))
            await pilot.pause()
            assert field(app).value == "ok 01234567890123456"
            assert refusal(app) == (
                "✗ the message holds at most 20 characters: 17 of the 30 pasted were kept"
            )
            await pilot.press("enter")
        assert app.said == ["ok 01234567890123456"]

    async def test_a_paste_over_a_selection_has_the_selection_s_room_too(self):
        app = ChatApp(max_length=10)
        async with app.run_test() as pilot:
            await type_characters(app, pilot, "abcdefghij")
            await pilot.press("ctrl+a", "shift+end")  # all ten selected: replaced by the paste
            field(app).post_message(events.Paste("0123456789"))
            await pilot.pause()
            assert field(app).value == "0123456789" and refusal(app) == ""


async def test_at_a_shared_table_the_refused_character_never_reaches_the_log(store, server) -> None:
    """c at a real table: the override is refused at the input; what is sent is the line
    as shown in the field, and that is what every log shows."""
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        seat = await new_table(app, pilot, ["you", "computer easy"])
        await pilot.press("c")
        await settle(pilot, lambda: isinstance(app.screen, LinePrompt))
        await type_characters(app, pilot, f"gg {RLO}ti")
        assert "U+202E RIGHT-TO-LEFT OVERRIDE" in refusal(app)
        await pilot.press("enter")

        def said() -> list[str]:
            return [e.text for e in seat.table.journal if isinstance(e, journal.Chat)]

        await settle(pilot, lambda: bool(said()))
        assert said() == ["gg ti"]
        log = app.screen.query_one(LogView)
        assert any(line.plain.endswith("ann: gg ti") for line in log.lines)
