"""The region's geometry (RULES.md §2): parcels, areas, adjacency, names of spaces."""

import pytest

from core.region import (
    AREA_MASK,
    NEIGHBOURS,
    PARCEL_MASK,
    area_of,
    board_mask,
    parcel_of,
    parcel_space,
    parse_space,
    space_name,
)
from tests.core.pictures import space

SPACES_9 = range(72)


def test_a_parcel_is_2_wide_and_3_tall_four_to_a_line():
    """P1 is a1..b3, P4 is g1..h3, P5 starts the second line at a4, P12 ends at h9."""
    assert PARCEL_MASK[0] == sum(1 << space(s) for s in ("a1", "b1", "a2", "b2", "a3", "b3"))
    assert PARCEL_MASK[3] >> space("g1") & 1 and PARCEL_MASK[3] >> space("h3") & 1
    assert parcel_of(space("a4")) == 4 and parcel_of(space("h9")) == 11


def test_cells_are_numbered_row_by_row():
    """0 1 / 2 3 / 4 5: cell 3 of P2 (c1..d3) is d2."""
    assert [space_name(parcel_space(1, c, False)) for c in range(6)] == [
        "c1", "d1", "c2", "d2", "c3", "d3",
    ]  # fmt: skip


def test_an_area_is_two_parcels_side_by_side_two_areas_per_line():
    assert AREA_MASK[0] == PARCEL_MASK[0] | PARCEL_MASK[1]
    assert area_of(space("d3")) == 0 and area_of(space("e1")) == 1
    assert area_of(space("a4")) == 2 and area_of(space("h9")) == 5


@pytest.mark.parametrize(("parcels", "rows"), [(8, 6), (12, 9)])
def test_the_areas_tile_the_region(parcels, rows):
    areas = [AREA_MASK[a] for a in range(parcels // 2)]
    assert sum(m.bit_count() for m in areas) == 8 * rows
    union = 0
    for mask in areas:
        assert not union & mask
        union |= mask
    assert union == board_mask(parcels)


@pytest.mark.parametrize("parcel", range(12))
def test_the_two_middle_spaces_are_adjacent_across_the_cartouche(parcel):
    left, right = parcel_space(parcel, 2, False), parcel_space(parcel, 3, False)
    assert NEIGHBOURS[left] >> right & 1


def test_adjacency_is_orthogonal_and_symmetric_and_never_wraps():
    for s in SPACES_9:
        count = NEIGHBOURS[s].bit_count()
        assert count in (2, 3, 4)
        for t in SPACES_9:
            assert (NEIGHBOURS[s] >> t & 1) == (NEIGHBOURS[t] >> s & 1)
            if NEIGHBOURS[s] >> t & 1:
                assert abs(s % 8 - t % 8) + abs(s // 8 - t // 8) == 1
    assert not NEIGHBOURS[space("h1")] >> space("a2") & 1


def test_corner_and_edge_spaces():
    """a1 touches b1 and a2; d1 touches c1, e1, d2; d5 touches four spaces."""
    assert NEIGHBOURS[space("a1")] == 1 << space("b1") | 1 << space("a2")
    assert NEIGHBOURS[space("d1")].bit_count() == 3
    assert NEIGHBOURS[space("d5")].bit_count() == 4


def test_space_names_round_trip():
    for s in SPACES_9:
        assert parse_space(space_name(s)) == s
    assert space_name(0) == "a1" and space_name(71) == "h9"
    for bad in ("i1", "a0", "a10", "", "c"):
        with pytest.raises(ValueError):
            parse_space(bad)
