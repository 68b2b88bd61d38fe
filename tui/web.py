"""What a web door session runs: ``python -I -m tui.web ARGS``, under Textual's web
driver, which textual-serve's page talks to through the door (issue 20).

The driver is chosen here, in code, for this program only: ``TEXTUAL_DRIVER`` from any
environment is never what makes the game run without a terminal. It runs only as a door's
session (``MYKERINOS_TICKET`` set: the player the door signed in), and never outlives the
door (:mod:`table.lifeline`); its stderr goes
nowhere, as nobody reads it (the page shows "Session ended" when the game leaves), and
textual-serve would otherwise copy it to the server's own output.
"""

from __future__ import annotations

import os
import signal
import sys


def main() -> int:
    from table.client import TICKET_ENV
    from table.lifeline import die_with

    if TICKET_ENV not in os.environ:
        print("mykerinos: tui.web is started by the web door only", file=sys.stderr)
        return 2
    # A kill -9 of the server closes no pipe this game would notice (the web driver
    # keeps waiting): leave as from a dropped link (SIGHUP) when the door is gone.
    die_with(os.getppid(), signal.SIGHUP)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 2)
    os.close(quiet)
    from textual.drivers.web_driver import WebDriver

    from tui.__main__ import main as game

    return game(sys.argv[1:], driver=WebDriver)


if __name__ == "__main__":
    sys.exit(main())
