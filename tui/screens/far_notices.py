"""The lobby's ``n`` at a table server: how a turn at another table is told here (the
line, the bell, the desktop notice: :class:`tui.screens.dialogs.NoticesScreen`'s keys),
and away from the terminal, by e-mail or a push service (ntfy, a webhook), once it has
been your turn for the delay you chose.

A new address gets a code (by e-mail, or as a test notice on the push service), typed
back with ``c``: nothing else is sent there before. ``o`` turns every channel off (or on
again) at once; an address whose notices cannot be delivered says since when, and why.
Everything shown comes from the server, made safe by :mod:`tui.server_text`, and is drawn
with markup off.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from table import protocol_notices as notice
from tui.screens.dialogs import NoticesScreen

if TYPE_CHECKING:
    from table.client.directory import TableDirectory

KINDS: dict[str, tuple[notice.ChannelKind, str]] = {
    "email": ("email", "Your e-mail address:"),
    "ntfy": ("ntfy", "Your ntfy topic's address (https://ntfy.sh/a-topic-of-yours):"),
    "webhook": ("webhook", "Your webhook's address (https://…), sent JSON:"),
}


def delay_words(seconds: float) -> str:
    if seconds >= 3600:
        hours = seconds / 3600
        return f"{hours:g} hour" + ("s" if hours != 1 else "")
    return f"{seconds / 60:g} min"


def channel_line(number: int, channel: notice.NoticeChannel) -> str:
    """One address as listed: its number, whether it is confirmed, and if its notices
    fail, since when and why (a second line)."""
    mark = "✓" if channel.confirmed else "…"
    line = f"{number} {mark} {channel.kind:<7} {channel.address}"[:74]
    if not channel.confirmed:
        return f"{line}  (its code: c)"
    if channel.failing_since is not None:
        return f"{line}\n  ✗ {failing_words(channel)}: {channel.error or ''}"[:160]
    return line


def failing_words(channel: notice.NoticeChannel) -> str:
    """``your e-mail could not be delivered since 21 Sep 14:13`` (tried again meanwhile)."""
    since = time.strftime("%d %b %H:%M", time.localtime(channel.failing_since or 0))
    what = {"email": "e-mail", "ntfy": "ntfy topic", "webhook": "webhook"}[channel.kind]
    return f"your {what} could not be delivered since {since}"


class FarNoticesScreen(NoticesScreen):
    """:class:`NoticesScreen` with the notices away from the terminal (see the module
    docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *NoticesScreen.BINDINGS,
        Binding("e", "add('email')", "E-mail"),
        Binding("p", "add('ntfy')", "ntfy"),
        Binding("h", "add('webhook')", "Webhook"),
        Binding("c", "code", "Code"),
        Binding("x", "remove", "Remove"),
        Binding("t", "delay", "Delay"),
        Binding("o", "all_off", "All off"),
    ]

    def __init__(self, directory: TableDirectory) -> None:
        super().__init__()
        self.directory = directory
        self.state: notice.NoticeState | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static("When it is your turn at another table, tell me with:")
            yield Static(id="notice-choices", markup=False)
            yield Static("", id="notice-problem", markup=False)
            yield Static("Asking the server…", id="far-channels", markup=False)
            yield Static("", id="far-said", markup=False)
            yield Static(
                "[b]l b d[/b] here  [b]e p h[/b] add  [b]c[/b] code  [b]x[/b] remove  "
                "[b]t[/b] delay  [b]o[/b] all off  [b]Esc[/b] close",
                classes="keys",
                id="far-keys",
            )

    def on_mount(self) -> None:
        super().on_mount()
        self._ask(notice.NoticesShow(0))

    @work(exclusive=True, group="far-notices")
    async def _ask(self, request: notice.NoticeRequest) -> None:
        from table.client.directory import TableUnavailable
        from table.seat import SeatError

        try:
            self.state = await self.directory.notices(request)
        except (TableUnavailable, SeatError) as exc:
            self._tell(f"✗ {exc}")
            self.app.bell()
            return
        self._show_far()
        self._tell(self.state.said)

    def _tell(self, words: str) -> None:
        self._update("#far-said", words)

    def _update(self, selector: str, words: str) -> None:
        """Show ``words`` in the part ``selector``; nothing once the screen has gone (an
        answer of the server may come after it was closed, or the app quit)."""
        for part in self.query(selector).results(Static):
            part.update(words)

    def _show_far(self) -> None:
        state = self.state
        if state is None:
            return
        lines = ["Away from the terminal (add: e e-mail, p ntfy, h webhook):"]
        if state.off:
            lines.append("All off: nothing is sent (o turns them on again).")
        else:
            lines.append(
                f"Told after {delay_words(state.delay)} of your turn while you are not "
                f"here (t changes it; the default is {delay_words(state.default_delay)})."
            )
        for number, channel in enumerate(state.channels, 1):
            lines.append(channel_line(number, channel))
        if not state.channels:
            ways = (["e-mail"] if state.email else []) + (["push"] if state.push_hosts else [])
            lines.append(
                f"No address yet ({' or '.join(ways)} allowed here)."
                if ways
                else "This server's host set up no e-mail and no push service."
            )
        self._update("#far-channels", "\n".join(lines))

    def action_add(self, kind: str) -> None:
        from tui.screens.dialogs import LinePrompt

        channel_kind, question = KINDS[kind]
        if (unset := self._not_set_up(channel_kind)) is not None:
            self._tell(f"✗ {unset}")  # said before the address is typed, not after
            self.app.bell()
            return

        def added(address: str | None) -> None:
            if address:
                self._ask(notice.NoticeAdd(0, channel_kind, address))

        prompt = LinePrompt(question, "", lambda line: line, verb="add",
                            empty="type the address", max_length=200)  # fmt: skip
        self.app.push_screen(prompt, added)

    def _not_set_up(self, kind: notice.ChannelKind) -> str | None:
        """Why the host lets no address of ``kind`` be added (None: it may be, or the
        server has not answered yet: it judges the address anyway)."""
        state = self.state
        if state is None:
            return None
        if kind == "email":
            return None if state.email else notice.NO_MAIL_RELAY
        if state.push_hosts:
            return None
        return "this server's host set no push service" + (" (only e-mail)" if state.email else "")

    def _unconfirmed(self) -> notice.NoticeChannel | None:
        waiting = [c for c in self.state.channels if not c.confirmed] if self.state else []
        return waiting[-1] if waiting else None

    def action_code(self) -> None:
        from tui.screens.dialogs import LinePrompt

        channel = self._unconfirmed()
        if channel is None:
            self._tell("No address waits for a code.")
            return

        def typed(code: str | None) -> None:
            if code:
                self._ask(notice.NoticeConfirm(0, channel.id, code))

        prompt = LinePrompt(f"The code sent to {channel.address[:50]}:", "", lambda line: line,
                            verb="confirm", empty="type the code", max_length=20)  # fmt: skip
        self.app.push_screen(prompt, typed)

    def action_remove(self) -> None:
        from table.seat import SeatError
        from tui.screens.dialogs import LinePrompt

        channels = self.state.channels if self.state else ()
        if not channels:
            self._tell("No address to remove.")
            return

        def which(line: str) -> str:
            if not line.isdigit() or not 1 <= int(line) <= len(channels):
                raise SeatError(f"a number from 1 to {len(channels)}")
            return line

        def chosen(number: str | None) -> None:
            if number:
                self._ask(notice.NoticeRemove(0, channels[int(number) - 1].id))

        prompt = LinePrompt("Remove which address (its number)?", "", which, verb="remove",
                            empty="type its number")  # fmt: skip
        self.app.push_screen(prompt, chosen)

    def action_delay(self) -> None:
        state = self.state
        if state is None:
            return
        later = [d for d in state.delays if d > state.delay]
        delay = later[0] if later else state.delays[0]
        self._ask(notice.NoticeSet(0, delay, state.off))

    def action_all_off(self) -> None:
        """One key: every channel off (or on again)."""
        state = self.state
        if state is not None:
            self._ask(notice.NoticeSet(0, state.delay, not state.off))
