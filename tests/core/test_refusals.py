"""Why not, in a player's words: the next cube of a half-built placement, a whole choice.

Every word path of ``core.why_not_next`` and ``core.why_not_kind`` is reached here from a
picture of the region; ``core.next_spaces`` is checked against the legal actions.

Card ids: Violet 0-6, Lemon 7-13, Brown 14-20, Blackmore 21-27, Tangerine 28-34.
"""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

import core
from core import ActionKind as Kind
from core import Choice
from tests.core.pictures import (
    PYRAMIDS_AND_OPPONENTS,
    WITH_NEUTRAL,
    play,
    position,
    space,
    spaces,
    with_player,
)

VIOLET, LEMON, BROWN, BLACKMORE, TANGERINE = 0, 7, 14, 21, 28

BOARD = PYRAMIDS_AND_OPPONENTS  # Blue (seat 0) decides

CORNERED = """
  a b c d | e f g h
1 B . ^ . | . . . .
2 . ^ . . | . . . .
3 ^ . . . | . . . .
4 . . . . | . . . .
5 . . . . | . . . .
6 . . . . | . . . .
"""
# Blue's a1 has two free neighbours, b1 and a2, and neither has a free neighbour.

TWO_PLAYERS = WITH_NEUTRAL

FULL = "\n".join(f"{r} " + " ".join("^" * 8) for r in range(1, 7))


def blue(board: str = BOARD, *cards: int, players: int = 3, **player: int) -> core.GameState:
    """Blue (seat 0) to play in season 2, owning ``cards``, nobody passed."""
    state = position(board, players=players, current=0, first_player=0, season=2)
    return with_player(state, 0, cards=cards, **player)


def neutral_pending(board: str = TWO_PLAYERS, **player: int) -> core.GameState:
    """2 players: Blue has just started an excavation on a1 and may place neutral cubes."""
    state = play(blue(board, players=2), "A a1")
    assert state.neutral_pending
    return with_player(state, 0, **player) if player else state


def surveying() -> core.GameState:
    state = position(BOARD, current=0, passing=(1, 2, -1), last_turn=True)
    state = play(state, "pass")
    assert state.phase is core.Phase.SURVEY
    return state


def finished() -> core.GameState:
    rng = random.Random(1)
    state = core.new_game(2, seed=1)
    while not core.is_over(state):
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    return state


# ---------------------------------------------------------------- next_spaces


@pytest.mark.parametrize("players", [2, 3, 4])
def test_next_spaces_build_exactly_the_legal_placements(players: int) -> None:
    """Placing one offered space after another reaches every legal placement of a kind, and
    nothing else, in positions from random games."""
    rng = random.Random(players)
    state = core.new_game(players, seed=players)
    checked = 0
    while not core.is_over(state):
        legal = core.legal_actions(state)
        for kind in Kind:
            if not core.actions.PLACED_COUNT[kind]:
                continue
            wanted = {core.placed_spaces(a) for a in legal if core.action_kind(a) is kind}
            built: set[tuple[int, ...]] = set()
            prefixes: list[tuple[int, ...]] = [()]
            while prefixes:
                prefix = prefixes.pop()
                if len(prefix) == core.actions.PLACED_COUNT[kind]:
                    built.add(prefix)
                else:
                    nexts = core.next_spaces(state, kind, prefix)
                    prefixes += [(*prefix, s) for s in nexts]
            assert built == wanted, kind.name
            checked += len(wanted)
        state = core.apply_action(state, rng.choice(legal))
    assert checked > 500


def test_next_spaces_of_a_kind_with_no_legal_action_are_none() -> None:
    assert core.next_spaces(blue(), Kind.TANGERINE, ()) == frozenset()
    assert core.next_spaces(blue(), Kind.EXTEND, spaces("h1")) == frozenset()


# ---------------------------------------------------------------- why_not_next


def test_a_legal_next_cube_has_no_refusal() -> None:
    state = blue()
    assert core.why_not_next(state, Kind.EXTEND, (), space("a2")) == ""
    assert core.why_not_next(state, Kind.EXTEND, spaces("a2"), space("a1")) == ""


@pytest.mark.parametrize(
    ("kind", "placed", "where", "words"),
    [
        # the space itself (a cube that would finish the action asks the whole action)
        (Kind.EXCAVATE, (), "c1", "c1 holds a pyramid"),
        (Kind.EXCAVATE, (), "e4", "e4 already holds a cube"),
        (Kind.EXTEND, (), "b2", "b2 already holds a cube"),
        (Kind.EXTEND, (), "c1", "c1 holds a pyramid"),
        # the chain
        (Kind.EXTEND, (), "e5", "e5 is not next to one of your cubes"),
        (Kind.EXTEND, ("a2",), "c3", "c3 is not next to a2"),
        (Kind.EXTEND, ("a2",), "a2", "each cube needs its own space"),
        (Kind.BLACKMORE, ("h1",), "f1", "f1 is not next to h1"),
        (Kind.TANGERINE, ("a2",), "c3", "c3 is not next to a2"),
        (Kind.TANGERINE, ("c2", "c3"), "c2", "each cube needs its own space"),
    ],
)
def test_the_next_cube_is_refused_with_the_space_and_the_reason(kind, placed, where, words):
    state = blue(BOARD, BLACKMORE, TANGERINE)
    assert core.why_not_next(state, kind, spaces(*placed), space(where)) == words


def test_a_space_off_this_seasons_region() -> None:
    """Seasons 1-3 have six rows: a7 is not on the region (but is a space of the grid)."""
    assert core.why_not_next(blue(), Kind.EXTEND, (), space("a7")) == (
        "a7 is not on this season's region"
    )


def test_a_first_cube_from_which_no_action_can_be_finished() -> None:
    """b1 is next to Blue's a1, but no free space touches b1 for the second cube."""
    state = blue(CORNERED)
    assert core.why_not_next(state, Kind.EXTEND, (), space("b1")) == (
        "from b1 there is no way to finish this action"
    )


def test_lord_lemon_a_on_a_free_space_is_refused_by_the_whole_action() -> None:
    state = blue(BOARD, LEMON)
    assert core.why_not_next(state, Kind.LEMON_A, (), space("h1")) == (
        "with Lord Lemon exactly one cube goes on a pyramid"
    )


def test_lord_lemon_b_without_a_pyramid_within_reach() -> None:
    """a2 touches Blue's b2, but neither it nor its free neighbours is a pyramid."""
    state = blue(BOARD, LEMON)
    assert core.why_not_next(state, Kind.LEMON_B, (), space("a2")) == (
        "with Lord Lemon exactly one cube goes on a pyramid, and the action must fit"
    )


def test_a_neutral_pair_starts_next_to_a_neutral_cube() -> None:
    state = neutral_pending()
    assert core.why_not_next(state, Kind.NEUTRAL_B, (), space("c3")) == (
        "c3 is not next to a neutral cube"
    )


@pytest.mark.parametrize(
    ("state", "kind", "words"),
    [
        (blue, Kind.VIOLET_A, "you have no untilted Lady Violet card"),
        (lambda: blue(stock=1), Kind.EXTEND, "that needs 2 cubes and you have 1 cube in stock"),
        (lambda: blue(stock=0), Kind.EXCAVATE, "your stock is empty: you can only pass"),
        (surveying, Kind.EXCAVATE, "it is the survey: take a parcel or book a Museum room"),
        (blue, Kind.NEUTRAL_A, "neutral cubes are only used with 2 players"),
    ],
)
def test_the_next_cube_of_a_closed_kind_says_why_the_kind_is_closed(state, kind, words):
    assert core.why_not_next(state(), kind, (), space("h1")) == words


def test_why_not_next_refuses_questions_that_make_no_sense() -> None:
    with pytest.raises(ValueError, match="places 0 cubes"):
        core.why_not_next(blue(), Kind.PASS, (), space("h1"))
    with pytest.raises(ValueError, match="places 1 cubes, not 2"):
        core.why_not_next(blue(), Kind.EXCAVATE, spaces("h1"), space("h2"))
    with pytest.raises(ValueError, match="no space"):
        core.why_not_next(blue(), Kind.EXCAVATE, (), 99)


# ---------------------------------------------------------------- why_not_kind


def test_an_open_choice_has_no_refusal_and_the_open_choices_are_those_with_legal_actions():
    state = blue(BOARD, VIOLET)
    assert core.open_choices(state) == {Choice.START, Choice.EXTEND, Choice.PASS, Choice.VIOLET}
    for choice in Choice:
        assert (core.why_not_kind(state, choice) == "") == (choice in core.open_choices(state))


NEUTRAL_HEMMED = """
  a b c d | e f g h
1 . . . . | . . ^ N
2 . B . . | . . . ^
3 . . . . | . . . .
4 . . . . | . . R .
5 . . . . | . . . .
6 . . . . | . . . .
"""
# The neutral's h1 has no free neighbour.

NEUTRAL_CORNERED = """
  a b c d | e f g h
1 . . . . | . ^ . N
2 . B . . | . . ^ .
3 . . . . | . . . ^
4 . . . . | . . R .
5 . . . . | . . . .
6 . . . . | . . . .
"""
# The neutral's h1 has two free neighbours, g1 and h2, and neither has a free neighbour.

NO_PYRAMIDS = BOARD.replace("^", ".")
NO_BLUE = BOARD.replace("B", ".")
BLUE_IN_FULL = FULL.replace("^", "B", 1)
SECOND_CUBE = "no free space next to {} has a free space beside it for the second cube"


def every_room_taken() -> core.GameState:
    return replace(blue(BOARD, BROWN), museum=(1,) * 15)


@pytest.mark.parametrize(
    ("state", "choice", "words"),
    [
        (finished, Choice.START, "the game is over"),
        (surveying, Choice.PASS, "it is the survey: take a parcel or book a Museum room"),
        (neutral_pending, Choice.START, "first place neutral cubes, or choose to place none"),
        (blue, Choice.NEUTRAL_ONE, "neutral cubes are only used with 2 players"),
        (
            lambda: blue(TWO_PLAYERS, players=2),
            Choice.NO_NEUTRAL,
            "neutral cubes may only follow a start or extension of your own",
        ),
        (lambda: blue(stock=0), Choice.START, "your stock is empty: you can only pass"),
        (blue, Choice.BROWN, "you have no untilted Sir Brown card"),
        (
            lambda: blue(BOARD, VIOLET, reserve=0),
            Choice.VIOLET,
            "Lady Violet needs a cube in your reserve, and it is empty",
        ),
        (lambda: blue(stock=1), Choice.EXTEND, "that needs 2 cubes and you have 1 cube in stock"),
        (
            lambda: blue(BOARD, TANGERINE, stock=2),
            Choice.TANGERINE,
            "that needs 3 cubes and you have 2 cubes in stock",
        ),
        (lambda: blue(NO_PYRAMIDS, LEMON), Choice.LEMON, "Lord Lemon's power has no legal use now"),
        (every_room_taken, Choice.BROWN, "Sir Brown's power has no legal use now"),
        (
            lambda: blue(NO_BLUE),
            Choice.EXTEND,
            "you have no cube on the region to extend from: start one first",
        ),
        (lambda: blue(BLUE_IN_FULL), Choice.EXTEND, "there is no free space next to your cubes"),
        (lambda: blue(CORNERED), Choice.EXTEND, SECOND_CUBE.format("your cubes")),
        (lambda: blue(FULL), Choice.START, "there is no free space on the region"),
        (
            lambda: neutral_pending(neutral_stock=1),
            Choice.NEUTRAL_TWO,
            "that needs 2 cubes and you have 1 neutral cube",
        ),
        (
            lambda: neutral_pending(TWO_PLAYERS.replace("N", ".")),
            Choice.NEUTRAL_TWO,
            "there is no neutral cube on the region to extend from",
        ),
        (
            lambda: neutral_pending(NEUTRAL_HEMMED),
            Choice.NEUTRAL_TWO,
            "there is no free space next to a neutral cube",
        ),
        (
            lambda: neutral_pending(NEUTRAL_CORNERED),
            Choice.NEUTRAL_TWO,
            SECOND_CUBE.format("a neutral cube"),
        ),
    ],
)
def test_a_closed_choice_says_why(state, choice, words):
    assert core.why_not_kind(state(), choice) == words


def test_a_kind_stands_for_its_choice() -> None:
    """Either form of a patron's action means the patron; a survey kind is not a choice."""
    state = with_player(blue(BOARD, VIOLET), 0, reserve=0)
    for kind in (Kind.VIOLET_A, Kind.VIOLET_B):
        assert core.why_not_kind(state, kind) == core.why_not_kind(state, Choice.VIOLET)
    assert core.why_not_kind(state, Kind.EXTEND) == ""
    with pytest.raises(ValueError, match="survey"):
        core.why_not_kind(state, Kind.TAKE)


def test_the_choices_lead_to_every_excavation_kind_once() -> None:
    kinds = [kind for choice in Choice for kind in choice.kinds]
    assert sorted(kinds) == [
        k for k in Kind if k not in (Kind.TAKE, Kind.BOOK, Kind.NEUTRAL_PARCEL)
    ]
    assert all(Choice.of(kind) is choice for choice in Choice for kind in choice.kinds)


# ---------------------------------------------------------------- placed_spaces, action_kind


@pytest.mark.parametrize(
    ("text", "kind", "placed"),
    [
        ("A c3", Kind.EXCAVATE, ("c3",)),
        ("B c3 c4", Kind.EXTEND, ("c3", "c4")),
        ("violet c3", Kind.VIOLET_A, ("c3",)),
        ("lemon c3 d3", Kind.LEMON_B, ("c3", "d3")),
        ("tangerine c3 d3 e3", Kind.TANGERINE, ("c3", "d3", "e3")),
        ("nB f3 f4", Kind.NEUTRAL_B, ("f3", "f4")),
        ("pass", Kind.PASS, ()),
        ("brown T3", Kind.BROWN, ()),
        ("take P2", Kind.TAKE, ()),
    ],
)
def test_an_action_tells_its_kind_and_the_spaces_it_places_cubes_on(text, kind, placed):
    action = core.parse_action(text)
    assert core.action_kind(action) is kind
    assert core.placed_spaces(action) == spaces(*placed)


def test_placed_spaces_of_a_malformed_action_is_refused_as_malformed() -> None:
    with pytest.raises(core.MalformedActionError):
        core.placed_spaces(core.Extend(3, 200))
