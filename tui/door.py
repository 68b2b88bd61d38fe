"""What an SSH door session runs in its pty: ``python -I -m tui.door ARGS``.

It makes the pty its controlling terminal first (``login_tty``: a new session, the pty
its terminal, on stdin, stdout and stderr), so that when the door closes the pty's other
end (the SSH connection is gone) the kernel hangs up the game with SIGHUP, which it
answers by leaving cleanly, even if the server itself was killed. Then it is the game,
with ``ARGS`` as its command line; the environment the door built says the rest
(``MYKERINOS_TICKET``: who the player is).
"""

from __future__ import annotations

import os
import sys


def main() -> int:
    os.login_tty(0)
    from tui.__main__ import main as game

    return game(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
