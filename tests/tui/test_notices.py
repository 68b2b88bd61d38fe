"""Your turn at another table (issue 13): the settings file, the escapes, and a real
server telling an app whose player is looking at another table."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from table import protocol as wire
from tests.table_server.bots import Bot, create
from tests.tui.conftest import app_for, settle, toasts
from tui import notices
from tui.screens.dialogs import ConfirmScreen
from tui.screens.game import GameScreen
from tui.screens.lobby import LobbyScreen


@pytest.fixture(autouse=True)
def config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_settings_default_on_and_survive_a_bad_file(tmp_path) -> None:
    assert notices.load() == notices.Settings()
    path = notices.settings_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"{not json")
    assert notices.load() == notices.Settings()  # a preference never stops the game
    assert notices.save(notices.Settings(bell=False)) is None
    assert notices.load() == notices.Settings(bell=False)


def test_desktop_escapes_cannot_be_broken_out_of() -> None:
    escapes = notices.desktop_escapes("My;kerinos", "turn at 'x\x07\x1b]0;evil\x1b\\'")
    assert escapes.startswith("\x1b]9;") and escapes.count("\x07") == 2
    assert escapes.count("\x1b") == 2  # only the two OSC openings
    assert "\x1b]777;notify;My,kerinos;" in escapes


async def test_a_turn_at_another_table_is_told_each_chosen_way(store, server, monkeypatch) -> None:
    import tui.shared_tables

    monkeypatch.setattr(tui.shared_tables, "TURNS_EVERY", 0.2)
    notices.save(notices.Settings(line=True, bell=True, desktop=True))
    seats = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben")]
    looking = await create(server.socket, "ann", seats)
    elsewhere = await create(server.socket, "ann", seats)
    ben = await Bot.join(server.socket, "ben", elsewhere, 1)
    ann_there = await Bot.join(server.socket, "ann", elsewhere, 2)
    while ann_there.my_turn():  # make it ben's turn there, whoever the deal made first
        await ann_there.play_one()
    await ann_there.connection.close()
    await ben.drain()
    assert ben.my_turn()
    app = app_for(store, server=server.address("ann"))
    bells: list[None] = []
    written: list[str] = []
    monkeypatch.setattr(app, "bell", lambda: bells.append(None))
    monkeypatch.setattr(app, "write_escapes", written.append)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await settle(pilot, lambda: bool(lobby.tables))
        row = [t.id for t in lobby.tables].index(looking)
        lobby.query_one(DataTable).move_cursor(row=row)
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.pause(0.5)  # the first look: nothing new to tell
        assert not written
        for _ in range(20):  # ben plays at the other table until it is ann's turn there
            if ben.state.current_player == 0:
                break
            if ben.my_turn():
                await ben.play_one()
            else:
                await ben.listen(0.2)
        assert ben.state.current_player == 0
        await settle(pilot, lambda: bool(written))
        await settle(pilot, lambda: any("your turn" in t.lower() for t in toasts(app)))
        assert bells and written[0].startswith("\x1b]9;Mykerinos: It is your turn")
        await pilot.press("escape")  # to the lobby, then that table: the notice has done
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        back = app.screen
        assert isinstance(back, LobbyScreen)
        await settle(pilot, lambda: bool(back.tables))
        back.query_one(DataTable).move_cursor(row=[t.id for t in back.tables].index(elsewhere))
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.pause()
        await pilot.pause()  # long before the notice's own 15 s are over
        assert not any("your turn" in t.lower() for t in toasts(app))


async def test_n_in_the_lobby_turns_each_way_on_and_off_and_keeps_it(store, server) -> None:
    from tui.screens.dialogs import NoticesScreen

    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("n")
        await settle(pilot, lambda: isinstance(app.screen, NoticesScreen))
        await pilot.press("b", "d")
        shown = str(app.screen.query_one("#notice-choices").render())
        assert "[x] l" in shown and "[ ] b" in shown and "[ ] d" in shown
        await pilot.press("escape")
    assert notices.load() == notices.Settings(line=True, bell=False, desktop=False)


async def test_no_notice_for_the_table_on_show_under_a_dialog(store, server, monkeypatch) -> None:
    """Ben's move makes it Ann's turn at the table she has open (behind the help screen):
    that is not news from elsewhere."""
    import tui.shared_tables
    from tui.screens.help import HelpScreen

    monkeypatch.setattr(tui.shared_tables, "TURNS_EVERY", 0.2)
    notices.save(notices.Settings(line=True, bell=True, desktop=True))
    seats = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben")]
    table = await create(server.socket, "ann", seats)
    ben = await Bot.join(server.socket, "ben", table, 1)
    app = app_for(store, server=server.address("ann"))
    written: list[str] = []
    monkeypatch.setattr(app, "write_escapes", written.append)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await settle(pilot, lambda: bool(lobby.tables))
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        game = app.screen
        assert isinstance(game, GameScreen)
        while game.seat.state.current_player == 0:  # ann plays until it is ben's turn
            await pilot.press("p")
            await pilot.pause(0.3)
        await pilot.pause(0.5)  # the checks have seen ben's turn
        await pilot.press("question_mark")
        await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
        await ben.drain()
        for _ in range(20):
            if not ben.my_turn():
                break
            await ben.play_one()
            await ben.drain()
        assert game.seat.state.current_player == 0 or not ben.my_turn()
        await pilot.pause(0.8)  # several checks
        assert not written
