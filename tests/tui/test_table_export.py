"""Ctrl+S at a shared table (issue 26): it exports a copy, and says so; the copy goes
where the player is (a save here, a browser's download, or through the SSH door the
command that writes it on the guest's own machine); the answer is a line of the table's
log, with no notice over it.

The table is the scripted one of tests/table/test_remote_seat.py, so no server runs here."""

from __future__ import annotations

import io
import socket
from typing import Any

import pytest

from table import protocol as wire
from table.client.seat import RemoteSeat
from table.seat import SeatError
from tests.table.test_remote_seat import TABLE, FakeTable, TableLink, start_state
from tests.tui.conftest import HOT_SEAT_2, app_for, session_for, settle, toasts
from tests.tui.test_table_seat import log_of, show
from tui.app import MykerinosApp
from tui.screens.dialogs import InfoScreen, SaveAsScreen


@pytest.fixture(autouse=True)
def config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


class ExportingLink(TableLink):
    """A connection to the table whose server exports ``save`` (save-file bytes)."""

    def __init__(self, table: FakeTable, save: bytes) -> None:
        super().__init__(table, "ann")
        self.save = save

    async def ask(self, message: wire.ClientMessage) -> wire.ServerMessage:
        if isinstance(message, wire.Export):
            self.sent.append(message)
            return wire.Exported(message.ref, self.save)
        return await super().ask(message)


async def sit(app: MykerinosApp, save: bytes = b"") -> RemoteSeat:
    """ann's seat at the scripted table, exporting through ``app`` as the app does."""
    table = FakeTable(start_state())

    async def dial() -> ExportingLink:
        return ExportingLink(table, save)

    return await RemoteSeat.open(dial, TABLE, watch=False, where="test", keep=app.keep_export)


def words(app: MykerinosApp) -> str:
    return " ".join(str(static.render()) for static in app.screen.query("Static"))


class TestTheQuestion:
    async def test_at_a_table_here_it_exports_a_copy_to_a_save_here(self, store) -> None:
        """The question says a copy is exported (the table plays on), not that a save is
        renamed; the answer is a line of the log, and no notice comes over it."""
        session_for(store, HOT_SEAT_2, name="source").close()
        save = store.path("source").read_bytes()
        app = app_for(store, offer_resume=False)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await show(app, pilot, await sit(app, save))
            await pilot.press("ctrl+s")
            await settle(pilot, lambda: isinstance(app.screen, SaveAsScreen))
            asked = words(app)
            assert "Export a copy of this table's game to a save here" in asked
            assert "the table plays on" in asked and "renamed" not in asked
            assert "Enter export" in asked
            app.screen.query_one("#name").value = "copy"  # type: ignore[attr-defined]
            await pilot.press("enter")
            told = "Exported: the game is saved here as 'copy' (o: load or replay it)."
            await settle(pilot, lambda: told in log_of(app))
            assert toasts(app) == []
            assert "copy" in [row.name for row in store.list()]

    async def test_a_game_here_is_still_renamed(self, store) -> None:
        """Away from a shared table the question is the old one: the save is renamed."""
        session_for(store, HOT_SEAT_2, name="here").close()
        app = app_for(store, resume="here")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+s")
            await settle(pilot, lambda: isinstance(app.screen, SaveAsScreen))
            assert "Name this game (its save is renamed):" in words(app)

    async def test_through_the_ssh_door_it_says_the_command_with_the_real_port(self, store) -> None:
        """Through the SSH door nothing is saved on the host: Ctrl+S says the command that
        writes the table's game on the guest's own machine, with the door's port."""
        app = app_for(store, offer_resume=False)
        app.door = "ssh:2345"  # what the SSH door's --door says (a door's session sets it)
        async with app.run_test(size=(80, 24)) as pilot:
            await show(app, pilot, await sit(app))
            await pilot.press("ctrl+s")
            await settle(pilot, lambda: isinstance(app.screen, InfoScreen))
            command = f"ssh -p 2345 {socket.gethostname()} export {TABLE} > game.json"
            assert command in words(app)
            assert "on your own machine" in words(app)
            await pilot.press("enter")
            await settle(pilot, lambda: not isinstance(app.screen, InfoScreen))
            assert list(store.list()) == []


class TestTheBrowser:
    async def test_through_the_web_door_the_browser_downloads_it(self, store, monkeypatch) -> None:
        """Through the web door the question says the browser downloads the copy, and the
        exported bytes are delivered as NAME.json, nothing kept on the host."""
        app = app_for(store, offer_resume=False)
        app.door = "web"
        delivered: list[tuple[bytes, dict[str, Any]]] = []

        def deliver(file: io.BytesIO, **options: Any) -> str:
            delivered.append((file.read(), options))
            return "key"

        monkeypatch.setattr(app, "deliver_binary", deliver)
        async with app.run_test(size=(80, 24)) as pilot:
            await show(app, pilot, await sit(app, b'{"a save": 1}'))
            await pilot.press("ctrl+s")
            await settle(pilot, lambda: isinstance(app.screen, SaveAsScreen))
            assert "your browser downloads it" in words(app)
            app.screen.query_one("#name").value = "sunday"  # type: ignore[attr-defined]
            await pilot.press("enter")
            told = "Exported: your browser downloads the game as 'sunday.json'."
            await settle(pilot, lambda: told in log_of(app))
        assert delivered == [
            (b'{"a save": 1}', {"save_filename": "sunday.json", "mime_type": "application/json"})
        ]
        assert list(store.list()) == []

    def test_a_bad_file_name_is_refused_before_any_download(self, store, monkeypatch) -> None:
        app = app_for(store, offer_resume=False)
        app.door = "web"
        monkeypatch.setattr(app, "deliver_binary", lambda *a, **k: pytest.fail("delivered"))
        with pytest.raises(SeatError, match="may only hold"):
            app.keep_export("../etc/passwd", b"{}")
