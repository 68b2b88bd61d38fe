"""The SSH door: friends play with ``ssh -p 2222 host``, known by their keys (issue 19).

The door runs inside ``mykerinos serve --ssh [HOST:]PORT``, beside the table server, on
asyncssh. Who comes in is decided at authentication (:mod:`table.doors.ssh.gate`): a key
named by ``mykerinos players add``, or an unknown key whose signature was verified and
which then redeems a one-time invitation code through keyboard-interactive. Each
session that asks for a terminal gets the game in its own process on a pty of the
client's size (:mod:`table.doors.ssh.session`), connected to the table server with a ticket
the hub issued for that player, so nothing typed later can change who they are.

- :mod:`table.doors.ssh.hostkey`: the door's own Ed25519 host key, kept in the data folder.
- :mod:`table.doors.ssh.gate`: authentication, the bounds on attempts and wrong codes.
- :mod:`table.doors.ssh.session`: one SSH session: the game in a pty, ``status``, refusals.
- :mod:`table.doors.ssh.server`: the listener, the bounds on sessions, start and stop.
- :mod:`tui.door` (the game's side, so in ``tui``): what a session runs in its pty.
"""
