"""Being told it is your turn at a table you are not looking at, and the settings for it.

Three ways, each of which the player can turn off: a line on screen (a notice), the
terminal bell, and a desktop notice through the terminal's notification escapes (OSC 9,
understood by iTerm2, WezTerm, Windows Terminal…, and OSC 777, by VTE terminals and
foot). The choice is kept in ``settings.json`` in the user config folder
(``~/.config/mykerinos`` on Linux) and changed from the app (``n`` in the lobby).
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import platformdirs

from saves.atomic import write_atomically


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """How a turn at another table is told; unknown or wrong fields fall back to these."""

    line: bool = True
    """A notice on screen."""
    bell: bool = True
    """The terminal bell."""
    desktop: bool = True
    """A desktop notification (OSC 9 and OSC 777)."""


def settings_path() -> Path:
    return Path(platformdirs.user_config_dir("mykerinos", appauthor=False)) / "settings.json"


def load(path: Path | None = None) -> Settings:
    """The saved settings; the defaults when there are none or the file is unreadable (a
    preference is never worth refusing to start over)."""
    path = path or settings_path()
    try:
        return msgspec.json.decode(path.read_bytes(), type=Settings)
    except (OSError, msgspec.DecodeError):
        return Settings()


def save(settings: Settings, path: Path | None = None) -> str | None:
    """Keep ``settings``; returns why they could not be kept, None when they were."""
    path = path or settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, msgspec.json.encode(settings) + b"\n")
    except OSError as exc:
        return f"The settings could not be kept in {path}: {exc.strerror or exc}."
    return None


def desktop_escapes(title: str, body: str) -> str:
    """OSC 9 and OSC 777 notifications of ``title``/``body``, with every character that
    could end or change the escape (controls, ``;`` in the OSC 777 title) taken out."""

    def clean(text: str) -> str:
        return "".join(c for c in text if c.isprintable())[:200]

    title, body = clean(title).replace(";", ","), clean(body)
    return f"\x1b]9;{title}: {body}\x07\x1b]777;notify;{title};{body}\x07"
