"""The two ways an action can be refused: malformed, or not legal in this position."""


class MalformedActionError(ValueError):
    """The action is not well formed (unknown kind, bad notation, space off the region)."""


class IllegalActionError(ValueError):
    """The action is well formed but not legal now. The message says why, in a player's
    words ("that space holds a pyramid"), and names the action tried."""
