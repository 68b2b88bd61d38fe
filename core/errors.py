"""The two ways an action can be refused: malformed, or not legal in this position.

Both are :class:`IllegalActionError` (a ``ValueError``), so one ``except`` catches every
refusal; :class:`MalformedActionError` is the narrower "not even well formed", and a
caller that treats the two apart must catch it first.
"""

_SHOWN = 60
"""A malformed input is quoted at most this long, so a hostile value cannot flood a message."""


class IllegalActionError(ValueError):
    """The action cannot be played here: it is not legal now (or, as the subclass
    :class:`MalformedActionError`, not even well formed).

    ``str(error)`` names the action tried and says why (``"A c1: c1 holds a pyramid"``);
    ``error.action`` is the action as text, ``error.reason`` the why alone, in a player's
    words, for a screen to show.
    """

    def __init__(self, action: str, reason: str) -> None:
        super().__init__(f"{action}: {reason}")
        self.action = action
        self.reason = reason


class MalformedActionError(IllegalActionError):
    """The action is not well formed (unknown kind, bad notation, space off the region).

    ``action`` is the input as given: a text as is, any other value by its ``repr`` (both
    cut short); ``reason`` says what is wrong with it.
    """

    def __init__(self, action: object, reason: str) -> None:
        text = action if isinstance(action, str) else repr(action)
        if len(text) > _SHOWN:
            text = text[: _SHOWN - 1] + "…"
        super().__init__(text, reason)
