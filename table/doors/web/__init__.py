"""The web door: the game in a browser tab, from a link (issue 20).

``mykerinos serve --web [HOST:]PORT [--web-url URL]`` serves, beside the tables and the
SSH door, textual-serve's page and terminal (xterm.js) with a small layer of its own:

- sign-in (:mod:`table.doors.web.server`): ``mykerinos invite NAME --web`` prints a link; the
  code it carries, redeemed once, gives the browser a session cookie (random, stored
  hashed, HttpOnly, SameSite=Strict, Secure behind https, 30 days). A browser without a
  session gets only a small page to paste a code: no game process starts for it.
- each websocket from a signed-in browser of the door's own origin runs the game in a
  process of its own under Textual's web driver (:mod:`tui.web`; the door's side is
  :mod:`table.doors.web.game`), named to the table server by a ticket, bounded with the
  SSH door's sessions (:mod:`table.doors.admissions`).
- connections open at once are bounded per address and in all
  (:mod:`table.doors.web.connections`), before aiohttp sees them; a signed-in tab's
  game counts only in all.
- every response carries a Content-Security-Policy; the pages show no text a player
  wrote (:mod:`table.doors.web.pages`); names, titles and chat live inside the terminal.

What textual-serve gives as it is: its ``AppService`` (the process and its packets) and
its static files (what of its internals that takes: :mod:`table.doors.web.internals`).
What this layer adds: authentication, the origin check, a clean environment and a fixed
command per process, a page of its own (no inline script, no font from another site),
and paths relative to the page, so that the door works behind a reverse proxy at a
sub-path (``--web-url https://host/mykerinos/``).
"""
