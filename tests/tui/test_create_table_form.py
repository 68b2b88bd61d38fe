"""The new-table form (issue 18): its paces come in a natural order (over days, then live
with the shortest wait first), and it says in words, before the table is created, whether
the game starts at once (seats kept for named friends count as taken: they join when they
come) or waits for its open seats; a real server then does what the form said."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest
from textual.app import App
from textual.widgets import Input, Static

import tui
from tests.tui.conftest import app_for, settle
from tests.tui.test_tables import create_table, lobby_of, seat_of
from tui.screens.create_table import PACES, CreateTableScreen, start_words
from tui.screens.game import GameScreen
from tui.screens.lobby import LobbyScreen
from tui.widgets.cycler import Cycler
from tui.widgets.keys import KeysBar


@dataclass
class Directory:
    """What the form asks of the server's lobby before Enter: who creates the table."""

    player: str = "ann"


class FormApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(CreateTableScreen(cast(Any, Directory())))


def form_of(app: App[None]) -> CreateTableScreen:
    assert isinstance(app.screen, CreateTableScreen), app.screen
    return app.screen


def words_of(app: App[None]) -> str:
    return str(form_of(app).query_one("#start-words", Static).render())


class TestPace:
    async def test_the_paces_go_from_days_to_the_longest_live_wait_and_round(self):
        """→ steps over days, live 2, live 5, live 15 minutes, then days again."""
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            pace = form_of(app).query_one("#pace", Cycler)
            pace.focus()
            seen = [pace.value]
            for _ in range(4):
                await pilot.press("right")
                seen.append(pace.value)
        assert [PACES[value] for value in seen] == [
            ("days", 300.0), ("live", 120.0), ("live", 300.0), ("live", 900.0), ("days", 300.0)
        ]  # fmt: skip


class TestStartWords:
    @pytest.mark.parametrize(
        ("kinds", "names", "words"),
        [
            (["you", "computer easy"], [], "Starts now."),
            (["you", "player"], ["ben"], "Starts now; ben joins when they come."),
            (["you", "player", "player"], ["ben", "cleo"],
             "Starts now; ben and cleo join when they come."),
            (["you", "player", "player", "player"], ["ben", "cleo", "dan"],
             "Starts now; ben, cleo and dan join when they come."),
            (["you", "player"], [""], "Starts now; the friends you name join when they come."),
            (["you", "open"], [], "Waits for 1 open seat to be taken, then starts."),
            (["you", "open", "player", "open"], ["ben"],
             "Waits for 2 open seats to be taken, then starts."),
        ],
    )  # fmt: skip
    def test_words(self, kinds, names, words):
        assert start_words(kinds, names) == words

    async def test_the_form_says_it_as_the_seats_are_chosen_and_named(self):
        """The form starts with you and two open seats; seat 2 kept for ben and the count
        down to 2 make it start at once, which the line says as soon as ben is typed."""
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            assert words_of(app) == "Waits for 2 open seats to be taken, then starts."
            await pilot.press("left")  # 3 players → 2
            assert words_of(app) == "Waits for 1 open seat to be taken, then starts."
            await pilot.press("down", "down", "right")  # seat 2: open → player
            assert words_of(app).startswith("Starts now; the friends you name")
            await pilot.press("down", "b", "e", "n")
            assert words_of(app) == "Starts now; ben joins when they come."


class TestOnAServer:
    """What the form says is what the server does."""

    async def test_a_seat_kept_for_a_friend_lets_the_game_start_at_once(self, store, server):
        app = app_for(store, server=server.address("ann"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await create_table(app, pilot, ["you", "player"], names={1: "ben"})
            await settle(pilot, lambda: isinstance(app.screen, GameScreen))
            seat = seat_of(app)
            assert seat.table.info.status == "playing"
            assert [p.away for p in seat.players] == [None, "not here yet"]

    async def test_an_open_seat_leaves_the_table_waiting_in_the_lobby(self, store, server):
        app = app_for(store, server=server.address("ann"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("c")
            await settle(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            await pilot.press("left")  # 2 players: you and an open seat
            assert words_of(app) == "Waits for 1 open seat to be taken, then starts."
            await pilot.press("enter")
            await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
            lobby = lobby_of(app)
            await settle(pilot, lambda: [t.status for t in lobby.tables] == ["waiting"])
            await pilot.pause(0.2)
            assert isinstance(app.screen, LobbyScreen)


class TestGettingAround:
    """Issue 26: the form's hint and keys bar say how to reach a friend's name field, a
    name typed on the selector is not dropped, and the keys bar is the form's."""

    async def test_the_hint_and_the_keys_bar_are_the_form_s(self):
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            form = form_of(app)
            assert "Tab/↓" in str(form.query_one("#create-hint", Static).render())
            bar = str(form.query_one(KeysBar).render())
            assert "Create" in bar and "Cancel" in bar and "Tab/↓" in bar
            assert "Quit" not in bar and "Watch" not in bar

    async def test_a_name_typed_on_a_player_seat_s_selector_goes_to_its_field(self):
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            form = form_of(app)
            kind = form.query_one("#kind-1", Cycler)
            kind.value = "player"
            form._show_seats()
            kind.focus()
            await pilot.press("b", "e", "n")
            await pilot.pause()
            assert form.query_one("#name-1", Input).value == "ben"
            assert kind.value == "player"


class TestRemembered:
    async def test_the_title_and_colour_reach_the_server_and_the_form_remembers(
        self, store, server
    ):
        """A title and a colour chosen: the lobby lists the table by its title, ann plays
        red; the next form opens with her last seats, pace and colour (not the title)."""
        app = app_for(store, server=server.address("ann"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("c")
            await settle(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            form = form_of(app)
            form.query_one("#count", Cycler).value = "2"
            form.query_one("#kind-0", Cycler).value = "open"
            form.query_one("#kind-1", Cycler).value = "you"
            form.query_one("#colour", Cycler).value = "red"
            form.query_one("#title", Input).value = "Friday"
            form._show_seats()
            await pilot.press("enter")
            lobby = lobby_of(app)
            await settle(pilot, lambda: app.screen is lobby and bool(lobby.tables))
            info = lobby.tables[0]
            assert info.title == "Friday"
            assert [(s.name, s.colour.value) for s in info.seats] == [
                (None, "blue"),
                ("ann", "red"),
            ]
            await pilot.press("c")
            await settle(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            form = form_of(app)
            assert form.query_one("#count", Cycler).value == "2"
            assert [form.query_one(f"#kind-{i}", Cycler).value for i in (0, 1)] == ["open", "you"]
            assert form.query_one("#colour", Cycler).value == "red"
            assert form.query_one("#title", Input).value == ""


class StyledFormApp(FormApp):
    """The form with the game's own style sheet (its fields' spacing comes from there)."""

    CSS_PATH = str(Path(tui.__file__).parent / "app.tcss")


class TestFits:
    async def test_four_seats_with_every_field_fit_an_80x24_terminal(self) -> None:
        """Four seats, the pace, the colour, the title and the hints: the form's last line
        (its keys) stays on a 24-row terminal, above the keys bar (issue 26)."""
        app = StyledFormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            form_of(app).query_one("#count", Cycler).focus()
            await pilot.press("right")  # 3 → 4 players
            await pilot.pause()
            box = form_of(app).query_one("#create")
            hint = form_of(app).query_one("#create-hint")
            assert box.max_scroll_y == 0, "the form scrolls: its last lines are cut off"
            assert box.region.bottom <= 23 and hint.region.bottom < 23, (box.region, hint.region)
