"""Notices far from the terminal on the wire (a part of :mod:`table.protocol`): a
player's channels, their delay and their one switch, asked for and changed from the
lobby's ``n``. Added without a new version: an older client never asks, an older server
refuses the request as malformed (which a newer client says in words).

An address crosses only from its owner and back to them: no message names another
player's channel.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Ref = Annotated[int, msgspec.Meta(ge=0, le=2**31)]
ChannelId = Annotated[int, msgspec.Meta(ge=1, le=2**62)]
ChannelKind = Literal["email", "ntfy", "webhook"]


class _Message(msgspec.Struct, frozen=True, tag_field="t", forbid_unknown_fields=True):
    pass


class NoticesShow(_Message, frozen=True, tag="notices"):
    """The player's notices: answered by :class:`NoticeState`."""

    ref: Ref


class NoticeAdd(_Message, frozen=True, tag="notice-add"):
    """A new channel: a code is sent to it, which :class:`NoticeConfirm` types back."""

    ref: Ref
    kind: ChannelKind
    address: Annotated[str, msgspec.Meta(max_length=200)]


class NoticeConfirm(_Message, frozen=True, tag="notice-confirm"):
    ref: Ref
    channel: ChannelId
    code: Annotated[str, msgspec.Meta(max_length=20)]


class NoticeRemove(_Message, frozen=True, tag="notice-remove"):
    ref: Ref
    channel: ChannelId


class NoticeSet(_Message, frozen=True, tag="notice-set"):
    """The delay (seconds) before a turn is told, and every channel off or on."""

    ref: Ref
    delay: Annotated[float, msgspec.Meta(ge=60, le=7 * 86400)]
    off: bool


class NoticeChannel(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of the player's own channels, as the lobby shows it."""

    id: int
    kind: ChannelKind
    address: str
    confirmed: bool
    failing_since: float | None = None
    """Since when its messages cannot be delivered (None: they can)."""
    error: str | None = None


NO_MAIL_RELAY = "this server's host set no mail relay: no e-mail can be sent"
"""Why no e-mail address is taken (the server's refusal, and the client's before asking)."""


class NoticeState(_Message, frozen=True, tag="notice-state"):
    """The player's notices, and what the host allows."""

    ref: Ref
    channels: tuple[NoticeChannel, ...]
    delay: float
    off: bool
    default_delay: float
    delays: tuple[float, ...]
    email: bool
    """The host set a mail relay."""
    push_hosts: tuple[str, ...]
    """The push hosts the host allows (none: push is refused)."""
    said: str = ""
    """What the request did, in words (a code sent, a channel confirmed…)."""


NoticeRequest = NoticesShow | NoticeAdd | NoticeConfirm | NoticeRemove | NoticeSet
