"""``python -m table.server``: the table server (see :mod:`table.server.command`)."""

import sys

from table.server.command import main

if __name__ == "__main__":
    sys.exit(main())
