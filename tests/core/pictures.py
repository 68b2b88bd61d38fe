"""Positions of the region as small ASCII pictures, so a rule test reads like a figure.

A picture has 6 rows (seasons 1-3) or 9 rows (season 4) of 8 tokens, one per space, top row
first, columns a..h left to right. An optional header line of column letters, a leading row
number and any ``|`` (drawn between areas or parcels, for the eye only) are ignored::

      a b c d | e f g h
    1 . . ^ . | . . . .
    2 . B B . | . ^ . .
    3 . . . . | . . r .
    ...

Tokens:

``.``            a free space
``^``            a pyramid with no cube on it
``B R G W``      a cube of the player whose colour has that letter (seat 0 is Blue, 1 Red,
                 2 Green, 3 White unless the game was made with other colours)
``N``            a neutral cube (2 players only)
``b r g w n``    lower case: that cube, standing on a pyramid (after Lord Lemon)

:func:`position` starts from ``core.new_game(players, seed)`` and replaces the pyramid mask
and the cubes by the picture's (the parcel cards stay those dealt by the seed: only their
pyramids follow the picture, which is what legality reads). Each player's reserve is then
recomputed so that reserve + stock + region + Museum cubes = 25, unless given explicitly.
:func:`picture` draws a state back, for readable failure messages.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

import core
from core.lessons.positions import read_picture
from core.region import WIDTH, parse_space, rows_in
from core.state import CUBES_PER_COLOUR, NEUTRAL, GameState, Phase

PYRAMIDS_AND_OPPONENTS = """
  a b c d | e f g h
1 . . ^ . | . . . .
2 . B . . | . ^ . .
3 . . . . | . . . .
4 . . . . | R . . .
5 . ^ . . | . . . .
6 . . . . | . . . G
"""
"""3 players: pyramids on c1 f2 b5; Blue's cube on b2, Red's on e4, Green's on h6."""

WITH_NEUTRAL = """
  a b c d | e f g h
1 . . . . | . . . .
2 . B . . | . N . .
3 . . . . | . . . .
4 . . . . | . . R .
5 . . . . | . . . .
6 . . . . | . . . .
"""
"""2 players: Blue's cube on b2, a neutral cube on f2, Red's on g4."""


def position(
    board: str,
    players: int = 3,
    seed: int = 0,
    *,
    colours: list[core.Colour] | None = None,
    **fields: Any,
) -> GameState:
    """A state of season 1 (season 4 for a 9-row picture) with the region of ``board``.

    ``fields`` replace any other ``GameState`` field (``current``, ``passing``, ``museum``...);
    use :func:`with_player` for a player's stock, reserve or cards.
    """
    state = core.new_game(players, seed, colours=colours)
    letters = {p.colour.letter: seat for seat, p in enumerate(state.players)}
    if players == 2:
        letters["N"] = core.cube_index(state, NEUTRAL)
    height, pyramids, cubes = read_picture(board, letters, len(state.cubes), heights=(6, 9))
    region = state.region
    season = state.season
    if height == 9:
        region = (*state.region, *state.deck[:4])
        season = 4
    neutral_on_board = cubes[letters["N"]].bit_count() if players == 2 else 0
    state = replace(
        state,
        region=region,
        season=season,
        pyramids=pyramids,
        cubes=tuple(cubes),
        deck=state.deck[len(region) - len(state.region) :] if season == 4 else state.deck,
        neutral_reserve=state.neutral_reserve - neutral_on_board,
    )
    state = replace(state, **fields)
    for seat in range(players):
        state = with_player(state, seat)
    return state


def with_player(state: GameState, seat: int, **fields: Any) -> GameState:
    """``state`` with some fields of one player replaced; the reserve is recomputed so the
    player's 25 cubes add up, unless ``reserve`` is one of ``fields``."""
    player = replace(state.players[seat], **fields)
    if "reserve" not in fields:
        elsewhere = (
            player.stock + state.cubes[seat].bit_count() + sum(r == seat for r in state.museum)
        )
        if elsewhere > CUBES_PER_COLOUR:
            raise ValueError(f"seat {seat} would have more than {CUBES_PER_COLOUR} cubes")
        player = replace(player, reserve=CUBES_PER_COLOUR - elsewhere)
    players = (*state.players[:seat], player, *state.players[seat + 1 :])
    return replace(state, players=players)


def picture(state: GameState) -> str:
    """The region of ``state`` drawn in the notation :func:`position` reads."""
    if state.phase is Phase.OVER or not state.region:
        return "(no region)"
    letters = [
        "N" if seat == NEUTRAL else state.players[seat].colour.letter
        for seat in core.cube_holders(state)
    ]
    lines = ["  a b c d | e f g h"]
    for row in range(rows_in(len(state.region))):
        tokens = []
        for col in range(WIDTH):
            space = row * WIDTH + col
            token = "^" if state.pyramids >> space & 1 else "."
            for letter, cubes in zip(letters, state.cubes, strict=True):
                if cubes >> space & 1:
                    token = letter.lower() if token == "^" else letter
            tokens.append(token)
        lines.append(f"{row + 1} {' '.join(tokens[:4])} | {' '.join(tokens[4:])}")
    return "\n".join(lines)


def spaces(*names: str) -> tuple[int, ...]:
    """Spaces by name: ``spaces("c3", "d3")``."""
    return tuple(parse_space(n) for n in names)


def space(name: str) -> int:
    """One space by name."""
    return parse_space(name)


def play(state: GameState, *notations: str) -> GameState:
    """Apply actions given in the text notation, one after the other."""
    for text in notations:
        state = core.apply_action(state, core.parse_action(text))
    return state


def legal(state: GameState) -> set[str]:
    """The legal actions of ``state`` in the text notation."""
    return {core.format_action(a) for a in core.legal_actions(state)}
