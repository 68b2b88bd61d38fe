"""Notices far from the terminal (issue 30): a player told by e-mail or a push service
that it is their turn, once they have not been at the table for the delay they chose.

- :mod:`table.notices.checks`: what a channel's address may be (an e-mail address; an
  ntfy topic or a webhook's URL on a host the server's host allowed, never a loopback or
  private address unless listed), and the codes that confirm an address;
- :mod:`table.notices.words`: what a notice says (plain text, nothing private), and the
  message ids a receiver drops repeats by;
- :mod:`table.notices.when`: whether a due notice goes now, waits, or is dropped;
- :mod:`table.notices.delivery`: the sending itself (SMTP, HTTP), blocking, for a thread.

The rows (channels, confirmations, the outbox) are the store's
(:mod:`table.store.notices`); the sender that drains the outbox is the server's
(:mod:`table.server.notices`); the host's settings are :mod:`table.host.notices`'.
"""

from typing import Final, Literal

Kind = Literal["email", "ntfy", "webhook"]
"""A channel: an e-mail address, an ntfy topic's URL, a generic JSON webhook's URL."""

KINDS: Final[tuple[Kind, ...]] = ("email", "ntfy", "webhook")

DEFAULT_DELAY: Final = 15 * 60.0
"""Seconds of a player's turn before they are told, unless they chose otherwise."""
DELAYS: Final[tuple[float, ...]] = (5 * 60.0, 15 * 60.0, 60 * 60.0, 4 * 3600.0, 24 * 3600.0)
"""The delays a player may choose from."""


class NoticeRefused(Exception):
    """A channel, an address or a code refused; ``str`` says why, in words."""
