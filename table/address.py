"""Where the table server listens: one Unix socket, found the same way by the server and
its clients.

In order: the ``--socket`` option, the ``MYKERINOS_SOCKET`` variable, then
``table.sock`` in the user runtime folder (``$XDG_RUNTIME_DIR/mykerinos`` on Linux). A
shared server for several logins uses an explicit path such as
``/run/mykerinos/table.sock`` (see ``docs/playing-over-ssh.md``).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from pathlib import Path

import platformdirs

ENV = "MYKERINOS_SOCKET"


def socket_path(option: str | None = None, environ: Mapping[str, str] = os.environ) -> Path:
    """The socket to serve on or to connect to (see the module docstring)."""
    if option:
        return Path(option).expanduser()
    if environ.get(ENV):
        return Path(environ[ENV]).expanduser()
    with warnings.catch_warnings():  # no XDG_RUNTIME_DIR (su, cron): its fallback is fine
        warnings.simplefilter("ignore")
        folder = platformdirs.user_runtime_dir("mykerinos", appauthor=False)
    return Path(folder) / "table.sock"
