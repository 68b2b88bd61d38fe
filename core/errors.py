"""The two ways an action can be refused: malformed, or not legal in this position."""


class MalformedActionError(ValueError):
    """The action is not well formed (unknown kind, bad notation, space off the region)."""


class IllegalActionError(ValueError):
    """The action is well formed but not legal now.

    ``str(error)`` names the action tried and says why (``"A c1: c1 holds a pyramid"``);
    ``error.reason`` is the why alone, in a player's words, for a screen to show.
    """

    def __init__(self, action: str, reason: str) -> None:
        super().__init__(f"{action}: {reason}")
        self.action = action
        self.reason = reason
