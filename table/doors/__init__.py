"""The doors: ways in to the tables for players without an account on the host.

- :mod:`~table.doors.ssh`: the SSH door (asyncssh), known by their keys;
- :mod:`~table.doors.web`: the web door (textual-serve), a browser tab from a link;
- what both share: :mod:`~table.doors.admissions` (sessions per player and in all, the
  tickets a session's game says hello with, the player's folder),
  :mod:`~table.doors.options` (addresses, limits, the files beside the store) and
  :mod:`~table.doors.players_thread` (the players' store read off the event loop).

A door imports the server (it asks the hub for tickets); the server never imports a door:
:mod:`table.serve` starts them side by side.
"""
