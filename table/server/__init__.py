"""The table server: one authority for the games several terminals share.

``mykerinos serve`` (or ``python -m table.serve``) listens on a Unix socket (see
:mod:`table.address`) and keeps its tables in a :class:`table.store.TableStore`. Every
change a client asks for is checked with ``core`` on the real position, committed to the
store, and only then told to its sender and to everyone at the table; clients only ever
see public positions (:func:`core.public_view`).

The modules, by job:

- :mod:`~table.server.connections`: accepting connections within limits, the handshake
  and who each is, the read loop;
- :mod:`~table.server.routing`: which room answers each request (one ``match``);
- :mod:`~table.server.hub`: what every table shares (the rooms, the ladder, the doors'
  tickets, a new table within a player's limit);
- :mod:`~table.server.room`: one table's actor, the one sequence of its changes and
  everything that follows each (computers' turns, the pause's end, the rating, telling
  everyone), over :mod:`~table.server.view` (the table in memory and how it looks);
- :mod:`~table.server.rules`: the server's own rules of a shared table (those a client
  shows too are :mod:`table.rules`, shared), pure functions;
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
