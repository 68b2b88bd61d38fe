"""What a notice says: plain text, the table, whose turn, since when and how to come back
(the host's ``ssh -p … host`` line, or the web door's address: never a code, a ticket
or a session's token), and nothing private (no hand, no deck, no other player's
address). Every e-mail ends with a line, without a link, saying how to stop them all.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

OFF_LINE: Final = "To stop every notice: open mykerinos, press n in the lobby, then o (all off)."


@dataclass(frozen=True)
class Waiting:
    """A table waiting for the player: its number and name, and since when (Unix time)."""

    table: int
    name: str
    since: float


@dataclass(frozen=True)
class ComeBack:
    """How a player comes back, as the host set it: the SSH door's line and the web
    door's address (either may be empty)."""

    ssh: str = ""
    web: str = ""

    def lines(self, table: int) -> list[str]:
        ways = []
        if self.ssh:
            ways.append(f"  {self.ssh}")
        if self.web:  # the web door has no link to one table: its lobby lists it first
            ways.append(f"  {self.web}  (in a browser)")
        if not ways:
            ways.append("  mykerinos (on the host where you play)")
        return [f"Come back with (table {table} is in the lobby's first lines):", *ways]


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))


def turn(player: str, waiting: Waiting, come_back: ComeBack) -> tuple[str, str]:
    """(subject, body) of the notice of one table."""
    subject = f"Mykerinos: your turn at table {waiting.table} ({_short(waiting.name)})"
    body = [
        f"{player}, it is your turn at table {waiting.table}, {_short(waiting.name)},",
        f"since {_when(waiting.since)}.",
        "",
        *come_back.lines(waiting.table),
    ]
    return subject, "\n".join(body) + "\n"


def digest(player: str, tables: Sequence[Waiting], come_back: ComeBack) -> tuple[str, str]:
    """(subject, body) of one notice for several tables waiting for the player."""
    subject = f"Mykerinos: {len(tables)} tables wait for your turn"
    body = [f"{player}, it is your turn at {len(tables)} tables:", ""]
    for waiting in sorted(tables, key=lambda w: w.since):
        body.append(
            f"  table {waiting.table}, {_short(waiting.name)}: since {_when(waiting.since)}"
        )
    body.append("")
    body.extend(come_back.lines(tables[0].table))
    return subject, "\n".join(body) + "\n"


def confirm(player: str, code: str) -> tuple[str, str]:
    """(subject, body) of the message that confirms a new address."""
    subject = "Mykerinos: your confirmation code"
    body = (
        f"{player} asked mykerinos to tell them here when it is their turn.\n\n"
        f"The code: {code}\n\n"
        "Type it in mykerinos's lobby (n, then c) to confirm this address. If you did not\n"
        "ask for it, do nothing: no notice comes here unless the code is typed.\n"
    )
    return subject, body


def email_text(body: str) -> str:
    """An e-mail's body: the notice, then how to stop them (a line with no link)."""
    return f"{body}\n--\n{OFF_LINE}\n"


def message_id(kind: str, key: str) -> str:
    """The id every try of one message carries (Message-ID, a header, a JSON field), so
    a receiver drops a repeat: ``kind`` and a key that names the message once."""
    return f"mykerinos.{kind}.{key}"


def _short(name: str) -> str:
    """A table's name as a notice says it: printable, 60 characters at most."""
    printable = "".join(c if c.isprintable() else "?" for c in name)
    return printable[:60]
