"""An independent, deliberately naive reading of the placement rules, compared with core.

The reference below re-derives every legal excavation-phase action from RULES.md §4, §6 and
§8 with plain sets of (row, column) pairs, none of core's bitmasks or tables: where the two
disagree, one of them misreads the rules. Positions come from seeded random games, each also
tried with the deciding player holding one untilted card of every patron.
"""

import random

import pytest
from msgspec.structs import replace

import core
from core.cards import CARDS
from core.state import EMPTY, NEUTRAL
from tests.core.pictures import picture

LETTERS = "abcdefgh"


def name(space: tuple[int, int]) -> str:
    return f"{LETTERS[space[1]]}{space[0] + 1}"


def cells(mask: int) -> set[tuple[int, int]]:
    return {divmod(s, 8) for s in range(72) if mask >> s & 1}


def open_rooms(museum: tuple[int, ...], seat: int) -> list[str]:
    """RULES.md §6: any empty 2- or 3-room; an empty 5-room of wing w if the player holds
    wing w's 3-room or one of the 2-rooms on either side of it."""
    names = [r.name for r in core.Room]
    rooms = [names[r] for r in range(5, 15) if museum[r] == EMPTY]
    for wing in range(5):
        doors = (5 + wing, 10 + wing, 10 + (wing - 1) % 5)
        if museum[wing] == EMPTY and any(museum[d] == seat for d in doors):
            rooms.append(names[wing])
    return rooms


def reference_moves(state: core.GameState) -> set[str]:
    """Every legal action of the excavation phase, in the text notation."""
    rows = 3 * (len(state.region) // 4)
    board = {(r, c) for r in range(rows) for c in range(8)}

    def around(space):
        r, c = space
        return {(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))} & board

    taken = set().union(*(cells(m) for m in state.cubes))
    pyramids = cells(state.pyramids) & board
    free = board - taken - pyramids
    free_pyramids = pyramids - taken
    seat = state.current
    player = state.players[seat]

    def near(group):
        return set().union(*(around(s) for s in group)) if group else set()

    def pairs(firsts, seconds):
        return {(a, b) for a in firsts for b in around(a) & seconds if b != a}

    if state.neutral_pending:
        neutral = cells(state.cubes[core.cube_index(state, NEUTRAL)])
        moves = {"nskip"} | {f"nA {name(s)}" for s in free}
        if player.neutral_stock >= 2:
            moves |= {f"nB {name(a)} {name(b)}" for a, b in pairs(near(neutral) & free, free)}
        return moves
    moves = {"pass"}
    if player.stock == 0:
        return moves  # the Ruling: an empty stock can only pass, whatever the cards
    own = cells(state.cubes[seat])
    frontier = near(own) & free
    moves |= {f"A {name(s)}" for s in free}
    if player.stock >= 2:
        moves |= {f"B {name(a)} {name(b)}" for a, b in pairs(frontier, free)}
    usable = {CARDS[c].patron for c in player.cards if c not in player.tilted} - {None}
    if core.Patron.VIOLET in usable and player.reserve > 0:
        moves |= {f"violet {name(s)}" for s in free}
        moves |= {f"violet {name(a)} {name(b)}" for a, b in pairs(frontier, free)}
    if core.Patron.LEMON in usable:
        moves |= {f"lemon {name(s)}" for s in free_pyramids}
        if player.stock >= 2:
            spots = free | free_pyramids
            for a, b in pairs(near(own) & spots, spots):
                if (a in free_pyramids) + (b in free_pyramids) == 1:
                    moves.add(f"lemon {name(a)} {name(b)}")
    if core.Patron.BROWN in usable:
        moves |= {f"brown {room}" for room in open_rooms(state.museum, seat)}
    if core.Patron.BLACKMORE in usable and player.stock >= 2:
        moves |= {f"blackmore {name(a)} {name(b)}" for a, b in pairs(free, free)}
    if core.Patron.TANGERINE in usable and player.stock >= 3:
        for a, b in pairs(frontier, free):
            for c in around(b) & free - {a, b}:
                moves.add(f"tangerine {name(a)} {name(b)} {name(c)}")
    return moves


def reference_ranking(state: core.GameState, area: int) -> list[int]:
    """RULES.md §4 phase 3 and §8: holders by cubes in the area, ties to the lower pass."""
    top, left = 3 * (area // 2), 4 * (area % 2)
    spaces = {(r, c) for r in range(top, top + 3) for c in range(left, left + 4)}
    holders = core.cube_holders(state)
    counts = {h: len(cells(m) & spaces) for h, m in zip(holders, state.cubes, strict=True)}
    present = [h for h in holders if counts[h]]
    return sorted(present, key=lambda h: (-counts[h], state.passing.index(h)))


def positions(players: int, seed: int):
    rng = random.Random(seed)
    state = core.new_game(players, seed)
    while not core.is_over(state):
        yield state
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))


def with_every_patron(state: core.GameState, rng: random.Random) -> core.GameState:
    """The deciding player also holds one untilted card of each patron (its own kept)."""
    seat = state.current
    player = state.players[seat]
    extra = tuple(7 * p + rng.randrange(7) for p in range(5))
    player = replace(player, cards=player.cards + extra)
    return replace(state, players=(*state.players[:seat], player, *state.players[seat + 1 :]))


@pytest.mark.parametrize(("players", "seed"), [(2, 101), (3, 102), (4, 103), (2, 104), (3, 105)])
def test_core_agrees_with_the_naive_reading_of_the_rules(players, seed):
    rng = random.Random(seed)
    checked = 0
    for state in positions(players, seed):
        if state.phase is core.Phase.SURVEY:
            area = state.survey_area
            assert core.rules.ranking(state, area) == reference_ranking(state, area)
            continue
        variants = [state]
        if not state.neutral_pending:
            variants.append(with_every_patron(state, rng))
        for variant in variants:
            got = {core.format_action(a) for a in core.legal_actions(variant)}
            want = reference_moves(variant)
            assert got == want, (
                f"{picture(variant)}\nonly core: {sorted(got - want)[:8]}"
                f"\nonly the reference: {sorted(want - got)[:8]}"
            )
            checked += 1
    assert checked > 100
