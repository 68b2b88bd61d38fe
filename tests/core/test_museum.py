"""The Museum (RULES.md §6): fifteen rooms, which room opens onto which, where a cube may go."""

import random

import core
from core.actions import BOOK, BROWN, code
from core.moves import _room_codes
from core.museum import (
    FIVE_ROOM_DOORS,
    ROOMS,
    Room,
    open_rooms,
    room_label,
    room_points,
    room_wings,
)
from core.state import EMPTY

EMPTY_MUSEUM = (EMPTY,) * ROOMS


def museum_with(**rooms: int) -> tuple[int, ...]:
    """A Museum with ``room name = seat`` filled in: ``museum_with(T1=0, D12=1)``."""
    return tuple(rooms.get(Room(r).name, EMPTY) for r in range(ROOMS))


def test_fifteen_rooms_five_of_each_value():
    assert ROOMS == 15
    assert sorted(room_points(r) for r in range(ROOMS)) == [2] * 5 + [3] * 5 + [5] * 5


def test_each_5_room_opens_onto_its_3_room_and_the_two_2_rooms_beside_it():
    """Wing 1's 5-room: T1, D51 (between wings 5 and 1) and D12 (between wings 1 and 2)."""
    assert FIVE_ROOM_DOORS[0] == (Room.T1, Room.D51, Room.D12)
    for wing in range(5):
        three, before, after = FIVE_ROOM_DOORS[wing]
        assert three == Room.T1 + wing
        assert wing in room_wings(before) and wing in room_wings(after)
        assert {before, after} == {r for r in range(10, 15) if wing in room_wings(r)}


def test_a_2_room_belongs_to_two_neighbouring_wings_wing_5_next_to_wing_1():
    assert room_wings(Room.D12) == (0, 1)
    assert room_wings(Room.D51) == (4, 0)
    assert room_wings(Room.T3) == (2,) and room_wings(Room.F3) == (2,)


def test_a_first_cube_goes_in_any_2_or_3_room_never_a_5_room():
    assert open_rooms(EMPTY_MUSEUM, 0) == list(range(Room.T1, ROOMS))


def test_a_5_room_opens_next_to_own_3_room():
    assert Room.F2 in open_rooms(museum_with(T2=0), 0)
    assert Room.F3 not in open_rooms(museum_with(T2=0), 0)


def test_another_players_cube_opens_nothing_for_you():
    assert not {Room.F1, Room.F2} & set(open_rooms(museum_with(D12=1), 0))


def test_each_room_holds_at_most_one_cube_forever():
    museum = museum_with(T2=1, D12=0, F1=1)
    rooms = open_rooms(museum, 0)
    assert Room.T2 not in rooms and Room.D12 not in rooms and Room.F1 not in rooms
    assert Room.F2 in rooms  # still open through Blue's D12


def test_the_patrons_sit_on_the_wings_in_an_order_drawn_from_the_seed():
    orders = {core.new_game(3, seed).wings for seed in range(20)}
    assert all(sorted(order) == [0, 1, 2, 3, 4] for order in orders)
    assert len(orders) > 5


def test_rooms_are_named_by_their_patrons():
    wings = (core.Patron.LEMON, core.Patron.BROWN, 0, 3, 4)
    assert room_label(wings, Room.T1) == "Lemon 3-room"
    assert room_label(wings, Room.D12) == "Lemon/Brown 2-room"
    assert room_label(wings, Room.F2) == "Brown 5-room"


def test_the_legal_room_codes_are_the_open_rooms() -> None:
    """Brown's and the survey's codes come from masks and tables (core.moves): the same rooms
    as ``open_rooms``, in its order, for every holder of random Museums of 2 to 4 seats."""
    rng = random.Random(29)
    for _ in range(300):
        seats = rng.randint(2, 4)
        museum = tuple(rng.choice([EMPTY] * 3 + list(range(seats))) for _ in range(ROOMS))
        for seat in range(seats):
            for kind in (BROWN, BOOK):
                expected = tuple(code(kind, room) for room in open_rooms(museum, seat))
                assert _room_codes(kind, museum, seat) == expected, (museum, seat)
