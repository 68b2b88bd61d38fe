"""The client of the table server: one connection (:mod:`~table.client.connection`), the
lobby's directory of a server (:mod:`~table.client.directory`), the game screen's seat at a
shared table (:mod:`~table.client.seat`: what this terminal knows of the table in
:mod:`~table.client.known`, its chat, pause and hand-overs in :mod:`~table.client.shared`,
requests a dropped connection left unanswered in :mod:`~table.client.settle`), and
``mykerinos status`` (:mod:`~table.client.status`, standard library only)."""

TICKET_ENV = "MYKERINOS_TICKET"
"""The environment variable holding the ticket a door gives each session it starts
(``mykerinos`` then plays at the table server only, as the ticket's player). Here, not in
:mod:`~table.client.status`, because every start of the game reads it: it costs no import."""
