"""Counts of legal actions from fixed positions, worked out BY HAND from the pictures.

Each count is derived in the docstring (free spaces for A, adjacent pairs for B...), not
copied from the engine's output: a disagreement means the engine or the reasoning is wrong.
"""

from collections import Counter

import core
from core.museum import ROOMS, Room
from core.state import EMPTY
from tests.core.pictures import PYRAMIDS_AND_OPPONENTS, position, with_player


def kinds(state: core.GameState) -> Counter[str]:
    """The legal actions counted by their first word."""
    return Counter(core.format_action(a).split()[0] for a in core.legal_actions(state))


def test_opening_of_an_empty_region():
    """No cube anywhere, no pyramid (as drawn): 48 A, no B (no own cube), pass."""
    state = position("\n".join(f"{r} . . . . . . . ." for r in range(1, 7)), current=0)
    assert kinds(state) == {"A": 48, "pass": 1}


def test_excavation_with_pyramids_and_opponents():
    """PYRAMIDS_AND_OPPONENTS, Blue to play.
    A: 48 - 3 pyramids - 3 cubes = 42.
    B from Blue's b2, first on b1 a2 c2 b3:
      b1 -> a1 (c1 pyramid, b2 cube)     1
      a2 -> a1 a3                        2
      c2 -> d2 c3 (c1 pyramid)           2
      b3 -> a3 c3 b4                     3      B = 8."""
    state = position(PYRAMIDS_AND_OPPONENTS, current=0)
    assert kinds(state) == {"A": 42, "B": 8, "pass": 1}


CORNER = """
1 B . . . . . . .
2 B . . . . . . .
3 . . . . . . . .
4 . . . . . . . .
5 . . . . . . . .
6 . . . . . . . .
"""


def test_two_cubes_in_a_corner():
    """CORNER, Blue to play.
    A: 48 - 2 = 46. B, first on b1 b2 a3:
      b1 -> c1 b2               2
      b2 -> b1 c2 b3            3
      a3 -> b3 a4               2      B = 7."""
    state = position(CORNER, current=0)
    assert kinds(state) == {"A": 46, "B": 7, "pass": 1}


CORRIDORS = """
  a b c d | e f g h
1 ^ ^ ^ ^ | ^ ^ ^ ^
2 ^ . B . | . . ^ ^
3 ^ ^ . . | ^ ^ ^ ^
4 ^ ^ . ^ | ^ ^ ^ ^
5 ^ ^ . ^ | ^ ^ ^ ^
6 ^ ^ ^ ^ | ^ ^ ^ ^
"""


def test_every_patron_in_a_maze_of_pyramids():
    """Blue at c2 holds one card of each patron, in CORRIDORS. Free: b2 d2 e2 f2 c3 d3 c4 c5
    (8); Blue's neighbours: c1(^) b2 d2 c3. Edges between free spaces: d2-e2 e2-f2 d2-d3
    c3-d3 c3-c4 c4-c5 (6; b2 touches none).

    A 8. B: b2 -> none; d2 -> e2 d3; c3 -> d3 c4: 4. pass 1.
    Violet: its own A and B again: 8 + 4 = 12.
    Lemon A: the 39 pyramids (48 - 8 free - 1 cube). Lemon B (first next to c2):
      c1(^) -> a plain free neighbour: none           0
      b2    -> a pyramid: a2 b1 b3                    3
      d2    -> a pyramid: d1                          1
      c3    -> a pyramid: b3                          1      Lemon 39 + 5 = 44.
    Brown: the 10 empty 2- and 3-rooms.
    Blackmore: each edge both ways: 12.
    Tangerine (first next to c2, chains of free spaces):
      d2 e2 f2 · d2 d3 c3 · c3 c4 c5 · c3 d3 d2          4."""
    state = position(CORRIDORS, current=0, season=2)
    state = with_player(state, 0, cards=(0, 7, 14, 21, 28))
    assert kinds(state) == {
        "A": 8, "B": 4, "pass": 1, "violet": 12, "lemon": 44, "brown": 10,
        "blackmore": 12, "tangerine": 4,
    }  # fmt: skip


NEUTRAL_AFTER_A = """
1 . . . . . . . .
2 . . . . . N . .
3 . . . . . . . .
4 . . . . . . . .
5 . . . B . . . .
6 . . . . . . . .
"""


def test_neutral_placements_after_an_a():
    """NEUTRAL_AFTER_A: 2 players, Blue has just placed A d5; the neutral has a cube at f2.
    Neutral A: 48 - 2 cubes = 46. Neutral B from f2: first on f1 e2 g2 f3, each with
    its free neighbours:  f1 -> e1 g1 (2), e2 -> e1 d2 e3 (3), g2 -> g1 h2 g3 (3),
    f3 -> e3 g3 f4 (3) = 11. And nskip."""
    state = position(NEUTRAL_AFTER_A, players=2, current=0, neutral_pending=True)
    assert kinds(state) == {"nA": 46, "nB": 11, "nskip": 1}


def test_survey_choices_with_a_partly_filled_museum():
    """Blue chooses first in area 1; the Museum holds Red's T1 and D12, Blue's T3.
    Parcels: 2. Rooms: 2- and 3-rooms left: 10 - 3 = 7; 5-rooms opening onto a Blue room:
    F3 (through T3) = 1. Total 2 + 7 + 1 = 10."""
    museum = [EMPTY] * ROOMS
    museum[Room.T1] = museum[Room.D12] = 1
    museum[Room.T3] = 0
    board = "1 B . . . . . . .\n" + "2 . . . . . . . .\n" * 5
    state = position(board, current=0, passing=(1, 2, EMPTY), last_turn=True, museum=tuple(museum))
    state = core.apply_action(state, core.Pass())
    assert kinds(state) == {"take": 2, "book": 8}
