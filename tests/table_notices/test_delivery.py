"""One message sent to real receivers on loopback: an SMTP server (aiosmtpd), and an
HTTP server standing in for ntfy and for a webhook."""

from __future__ import annotations

import ipaddress
import json

import pytest

from table.notices import NoticeRefused
from table.notices.checks import AllowList
from table.notices.delivery import DeliveryFailed, Message, Relay, deliver
from table.notices.words import OFF_LINE
from tests.table_notices.receivers import HttpReceiver, SmtpReceiver

LOOPBACK = (ipaddress.ip_network("127.0.0.1/32"),)
MESSAGE = Message("mykerinos.turn.1.4.1.7", "Mykerinos: your turn", "It is your turn.\n", "turn",
                  (1,))  # fmt: skip


def allowing(port: int) -> AllowList:
    return AllowList(frozenset({f"127.0.0.1:{port}"}), LOOPBACK)


def test_an_email_goes_through_the_relay_with_its_id_and_the_way_to_stop() -> None:
    with SmtpReceiver() as smtp:
        relay = Relay("127.0.0.1", smtp.port, "none", "Mykerinos <games@example.org>")
        deliver("email", "alice@example.org", MESSAGE, relay, AllowList())
        (mail,) = smtp.mails
    assert mail["To"] == "alice@example.org"
    assert mail["Message-ID"] == "<mykerinos.turn.1.4.1.7@example.org>"
    assert mail["Subject"] == "Mykerinos: your turn"
    payload = mail.get_payload(decode=True)
    assert isinstance(payload, bytes)
    text = payload.decode()
    assert "It is your turn." in text and OFF_LINE in text
    assert "http" not in text.split("--")[-1]  # the line that says how to stop has no link


def test_a_dead_relay_is_a_failure_tried_again_not_an_error() -> None:
    from tests.table_notices.receivers import free_port

    relay = Relay("127.0.0.1", free_port(), "none", "games@example.org")
    with pytest.raises(DeliveryFailed, match=r"the mail relay 127\.0\.0\.1"):
        deliver("email", "alice@example.org", MESSAGE, relay, AllowList())


def test_ntfy_gets_the_text_with_a_title_and_the_message_id() -> None:
    with HttpReceiver() as ntfy:
        deliver("ntfy", ntfy.url("/alice"), MESSAGE, None, allowing(ntfy.port))
        (post,) = ntfy.posts
    assert post.path == "/alice"
    assert post.body == b"It is your turn.\n"
    assert post.headers["Title"] == "Mykerinos: your turn"
    assert post.headers["X-Message-Id"] == MESSAGE.id


def test_a_webhook_gets_json_with_the_id() -> None:
    with HttpReceiver() as hook:
        deliver("webhook", hook.url("/hook?x=1"), MESSAGE, None, allowing(hook.port))
        (post,) = hook.posts
    assert post.path == "/hook?x=1"
    sent = json.loads(post.body)
    assert sent == {"id": MESSAGE.id, "kind": "turn", "subject": MESSAGE.subject,
                    "text": MESSAGE.body, "tables": [1]}  # fmt: skip


@pytest.mark.parametrize("answer", [302, 503, 404])
def test_a_redirect_or_an_error_answer_is_a_failure(answer: int) -> None:
    with HttpReceiver(answer=answer) as hook:
        with pytest.raises(DeliveryFailed, match=f"answered {answer}"):
            deliver("webhook", hook.url(), MESSAGE, None, allowing(hook.port))
        assert len(hook.posts) == 1  # the redirect was not followed


def test_loopback_not_listed_is_never_posted_to() -> None:
    """The host allowed the name but not the network: refused in words, nothing sent."""
    with HttpReceiver() as hook:
        allow = AllowList(frozenset({f"127.0.0.1:{hook.port}"}))
        with pytest.raises(NoticeRefused, match="loopback or private address"):
            deliver("ntfy", hook.url(), MESSAGE, None, allow)
        with pytest.raises(NoticeRefused, match="no longer allows"):
            deliver("ntfy", hook.url(), MESSAGE, None, AllowList(frozenset({"ntfy.sh"})))
        assert hook.posts == []
