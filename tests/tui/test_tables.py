"""Playing with others through a real table server process: the lobby, creating a table,
two players in two apps, watching, the away mark, and the server restarting under a game.

Each test starts ``python -m table.serve`` on a Unix socket of its own (never TCP) and
runs the apps with Pilot; the server trusts this login to name its players, as a shared
game account would (``--trust-account``)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

import core
from table.client.directory import ServerAddress
from table.client.seat import RemoteSeat
from table.protocol import SeatSpec
from tests.tui.conftest import app_for, settle, toasts
from tui.screens.create_table import CreateTableScreen
from tui.screens.game import GameScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.summary import FinalScreen


def lobby_of(app) -> LobbyScreen:
    assert isinstance(app.screen, LobbyScreen), f"not the lobby: {app.screen!r}"
    return app.screen


def seat_of(app) -> RemoteSeat:
    screen = app.screen
    assert isinstance(screen, GameScreen), f"not a game: {screen!r}"
    assert isinstance(screen.seat, RemoteSeat)
    return screen.seat


async def create_table(
    app, pilot, kinds: list[str], names: dict[int, str] | None = None, pace: str | None = None
) -> None:
    """Fill the new-table form: one seat kind per seat (``you``, ``open``, ``player``,
    ``computer normal``…), names for ``player`` seats, then Enter."""
    await pilot.press("c")
    await settle(pilot, lambda: isinstance(app.screen, CreateTableScreen))
    form = app.screen
    form.query_one("#count").value = str(len(kinds))
    for seat, kind in enumerate(kinds):
        form.query_one(f"#kind-{seat}").value = kind
        if names and seat in names:
            form.query_one(f"#name-{seat}").value = names[seat]
    if pace is not None:
        form.query_one("#pace").value = pace
    form._show_seats()
    await pilot.press("enter")


async def new_table(
    app, pilot, kinds: list[str], names: dict[int, str] | None = None, pace: str | None = None
) -> RemoteSeat:
    """From the lobby, create a table (see :func:`create_table`) and sit at it: its seat."""
    await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
    await create_table(app, pilot, kinds, names, pace)
    await settle(pilot, lambda: isinstance(app.screen, GameScreen))
    return seat_of(app)


async def play_first_legal(app, pilot) -> core.Action:
    """Play the first legal action through the seat (as the keys would)."""
    seat = seat_of(app)
    action = seat.legal_actions()[0]
    seat.play(action)
    return action


async def test_the_lobby_comes_first_and_a_table_against_computers_plays(store, server) -> None:
    """With a server answering, the app opens on its lobby; a table of you and two
    computers starts at once, your moves are acknowledged, the computers answer."""
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await settle(pilot, lambda: bool(app.screen.query("#lobby-title")))  # its parts next
        assert "you play as ann" in str(app.screen.query_one("#lobby-title").render())
        await create_table(app, pilot, ["you", "computer easy", "computer easy"])
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        seat = seat_of(app)
        assert seat.players[0].name == "ann"
        assert seat.state.deck == tuple(sorted(seat.state.deck))  # public: canonical order
        await settle(pilot, lambda: seat.decides_here(seat.state.current_player))
        played = len(seat.known.actions)
        await play_first_legal(app, pilot)
        await settle(pilot, lambda: len(seat.known.actions) > played + 1)  # mine, then theirs


async def test_two_players_in_two_apps_share_one_table(store, tmp_path, server) -> None:
    """Ann creates a table with a seat kept for Ben; Ben's lobby lists it with a free seat
    for him; once he sits the game starts and each one's move reaches the other's screen."""
    ann = app_for(store, server=server.address("ann"))
    ben_store = type(store)(tmp_path / "ben-saves")
    ben = app_for(ben_store, server=server.address("ben"))
    async with ann.run_test(size=(80, 24)) as ann_pilot, ben.run_test(size=(80, 24)) as ben_pilot:
        await settle(ann_pilot, lambda: isinstance(ann.screen, LobbyScreen))
        await create_table(ann, ann_pilot, ["you", "player"], names={1: "ben"})
        await settle(ann_pilot, lambda: isinstance(ann.screen, GameScreen))
        await settle(ben_pilot, lambda: isinstance(ben.screen, LobbyScreen))
        lobby = lobby_of(ben)
        await settle(ben_pilot, lambda: bool(lobby.tables))
        assert "your table" in str(lobby.query_one("#lobby-detail").render())
        await ben_pilot.press("enter")
        await settle(ben_pilot, lambda: isinstance(ben.screen, GameScreen))
        ann_seat, ben_seat = seat_of(ann), seat_of(ben)
        await settle(ann_pilot, lambda: ann_seat.state == ben_seat.state)
        for _ in range(6):  # a few moves, whoever's turn it is
            mover, pilot = (ann, ann_pilot)
            if ben_seat.decides_here(ben_seat.state.current_player):
                mover, pilot = ben, ben_pilot
            count = len(ann_seat.known.actions)
            await play_first_legal(mover, pilot)
            await settle(ann_pilot, lambda c=count: len(ann_seat.known.actions) > c)
            await settle(ben_pilot, lambda c=count: len(ben_seat.known.actions) > c)
            assert ann_seat.state == ben_seat.state
        assert ann_seat.table.seats_here == {0} and ben_seat.table.seats_here == {1}


async def test_a_spectator_sees_the_game_and_cannot_act(store, tmp_path, server) -> None:
    ann = app_for(store, server=server.address("ann"))
    cleo = app_for(type(store)(tmp_path / "cleo"), server=server.address("cleo"))
    async with ann.run_test(size=(80, 24)) as ann_pilot, cleo.run_test(size=(80, 24)) as pilot:
        await settle(ann_pilot, lambda: isinstance(ann.screen, LobbyScreen))
        await create_table(ann, ann_pilot, ["you", "computer easy"])
        await settle(ann_pilot, lambda: isinstance(ann.screen, GameScreen))
        await settle(pilot, lambda: isinstance(cleo.screen, LobbyScreen))
        await settle(pilot, lambda: bool(lobby_of(cleo).tables))
        await pilot.press("w")
        await settle(pilot, lambda: isinstance(cleo.screen, GameScreen))
        watching = seat_of(cleo)
        assert watching.status == "WATCHING"
        assert not any(watching.decides_here(s) for s in range(2))
        with pytest.raises(Exception, match="watching"):
            watching.play(watching.legal_actions()[0])


async def test_the_server_restarting_under_a_game_loses_nothing(store, server) -> None:
    """kill -9 of the server mid-game: the seat says it is reconnecting, comes back by
    itself once the server is up again, at the same position, and play goes on."""
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        seat = await new_table(app, pilot, ["you", "player"], names={1: "ben"})
        before = seat.state
        server.kill()
        await settle(pilot, lambda: seat.status == "reconnecting…")
        server.start()
        await settle(pilot, lambda: seat.status != "reconnecting…", limit=2000)
        assert seat.state == before


async def test_without_a_server_the_game_is_local(store, tmp_path) -> None:
    """No socket at the address: the local flow starts at once, no key for tables."""
    from tui.screens.new_game import NewGameScreen

    app = app_for(store, server=ServerAddress(tmp_path / "none.sock", "ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, NewGameScreen))
        assert app.screen.check_action("tables", ()) is False


async def test_a_stale_socket_says_so_and_plays_locally(store) -> None:
    """A socket file with no server behind it (a server killed -9): one notice, then the
    local game; nothing hangs."""
    import socket as sockets

    from tui.screens.new_game import NewGameScreen

    with tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder:
        path = Path(folder) / "t.sock"
        listener = sockets.socket(sockets.AF_UNIX)
        listener.bind(str(path))
        listener.close()  # the file stays, nobody listens
        app = app_for(store, server=ServerAddress(path, "ann"))
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, NewGameScreen))
            await settle(pilot, lambda: any("No table server" in t for t in toasts(app)))


async def test_an_unfinished_shared_game_exports_to_a_save_that_resumes_here(store, server) -> None:
    """Ctrl+S at a shared table keeps a copy here: the same moves, the same positions as
    seen at the table, and a deal in place of the seed, whose future is not the table's."""
    from core.public import public_view
    from tests.table_server.test_server import real_game

    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        seat = await new_table(app, pilot, ["you", "computer easy"])
        while len(seat.known.actions) < 4:
            await settle(pilot, lambda: seat.decides_here(seat.state.current_player))
            count = len(seat.known.actions)
            await play_first_legal(app, pilot)
            await settle(pilot, lambda c=count: len(seat.known.actions) > c)
        await settle(pilot, lambda: seat.decides_here(seat.state.current_player))
        assert "Exporting" in seat.save_as("shared")
        await settle(pilot, lambda: "shared" in store.names())
        real_seed, _ = real_game(server, seat.table.info.id)
        kept = store.watch("shared")
        count = len(kept.actions)
        assert count >= 4 and kept.actions == seat.known.actions[:count]
        assert public_view(kept.state) == seat.known.states[count]  # as seen at the table
        assert kept.deal is not None and kept.seed != real_seed
        kept.close()


async def test_u_says_why_a_shared_action_cannot_be_taken_back(store, server) -> None:
    """At a shared table, u on an action that is no longer yours to undo says the rule,
    in the words of the table's rules."""
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        seat = await new_table(app, pilot, ["you", "player"], names={1: "ben"})
        assert not seat.can_undo()
        await pilot.press("u")
        await pilot.pause()
        words = str(app.screen.query_one("ActionBar").render())
        assert f"✗ {seat.why_no_undo()}" in words


async def test_h_hands_the_seat_to_a_computer_and_takes_it_back(store, server) -> None:
    """H at a shared table: a computer plays your seat (the screen says so), H then t
    takes it back."""
    from tui.screens.dialogs import HandOverScreen

    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        seat = await new_table(app, pilot, ["you", "player"], names={1: "ben"})
        await pilot.press("H")
        await settle(pilot, lambda: isinstance(app.screen, HandOverScreen))
        await pilot.press("n")
        await settle(pilot, lambda: seat.table.handed_to == "normal")
        assert not seat.decides_here(0) and seat.players[0].computer == "normal"
        await pilot.press("H")
        await settle(pilot, lambda: isinstance(app.screen, HandOverScreen))
        await pilot.press("t")
        await settle(pilot, lambda: seat.table.handed_to is None)
        assert seat.decides_here(0) or seat.state.current_player != 0


async def test_c_says_a_line_that_shows_in_everyone_s_log_as_plain_text(
    store, tmp_path, server
) -> None:
    from tui.screens.dialogs import LinePrompt
    from tui.widgets.log import LogView

    ann = app_for(store, server=server.address("ann"))
    ben = app_for(type(store)(tmp_path / "ben"), server=server.address("ben"))
    async with ann.run_test(size=(80, 24)) as pilot, ben.run_test(size=(80, 24)) as ben_pilot:
        await settle(pilot, lambda: isinstance(ann.screen, LobbyScreen))
        await create_table(ann, pilot, ["you", "player"], names={1: "ben"})
        await settle(pilot, lambda: isinstance(ann.screen, GameScreen))
        await settle(ben_pilot, lambda: bool(lobby_of(ben).tables))
        await ben_pilot.press("enter")
        await settle(ben_pilot, lambda: isinstance(ben.screen, GameScreen))
        await pilot.press("c")
        await settle(pilot, lambda: isinstance(ann.screen, LinePrompt))
        await pilot.press(*"[/] gl", "enter")

        def said(app) -> bool:
            return any("ann: [/] gl" in line.plain for line in app.screen.query_one(LogView).lines)

        await settle(pilot, lambda: said(ann))
        await settle(ben_pilot, lambda: said(ben))


async def test_a_finished_table_replays_with_its_chat_and_the_ladder_lists_its_players(
    store, server
) -> None:
    from textual.widgets import DataTable, OptionList

    from table import protocol as wire
    from tests.table_server.bots import Bot, create, play_to_the_end
    from tui.screens.ladder import LadderScreen
    from tui.screens.replay import ReplayScreen

    seats = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben")]
    table = await create(server.socket, "ann", seats)
    bots = [await Bot.join(server.socket, n, table, i) for i, n in enumerate(["ann", "ben"])]
    await bots[1].ask(wire.Say(bots[1].connection.new_ref(), table, "gg [/]"))
    await play_to_the_end(bots)
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = lobby_of(app)
        await settle(pilot, lambda: bool(lobby.tables) and lobby.tables[0].status == "over")
        await pilot.press("enter")
        # The screen first, then its parts (under load they come a frame or two later).
        await settle(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await settle(pilot, lambda: bool(app.screen.query(OptionList)))
        log = app.screen.query_one(OptionList)
        lines = [str(log.get_option_at_index(i).prompt) for i in range(log.option_count)]
        assert "» ben: gg [/]" in lines and len(lines) > len(bots[0].actions)
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("L")
        await settle(pilot, lambda: isinstance(app.screen, LadderScreen))
        grid = app.screen.query_one(DataTable)
        await settle(pilot, lambda: grid.row_count == 2)
        names = {str(grid.get_row_at(i)[1]) for i in range(2)}
        assert names == {"ann", "ben"}
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        # The final scores of a shared game: n goes back to the tables, not to a new
        # game on this machine.
        assert app.directory is not None
        app.push_screen(FinalScreen(await app.directory.watch(table)))
        await settle(pilot, lambda: isinstance(app.screen, FinalScreen))
        shown = {b.binding.action: b.binding.description for b in app.active_bindings.values()}
        assert shown.get("tables") == "Tables" and "new_game" not in shown
        await pilot.press("n")
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_a_live_table_can_be_paused_once_a_season_with_p(store, server) -> None:
    from tui.screens.dialogs import ConfirmScreen
    from tui.widgets.log import LogView

    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        live = "live: 2 min away, then a computer"
        await create_table(app, pilot, ["you", "player"], names={1: "ben"}, pace=live)
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        seat = seat_of(app)
        assert seat.table.info.pace == "live" and seat.table.info.wait == 120
        await pilot.press("P")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot, lambda: seat.table.info.paused_by == "ann")
        assert (seat.status or "").startswith("paused until")
        lines = [line.plain for line in app.screen.query_one(LogView).lines]
        assert any("ann paused the table until" in line for line in lines)


async def test_the_lobby_redraws_its_list_only_when_a_row_reads_differently(store, server) -> None:
    """The lobby asks for the list every 2 s; an unchanged list leaves the rows alone
    (each rebuild repainted the whole list: 3.3 KB per idle terminal, every 2 s)."""
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = lobby_of(app)
        await lobby.directory.create([SeatSpec("player", "ann"), SeatSpec("open")], title="first")
        lobby.action_refresh()
        await settle(pilot, lambda: lobby.tables and lobby.tables[0].title == "first")
        rebuilt: list[int] = []
        grid = lobby.query_one(DataTable)
        clear = grid.clear
        grid.clear = lambda *a, **k: rebuilt.append(1) or clear(*a, **k)  # type: ignore
        said: list[object] = []
        detail = lobby.query_one("#lobby-detail", Static)
        update = detail.update
        detail.update = lambda *a, **k: said.append(a) or update(*a, **k)  # type: ignore
        for _ in range(3):
            lobby.show_tables(tuple(lobby.tables))
        assert rebuilt == [] and said == []
        await lobby.directory.create([SeatSpec("player", "ann"), SeatSpec("open")], title="second")
        lobby.action_refresh()
        await settle(pilot, lambda: len(lobby.tables) == 2)
        assert rebuilt == [1] and grid.row_count == 2
