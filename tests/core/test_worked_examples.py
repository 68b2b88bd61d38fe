"""The worked examples of RULES.md §7, played through core as written there."""

import core
from core.museum import FIVE_ROOM_DOORS, ROOMS, Room, room_wings, two_room
from core.state import EMPTY
from tests.core.pictures import legal, play, position, with_player

EMPTY_REGION = "\n".join(f"{r} . . . . . . . ." for r in range(1, 7))


def test_survey_example():
    """Blue 4 cubes, Red 2, Green 2, White 1; Green passed before Red. Ranks: Blue, Green,
    Red, White. Blue takes the value-3 parcel (+3). Green books a room. Red takes the other
    parcel (+0). White gets nothing."""
    board = """
      a b c d | e f g h
    1 B B R R | . . . B
    2 B B G G | . . . .
    3 W . . . | . . . .
    4 . . . . | . . . .
    5 . . . . | . . . .
    6 . . . . | . . . .
    """
    # The example is area 1 (a-d, rows 1-3). Blue's cube at h1 makes the survey stop in
    # area 2 for Blue's choice, so area 1's outcome can be seen before the season ends.
    # P1 is Violet 3 (card 6), P2 Violet with no value (card 0).
    region = (6 * 2, 0 * 2, *core.new_game(4, seed=0).region[2:])
    state = position(
        board, players=4, current=0, passing=(2, 1, 3, EMPTY), last_turn=True, region=region
    )
    state = play(state, "pass")  # Blue, last, lands on space 4; the survey begins
    assert core.rules.ranking(state, 0) == [0, 2, 1, 3]
    green_reserve = state.players[2].reserve
    state = play(state, "take P1")  # Blue, 1st
    assert state.players[0].score == 3
    assert state.current_player == 2  # Green, 2nd
    state, events = core.apply_action_with_events(state, core.parse_action("book T1"))
    assert state.museum[Room.T1] == 2
    assert state.players[2].reserve == green_reserve - 1 + 2  # booked, then its 2 cubes back
    assert (state.players[1].cards, state.players[1].score) == ((0,), 0)  # Red: the other
    assert state.players[3].cards == ()
    assert state.survey_area == 1
    assert any(e.text.startswith("White gets nothing") for e in events)


def test_museum_example():
    """Green's first cube cannot go in a 5-room. After Green holds the 2-room between Lemon's
    and Blackmore's wings, both of those wings' 5-rooms are open to Green."""
    seed = next(
        s
        for s in range(100)
        if _neighbours(core.new_game(3, s).wings, core.Patron.LEMON, core.Patron.BLACKMORE)
    )
    wings = core.new_game(3, seed).wings
    lemon, blackmore = wings.index(core.Patron.LEMON), wings.index(core.Patron.BLACKMORE)
    between = two_room(lemon, blackmore)
    # Green (seat 2) is alone in area 1 and in area 2: it chooses twice in the survey.
    board = "1 G . . . . . . G\n" + "2 . . . . . . . .\n" * 5
    state = position(board, seed=seed, current=2, passing=(0, 1, EMPTY), last_turn=True)
    state = play(state, "pass")
    first_choice = legal(state)
    assert not any(f"book {r.name}" in first_choice for r in Room if r < Room.T1)
    state = play(state, f"book {Room(between).name}")
    second_choice = legal(state)
    assert state.survey_area == 1 and state.current_player == 2
    fives = {r.name for r in Room if r < Room.T1 and f"book {r.name}" in second_choice}
    assert fives == {Room(lemon).name, Room(blackmore).name}


def _neighbours(wings: tuple[int, ...], a: int, b: int) -> bool:
    return (wings.index(a) - wings.index(b)) % 5 in (1, 4)


def test_exhibition_example():
    """Blue owns 2 Lemon, 1 Blackmore, 3 Brown, 2 Tangerine, 1 Violet and holds rooms worth
    3 for Lemon, 3 for Blackmore, 5 for Brown, 2 for Tangerine, none for Violet:
    6 + 3 + 15 + 4 + 1 = 29, plus 5 for one complete series = 34."""
    state = position(EMPTY_REGION, players=3, seed=0)
    wing = {p: state.wings.index(p) for p in core.Patron}
    # Tangerine's 2-room on the side away from Violet (so Violet keeps "none").
    tangerine_two = next(
        d
        for d in FIVE_ROOM_DOORS[wing[core.Patron.TANGERINE]][1:]
        if wing[core.Patron.VIOLET] not in room_wings(d)
    )
    held = {
        Room.T1 + wing[core.Patron.LEMON],
        Room.T1 + wing[core.Patron.BLACKMORE],
        Room.T1 + wing[core.Patron.BROWN],  # the door Blue went through to...
        Room.F1 + wing[core.Patron.BROWN],  # ...Brown's 5-room
        tangerine_two,
    }
    museum = tuple(0 if r in held else EMPTY for r in range(ROOMS))
    cards = (7, 8, 21, 14, 15, 16, 28, 29, 0)  # Lemon x2, Blackmore, Brown x3, Tangerine x2, Violet
    state = with_player(position(EMPTY_REGION, museum=museum), 0, cards=cards)
    blue = core.final_scores(state).players[0]
    # By patron: Violet, Lemon, Brown, Blackmore, Tangerine.
    assert blue.exhibition == (1, 6, 15, 3, 4)
    assert sum(blue.exhibition) == 29
    assert blue.series == 5
    assert blue.total == 34
