"""The web door's pages: HTML with nothing a player wrote in it, every link relative to
the page (so the door works at a sub-path behind a proxy), no inline script.

The only text that varies is the door's own: a reason a code was refused, a code typed,
the websocket's address; all of it is HTML-escaped here.
"""

from __future__ import annotations

from html import escape
from typing import Final

CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self' {websocket}; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of every response (``{websocket}``: the door's own
websocket origin, as ``connect-src 'self'`` does not cover ws: everywhere). Styles may be
inline because textual.js injects xterm's."""

_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Mykerinos</title>
<link rel="stylesheet" href="static/css/xterm.css">
<link rel="stylesheet" href="door/door.css">
{scripts}
</head>
"""


def sign_in(code: str = "", problem: str = "") -> str:
    """The page for a browser without a session: paste the invitation code."""
    said = f'<p class="problem" id="problem">{escape(problem)}</p>' if problem else ""
    return (
        _HEAD.format(scripts="")
        + f"""<body>
<div class="dialog"><form class="box" method="post" action="signin">
<h1>Mykerinos</h1>
<p>Paste the invitation code from the link your host sent you
(whoever runs this table server): it looks like <code>XXXX-XXXX-XXXX-XXXX</code>.
Opening that link fills it in for you.</p>
{said}
<input name="code" id="code" value="{escape(code, quote=True)}" autocomplete="off"
 autofocus size="22" maxlength="64" placeholder="XXXX-XXXX-XXXX-XXXX" aria-label="code">
<button type="submit" id="sign-in">Sign in</button>
</form></div>
</body>
</html>
"""
    )


def sign_out() -> str:
    """The page at ``signout``: one button (a link alone must not sign anyone out)."""
    return (
        _HEAD.format(scripts="")
        + """<body>
<div class="dialog"><form class="box" method="post" action="signout">
<h1>Mykerinos</h1><p>Sign this browser out? Your games stay at the tables.</p>
<button type="submit" id="sign-out">Sign out</button>
</form></div>
</body>
</html>
"""
    )


def signed_out() -> str:
    return (
        _HEAD.format(scripts="")
        + """<body>
<div class="dialog"><div class="box"><h1>Mykerinos</h1>
<p id="signed-out">Signed out. Your host can send you a new invitation to come back.</p>
</div></div>
</body>
</html>
"""
    )


def game(websocket: str) -> str:
    """The page of a signed-in browser: textual-serve's terminal, connected to
    ``websocket`` (the game starts only when it connects)."""
    return (
        _HEAD.format(
            scripts='<script src="static/js/textual.js"></script>\n'
            '<script src="door/door.js"></script>'
        )
        + f"""<body>
<div class="dialog opening"><div class="box">Mykerinos…</div></div>
<div class="dialog closed"><div class="box">
<p>Session ended. <span id="why"></span>
The table keeps the game: come back to the same position.</p>
<button type="button" id="again">Back to the game</button>
<form method="post" action="signout"><button type="submit" id="sign-out">Sign out</button></form>
</div></div>
<div id="terminal" class="textual-terminal"
 data-session-websocket-url="{escape(websocket, quote=True)}" data-font-size="16"></div>
</body>
</html>
"""
    )
