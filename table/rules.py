"""The rules of a shared table, written once: pure functions over the one view that the
server and every client hold (:class:`table.protocol.TableInfo`, the positions, the
stand-ins, who asks and the time, all passed in).

The server enforces them (:mod:`table.server.room` raises the reason as a refusal); a
client asks the same functions to show a key or to say why it does nothing (the server
still has the last word: the table may have changed on the way). Each ``why_no_…``
returns None when the request would be allowed, else the reason in the words a player
reads (lower case, no full stop: the client makes a sentence of it with :func:`sentence`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import core
from table.clock import clock
from table.protocol import SeatInfo, TableInfo


def sentence(reason: str) -> str:
    """A reason as a sentence: capital first letter and a full stop."""
    reason = reason.strip()
    if not reason:
        return reason
    reason = reason[0].upper() + reason[1:]
    return reason if reason.endswith((".", "!", "?")) else reason + "."


# ---------------------------------------------------------------- the pause


def paused_until(table: TableInfo, now: float) -> float | None:
    """When the pause under way ends (None: the table is not paused)."""
    until = table.paused_until
    return until if until is not None and until > now else None


def why_paused(table: TableInfo, now: float) -> str | None:
    """The pause under way, as the reason a move or a request waits (None: not paused)."""
    until = paused_until(table, now)
    if until is None:
        return None
    return f"the table is paused until {clock(until)} ({table.paused_by})"


def why_no_pause(
    table: TableInfo,
    state: core.GameState | None,
    player: str,
    seats_here: Sequence[int],
    now: float,
) -> str | None:
    """Why ``player`` (deciding for ``seats_here``) may not pause the table now: only a
    player of a live game in progress, once per season, never while a pause runs."""
    if not seats_here:
        return "only a player of the table can pause it"
    if table.pace != "live" or state is None or core.is_over(state):
        return "only a live game in progress can be paused"
    if player in table.paused_this_season:
        return "you have paused this table once this season already"
    return why_paused(table, now)


def why_no_resume(table: TableInfo, player: str, now: float) -> str | None:
    """A pause is lifted early only by the player who took it, and only while it runs."""
    until = paused_until(table, now)
    if until is None:
        return "the table is not paused"
    if table.paused_by != player:
        by = table.paused_by
        return f"{by} paused the table until {clock(until)}: only they can resume it early"
    return None


# ---------------------------------------------------------------- undo


def why_no_undo(
    table: TableInfo,
    states: Sequence[core.GameState],
    standins: Sequence[core.Level | None],
    seats_here: Sequence[int],
    seq: int,
) -> str | None:
    """Why a player deciding for ``seats_here`` may not take back the table's last action,
    asked at the position after ``seq`` actions (``states``: the positions before each
    action then the one now; ``standins``: who made each). Board Game Arena's rule: your
    own last action, until the next player acts or new parcels are dealt; never the
    game's last (it is over and rated), never a stand-in's."""
    actions = len(states) - 1
    if not seats_here:
        return "only the table's players may undo"
    if seq != actions:
        return "someone played meanwhile: look again"
    if actions == 0:
        return "nothing has been played yet"
    before, after = states[-2], states[-1]
    mover = before.current_player
    if mover not in seats_here:
        who = (table.seats[mover].name or "?") if mover is not None else "nobody"
        return f"the last action was {who}'s, not yours: only your own can be taken back"
    if len(standins) >= actions and standins[actions - 1] is not None:
        return "a computer made that move for you: only your own can be taken back"
    if core.is_over(after):
        return "the game is over: its last action stands"
    if after.season != before.season:
        return "new parcels were dealt since: that action cannot be taken back"
    return None


# ---------------------------------------------------------------- presence, hand-over


def away_since(seat: SeatInfo) -> float | None:
    """Since when ``seat``'s player is away (None: here, a computer, never came, open)."""
    if seat.present or seat.computer or seat.name is None:
        return None
    return seat.away_since


def away_words(seat: SeatInfo) -> str | None:
    """Why a seat's player is not here, in words ("away since 14:02", "not here yet");
    None when present (or a computer, or an open seat)."""
    if seat.present or seat.computer or seat.name is None:
        return None
    if seat.away_since is None:
        return "not here yet"
    return f"away since {clock(seat.away_since)}"


def why_no_hand_over(
    table: TableInfo, state: core.GameState | None, seats_here: Sequence[int]
) -> str | None:
    """Why a terminal deciding for ``seats_here`` may not hand its own seat to a computer
    (or take it back) now."""
    if not seats_here:
        return "only a player of the table can hand over their seat"
    if state is not None and core.is_over(state):
        return "the game is over: there is nothing left to decide"
    return None


def why_not_absent(table: TableInfo, seat: int, level: core.Level | None, now: float) -> str | None:
    """Why a present player may not hand ``seat``, another player's, to a computer of
    ``level`` now: only at a live table, only a player's seat, never during a pause, and
    only once its player has been away longer than the table's wait."""
    if level is None:
        return "only its player takes a seat back"
    if table.pace != "live":
        return "this table waits for everyone: nobody's seat is handed over for them"
    if not 0 <= seat < len(table.seats) or table.seats[seat].computer or not table.seats[seat].name:
        return "that is not a player's seat"
    paused = why_paused(table, now)
    if paused is not None:
        return paused
    since = away_since(table.seats[seat])
    if since is None:
        return "that player is here (or has not come yet): only an absent seat"
    left = table.wait - (now - since)
    if left > 0:
        return f"that player has been away less than the table's wait: {math.ceil(left)} s more"
    return None


def absent_seats(table: TableInfo, seats_here: Sequence[int], now: float) -> list[tuple[int, str]]:
    """The seats (with their players' names) that a player deciding for ``seats_here`` may
    hand to a computer now for their absent players (none already handed over)."""
    if not seats_here:
        return []
    return [
        (seat, info.name or "?")
        for seat, info in enumerate(table.seats)
        if seat not in seats_here
        and info.standin is None
        and why_not_absent(table, seat, "normal", now) is None
    ]


# ---------------------------------------------------------------- what the table waits for


def waits_for(table: TableInfo, state: core.GameState | None, now: float) -> str | None:
    """What the table waits for now, in words ("the pause: until 22:56 (cleo)", "ben
    (away since 22:10)"); None while it waits for nothing unusual (someone present is
    deciding, or the game is over)."""
    until = paused_until(table, now)
    if until is not None:
        return f"paused until {clock(until)} ({table.paused_by})"
    if state is None or core.is_over(state) or state.current_player is None:
        return None
    seat = table.seats[state.current_player]
    away = away_words(seat)
    if away is None or seat.standin is not None:
        return None
    return f"{seat.name} ({away})"
