"""The client of the table server: one connection (:mod:`~table.client.connection`), the
lobby's directory of a server (:mod:`~table.client.directory`), the game screen's seat at a
shared table (:mod:`~table.client.seat`: what this terminal knows of the table in
:mod:`~table.client.known`, its chat, pause and hand-overs in :mod:`~table.client.shared`,
requests a dropped connection left unanswered in :mod:`~table.client.settle`), and
``mykerinos status`` (:mod:`~table.client.status`, standard library only)."""
