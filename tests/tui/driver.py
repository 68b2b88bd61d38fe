"""Play the game through key presses only, as a player would, for Pilot tests.

`KeyPlayer.play(action)` turns a `core.Action` into the keys a player presses on the game
screen (action key, cursor moves, Enter; digits in the survey) and checks that exactly
that action was applied. Actions are chosen from `core.legal_actions` by the tests.
"""

from __future__ import annotations

import random

from textual import events

import core
from core.region import WIDTH
from tests.tui.conftest import session_of
from tui import decisions, placement
from tui.draft import Mode
from tui.screens.game import GameScreen
from tui.screens.summary import FinalScreen, SeasonSummaryScreen
from tui.widgets.actionbar import ActionBar
from tui.widgets.museum import MuseumView
from tui.widgets.region import RegionView

PATRON_KEY = {core.Violet: "v", core.Lemon: "l", core.Blackmore: "k", core.Tangerine: "t"}


class KeyPlayer:
    """Drives a running app's game screen with a Pilot."""

    def __init__(self, app, pilot) -> None:
        self.app = app
        self.pilot = pilot

    @property
    def game(self) -> GameScreen:
        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        raise AssertionError(f"no game screen in {self.app.screen_stack}")

    @property
    def state(self) -> core.GameState:
        return session_of(self.game).state

    async def dismiss_summaries(self) -> None:
        while isinstance(self.app.screen, SeasonSummaryScreen):
            await self.pilot.press("enter")

    async def play(self, action: core.Action) -> None:
        """Press the keys of ``action`` and check the session applied exactly it."""
        before = len(session_of(self.game).actions)
        await self.press_action(action)
        session = session_of(self.game)
        # Computer seats may already have played after it (no pause in tests).
        assert len(session.actions) > before, (
            f"{core.format_action(action)} was not applied: "
            f"{self.game.query_one('#actions', ActionBar).text}"
        )
        assert session.actions[before] == action

    async def press_action(self, action: core.Action) -> None:
        if isinstance(action, core.Pass):
            await self.pilot.press("p")
        elif isinstance(action, core.NeutralSkip):
            await self.pilot.press("x")
        elif isinstance(action, core.Brown):
            await self.pilot.press("s")
            await self.choose_room(action.room)
        elif isinstance(action, core.TakeParcel | core.NeutralParcel | core.BookRoom):
            await self.survey(action)
        else:
            await self.place(action)

    async def place(self, action: core.Action) -> None:
        spaces = core.placed_spaces(action)
        kind = next(k for k in placement.KINDS if k.kind == core.action_kind(action))
        await self.pilot.press(kind.key)
        if self.game.mode is Mode.VARIANT:
            await self.pilot.press("a" if kind.cubes == 1 else "b")
        for space in spaces:
            await self.move_to(space)
            await self.pilot.press("enter")

    async def move_to(self, space: int) -> None:
        region = self.game.query_one(RegionView)
        row, col = divmod(region.cursor, WIDTH)
        target_row, target_col = divmod(space, WIDTH)
        keys = (["down"] * (target_row - row) + ["up"] * (row - target_row)
                + ["right"] * (target_col - col) + ["left"] * (col - target_col))  # fmt: skip
        await self.cursor_keys(keys)
        assert region.cursor == space

    async def cursor_keys(self, keys: list[str]) -> None:
        """Cursor keys in one burst, as a fast typist's: Pilot.press idles ~40 ms after each
        key, which would make a whole game take minutes. Same key events, same handlers."""
        if not keys:
            return
        for key in keys:
            self.app.post_message(events.Key(key, None))
        await self.pilot.pause()

    async def choose_room(self, room: int) -> None:
        museum = self.game.query_one(MuseumView)
        wing, column = museum.cursor
        target = (room % 5, room // 5)
        keys = ["down"] * ((target[0] - wing) % 5) + (
            ["right"] * (target[1] - column) + ["left"] * (column - target[1])
        )
        await self.cursor_keys(keys)
        assert museum.room == room
        await self.pilot.press("enter")

    async def survey(self, action: core.Action) -> None:
        options = decisions.survey_options(self.state, core.legal_actions(self.state))
        if isinstance(action, core.BookRoom):
            number = next(i for i, o in enumerate(options, 1) if o.action is None)
            await self.pilot.press(str(number))
            await self.choose_room(action.room)
            return
        number = next(i for i, o in enumerate(options, 1) if o.action == action)
        await self.pilot.press(str(number))

    async def play_game(self, choose, limit: int = 2000) -> int:
        """Play until the final scores, each action picked by ``choose(state, legal)``;
        returns the number of actions played."""
        played = 0
        while not core.is_over(self.state):
            await self.dismiss_summaries()
            state = self.state
            await self.play(choose(state, core.legal_actions(state)))
            played += 1
            assert played < limit
        await self.pilot.pause()
        assert isinstance(self.app.screen, FinalScreen)
        return played


def quick_chooser(seed: int, pass_after: int = 3, prefer_neutral: bool = False):
    """A seeded policy for hot-seat test games: varied placements, patrons and survey
    choices, passing after ``pass_after`` actions a season so the game stays short."""
    rng = random.Random(seed)
    turns: dict[tuple[int, int], int] = {}

    def choose(state: core.GameState, legal: tuple[core.Action, ...]) -> core.Action:
        if state.neutral_pending:
            neutral = [a for a in legal if not isinstance(a, core.NeutralSkip)]
            if prefer_neutral and neutral:
                return rng.choice(neutral)
            return rng.choice(legal)
        if state.phase is core.Phase.SURVEY:
            return rng.choice(legal)
        key = (state.season, state.current)
        turns[key] = turns.get(key, 0) + 1
        passes = [a for a in legal if isinstance(a, core.Pass)]
        if passes and turns[key] > pass_after:
            return passes[0]
        others = [a for a in legal if not isinstance(a, core.Pass)] or legal
        return rng.choice(others)

    return choose
