"""The region: the grid of parcels dealt each season, as bitmasks over its spaces.

A space is ``row * WIDTH + col`` (row 0 at the top). Parcels are 2 wide × 3 tall and are
laid line by line, four per line; the first two of a line form its left area, the next two
its right area (RULES.md §2). Adjacency is orthogonal and ignores every boundary.

Sets of spaces are ``int`` bitmasks (bit ``s`` = space ``s``) so the hot paths of the rules
(legal placements, majorities) are a few integer operations.
"""

from __future__ import annotations

from core.cards import CARDS, CardId, on_new_cards

Space = int
"""A space of the region: ``row * WIDTH + col``."""
Face = int
"""A dealt parcel: ``card * 2 + rotated`` (rotated = turned 180°)."""
ParcelIndex = int
"""A parcel's position in the region, 0..11 in reading order (four per line)."""
AreaIndex = int
"""An area, 0..5 in reading order (two per line)."""

WIDTH = 8
MAX_ROWS = 9
PARCELS_PER_LINE = 4
SPACES = WIDTH * MAX_ROWS

COL_A = sum(1 << (r * WIDTH) for r in range(MAX_ROWS))
COL_H = COL_A << (WIDTH - 1)
ALL = (1 << SPACES) - 1


def rows_in(parcel_count: int) -> int:
    """Rows of a region of ``parcel_count`` parcels (8 → 6 rows, 12 → 9 rows)."""
    return 3 * (parcel_count // PARCELS_PER_LINE)


def board_mask(parcel_count: int) -> int:
    """Every space of a region of ``parcel_count`` parcels."""
    return (1 << (WIDTH * rows_in(parcel_count))) - 1


def neighbours(mask: int) -> int:
    """Spaces orthogonally adjacent to any space of ``mask`` (not masked by the region)."""
    return (
        ((mask << 1) & ~COL_A) | ((mask >> 1) & ~COL_H) | (mask << WIDTH) | (mask >> WIDTH)
    ) & ALL


NEIGHBOURS: tuple[int, ...] = tuple(neighbours(1 << s) for s in range(SPACES))
"""``NEIGHBOURS[s]``: the mask of the spaces adjacent to space ``s``."""


def parcel_space(parcel: ParcelIndex, cell: int, rotated: bool) -> Space:
    """The space of a parcel's ``cell`` (0..5), with the card turned 180° if ``rotated``."""
    if rotated:
        cell = 5 - cell
    line, slot = divmod(parcel, PARCELS_PER_LINE)
    return (3 * line + cell // 2) * WIDTH + 2 * slot + cell % 2


PARCEL_MASK: tuple[int, ...] = tuple(
    sum(1 << parcel_space(p, c, False) for c in range(6)) for p in range(12)
)
"""``PARCEL_MASK[p]``: the six spaces of parcel ``p``."""

AREA_MASK: tuple[int, ...] = tuple(PARCEL_MASK[2 * a] | PARCEL_MASK[2 * a + 1] for a in range(6))
"""``AREA_MASK[a]``: the twelve spaces of area ``a``."""


def area_parcels(area: AreaIndex) -> tuple[ParcelIndex, ParcelIndex]:
    """The two parcels side by side that form ``area``."""
    return (2 * area, 2 * area + 1)


def parcel_of(space: Space) -> ParcelIndex:
    """The parcel a space belongs to."""
    row, col = divmod(space, WIDTH)
    return (row // 3) * PARCELS_PER_LINE + col // 2


def area_of(space: Space) -> AreaIndex:
    """The area a space belongs to."""
    return parcel_of(space) // 2


def face_card(face: Face) -> CardId:
    return face >> 1


def face_rotated(face: Face) -> bool:
    return bool(face & 1)


def face_pyramids(parcel: ParcelIndex, face: Face) -> int:
    """Mask of the pyramid spaces of ``face`` laid at position ``parcel``."""
    card = CARDS[face >> 1]
    return sum(1 << parcel_space(parcel, c, bool(face & 1)) for c in card.pyramids)


_FACE_PYRAMIDS: list[tuple[int, ...]] = []
"""``_FACE_PYRAMIDS[parcel][face]``: :func:`face_pyramids`, read from a table."""


@on_new_cards
def _face_pyramids() -> None:
    # face_pyramids for every face, with each parcel's cell masks looked up once: this
    # runs at every start.
    table = []
    for parcel in range(12):
        cell_bits = [1 << parcel_space(parcel, cell, False) for cell in range(6)]
        masks = []
        for card in CARDS:
            masks.append(sum([cell_bits[cell] for cell in card.pyramids]))
            masks.append(sum([cell_bits[5 - cell] for cell in card.pyramids]))  # rotated
        table.append(tuple(masks))
    _FACE_PYRAMIDS[:] = table


def pyramid_mask(faces: tuple[Face, ...]) -> int:
    """Mask of every pyramid space of a region dealt as ``faces`` (negative = no parcel)."""
    mask = 0
    for parcel, face in enumerate(faces):
        if face >= 0:
            mask |= _FACE_PYRAMIDS[parcel][face]
    return mask


def _row_spaces(first: Space) -> tuple[tuple[Space, ...], ...]:
    """``[byte]``: the spaces of the row starting at ``first`` whose bits ``byte`` sets. Built
    by doubling (the bytes below ``2**i``, then each of them with space ``first + i``): a
    tenth of the time of testing every bit of every byte, at every start."""
    table: list[tuple[Space, ...]] = [()]
    for space in range(first, first + WIDTH):
        table += [(*spaces, space) for spaces in table]
    return tuple(table)


# Each row of the region is one byte of a mask (WIDTH == 8): masks are read a row at a
# time through this table rather than bit by bit. ROW_SPACES[row][byte]: those spaces.
ROW_SPACES: tuple[tuple[tuple[Space, ...], ...], ...] = tuple(
    _row_spaces(row * WIDTH) for row in range(MAX_ROWS)
)


def spaces_of(mask: int) -> list[Space]:
    """The spaces of a mask, in increasing order."""
    out: list[Space] = []
    row = 0
    while mask:
        if mask & 255:
            out += ROW_SPACES[row][mask & 255]
        mask >>= 8
        row += 1
    return out


def space_name(space: Space) -> str:
    """Text form of a space: column letter a..h, then row 1..9 from the top (``c2``)."""
    if not 0 <= space < SPACES:
        raise ValueError(f"no space {space}")
    row, col = divmod(space, WIDTH)
    return f"{'abcdefgh'[col]}{row + 1}"


def parse_space(text: str) -> Space:
    """Inverse of :func:`space_name`; raises ``ValueError`` on anything else."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "123456789":
        raise ValueError(f"{text!r} is not a space (a1..h9)")
    return (int(text[1]) - 1) * WIDTH + "abcdefgh".index(text[0])
