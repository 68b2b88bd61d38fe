"""The table server: one authority for the games several terminals share.

``mykerinos serve`` (or ``python -m table.serve``) listens on a Unix socket (see
:mod:`table.address`) and keeps its tables in a :class:`table.store.TableStore`. Every
change a client asks for is checked with ``core`` on the real position, committed to the
store, and only then told to its sender and to everyone at the table; clients only ever
see public positions (:func:`core.public_view`).

The modules, by job:

- :mod:`~table.server.rules`: the rules of a shared table, pure functions, time passed in;
- :mod:`~table.server.room`: one table and the one sequence of its changes;
- :mod:`~table.server.hub`: connections, identity, limits, requests to rooms, the ladder;
- :mod:`~table.server.writer`: the store's one writer (group commit);
- :mod:`~table.server.computers`: computer players in worker processes, taken in turn;
- :mod:`~table.server.log`: the log, without floods;
- :mod:`~table.server.export`: a table's game as a save file.

``mykerinos serve`` itself is :mod:`table.serve`, which starts the server and the doors
side by side: the server never imports a door.

Identity is the login behind the socket (``SO_PEERCRED``). A login named with
``--trust-account`` (a shared game account whose ``authorized_keys`` pins ``--player``)
may name its player; any other login plays as itself.
"""
