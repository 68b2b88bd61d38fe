"""The client of the table server: one connection (:mod:`~table.client.connection`), the
lobby's directory and the game screen's seat at a shared table (:mod:`~table.client.remote`),
and ``mykerinos status`` (:mod:`~table.client.status`, standard library only)."""
