"""A door's session (``server_only``): a remote player, running as the host's account,
never reaches a game on this machine. With no table server it ends, status 1, in one line;
the lobby's Esc stays (q leaves, after a question); every way to local play (the resume
question, the new-game form, a saved game opened to play, the final scores' "new game",
the load list's Enter) leads back to the lobby or to a replay instead. ``mykerinos`` with
``MYKERINOS_TICKET`` set takes the ticket to the server and refuses the options for a
game on this machine.

The app is the one users run, with Pilot; the server is a real one, a process trusting
this login (the routes) or a hub in this process issuing tickets (the hand-off)."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from table.client.directory import ServerAddress
from table.protocol import SeatSpec
from tests.table.test_tickets import ENDED, DoorServer, serving
from tests.tui.conftest import HOT_SEAT_2, app_for, session_for, settle
from tui.messages import LoadRequested, NewGameRequested
from tui.screens.dialogs import ConfirmScreen, ResumeScreen
from tui.screens.game import GameScreen
from tui.screens.load import LoadScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.new_game import NewGameScreen
from tui.screens.replay import ReplayScreen

LOCAL = (NewGameScreen, ResumeScreen, GameScreen)
"""The screens of a game on this machine (a game screen here plays a local seat)."""


@pytest.fixture
async def door_server() -> AsyncIterator[DoorServer]:
    """A table server in this process, to issue tickets as the door does."""
    async with serving() as running:
        yield running


def door_app(store, address: ServerAddress):
    """A door's session of the app, on ``store`` (the session's own save folder), with a
    game on this machine waiting there: a terminal not in door mode would offer it."""
    if not (store.folder / "waiting.json").exists():
        session_for(store, HOT_SEAT_2, name="waiting").close()
    return app_for(store, server=address, server_only=True)


def screens_seen(app) -> list[type]:
    """The classes of every screen pushed while the app runs (filled by ``watch``)."""
    seen: list[type] = []
    push = app.push_screen

    def recording(screen: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(type(screen))
        return push(screen, *args, **kwargs)

    app.push_screen = recording
    return seen


async def in_the_lobby(app, pilot) -> LobbyScreen:
    await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
    return app.screen


# ---------------------------------------------------------------- no server


@pytest.mark.parametrize("stale", [False, True], ids=["no socket", "nobody listening"])
async def test_without_a_server_the_session_ends_with_status_1_and_why(
    store, capsys, stale: bool
) -> None:
    path = Path("/tmp") / f"myk-door-{id(store)}.sock"  # short: a socket's path is bounded
    path.unlink(missing_ok=True)
    if stale:  # a socket left by a server that was killed: it refuses connections
        with socket.socket(socket.AF_UNIX) as left:
            left.bind(str(path))
    try:
        app = door_app(store, ServerAddress(path))
        seen = screens_seen(app)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: not app.is_running or app.return_code is not None)
        assert app.return_code == 1
        assert not any(issubclass(screen, LOCAL) for screen in seen), seen
        line = app.farewell
        assert line is not None and "\n" not in line
        assert line.startswith("The table server does not answer: No table server at ")
        assert str(path) in line and line.endswith(", try again in a moment.")
        assert not capsys.readouterr().err  # no traceback, no Textual message: the command's line
    finally:
        path.unlink(missing_ok=True)


def test_a_door_session_is_never_made_without_a_server_or_with_a_game_to_resume(
    store, tmp_path
) -> None:
    with pytest.raises(ValueError, match="table server only"):
        app_for(store, server_only=True)
    session_for(store, HOT_SEAT_2, name="waiting").close()
    with pytest.raises(ValueError, match="table server only"):
        app_for(
            store, server=ServerAddress(tmp_path / "t.sock"), resume="waiting", server_only=True
        )


def test_make_app_makes_a_door_session(tmp_path) -> None:
    from tui.app import make_app

    address = ServerAddress(tmp_path / "t.sock", None, "a-ticket")
    assert make_app(tmp_path / "saves", server=address, server_only=True).server_only
    assert not make_app(tmp_path / "saves", server=address).server_only


# ---------------------------------------------------------------- the ticket's player


async def test_the_app_plays_as_the_ticket_s_player_and_an_ended_ticket_ends_it(
    store, door_server
) -> None:
    ticket = door_server.hub.issue_ticket("ann")
    app = door_app(store, ServerAddress(door_server.socket, "mallory", ticket))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await in_the_lobby(app, pilot)
        assert "you play as ann" in str(lobby.query_one("#lobby-title").render())
        assert ticket not in repr(app.server)  # a secret: never in a repr (crash reports)
    door_server.hub.revoke_ticket(ticket)
    app = door_app(store, ServerAddress(door_server.socket, None, ticket))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: app.return_code is not None)
    assert app.return_code == 1
    assert app.farewell is not None and ENDED in app.farewell


# ---------------------------------------------------------------- the routes to local play


async def test_esc_in_the_lobby_stays_and_q_leaves_after_a_question(store, server) -> None:
    """Esc means "back" and a door's lobby has nothing behind it: Esc (pressed once too
    often after a replay) does nothing and the keys bar offers none; q asks, n stays, y
    leaves (issue 26)."""
    app = door_app(store, server.address("ann"))
    seen = screens_seen(app)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await in_the_lobby(app, pilot)
        shown = {b.binding.key: b.binding.description for b in app.active_bindings.values()
                 if b.enabled and b.binding.show}  # fmt: skip
        assert shown.get("q") == "Quit" and "escape" not in shown
        assert lobby.check_action("close", ()) is False
        await pilot.press("escape")
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and app.screen is lobby
        await pilot.press("q")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "connection closes" in str(app.screen.query_one(Static).render())
        await pilot.press("n")
        await settle(pilot, lambda: app.screen is lobby)
        await pilot.press("q")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot, lambda: not app.is_running)
    assert app.return_code == 0
    assert not any(issubclass(screen, LOCAL) for screen in seen), seen


async def test_esc_at_a_table_goes_back_to_the_lobby_keeping_the_seat(store, server) -> None:
    """At a table with nothing half-built, Esc (the keys bar: "Lobby") asks, then goes
    back to the lobby, not to the table the session would come back to; the seat stays
    the player's, shown away (issue 26)."""
    from tests.tui.test_tables import new_table

    app = door_app(store, server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        seat = await new_table(app, pilot, ["you", "computer easy"])
        table = seat.known.info.id
        shown = {b.binding.action: b.binding.description for b in app.active_bindings.values()
                 if b.enabled and b.binding.show}  # fmt: skip
        assert shown.get("lobby") == "Lobby" and "back" not in shown
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        lobby = await in_the_lobby(app, pilot)
        await settle(pilot, lambda: any(info.id == table for info in lobby.tables))
        await pilot.pause(0.5)  # a reopen would have sat the player again by now
        assert app.screen is lobby

        def info():
            return next(info for info in lobby.tables if info.id == table)

        await settle(pilot, lambda: not info().seats[0].present)  # away, as for a drop
        assert info().seats[0].name == "ann" and info().status == "playing"
        await settle(pilot, lambda: lobby.selected is not None)
        await pilot.press("enter")  # the seat is still ann's: she sits again
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))


async def test_outside_a_door_esc_in_the_lobby_still_goes_back_to_this_machine(
    store, server
) -> None:
    session_for(store, HOT_SEAT_2, name="waiting").close()
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await in_the_lobby(app, pilot)
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, ResumeScreen))
        assert app.is_running


async def test_a_lobby_closed_quits_instead_of_playing_here(store, server) -> None:
    app = door_app(store, server.address("ann"))
    seen = screens_seen(app)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await in_the_lobby(app, pilot)
        lobby.post_message(LobbyScreen.Closed())
        await settle(pilot, lambda: not app.is_running)
    assert not any(issubclass(screen, LOCAL) for screen in seen), seen


async def test_the_new_game_form_and_the_resume_question_lead_to_the_lobby(store, server) -> None:
    """``start_local`` (the resume question), ``start_new_game`` (the form: after a failed
    load, from Esc in the load list) and the final scores' "n" (NewGameRequested)."""
    app = door_app(store, server.address("ann"))
    seen = screens_seen(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await in_the_lobby(app, pilot)
        for route in (app.start_local, app.start_new_game,
                      lambda: app.post_message(NewGameRequested())):  # fmt: skip
            route()
            await pilot.pause()
            assert isinstance(app.screen, LobbyScreen), (route, app.screen)
        assert app.is_running
    assert not any(issubclass(screen, LOCAL) for screen in seen), seen


async def test_a_saved_game_opens_as_a_replay_never_to_play(store, server) -> None:
    """The load list (o, in a game: its exports land in the session's own folder) replays
    what Enter would resume; a game opened to play (``open_game``) goes back to the lobby,
    leaving the save free."""
    app = door_app(store, server.address("ann"))
    seen = screens_seen(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await in_the_lobby(app, pilot)
        app.post_message(LoadRequested())
        await settle(pilot, lambda: isinstance(app.screen, LoadScreen))
        assert app.screen.selected is not None and not app.screen.selected.finished
        shown = {b.binding.key: b.binding.description for b in app.active_bindings.values()}
        assert shown["enter"] == "Replay"
        assert "Enter: replay it." in str(app.screen.query_one("#load-detail").render())
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("escape")  # back to the list it was chosen from
        await settle(pilot, lambda: isinstance(app.screen, LoadScreen))
        await pilot.press("escape")  # back to what was under the list, not the new-game form
        await settle(pilot, lambda: not isinstance(app.screen, LoadScreen))
        assert isinstance(app.screen, LobbyScreen)
        app.load_game("waiting")
        await settle(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("escape")
        app.open_game(store.open("waiting"))
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen) and app.session is None
        store.open("waiting").close()  # the save was let go
    assert not any(issubclass(screen, LOCAL) for screen in seen), seen


async def test_o_in_a_game_at_the_server_replays_and_comes_back_to_the_game(store, server) -> None:
    from tests.tui.test_tables import new_table

    app = door_app(store, server.address("ann"))
    seen = screens_seen(app)
    async with app.run_test(size=(80, 24)) as pilot:
        seat = await new_table(app, pilot, ["you", "computer easy"])
        game = app.screen
        await pilot.press("o")
        await settle(pilot, lambda: isinstance(app.screen, LoadScreen))
        await pilot.press("escape")  # not the new-game form: the game under the list
        await settle(pilot, lambda: app.screen is game)
        await pilot.press("o")
        await settle(pilot, lambda: isinstance(app.screen, LoadScreen))
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, LoadScreen))
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is game)
        assert app.session is None and seat.link is not None  # the table still open here
    assert GameScreen in seen  # a game at the server: its seat is a remote one
    assert not any(issubclass(screen, (NewGameScreen, ResumeScreen)) for screen in seen), seen


async def test_an_export_offers_a_replay_only(store, server) -> None:
    app = door_app(store, server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await in_the_lobby(app, pilot)
        data = (store.folder / "waiting.json").read_bytes()
        words = app.keep_export("copy", data)
    assert words == "Exported: the game is saved here as 'copy' (o: replay it)."


# ---------------------------------------------------------------- the command


@pytest.mark.parametrize(
    "options",
    [["--local"], ["--seed", "3"], ["--resume"], ["--resume", "waiting"], ["--cards", "x.toml"],
     ["--local", "--seed", "3"]],
)  # fmt: skip
def test_the_command_refuses_local_play_to_a_door_session(
    monkeypatch, capsys, options: list[str]
) -> None:
    from tui.__main__ import main

    monkeypatch.setenv("MYKERINOS_TICKET", "a-ticket")
    monkeypatch.setattr("tui.app.make_app", _never_made)
    assert main(options) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a door's session plays at the table server only" in err
    for option in options:
        if option.startswith("--"):
            assert option in err


def _never_made(*_args: Any, **_kwargs: Any) -> Any:
    raise AssertionError("the app was made")


def test_the_command_gives_the_ticket_to_the_app_in_door_mode(monkeypatch, tmp_path) -> None:
    from tui.__main__ import main

    made: dict[str, Any] = {}

    class NoApp:
        load_error = None
        session = None

    def make_app(*args: Any, **kwargs: Any) -> NoApp:
        made.update(kwargs)
        return NoApp()  # no terminal under pytest: the command stops there

    monkeypatch.setattr("tui.app.make_app", make_app)
    monkeypatch.setenv("MYKERINOS_TICKET", "a-ticket")
    main(["--socket", str(tmp_path / "t.sock"), "--save-dir", str(tmp_path / "saves")])
    assert made["server_only"] is True
    assert made["server"] == ServerAddress(tmp_path / "t.sock", None, "a-ticket")
    assert made["server"].ticket == "a-ticket"
    monkeypatch.delenv("MYKERINOS_TICKET")
    made.clear()
    main(["--socket", str(tmp_path / "t.sock")])
    assert made["server_only"] is False and made["server"].ticket is None


def test_the_command_prints_why_a_door_session_ended_in_one_line(monkeypatch, capsys) -> None:
    from tui.__main__ import main

    class Ended:
        load_error = None
        session = None
        return_code = 1
        farewell = "The table server does not answer: no answer, try again in a moment."

        def run(self) -> None:
            pass

    monkeypatch.setattr("tui.app.make_app", lambda *_args, **_kwargs: Ended())
    monkeypatch.setattr("tui.__main__.has_terminal", lambda: True)
    monkeypatch.setenv("MYKERINOS_TICKET", "a-ticket")
    assert main([]) == 1
    assert capsys.readouterr().err == f"mykerinos: {Ended.farewell}\n"


# ---------------------------------------------------------------- back where you left off


async def test_a_door_session_comes_back_to_the_table_it_last_sat_at(store, server) -> None:
    """A reload or a dropped link starts a new session: it sits at the table again at
    once, as long as the player has a seat there and the game goes on."""
    first = door_app(store, server.address("ann"))
    async with first.run_test(size=(80, 24)) as pilot:
        lobby = await in_the_lobby(first, pilot)
        await lobby.directory.create(
            [SeatSpec("player", "ann"), SeatSpec("computer", level="easy")], "mine"
        )
        table = (await lobby.directory.tables())[0].id
        lobby._open(table, watch=False)
        await settle(pilot, lambda: isinstance(first.screen, GameScreen))
        await pilot.pause()
    assert (store.folder / "last-table").read_text() == f"{table}\n"
    again = door_app(store, server.address("ann"))
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(again.screen, GameScreen))
        assert again.screen.seat.table.info.id == table
    outside = app_for(store, server=server.address("ann"))  # not a door: the lobby
    async with outside.run_test(size=(80, 24)) as pilot:
        await in_the_lobby(outside, pilot)
        await pilot.pause(0.3)
        assert isinstance(outside.screen, LobbyScreen)


async def test_a_table_that_is_over_or_not_yours_is_not_reopened(store, server) -> None:
    app = door_app(store, server.address("ann"))
    (store.folder / "last-table").write_text("999\n")  # no such table
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await in_the_lobby(app, pilot)
        await settle(pilot, lambda: lobby.reopen is None)  # the first answer came
        assert isinstance(app.screen, LobbyScreen)
