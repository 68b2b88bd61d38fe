"""The words on the game screen: the status line and the action bar's prompt and options.

Pure functions of the state, the legal actions and the half-built action, so the game
screen only hands their result to its widgets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text

import core
from tui import decisions, look, placement

PHASE_WORDS = {core.Phase.EXCAVATION: "Excavation", core.Phase.SURVEY: "Survey",
               core.Phase.OVER: "Game over"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Building:
    """The half-built action: its kind and cubes placed, a patron waiting for a or b, or
    the action a Museum room is being chosen for; and how many spaces can take a cube."""

    kind: placement.Kind | None = None
    placed: tuple[int, ...] = ()
    variant_key: str | None = None
    room_type: type | None = None
    legal_space_count: int = 0


def status_line(
    state: core.GameState, is_computer: Callable[[int | None], bool], unsaved: bool
) -> Text:
    """Season, phase, who decides, the deck's size, and a warning if saving failed."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f" Season {state.season}/4 ", look.CURSOR)
    text.append(f" {PHASE_WORDS[state.phase]}")
    seat = state.current_player
    if seat is not None:
        text.append(" · ")
        text.append(look.seat_name(state, seat), look.seat_style(state, seat))
        text.append(" (computer)" if is_computer(seat) else " to decide")
    text.append(f" · deck {len(state.deck)}", look.DIM)
    if unsaved:
        text.append(" · NOT SAVED", look.CURSOR)
    return text


def decision(
    state: core.GameState, legal: tuple[core.Action, ...], mode: str, building: Building
) -> tuple[str, Text]:
    """The prompt (who decides what) and the options line (keys and choices) for ``mode``
    (see GameScreen.mode)."""
    seat = state.current_player
    who = look.seat_name(state, seat) if seat is not None else ""
    if mode == "over":
        return "The game is over.", Text("f: final scores · ?: help · q: quit")
    if mode == "computer":
        return f"{who}, the computer, is playing…", Text("Space: skip the pause")
    if mode == "place" and building.kind is not None:
        kind, n = building.kind, len(building.placed) + 1
        return f"{who}: {kind.label}, cube {n} of {kind.cubes}.", Text(
            f"arrows/hjkl move · Enter places · Esc backs out · "
            f"{building.legal_space_count} spaces [·] can take it", look.DIM,
        )  # fmt: skip
    if mode == "room":
        what = "Sir Brown: a cube from stock" if building.room_type is core.Brown else "Booking"
        return f"{who}: {what} into a Museum room.", Text(
            "arrows/hjkl move · Enter chooses · Esc backs out · legal rooms [·]", look.DIM
        )
    if mode == "variant":
        patron = decisions.PATRON_KEYS[building.variant_key or "v"]
        return f"{who}: {patron.title}, then which action?", Text(
            "a start an excavation (1 cube)   b extend (2 cubes)   Esc back"
        )
    options = Text()
    if mode == "survey":
        for i, option in enumerate(decisions.survey_options(state, legal), start=1):
            options.append(f"{i}", look.CURSOR)
            options.append(f" {option.label}   ")
        return decisions.survey_prompt(state), options
    for key in decisions.usable_keys(legal):
        options.append(key, look.CURSOR)
        options.append(f" {decisions.KEY_LABELS[key]}  ")
    return _choose_prompt(state, who), options


def _choose_prompt(state: core.GameState, who: str) -> str:
    if state.neutral_pending:
        return f"{who}: place neutral cubes now, or none."
    last = " This is your last action of the season." if state.last_turn else ""
    return f"{who}: choose an action.{last}"
