"""Positions for the lessons, built from small ASCII pictures of the region (the tests'
picture notation, promoted here so that non-test code can use it).

A picture has 6 rows of 8 tokens, top row first, columns a..h; a header of column letters,
a leading row number and ``|`` are for the eye only::

      a b c d | e f g h
    1 . . ^ . | . . . .
    2 . B B . | . ^ . .
    ...

``.`` free · ``^`` a pyramid · ``B R G W`` a cube of that colour's seat (seat 0 is Blue,
1 Red, 2 Green, 3 White) · ``N`` a neutral cube (2 players) · lower case: that cube on a
pyramid.

:func:`position` starts from ``core.new_game(players, seed)`` and lays out everything a
lesson needs (cards owned, chosen parcels, Museum rooms, stocks) so that each colour's 25
cubes and the 36 cards still add up; :func:`check_position` says so or raises
``ValueError``. :func:`surveying` turns a position whose players have all passed into the
survey of an area, as the rules would have begun it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec.structs import replace

import core
from core.cards import CARDS, Patron
from core.moves import legal_codes
from core.region import WIDTH, face_card
from core.rules import ranking, survey_plan
from core.state import (
    CUBES_PER_COLOUR,
    EMPTY,
    NEUTRAL,
    GameState,
    Phase,
    cube_holders,
    cube_index,
)

_COLUMNS = "abcdefgh"
ROWS = 6
WINGS_IN_ORDER = (0, 1, 2, 3, 4)
"""The lessons' Museum: wing 1 Lady Violet, 2 Lord Lemon, 3 Sir Brown, 4 Mrs. Blackmore,
5 Colonel Tangerine (the patrons' order), so a prompt can name rooms in words."""


def card(patron: Patron | None, value: int | None = None) -> int:
    """A card id of ``patron`` (None: the patronless card), worth ``value`` if such a card
    exists in the cards in use (else any card of that patron)."""
    matching = [c for c in CARDS if c.patron is patron]
    if not matching:
        raise ValueError(f"no card of {patron!r} in the cards in use")
    exact = [c for c in matching if value is None or c.value == value]
    return (exact or matching)[0].id


def read_picture(
    board: str, letters: Mapping[str, int], holders: int, heights: tuple[int, ...] = (ROWS,)
) -> tuple[int, int, list[int]]:
    """A region drawn as text (the rulebook-style pictures of the lessons and the rule
    tests): its rows (one of ``heights``), its pyramids' mask, and each of ``holders``
    cube holders' mask. ``.`` is a free space, ``^`` a pyramid, a capital letter (a key of
    ``letters``: its holder's index) a cube, a small one a cube on a pyramid; column labels
    and ``|`` separators are skipped."""
    rows = []
    for line in board.strip("\n").splitlines():
        tokens = [t for t in line.split() if t != "|"]
        if not tokens or "".join(tokens) == _COLUMNS:
            continue
        if tokens[0].isdigit():
            tokens = tokens[1:]
        if len(tokens) != WIDTH:
            raise ValueError(f"a row of a picture has {WIDTH} spaces: {line!r}")
        rows.append(tokens)
    if len(rows) not in heights:
        raise ValueError(f"a picture has {' or '.join(map(str, heights))} rows, not {len(rows)}")
    pyramids = 0
    cubes = [0] * holders
    for row, tokens in enumerate(rows):
        for col, token in enumerate(tokens):
            space = row * WIDTH + col
            if token == "^" or (token != "." and token.islower()):
                pyramids |= 1 << space
            if token not in ".^":
                if token.upper() not in letters:
                    raise ValueError(f"no player or neutral with the letter {token!r}")
                cubes[letters[token.upper()]] |= 1 << space
    return len(rows), pyramids, cubes


def position(
    board: str,
    players: int = 3,
    *,
    seed: int = 1,
    season: int = 1,
    stock: Mapping[int, int] | None = None,
    owned: Mapping[int, Sequence[int]] | None = None,
    parcels: Mapping[int, int] | None = None,
    museum: Mapping[int, int] | None = None,
    neutral_stock: Mapping[int, int] | None = None,
    **fields: Any,
) -> GameState:
    """An excavation-phase position of ``season`` (1..3) with seat 0 to move.

    ``stock``: cubes in stock by seat (default 11); ``owned``: card ids owned by seat;
    ``parcels``: card id at a region index (0..7); ``museum``: the seat holding a room;
    ``neutral_stock``: neutral cubes held (2 players, default 4). ``fields`` replace any
    other ``GameState`` field (``passing``, ``last_turn``...). Reserves are recomputed so
    each colour has 25 cubes; the cards are re-laid so each of the 36 is in one place.
    """
    base = core.new_game(players, seed)
    owned = owned or {}
    parcels = parcels or {}
    taken = {c for cards in owned.values() for c in cards} | set(parcels.values())
    pool = [f for f in (*base.region, *base.deck) if face_card(f) not in taken]
    region = pool[: len(base.region)]
    for index, card_id in sorted(parcels.items()):
        region.insert(index, card_id * 2)
    region = region[: len(base.region)]
    unused = [f for f in pool if f not in region]
    gone = max(0, 8 * (season - 1) - len(taken - set(parcels.values())))
    discard = tuple(face_card(f) for f in unused[:gone])
    deck = tuple(unused[gone:])
    letters = {p.colour.letter: seat for seat, p in enumerate(base.players)}
    if players == 2:
        letters["N"] = cube_index(base, NEUTRAL)
    _, pyramids, cubes = read_picture(board, letters, len(base.cubes))
    rooms = [EMPTY] * len(base.museum)
    for room, seat in (museum or {}).items():
        rooms[room] = seat
    new_players = []
    for seat, player in enumerate(base.players):
        held = (stock or {}).get(seat, 11)
        neutral_held = (neutral_stock or {}).get(seat, 4) if players == 2 else 0
        cards = tuple(owned.get(seat, ()))
        elsewhere = held + cubes[seat].bit_count() + rooms.count(seat)
        reserve = CUBES_PER_COLOUR - elsewhere
        new_players.append(
            replace(
                player,
                stock=held,
                reserve=reserve,
                cards=cards,
                neutral_stock=neutral_held,
            )
        )
    neutral_reserve = 0
    if players == 2:
        neutral_on_board = cubes[cube_index(base, NEUTRAL)].bit_count()
        held = sum(p.neutral_stock for p in new_players)
        neutral_reserve = CUBES_PER_COLOUR - neutral_on_board - held
    state = replace(
        base,
        players=tuple(new_players),
        wings=WINGS_IN_ORDER,
        season=season,
        region=tuple(region),
        deck=deck,
        discard=discard,
        pyramids=pyramids,
        cubes=tuple(cubes),
        museum=tuple(rooms),
        neutral_reserve=neutral_reserve,
        current=0,
        first_player=0,
    )
    state = replace(state, **fields)
    check_position(state)
    return state


def surveying(state: GameState, area: int = 0) -> GameState:
    """``state`` (every player on the passing scale) at the start of the survey of
    ``area``, as the rules begin it: ranked by cubes, ties to the lower passing space."""
    steps = survey_plan(state, ranking(state, area))
    state = replace(
        state,
        phase=Phase.SURVEY,
        survey_area=area,
        survey_steps=steps,
        current=steps[0][1],
    )
    check_position(state)
    return state


def check_position(state: GameState) -> None:
    """``ValueError`` unless ``state`` is one the rules accept: each colour's 25 cubes add
    up, each of the 36 cards is in exactly one place, and someone has a legal action."""
    for seat, player in enumerate(state.players):
        where = (
            player.reserve,
            player.stock,
            state.cubes[seat].bit_count(),
            state.museum.count(seat),
        )
        if min(where) < 0 or sum(where) != CUBES_PER_COLOUR:
            raise ValueError(f"seat {seat}'s cubes do not add up to 25: {where}")
    if len(state.players) == 2:
        neutral = (
            state.neutral_reserve
            + sum(p.neutral_stock for p in state.players)
            + state.cubes[cube_index(state, NEUTRAL)].bit_count()
        )
        if neutral != CUBES_PER_COLOUR or state.neutral_reserve < 0:
            raise ValueError(f"the neutral cubes do not add up to 25: {neutral}")
    cards = [face_card(f) for f in (*state.region, *state.deck) if f != EMPTY]
    cards += [*state.discard, *(c for p in state.players for c in p.cards)]
    if sorted(cards) != list(range(len(CARDS))):
        raise ValueError("each card must be in exactly one place")
    overlap = 0
    for mask in state.cubes:
        if overlap & mask:
            raise ValueError("two cubes on one space")
        overlap |= mask
    if len(state.cubes) != len(cube_holders(state)):
        raise ValueError("one mask of cubes per holder")
    if not legal_codes(state):
        raise ValueError("nobody has a legal action in this position")


def play(state: GameState, *notations: str) -> GameState:
    """Apply actions given in the text notation, one after the other."""
    for text in notations:
        state = core.apply_action(state, core.parse_action(text))
    return state
