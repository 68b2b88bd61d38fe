"""The harness itself (tests/web/browser.py), against textual-serve as it comes: a trivial
Textual app served by ``textual_serve.server.Server`` on a free loopback port, opened in
Chromium. The screen read from the websocket's frames shows the app, keys typed reach it,
a smaller viewport gives the terminal fewer columns, and a failed wait shows the screen."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.door.conftest import HOST, clean_environment, free_port
from tests.door.sshpty import descendants
from tests.web.browser import new_player

APP = """
from textual.app import App, ComposeResult
from textual.widgets import Input, Static


class Hello(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("hello from the harness", id="said")
        yield Static("", id="size")
        yield Input(id="typed")

    def on_mount(self) -> None:
        self.query_one("#typed", Input).focus()

    def on_resize(self, event) -> None:
        self.query_one("#size", Static).update(f"size {event.size.width}x{event.size.height}")

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#said", Static).update(f"typed {event.value}")


Hello().run()
"""

SERVE = """
import sys
from textual_serve.server import Server
Server(sys.argv[1], host=sys.argv[2], port=int(sys.argv[3])).serve()
"""


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((HOST, port)) == 0


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """textual-serve serving the trivial app; its URL. The server and its apps are killed."""
    app = tmp_path / "hello.py"
    app.write_text(APP)
    log = tmp_path / "serve.log"
    for _attempt in range(3):
        port = free_port()
        with open(log, "ab") as out:
            process = subprocess.Popen(
                [sys.executable, "-c", SERVE, f"{sys.executable} {app}", HOST, str(port)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                env=clean_environment(), start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 20
        while process.poll() is None and not _listening(port):
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.05)
        if process.poll() is None:
            break
    else:
        raise AssertionError(f"textual-serve never listened:\n{log.read_text(errors='replace')}")
    try:
        yield f"http://{HOST}:{port}/"
    finally:
        left = descendants(process.pid)
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_the_harness_reads_textual_serve_s_terminal(browser: Browser, served: str) -> None:
    context, page, terminal = new_player(browser, (1000, 600))
    try:
        page.goto(served)
        first = terminal.wait_socket(1, 20)
        assert first.url.startswith(f"ws://{HOST}:") and "width=" in first.url, first.url
        terminal.wait_for("hello from the harness", 20)
        cols, rows = terminal.size
        terminal.wait_for(f"size {cols}x{rows}")
        assert cols > 80 and rows > 24, terminal.screen_text()

        terminal.type("abc")
        terminal.wait_for("typed abc")

        page.set_viewport_size({"width": 600, "height": 400})
        terminal.wait_for(lambda _screen: terminal.size[0] < cols, what="fewer columns")
        narrow, short = terminal.size
        terminal.wait_for(f"size {narrow}x{short}")

        with pytest.raises(AssertionError) as failed:
            terminal.wait_for("never on this screen", 0.3)
        assert "typed abc" in str(failed.value), failed.value
        assert f"{narrow}×{short} screen" in str(failed.value), failed.value
    finally:
        context.close()
