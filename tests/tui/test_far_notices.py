"""The lobby's ``n`` at a table server with a mail relay: an e-mail address added, its code
read from the real SMTP server it went to and typed back, every channel off with one key;
and how a failing address is listed."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from table import protocol_notices as notice
from tests.table_notices.receivers import SmtpReceiver
from tests.table_notices.receivers import settle as settle_mail
from tests.table_server.process import Server
from tests.tui.conftest import app_for, settle
from tui.screens.far_notices import FarNoticesScreen, channel_line
from tui.screens.lobby import LobbyScreen


def shown(app, widget: str) -> str:
    return str(app.screen.query_one(widget).render())


async def test_an_address_is_added_confirmed_by_its_code_and_all_turned_off(store) -> None:
    with (
        tempfile.TemporaryDirectory(prefix="myk-", dir="/tmp") as folder,
        SmtpReceiver() as smtp,
    ):
        settings = Path(folder) / "notices.toml"
        settings.write_text(
            f'[smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nsecurity = "none"\n'
            'sender = "games@example.org"\n'
        )
        server = Server(Path(folder), options=("--notices", str(settings), "--notice-tick", "0.1"))
        server.start()
        try:
            app = app_for(store, server=server.address("ann"))
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
                await pilot.press("n")
                await settle(pilot, lambda: isinstance(app.screen, FarNoticesScreen))
                await settle(
                    pilot, lambda: "No address yet (e-mail allowed" in shown(app, "#far-channels")
                )
                await pilot.press("e")
                await pilot.press(*"ann@example.org", "enter")
                await settle(pilot, lambda: "code was sent" in shown(app, "#far-said"))
                assert "… email   ann@example.org  (its code: c)" in shown(app, "#far-channels")
                mail = settle_mail(lambda: smtp.mails)[0]
                code = re.search(r"The code: (\d{6})", str(mail.get_payload()))
                assert code is not None
                await pilot.press("c")
                await pilot.press(*code.group(1), "enter")
                await settle(pilot, lambda: "Confirmed" in shown(app, "#far-said"))
                assert "✓ email   ann@example.org" in shown(app, "#far-channels")
                assert "Told after 15 min of your turn" in shown(app, "#far-channels")
                await pilot.press("t")
                await settle(pilot, lambda: "Told after 1 hour" in shown(app, "#far-channels"))
                await pilot.press("o")
                await settle(pilot, lambda: "All off" in shown(app, "#far-channels"))
                assert app.screen.size.width <= 80
        finally:
            server.stop()


def test_a_failing_address_says_since_when_and_why() -> None:
    why = "the mail relay smtp.example.org:587: Connection refused"
    channel = notice.NoticeChannel(3, "email", "ann@example.org", True, 1_790_000_000.0, why)
    line = channel_line(1, channel)
    assert "your e-mail could not be delivered since" in line and "Connection refused" in line
    first, second = line.splitlines()
    assert len(first) <= 78 and second.startswith("  ✗ your e-mail")


class FiveAddresses:
    """A lobby's directory whose player has five addresses, two of them failing."""

    player = "ann"

    async def notices(self, request: notice.NoticeRequest) -> notice.NoticeState:
        failing = "the mail relay smtp.example.org:587: [Errno 111] Connection refused"
        rows = [
            ("email", "ann.longname@example.org", True, None, None),
            ("ntfy", "https://ntfy.sh/ann-turns-" + "x" * 60, True, 1_790_000_000.0, "503"),
            ("webhook", "https://hooks.example.org/ann", False, None, None),
            ("email", "ann@work.example.org", True, 1_790_000_000.0, failing),
            ("ntfy", "https://ntfy.sh/ann2", True, None, None),
        ]
        channels = tuple(notice.NoticeChannel(i, *r) for i, r in enumerate(rows, 1))  # type: ignore[arg-type]
        said = "A code was sent there: type it with c to confirm the address."
        return notice.NoticeState(0, channels, 900, False, 900, (300, 900), True, (), said)


async def test_five_addresses_two_failing_fit_in_80_by_24_with_the_keys_in_view() -> None:
    from textual.app import App
    from textual.containers import Vertical

    class Host(App[None]):
        CSS_PATH = str(Path(__file__).resolve().parents[2] / "tui" / "app.tcss")

        def on_mount(self) -> None:
            self.push_screen(FarNoticesScreen(FiveAddresses()))  # type: ignore[arg-type]

    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: "ann2" in shown(app, "#far-channels"))
        box = app.screen.query_one(Vertical)
        keys = app.screen.query_one("#far-keys")
        assert box.content_region.contains_region(keys.region)
        assert "✗ your e-mail could not be delivered since" in shown(app, "#far-channels")


class NothingSetUp:
    """A lobby's directory at a server whose host set up no e-mail and no push service."""

    player = "ann"

    async def notices(self, request: notice.NoticeRequest) -> notice.NoticeState:
        return notice.NoticeState(0, (), 900, False, 900, (300, 900), False, ())


async def test_a_kind_the_host_did_not_set_up_is_refused_before_the_address_is_typed() -> None:
    """e, p and h used to ask for an address, then refuse it for a reason known before."""
    from textual.app import App
    from textual.widgets import Static

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(FarNoticesScreen(NothingSetUp()))  # type: ignore[arg-type]

    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: "set up no e-mail" in shown(app, "#far-channels"))
        await pilot.press("e")
        assert isinstance(app.screen, FarNoticesScreen)  # no address asked for
        await settle(pilot, lambda: "set no mail relay" in shown(app, "#far-said"))
        for key in "ph":
            app.screen.query_one("#far-said", Static).update("")
            await pilot.press(key)
            assert isinstance(app.screen, FarNoticesScreen)
            assert "set no push service" in shown(app, "#far-said")
