"""Sending one message, blocking (the server runs it in a thread, with a timeout): an
e-mail through the host's SMTP relay, or a POST to an ntfy topic or a webhook.

Every try of one message carries the same id (the e-mail's ``Message-ID``, the
``X-Message-Id`` header of a push, the webhook's ``id`` field), so that a receiver can
drop a repeat: a server killed between sending and marking sent sends it again. A push
goes to the address :func:`table.notices.checks.resolved` checked, follows no redirect
and reads at most a few kilobytes of the answer.
"""

from __future__ import annotations

import http.client
import json
import smtplib
import socket
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate
from typing import Final, Literal

from table.notices import Kind, NoticeRefused
from table.notices.checks import AllowList, Resolve, resolved, split_url
from table.notices.words import email_text

TIMEOUT: Final = 20.0
"""Seconds one connection may take at any step before the try fails."""

Security = Literal["starttls", "tls", "none"]


@dataclass(frozen=True)
class Relay:
    """The host's SMTP relay: where, how secured, the login (the password read from a
    file or the environment by :mod:`table.host.notices`, never the command line), and
    the sender's address."""

    host: str
    port: int
    security: Security
    sender: str
    user: str = ""
    password: str = ""


@dataclass(frozen=True)
class Message:
    """One message to one channel."""

    id: str
    subject: str
    body: str
    kind: str
    """``turn``, ``digest`` or ``confirm`` (the webhook's ``kind`` field)."""
    tables: tuple[int, ...] = ()


class DeliveryFailed(Exception):
    """This try failed (``str``: why, in words); it is tried again later."""


def deliver(
    kind: Kind,
    address: str,
    message: Message,
    relay: Relay | None,
    allow: AllowList,
    resolve: Resolve | None = None,
) -> None:
    """Send ``message`` to ``address`` over a channel of ``kind``; raises
    :class:`DeliveryFailed` (try again) or :class:`NoticeRefused` (the address is no
    longer allowed: the same words as when it was added)."""
    if kind == "email":
        if relay is None:
            raise DeliveryFailed("this server's host set no mail relay")
        _mail(relay, address, message)
    elif kind == "ntfy":
        headers = {"Title": message.subject, "X-Message-Id": message.id, "Tags": "game_die"}
        _post(address, message.body.encode(), "text/plain; charset=utf-8", headers, allow, resolve)
    else:
        payload = {"id": message.id, "kind": message.kind, "subject": message.subject,
                   "text": message.body, "tables": list(message.tables)}  # fmt: skip
        body = json.dumps(payload).encode()
        headers = {"X-Message-Id": message.id}
        _post(address, body, "application/json", headers, allow, resolve)


def _mail(relay: Relay, to: str, message: Message) -> None:
    mail = EmailMessage()
    mail["From"] = relay.sender
    mail["To"] = to
    mail["Subject"] = message.subject
    mail["Date"] = formatdate(usegmt=True)
    domain = relay.sender.rsplit("@", 1)[-1].strip(">") or "mykerinos.invalid"
    mail["Message-ID"] = f"<{message.id}@{domain}>"
    mail["Auto-Submitted"] = "auto-generated"
    mail.set_content(email_text(message.body))
    context = ssl.create_default_context()
    try:
        smtp: smtplib.SMTP
        if relay.security == "tls":
            smtp = smtplib.SMTP_SSL(relay.host, relay.port, timeout=TIMEOUT, context=context)
        else:
            smtp = smtplib.SMTP(relay.host, relay.port, timeout=TIMEOUT)
        with smtp:
            if relay.security == "starttls":
                smtp.starttls(context=context)
            if relay.user:
                smtp.login(relay.user, relay.password)
            smtp.send_message(mail)
    except (smtplib.SMTPException, OSError) as exc:
        raise DeliveryFailed(f"the mail relay {relay.host}:{relay.port}: {_said(exc)}") from None


class _Pinned(http.client.HTTPConnection):
    """A connection to the address that was checked, whatever the name resolves to now."""

    def __init__(self, host: str, port: int, address: str) -> None:
        super().__init__(host, port, timeout=TIMEOUT)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), TIMEOUT)


class _PinnedTLS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str) -> None:
        super().__init__(host, port, timeout=TIMEOUT, context=ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), TIMEOUT)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]


def _post(
    url: str,
    body: bytes,
    content_type: str,
    headers: dict[str, str],
    allow: AllowList,
    resolve: Resolve | None,
) -> None:
    scheme, host, port, path = split_url(url)
    if not allow.allows(host, port):
        raise NoticeRefused(f"this server's host no longer allows {host}")
    address = resolved(host, port, allow, resolve)
    kind = _PinnedTLS if scheme == "https" else _Pinned
    connection = kind(host, port, address)
    try:
        sent = {**headers, "Content-Type": content_type, "User-Agent": "mykerinos-notices"}
        connection.request("POST", path, body, sent)
        answer = connection.getresponse()
        answer.read(4096)
    except (OSError, http.client.HTTPException) as exc:
        raise DeliveryFailed(f"{host}: {_said(exc)}") from None
    finally:
        connection.close()
    if not 200 <= answer.status < 300:  # a redirect is a failure: never followed
        raise DeliveryFailed(f"{host} answered {answer.status} {_said(answer.reason)}")


def _said(what: object) -> str:
    words = str(what) or type(what).__name__
    return "".join(c if c.isprintable() else "?" for c in words)[:160]
