"""Fixtures of the web door's end-to-end tests: a real ``mykerinos serve --web 127.0.0.1:0``
(and ``--ssh`` beside it when a test needs both) on temporary folders, and Debian's
Chromium driven by Playwright (tests/web/browser.py), one browser per test module and one
context (cookies of its own) per player.

The whole folder is skipped when there is no Chromium (the Makefile installs it on CI).
Every wait is bounded; every process and context started here is ended at the end.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from tests.door.conftest import HOST, LOBBY, START_LIMIT, Door, serving
from tests.web.browser import CHROMIUM, VIEWPORT, Terminal, chromium, new_player

URL_FILE = "web_door.url"
"""The file beside the store where the web door writes its public URL (ending with /)."""


@pytest.fixture(autouse=True)
def _needs_chromium() -> None:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"the web door's tests need Debian's Chromium ({CHROMIUM})")


class WebDoor(Door):
    """``mykerinos serve --web 127.0.0.1:0`` (and ``--ssh 127.0.0.1:PORT`` if ``ssh``) on
    a store and socket of its own; :attr:`url` is the door's public URL."""

    def __init__(self, folder: Path, *options: str, ssh: bool = False) -> None:
        super().__init__(folder, *options)
        self.with_ssh = ssh
        self.url = ""

    def command(self) -> list[str]:
        command = super().command()
        if not self.with_ssh:
            at = command.index("--ssh")
            del command[at : at + 2]
        return [*command, "--web", f"{HOST}:0"]

    def write_known_hosts(self) -> None:
        if self.with_ssh:
            super().write_known_hosts()

    def wait_url(self) -> None:
        """Once the server runs (:meth:`start`): read the URL its web door wrote beside the
        store (port 0: a free one), waiting for it if need be."""
        path = self.db.parent / URL_FILE
        deadline = time.monotonic() + START_LIMIT
        while not path.exists() or not path.read_text().strip().endswith("/"):
            assert self.process is not None and self.process.poll() is None, self.log()
            assert time.monotonic() < deadline, f"the web door wrote no {URL_FILE}:\n{self.log()}"
            time.sleep(0.02)
        self.url = path.read_text().strip()

    @property
    def origin(self) -> str:
        """``http://127.0.0.1:PORT``: the door's own origin."""
        match = re.match(r"^(https?://[^/]+)", self.url)
        assert match, self.url
        return match.group(1)

    def invite_link(self, name: str, *more: str) -> tuple[str, str]:
        """``mykerinos invite NAME --web``: its code (line 1) and link (line 2)."""
        done = self.mykerinos("invite", name, "--web", *more)
        assert done.returncode == 0, (done.stdout, done.stderr)
        lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
        assert len(lines) >= 2, done.stdout
        code, link = lines[0], lines[1]
        assert link.startswith(self.url) and f"code={code}" in link, done.stdout
        return code, link


@contextlib.contextmanager
def running_door(*, ssh: bool = False) -> Iterator[WebDoor]:
    """A server with its web door (and its SSH door if ``ssh``) on a temporary folder;
    at the end everything it and the test started is ended, and no session's game may
    have crashed."""
    # A short folder: a Unix socket's path must fit in 108 bytes, pytest's tmp_path may not.
    with (
        tempfile.TemporaryDirectory(prefix="myk-web-", dir="/tmp") as folder,
        serving(WebDoor(Path(folder), ssh=ssh)) as door,
    ):
        door.wait_url()
        yield door


@pytest.fixture
def web_door() -> Iterator[WebDoor]:
    """A running server with its web door."""
    with running_door() as door:
        yield door


@pytest.fixture
def both_doors() -> Iterator[WebDoor]:
    """A running server with its SSH door and its web door."""
    with running_door(ssh=True) as door:
        yield door


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium, one per test module (a context per player keeps them apart)."""
    with sync_playwright() as playwright, chromium(playwright) as running:
        yield running


class Player:
    """One person in the browser: a context of their own, its page and terminal."""

    def __init__(self, context: BrowserContext, page: Page, terminal: Terminal) -> None:
        self.context = context
        self.page = page
        self.terminal = terminal

    def sign_in(self, link: str, name: str) -> str:
        """Open the invitation ``link``, press Sign in, wait for ``name``'s lobby; its
        screen."""
        self.page.goto(link)
        self.page.locator("#sign-in").click()
        self.terminal.wait_socket(1, 20)
        return self.terminal.wait_for(f"{LOBBY} {name}", 30)


@pytest.fixture
def players(browser: Browser) -> Iterator[Callable[..., Player]]:
    """Makes players (new contexts at the default viewport, or ``viewport=(w, h)``); each
    context is closed at the test's end."""
    made: list[BrowserContext] = []

    def make(viewport: tuple[int, int] = VIEWPORT) -> Player:
        context, page, terminal = new_player(browser, viewport)
        made.append(context)
        return Player(context, page, terminal)

    yield make
    for context in made:
        with contextlib.suppress(Exception):  # already closed by the test
            context.close()
