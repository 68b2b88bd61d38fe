"""What a channel's address may be, checked before it is stored and again before each
sending (a name's addresses may change between the two).

An e-mail address is checked for its shape only (the code sent to it is the proof). A
push URL must be ``https://`` (or ``http://``) on a host the server's host listed
(:class:`AllowList`), and every address its name resolves to must be a public one, or
inside a network the host listed: so no player can make the server post to the host's
loopback, its private network or a cloud's metadata address. The sending connects to
the very address checked (never resolving the name a second time) and follows no
redirect.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import secrets
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urlsplit

from table.notices import Kind, NoticeRefused

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolve = Callable[[str, int], Sequence[str]]
"""``resolve(host, port)``: the addresses (as text) a name stands for."""

MAX_ADDRESS: Final = 200
CODE_LENGTH: Final = 6
CODE_TRIES: Final = 5
"""Wrong codes before an unconfirmed channel must be added again."""
CODE_LIFE: Final = 24 * 3600.0
"""Seconds a confirmation code is good for."""

_EMAIL = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+$"
)


@dataclass(frozen=True)
class AllowList:
    """The push hosts a player may use (``host`` or ``host:port``, as the host wrote
    them), and the networks that may be reached although not public (none by default)."""

    hosts: frozenset[str] = frozenset()
    private: tuple[Network, ...] = field(default=())

    def allows(self, host: str, port: int) -> bool:
        host = host.lower().rstrip(".")
        return host in self.hosts or f"{host}:{port}" in self.hosts

    def reachable(self, address: IPAddress) -> bool:
        """A public address, or one inside a network the host listed."""
        if any(address in network for network in self.private):
            return True
        return address.is_global and not address.is_multicast


def check_address(kind: Kind, address: str, allow: AllowList) -> str:
    """``address`` as it is kept, or :class:`NoticeRefused` saying why not (the URL's
    host is not resolved here: see :func:`resolved`)."""
    address = address.strip()
    if not address or len(address) > MAX_ADDRESS or not address.isprintable():
        raise NoticeRefused(f"an address of 1 to {MAX_ADDRESS} printable characters, please")
    if kind == "email":
        if not _EMAIL.match(address):
            raise NoticeRefused(f"{address!a} is not an e-mail address (name@host.domain)")
        return address
    _, host, port, _ = split_url(address)
    if not allow.hosts:
        raise NoticeRefused("this server's host allows no push service (only e-mail)")
    if not allow.allows(host, port):
        listed = ", ".join(sorted(allow.hosts))
        raise NoticeRefused(f"this server does not post to {host} (its host allows: {listed})")
    return address


def split_url(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path with query) of a push URL, or :class:`NoticeRefused`."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise NoticeRefused(f"{url!a} is not a URL: {exc}") from None
    if parts.scheme not in ("https", "http"):
        raise NoticeRefused("a push address starts with https:// (or http://)")
    if parts.username is not None or parts.password is not None:
        raise NoticeRefused("a push address carries no login (user@ or user:password@)")
    if not parts.hostname:
        raise NoticeRefused(f"{url!a} names no host")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path


def resolved(host: str, port: int, allow: AllowList, resolve: Resolve | None = None) -> str:
    """The address to connect to for ``host``: every address it resolves to must be
    reachable (:meth:`AllowList.reachable`), else :class:`NoticeRefused` in words."""
    try:
        found = [ipaddress.ip_address(a.split("%")[0]) for a in (resolve or _resolve)(host, port)]
    except (OSError, ValueError) as exc:
        raise NoticeRefused(f"{host} cannot be found: {exc}") from None
    if not found:
        raise NoticeRefused(f"{host} has no address")
    for address in found:
        if not allow.reachable(address):
            raise NoticeRefused(
                f"{host} is {address}, a loopback or private address this server "
                "does not post to (its host may list that network)"
            )
    return str(found[0])


def _resolve(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def new_code() -> str:
    """A confirmation code: six digits, typed back by the player."""
    return "".join(secrets.choice("0123456789") for _ in range(CODE_LENGTH))


def code_hash(code: str) -> str:
    """What the store keeps of a code (never the code)."""
    return hashlib.sha256(code.strip().encode()).hexdigest()
