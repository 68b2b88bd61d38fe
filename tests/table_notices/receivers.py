"""Real receivers on loopback for the notices' tests: an SMTP server (aiosmtpd) that
keeps every mail it is given, and an HTTP server standing in for ntfy and a webhook
that keeps every POST (answering as told: 200, 503, a redirect, or not at all yet)."""

from __future__ import annotations

import email
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller

LIMIT = 20.0
"""Seconds a wait for a delivery may last (a bound against hangs, not a timing)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def settle(check: Callable[[], Any], limit: float = LIMIT) -> Any:
    """``check()``'s first true answer, looked at until ``limit`` seconds have passed."""
    deadline = time.monotonic() + limit
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, "never settled"
        time.sleep(0.02)


class _Keeper:
    def __init__(self) -> None:
        self.mails: list[Message] = []
        self.times: list[float] = []
        """When each mail arrived (the benchmark's figures)."""

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.times.append(time.time())
        self.mails.append(email.message_from_bytes(envelope.content))
        return "250 kept"


class SmtpReceiver:
    """An SMTP server on 127.0.0.1 (no TLS: the relay's ``security = "none"``)."""

    def __init__(self) -> None:
        self.keeper = _Keeper()
        self.port = free_port()
        self.controller = Controller(self.keeper, hostname="127.0.0.1", port=self.port)

    def __enter__(self) -> SmtpReceiver:
        self.controller.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.controller.stop()

    @property
    def mails(self) -> list[Message]:
        return self.keeper.mails


@dataclass
class Post:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float = field(default_factory=time.time)


@dataclass
class HttpReceiver:
    """An HTTP server on 127.0.0.1 keeping each POST; ``answer`` is the status it gives
    (302 with a Location elsewhere), and while ``hold`` is clear it keeps the request and
    does not answer."""

    answer: int = 200
    posts: list[Post] = field(default_factory=list)
    hold: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.hold.set()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(size)
                receiver.posts.append(Post(self.path, dict(self.headers.items()), body))
                receiver.hold.wait(LIMIT)
                self.send_response(receiver.answer)
                if receiver.answer == 302:
                    self.send_header("Location", "http://127.0.0.1:9/elsewhere")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> HttpReceiver:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.hold.set()
        self.server.shutdown()
        self.server.server_close()

    def url(self, path: str = "/mykerinos-alice") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def ids(self) -> list[str]:
        return [post.headers.get("X-Message-Id", "") for post in self.posts]
