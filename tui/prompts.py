"""The words on the game screen: the status line and the action bar's prompt and options.

Pure functions of the state, the legal actions and the half-built action (`tui.draft`),
so the game screen only hands their result to its widgets.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

import core
from table.seat import GameSeat, Player
from tui import decisions, look
from tui.draft import Draft, Mode, next_spaces

PHASE_WORDS = {core.Phase.EXCAVATION: "Excavation", core.Phase.SURVEY: "Survey",
               core.Phase.OVER: "Game over"}  # fmt: skip


def status_line(
    state: core.GameState,
    players: Sequence[Player],
    warning: str | None,
    width: int = 80,
    hints: bool | None = None,
) -> Text:
    """Season, the seat's warning (NOT SAVED, reconnecting…, the pause: first, so that a
    narrow terminal never cuts it off), phase, who decides (and why they are not here),
    the deck's size, and at a shared table whether it gives hints (``hints``; None
    locally). What does not fit ``width`` goes, the least needed first: the deck, the
    phase, the hints, then the away's time, then "to decide"; an ellipsis only after that."""
    for drop in range(len(_DROPPED) + 1):
        text = _status(state, players, warning, hints, frozenset(_DROPPED[:drop]))
        if text.cell_len <= width:
            break
    return text


_DROPPED = ("deck", "phase", "hints", "since", "to decide")
"""The parts of the status line a narrow terminal drops, in that order."""


def _status(
    state: core.GameState,
    players: Sequence[Player],
    warning: str | None,
    hints: bool | None,
    dropped: frozenset[str],
) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f" Season {state.season}/4 ", look.CURSOR)
    if warning:
        text.append(f" {warning} ", look.CURSOR)
    main: list[Text] = []  # the phase and who decides, then the dim details
    if "phase" not in dropped:
        main.append(Text(PHASE_WORDS[state.phase]))
    seat = state.current_player
    if seat is not None:
        who = Text()  # the name in the seat's colour, the rest plain
        who.append(look.seat_name(state, seat), look.seat_style(state, seat))
        if players[seat].computer:
            who.append(" (computer)")
        elif "to decide" not in dropped:
            who.append(" to decide")
        away = players[seat].away
        if away:
            away = away.partition(" since ")[0] if "since" in dropped else away
            who.append(f" ({away})", look.DIM)
        main.append(who)
    text.append(" ")
    text.append(Text(" · ").join(main))
    if "deck" not in dropped:
        text.append(f" · deck {len(state.deck)}", look.DIM)
    if hints is not None and "hints" not in dropped:
        text.append(" · hints on" if hints else " · hints off", look.DIM)
    return text


def decision(
    state: core.GameState,
    legal: tuple[core.Action, ...],
    mode: Mode,
    draft: Draft,
    players: Sequence[Player],
) -> tuple[str, Text]:
    """The prompt (who decides what) and the options line (keys and choices)."""
    seat = state.current_player
    who = look.seat_name(state, seat) if seat is not None else ""
    if mode is Mode.OVER:
        return "The game is over.", Text("f: final scores · ?: help · q: quit")
    if mode is Mode.WAIT:
        if seat is not None and players[seat].computer:
            return f"{who}, the computer, is playing…", Text("Space: skip the pause")
        return f"Waiting for {who} to decide…", Text("")
    if mode is Mode.PLACE and draft.kind is not None:
        kind, n = draft.kind, len(draft.placed) + 1
        count = len(next_spaces(draft, state))
        spaces = "1 space [·] can" if count == 1 else f"{count} spaces [·] can"
        return f"{who}: {kind.label}, cube {n} of {kind.cubes}.", Text(
            f"arrows/hjkl move · Enter places · Esc backs out · {spaces} take it", look.DIM
        )
    if mode is Mode.ROOM:
        what = "Sir Brown: a cube from stock" if draft.room_action is core.Brown else "Booking"
        return f"{who}: {what} into a Museum room.", Text(
            "arrows/hjkl move · Enter chooses · Esc backs out · legal rooms [·]", look.DIM
        )
    if mode is Mode.VARIANT:
        patron = decisions.PATRON_KEYS[draft.key or "v"]
        return f"{who}: {patron.title}, then which action?", Text(
            "a start an excavation (1 cube)   b extend (2 cubes)   Esc back"
        )
    options = Text()
    if mode is Mode.SURVEY:
        for i, option in enumerate(decisions.survey_options(state, legal), start=1):
            options.append(f"{i}", look.CURSOR)
            options.append(f" {option.label}   ")
        unbooked = decisions.why_no_booking(state, legal)
        if unbooked:  # said, not left for the player to wonder where booking went
            options.append(f"\n{unbooked}", look.DIM)
        return decisions.survey_prompt(state, legal), options
    for key in decisions.usable_keys(legal):
        options.append(key, look.CURSOR)
        options.append(f" {decisions.KEY_LABELS[key]}  ")
    return _choose_prompt(state, who), options


ORDINALS = ("1st", "2nd", "3rd", "4th")


def survey_ranking(state: core.GameState, width: int = 80) -> Text | None:
    """The ranking of the area being surveyed, kept in view while its choices are made
    (the log's line of it scrolls away): ``Area 3 ranking: 1st B Ann 4 cubes · 2nd …``,
    without the names when that is wider than ``width``. None outside the survey."""
    ranked = decisions.area_ranking(state)
    if not ranked:
        return None
    for named in (True, False):
        text = Text(f"Area {state.survey_area + 1} ranking: ", look.DIM)
        for place, (seat, cubes) in enumerate(ranked):
            if place:
                text.append(" · ", look.DIM)
            text.append(f"{ORDINALS[place]} ")
            text.append(look.seat_letter(state, seat), look.seat_style(state, seat))
            if named:
                neutral = seat == core.NEUTRAL
                text.append(" neutral" if neutral else f" {look.cut(state.players[seat].name, 9)}")
            text.append(f" {cubes} {'cube' if cubes == 1 else 'cubes'}")
        if text.cell_len <= width:
            break
    return text


def _choose_prompt(state: core.GameState, who: str) -> str:
    if state.neutral_pending:
        return f"{who}: place neutral cubes now, or none."
    last = " This is your last action of the season." if state.last_turn else ""
    return f"{who}: choose an action.{last}"


def quit_question(seat: GameSeat) -> str:
    """The quit dialog's question: plain when all is kept, a warning when it is not."""
    unsaved = seat.unsaved
    if unsaved:
        moves = "1 move is" if unsaved == 1 else f"{unsaved} moves are"
        return f"{moves} not saved: quit anyway?"
    return f"Quit the game? {seat.saved_note}"
