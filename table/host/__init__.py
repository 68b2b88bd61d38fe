"""The host's administration of the players who come in through the doors: their keys,
invitations and web sessions (:mod:`~table.host.players`), and ``mykerinos players …`` /
``mykerinos invite`` (:mod:`~table.host.players_cli`)."""
