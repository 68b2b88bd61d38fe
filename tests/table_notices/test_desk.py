"""A player's own requests: an address refused in words (not allowed, private, not an
address), a code flood refused, and only the player's own channels ever shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from table import protocol_notices as notice
from table.host.notices import NoticeSettings
from table.notices.checks import AllowList
from table.notices.delivery import Relay
from table.server.notice_desk import CODES_AN_HOUR, NoticeDesk
from table.server.rules import Refusal
from table.store.notices import NoticeStore

RELAY = Relay("smtp.example.org", 587, "starttls", "games@example.org")


@pytest.fixture
def desk(tmp_path: Path) -> NoticeDesk:
    allow = AllowList(frozenset({"localhost:8080", "ntfy.sh"}))
    return NoticeDesk(
        NoticeStore(tmp_path / "tables.db"), NoticeSettings(RELAY, allow), lambda: None
    )


async def test_a_private_or_disallowed_push_address_is_refused_in_words(desk: NoticeDesk) -> None:
    with pytest.raises(Refusal, match="loopback or private address"):
        await desk.answer("ann", notice.NoticeAdd(1, "ntfy", "http://localhost:8080/ann"))
    with pytest.raises(Refusal, match=r"does not post to 192\.168\.1\.5"):
        await desk.answer("ann", notice.NoticeAdd(1, "webhook", "http://192.168.1.5/hook"))
    with pytest.raises(Refusal, match="not an e-mail address"):
        await desk.answer("ann", notice.NoticeAdd(1, "email", "ann at example.org"))
    state = await desk.answer("ann", notice.NoticesShow(2))
    assert (
        state.channels == () and state.email and state.push_hosts == ("localhost:8080", "ntfy.sh")
    )


async def test_codes_are_not_sent_without_end_and_each_player_sees_only_their_own(
    desk: NoticeDesk,
) -> None:
    for number in range(CODES_AN_HOUR):
        state = await desk.answer("ann", notice.NoticeAdd(1, "email", f"v{number}@example.org"))
    assert len(state.channels) == CODES_AN_HOUR and not any(c.confirmed for c in state.channels)
    with pytest.raises(Refusal, match="codes an hour at most"):
        await desk.answer("ann", notice.NoticeAdd(1, "email", "victim@example.org"))
    others = await desk.answer("ben", notice.NoticesShow(3))
    assert others.channels == ()
    removed = await desk.answer("ben", notice.NoticeRemove(4, state.channels[0].id))
    assert removed.said == "No such address."  # not ben's to remove
