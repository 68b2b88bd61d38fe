"""The web door's bound on connections open at once, per address and in all.

aiohttp bounds neither: three hundred half-sent requests held as many descriptors, which
the tables and the other door need too. Each connection is counted by :class:`Counted`,
the protocol the door's listener makes for it, before aiohttp's own protocol is made for
it from the runner's :class:`aiohttp.web.Server` (which aiohttp documents as the protocol
factory for ``loop.create_server``); one past a bound is dropped at once, and never
reaches aiohttp.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from collections.abc import Callable
from typing import Final, cast

from table.counts import uncount
from table.server.log import log_once

CONNECTIONS_PER_ADDRESS: Final = 64
"""Connections from one address at once, a signed-in tab's game not counted: a browser
arriving holds about 5 for the door's quiet while (its pages, then its idle keep-alive
connections), so about a dozen friends behind one router may arrive together. Not
counted for the proxy of ``--web-proxy``."""
CONNECTIONS_IN_ALL: Final = 512


class Connections:
    """Connections open, per address ("": through the proxy of ``--web-proxy``)."""

    def __init__(self, proxy: str | None = None) -> None:
        self.proxy = proxy
        """The reverse proxy's address (``--web-proxy``): its connections count as one
        address, exempt from the per-address bound (every browser comes through it)."""
        self.open: Counter[str] = Counter()
        """Connections counted against each address's bound."""
        self._address: dict[asyncio.BaseTransport, str] = {}
        """Each connection admitted: the address it counts against."""
        self._playing: set[asyncio.BaseTransport] = set()
        """Connections that carry a signed-in tab's game (:meth:`plays`)."""

    def admit(self, transport: asyncio.BaseTransport) -> str | None:
        """The address a new connection counts against, or None when it is past
        :data:`CONNECTIONS_PER_ADDRESS` or :data:`CONNECTIONS_IN_ALL`. Counted until
        :meth:`gone`."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        if self.proxy is not None and same_address(address, self.proxy):
            address = ""  # the proxy: every browser comes through it
        crowded = address and self.open[address] >= CONNECTIONS_PER_ADDRESS
        if crowded or self.total() >= CONNECTIONS_IN_ALL:
            log_once(f"web full {address}", f"web door: {address or 'the proxy'} refused, "
                     f"{self.total()} connections")  # fmt: skip
            return None
        self.open[address] += 1
        self._address[transport] = address
        return address

    def plays(self, transport: asyncio.BaseTransport | None) -> None:
        """``transport`` now carries a signed-in tab's game: it no longer counts against
        its address's bound (the door's sessions bound games; a crowd behind one router
        keeps a tab each for hours), only against :data:`CONNECTIONS_IN_ALL`."""
        if transport is None or transport in self._playing or transport not in self._address:
            return  # not one of the door's connections, or counted so already
        self._playing.add(transport)
        uncount(self.open, self._address[transport])

    def gone(self, transport: asyncio.BaseTransport) -> None:
        """A connection :meth:`admit` counted has closed."""
        address = self._address.pop(transport, None)
        if address is None:
            return
        if transport in self._playing:
            self._playing.discard(transport)
        else:
            uncount(self.open, address)

    def total(self) -> int:
        """Connections open now, games included."""
        return len(self._address)


class Counted(asyncio.Protocol):
    """One connection to the door: counted against its bounds (:meth:`Connections.admit`)
    before aiohttp gets it, and handed on to the protocol aiohttp makes for it only then
    (a refused connection costs aiohttp nothing). Every call of the asyncio protocol
    contract is passed on as it comes, flow control included."""

    def __init__(self, connections: Connections, serve: Callable[[], asyncio.Protocol]) -> None:
        self.connections = connections
        self.serve = serve
        self.http: asyncio.Protocol | None = None
        """aiohttp's protocol for this connection (None: refused, or not yet made)."""
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        address = self.connections.admit(transport)
        if address is None:
            cast(asyncio.Transport, transport).abort()  # a socket's, from create_server
            return
        self.transport = transport
        self.http = self.serve()
        self.http.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.http is not None:
            self.http.data_received(data)

    def eof_received(self) -> bool | None:
        return self.http.eof_received() if self.http is not None else None

    def pause_writing(self) -> None:
        if self.http is not None:
            self.http.pause_writing()

    def resume_writing(self) -> None:
        if self.http is not None:
            self.http.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.http is not None:
            assert self.transport is not None
            self.connections.gone(self.transport)
            self.http.connection_lost(exc)


def same_address(peer: str, proxy: str) -> bool:
    """Whether ``peer`` (a socket's address) is ``proxy`` (an IP address), an IPv4
    address seen through an IPv6 socket (``::ffff:127.0.0.1``) included."""
    try:
        seen = ipaddress.ip_address(peer)
        expected = ipaddress.ip_address(proxy)
    except ValueError:
        return False
    if isinstance(seen, ipaddress.IPv6Address) and seen.ipv4_mapped is not None:
        seen = seen.ipv4_mapped
    return seen == expected
