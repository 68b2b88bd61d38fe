"""The host's settings of notices far from the terminal (``mykerinos serve --notices
FILE``): the SMTP relay, the push hosts a player may use, and how a player comes back.

A TOML file (see ``docs/table-server.md``)::

    [smtp]
    host = "smtp.example.org"
    port = 587
    security = "starttls"          # or "tls" (port 465), or "none" (a relay on loopback)
    sender = "Mykerinos <games@example.org>"
    user = "games@example.org"
    password_file = "/etc/mykerinos/smtp-password"   # else $MYKERINOS_SMTP_PASSWORD

    [push]
    hosts = ["ntfy.sh"]            # host or host:port; nothing else is ever posted to
    private = []                   # networks reached although not public, e.g. "10.0.0.0/8"

    [come_back]
    ssh = "ssh -p 2222 games.example.org"
    web = "https://games.example.org/mykerinos/"

The password is never an option nor in this file: read from ``password_file`` or the
environment, so it shows in no process list.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, get_args

from table.notices.checks import AllowList
from table.notices.delivery import Relay, Security
from table.notices.words import ComeBack

PASSWORD_VARIABLE: Final = "MYKERINOS_SMTP_PASSWORD"


class SettingsError(Exception):
    """The settings cannot be used; ``str`` says why, in words."""


@dataclass(frozen=True)
class NoticeSettings:
    """Everything the sender needs from the host."""

    relay: Relay | None = None
    allow: AllowList = field(default_factory=AllowList)
    come_back: ComeBack = field(default_factory=ComeBack)


def load(path: Path, environ: dict[str, str] | None = None) -> NoticeSettings:
    """The settings in ``path``; :class:`SettingsError` saying what is wrong."""
    environ = dict(os.environ) if environ is None else environ
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"{path}: {exc}") from None
    unknown = set(data) - {"smtp", "push", "come_back"}
    if unknown:
        raise SettingsError(f"{path}: unknown section {sorted(unknown)[0]!r}")
    relay = _relay(_section(data, "smtp"), path, environ) if "smtp" in data else None
    push = _section(data, "push")
    hosts = frozenset(str(h).lower() for h in _list(push, "hosts"))
    try:
        private = tuple(ipaddress.ip_network(str(n)) for n in _list(push, "private"))
    except ValueError as exc:
        raise SettingsError(f"{path}: [push] private: {exc}") from None
    back = _section(data, "come_back")
    come_back = ComeBack(str(back.get("ssh", "")), str(back.get("web", "")))
    return NoticeSettings(relay, AllowList(hosts, private), come_back)


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    section = data.get(name, {})
    if not isinstance(section, dict):
        raise SettingsError(f"[{name}] must be a section")
    return section


def _list(section: dict[str, Any], key: str) -> list[Any]:
    value = section.get(key, [])
    if not isinstance(value, list):
        raise SettingsError(f"{key} must be a list")
    return value


def _relay(smtp: dict[str, Any], path: Path, environ: dict[str, str]) -> Relay:
    if "password" in smtp:
        raise SettingsError(
            f"{path}: [smtp] holds no password: give password_file, or set {PASSWORD_VARIABLE}"
        )
    security = smtp.get("security", "starttls")
    if security not in get_args(Security):
        raise SettingsError(f"{path}: [smtp] security is starttls, tls or none")
    host, sender = smtp.get("host"), smtp.get("sender")
    if not isinstance(host, str) or not isinstance(sender, str) or "@" not in sender:
        raise SettingsError(f"{path}: [smtp] needs host and sender (an address)")
    port = smtp.get("port", 465 if security == "tls" else 587)
    if not isinstance(port, int) or not 0 < port < 65536:
        raise SettingsError(f"{path}: [smtp] port is a number from 1 to 65535")
    user = str(smtp.get("user", ""))
    password = ""
    if "password_file" in smtp:
        try:
            password = Path(str(smtp["password_file"])).read_text().strip()
        except OSError as exc:
            raise SettingsError(f"{path}: [smtp] password_file: {exc}") from None
    elif user:
        password = environ.get(PASSWORD_VARIABLE, "")
        if not password:
            raise SettingsError(
                f"{path}: [smtp] user {user!r} needs password_file or {PASSWORD_VARIABLE}"
            )
    return Relay(host, port, security, sender, user, password)
