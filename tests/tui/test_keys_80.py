"""Issue 18 #2: at 80×24 every key that applies now is reachable from the screen.

The keys bar lists every shown, enabled binding, on a second line when one is not
enough; only the action keys (a, b, p…, 1-9) may be left out of it, because the action
bar lists them with their letters, and keeps listing them under a hint or a refusal."""

from __future__ import annotations

from typing import ClassVar, cast

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType

import core
from tests.tui.conftest import HOT_SEAT_3, app_for, session_for, settle
from tests.tui.test_tables import new_table
from tui.screens.game import LISTED_KEYS, GameScreen
from tui.widgets.actionbar import ActionBar
from tui.widgets.keys import KeysBar


def unreachable(screen: GameScreen) -> list[str]:
    """The keys that apply now (shown and enabled bindings) found neither in the keys bar
    nor, for the action keys, with their letters in the action bar."""
    keys = screen.query_one(KeysBar).render().plain
    actions = screen.query_one(ActionBar).text
    missing = []
    for active in screen.active_bindings.values():
        binding = active.binding
        if not binding.show or not active.enabled:
            continue
        kind, _, parameters = binding.action.partition("(")
        if kind in LISTED_KEYS:
            letter = parameters.strip("')")
            if f"{letter} " not in actions:
                missing.append(binding.key)
        elif binding.description not in keys:
            missing.append(binding.key)
    return missing


async def test_a_local_game_at_80_columns_reaches_every_key_even_after_a_hint(store) -> None:
    """With Undo offered the bar left out a, b and p, and / then hid them everywhere."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="keys")
    session.apply(core.legal_actions(session.state)[0])  # Ann played: Undo is offered
    app = app_for(store, resume="keys")
    async with app.run_test(size=(80, 24)) as pilot:
        game = cast(GameScreen, app.screen)
        await pilot.pause()
        assert "Undo" in game.query_one(KeysBar).render().plain
        assert unreachable(game) == []
        await pilot.press("slash")
        await settle(pilot, lambda: "thinking" not in game.query_one(ActionBar).text)
        assert "Hint: " in game.query_one(ActionBar).text
        assert unreachable(game) == []
        await pilot.press("t")  # refused (no Tangerine card): the options stay listed
        await pilot.pause()
        assert "✗" in game.query_one(ActionBar).text
        assert unreachable(game) == []


async def test_a_shared_table_at_80_columns_shows_its_own_keys_on_a_second_line(
    store, server
) -> None:
    """H, c and P showed only at 120 columns: at 80 the bar takes a second line."""
    app = app_for(store, server=server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        live = "live: 2 min away, then a computer"
        await new_table(app, pilot, ["you", "player"], names={1: "ben"}, pace=live)
        game = cast(GameScreen, app.screen)
        bar = game.query_one(KeysBar)
        await settle(pilot, lambda: "Pause" in bar.render().plain)  # whoever decides now
        keys = bar.render().plain
        assert all(word in keys for word in ("Hand to computer", "Chat", "Pause", "Quit"))
        assert bar.size.height == 2 and all(len(line) <= 80 for line in keys.split("\n"))
        assert unreachable(game) == []


class ManyKeys(App[None]):
    """A screen whose keys need about two lines of 80 columns."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(key, f"noop('{key}')", f"Action {key}") for key in "abcdefghijkl"
    ]

    def compose(self) -> ComposeResult:
        yield KeysBar()

    def action_noop(self, key: str) -> None:
        pass


async def test_the_keys_bar_takes_one_line_when_it_can_and_two_when_it_must() -> None:
    for width, lines in ((200, 1), (80, 2)):
        app = ManyKeys()
        async with app.run_test(size=(width, 10)) as pilot:
            await pilot.pause()
            bar = app.query_one(KeysBar)
            text = bar.render().plain
            assert bar.size.height == lines == len(text.split("\n")), text
            assert all(f"Action {key}" in text for key in "abcdefghijkl"), text
            assert "…" not in text
