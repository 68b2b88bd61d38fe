"""What the host chooses for the door: where it listens and its bounds. Light on
purpose (no asyncssh): ``mykerinos serve`` reads its options before it knows whether a
door is wanted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

KEY_NAME: Final = "ssh_host_ed25519_key"
"""The door's host key, beside the store (and its ``.pub``)."""
PORT_FILE: Final = "ssh_door.port"
"""The port the door last listened on, beside the store: ``mykerinos invite`` tells it."""
WEB_URL_FILE: Final = "web_door.url"
"""The web door's public URL, ending with ``/``, beside the store: the web door writes it
at each start, and ``mykerinos invite --web`` makes its link from it."""


class AddressError(ValueError):
    """A ``--ssh`` value that is not ``[HOST:]PORT``."""


def parse_address(text: str) -> tuple[str | None, int]:
    """``2222`` (every interface), ``127.0.0.1:2222``, ``[::1]:2222`` → (host, port);
    port 0 is a free port the system picks (written to :data:`PORT_FILE`)."""
    host: str | None
    if ":" not in text:
        host, port_text = None, text
    elif text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if not rest.startswith(":"):
            raise AddressError(f"{text!r} is not [HOST]:PORT")
        port_text = rest[1:]
    else:
        host, _, port_text = text.rpartition(":")
    if not port_text.isdigit() or not 0 <= int(port_text) < 65536:
        raise AddressError(f"{text!r} does not end with a port number (0-65535)")
    return host or None, int(port_text)


@dataclass(frozen=True)
class DoorLimits:
    """Sessions open at once (games and ``status`` checks)."""

    sessions: int = 100
    sessions_per_player: int = 3
