"""Issue 18 #11: after each cube of a placement the cursor goes on to a space that can take
the next one, so an action key then Enter once per cube plays it: the second Enter of an
extension answered "✗ each cube needs its own space" with the cursor still on the first."""

from __future__ import annotations

from typing import cast

import pytest

import core
from core.region import WIDTH, rows_in
from tests.tui.conftest import HOT_SEAT_3, app_for, play_until, session_for, session_of
from tests.tui.driver import KeyPlayer
from tui import placement, prompts
from tui.draft import Draft, Mode
from tui.screens.game import GameScreen
from tui.widgets.actionbar import ActionBar
from tui.widgets.region import RegionPicture, RegionView


def _distance(a: int, b: int) -> int:
    return abs(a // WIDTH - b // WIDTH) + abs(a % WIDTH - b % WIDTH)


@pytest.mark.parametrize(
    ("kind", "action_type", "seed"),
    [
        (placement.EXTEND, core.Extend, 1),
        (placement.BLACKMORE, core.Blackmore, 2),
        (placement.TANGERINE, core.Tangerine, 3),
    ],
)
async def test_a_key_then_one_enter_per_cube_plays_the_placement(
    store, kind: placement.Kind, action_type: type, seed: int
) -> None:
    """No cursor key needed: every Enter lands a cube on a space that can take it."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(
        session,
        lambda s, legal: (
            any(type(a) is action_type for a in legal)
            and len(placement.kinds_for_key(legal, kind.key)) == 1
        ),
        seed=seed,
    )
    before = len(session.actions)
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        region = game.query_one(RegionView)
        await pilot.press(kind.key)
        assert game.mode is Mode.PLACE
        for cube in range(kind.cubes):
            spaces = placement.next_spaces(game.state, kind, game.draft.placed)
            assert region.cursor in spaces, f"cube {cube + 1}: the cursor is off the [·] spaces"
            await pilot.press("enter")
        actions = session_of(game).actions
        assert len(actions) > before, game.query_one("#actions", ActionBar).text
        assert type(actions[before]) is action_type


async def test_the_second_cube_of_an_extension_starts_next_to_the_first(store) -> None:
    """The cursor goes to the nearest space that can take the next cube (ties to the first
    in reading order), here a neighbour of the cube just placed."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(session, lambda s, legal: any(isinstance(a, core.Extend) for a in legal))
    first = min(a.first for a in core.legal_actions(session.state) if isinstance(a, core.Extend))
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        region = game.query_one(RegionView)
        await pilot.press("b")
        await KeyPlayer(app, pilot).move_to(first)
        await pilot.press("enter")
        assert game.draft.placed == (first,)
        spaces = placement.next_spaces(game.state, placement.EXTEND, (first,))
        nearest = min(spaces, key=lambda s: (_distance(s, first), s))
        assert region.cursor == nearest
        assert _distance(region.cursor, first) == 1
        assert "✗" not in game.query_one("#actions", ActionBar).text


async def test_a_refused_space_keeps_the_cursor_where_the_player_put_it(store) -> None:
    """Only a cube placed moves the cursor: after a refusal the player still sees the space
    they tried."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(session, lambda s, legal: any(isinstance(a, core.Excavate) for a in legal))
    state = session.state
    pyramid = core.region.spaces_of(state.pyramids)[0]
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        await pilot.press("a")
        await KeyPlayer(app, pilot).move_to(pyramid)
        await pilot.press("enter")
        assert "✗" in game.query_one("#actions", ActionBar).text
        assert game.query_one(RegionView).cursor == pyramid


def test_the_region_moves_its_cursor_only_when_a_cube_is_added() -> None:
    state = core.new_game(3, seed=7)
    region = RegionView(RegionPicture(state, frozenset({5, 20}), (), placing=True))
    region.cursor = 3
    region.picture = RegionPicture(state, frozenset({5, 20}), (), placing=True)
    assert region.cursor == 3  # no cube placed: the player's cursor stays
    region.picture = RegionPicture(state, frozenset({5, 20}), (3,), placing=True)
    assert region.cursor == 5  # two keys away, 20 is seventeen
    region.cursor = 6
    region.picture = RegionPicture(state, frozenset({5, 20}), (3,), placing=True)
    assert region.cursor == 6  # a refusal redraws with no new cube
    region.picture = RegionPicture(state, frozenset({3, 5}), (), placing=True)
    assert region.cursor == 3  # Esc took the cube back: the cursor is on its space again


def test_one_space_is_counted_in_the_singular() -> None:
    """ "1 spaces [·] can take it" read wrong."""
    state = core.new_game(3, seed=7)
    legal = core.legal_actions(state)
    draft = Draft("place", kind=placement.EXCAVATE)
    players = [_Player()] * 3
    words = prompts.decision(state, legal, Mode.PLACE, draft, players)[1].plain  # type: ignore[arg-type]
    count = len(placement.next_spaces(state, placement.EXCAVATE, ()))
    assert f"{count} spaces [·] can take it" in words
    one = _only_one_space(state)
    words = prompts.decision(one, core.legal_actions(one), Mode.PLACE, draft, players)[1].plain  # type: ignore[arg-type]
    assert "1 space [·] can take it" in words and "1 spaces" not in words


class _Player:
    computer = False
    away = None


def _only_one_space(state: core.GameState) -> core.GameState:
    """``state`` with a pyramid on every empty space but one (a start has one place)."""
    from msgspec.structs import replace

    taken = state.pyramids
    for mask in state.cubes:
        taken |= mask
    free = [s for s in range(WIDTH * rows_in(len(state.region))) if not taken >> s & 1]
    everything = (1 << (WIDTH * rows_in(len(state.region)))) - 1
    state = replace(state, pyramids=everything & ~(1 << free[0]))
    assert placement.next_spaces(state, placement.EXCAVATE, ()) == frozenset({free[0]})
    return state
