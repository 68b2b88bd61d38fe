"""The coached first game (issue 28): which situation a position is for the player here
(pure, on positions the bots reach), and on the game screen a note docked above the action
bar at each situation's first occurrence, once each, that F2 turns off and that never
stops play."""

from __future__ import annotations

from typing import cast

import pytest

import core
from core.ai import make_bot
from tests.tui.conftest import app_for, settle
from tests.tui.driver import KeyPlayer
from tui import coach, coached_game, decisions
from tui.coach import Coach, Situation, situations
from tui.draft import Mode
from tui.screens.game import GameScreen
from tui.screens.summary import FinalScreen, SeasonSummaryScreen
from tui.widgets.coach_note import CoachNote

ME = 0
"""The seat of the player at this terminal in the pure tests."""


def _positions(players: int = 2, seed: int = 5):
    """Every position of a game two easy bots play, in order."""
    bots = [make_bot("easy", seed + i) for i in range(players)]
    names, colours = ["You", "Easy", "Cleo"][:players], list(core.Colour)[:players]
    state = core.new_game(players, seed, names=names, colours=colours)
    while not core.is_over(state):
        yield state
        state = core.apply_action(state, bots[state.current].choose(state))
    yield state


def _first(situation: Situation, **options: bool) -> core.GameState:
    for state in _positions():
        if situation in situations(state, ME, core.legal_actions(state), **options):
            return state
    raise AssertionError(f"{situation} never came")


class TestSituations:
    def test_the_first_decision_is_a_placement(self) -> None:
        state = next(s for s in _positions() if s.current == ME)
        assert situations(state, ME, core.legal_actions(state)) == [Situation.PLACEMENT]

    def test_nothing_while_another_player_decides_or_nobody_here(self) -> None:
        state = next(s for s in _positions() if s.current != ME)
        assert situations(state, ME, core.legal_actions(state)) == []
        assert situations(state, None, core.legal_actions(state)) == []

    def test_each_situation_comes_in_a_bots_game(self) -> None:
        seen: dict[Situation, core.GameState] = {}
        for state in _positions():
            for found in situations(state, ME, core.legal_actions(state)):
                seen.setdefault(found, state)
        expected = set(Situation) - {Situation.MUSEUM}  # the room cursor: not a position
        assert set(seen) == expected
        assert seen[Situation.NEUTRAL].neutral_pending
        assert seen[Situation.SURVEY].phase is core.Phase.SURVEY
        assert seen[Situation.SEASON_END].season == 2
        assert seen[Situation.FINAL].season == 4
        passing = seen[Situation.PASS]
        assert passing.players[ME].stock < 2 or any(s == 1 for s in passing.passing)
        patron = seen[Situation.PATRON]
        keys = decisions.usable_keys(core.legal_actions(patron))
        assert any(key in decisions.PATRON_KEYS for key in keys)
        assert patron.season >= 2  # a card taken is usable from the next season on

    def test_choosing_a_room_is_the_museum(self) -> None:
        state = _first(Situation.SURVEY)
        found = situations(state, ME, core.legal_actions(state), room=True)
        assert found[:2] == [Situation.MUSEUM, Situation.SURVEY]

    def test_the_patron_note_names_the_usable_powers(self) -> None:
        state = _first(Situation.PATRON)
        legal = core.legal_actions(state)
        words = coach.note(Situation.PATRON, state, legal)
        for key, patron in decisions.PATRON_KEYS.items():
            usable = key in decisions.usable_keys(legal)
            assert (coach.PATRON_POWERS[patron] in words) == usable

    def test_every_note_ends_with_the_off_key(self) -> None:
        state = _first(Situation.FINAL)
        for situation in Situation:
            words = coach.note(situation, state, core.legal_actions(state))
            assert words.splitlines()[-1] == "F2: coaching off"
            assert words.startswith("Coach: ")

    def test_a_note_once_and_only_at_its_decision(self) -> None:
        chosen = Coach()
        first = next(s for s in _positions() if s.current == ME)
        legal = core.legal_actions(first)
        assert "a starts an excavation" in (chosen.words(first, ME, legal) or "")
        assert chosen.words(first, ME, legal) is not None  # still this decision
        again = [Situation.PLACEMENT]  # a later decision that is only a placement again
        later = next(
            s
            for s in _positions()
            if s != first and situations(s, ME, core.legal_actions(s)) == again
        )
        assert chosen.words(later, ME, core.legal_actions(later)) is None  # shown once
        assert chosen.shown == {Situation.PLACEMENT}

    def test_off_means_no_note(self) -> None:
        chosen = Coach()
        chosen.turn_off()
        state = next(s for s in _positions() if s.current == ME)
        assert chosen.words(state, ME, core.legal_actions(state)) is None
        assert chosen.shown == set()


def test_in_the_last_season_the_final_scoring_comes_first() -> None:
    """A player may make one decision only in season 4: its note is the final scoring's,
    before a patron's power or the season's end."""
    for state in _positions():
        if state.current == ME and state.season == 4:
            found = situations(state, ME, core.legal_actions(state))
            assert found[: found.index(Situation.FINAL)] in ([], [Situation.PLACEMENT])
            return
    pytest.fail("no season-4 decision in the game")


def test_a_note_stays_for_its_decision_and_the_next_new_one_waits() -> None:
    """Where two situations are new at one decision (season 2's first: a patron's power
    and the season's end), the first note stays however often the screen asks (a key
    pressed, a cube being placed); the second comes at the next decision."""
    coach_ = Coach()
    states = [s for s in _positions() if s.current == ME]
    both = next(s for s in states if {Situation.PATRON, Situation.SEASON_END}
                <= set(situations(s, ME, core.legal_actions(s))))  # fmt: skip
    for state in states[: states.index(both)]:
        coach_.words(state, ME, core.legal_actions(state))
    legal = core.legal_actions(both)
    first = coach_.words(both, ME, legal)
    assert first is not None and first.startswith("Coach: each card's power")
    for _ in range(3):
        assert coach_.words(both, ME, legal) == first
    after = states[states.index(both) + 1]
    later = coach_.words(after, ME, core.legal_actions(after))
    assert later is not None and later.startswith("Coach: season 1 is scored")


def test_a_coach_goes_on_from_its_record_and_says_each_change() -> None:
    kept: list[tuple[str, ...]] = []
    state = next(s for s in _positions() if s.current == ME)
    legal = core.legal_actions(state)
    first = Coach((), kept.append)
    assert first.words(state, ME, legal) is not None
    assert kept == [("placement",)]
    again = Coach(kept[-1], kept.append)  # the same game, reopened
    assert again.shown == {Situation.PLACEMENT} and again.words(state, ME, legal) is None
    again.turn_off()
    assert kept[-1] == ("placement", coach.OFF)
    assert not Coach(kept[-1]).on
    assert Coach(("placement", "a situation of a later version")).shown == {Situation.PLACEMENT}


# ---------------------------------------------------------------- on the game screen


def _game(app) -> GameScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, GameScreen))


def _note(app) -> str | None:
    note = _game(app).query_one(CoachNote)
    return note.words if note.display else None


async def _start(app, pilot) -> GameScreen:
    await settle(pilot, lambda: app.screen is not None)
    coached_game.start_coached_game(app)
    await settle(pilot, lambda: isinstance(app.screen, GameScreen))
    game = cast(GameScreen, app.screen)
    await settle(pilot, lambda: bool(game.query(CoachNote)) and game.mode is not Mode.WAIT)
    return game


async def _my_turn(app, pilot) -> bool:
    """Wait for the player here to decide (closing season summaries); False at the end."""

    def ready() -> bool:
        if isinstance(app.screen, SeasonSummaryScreen | FinalScreen):
            return True
        return _game(app).mode is not Mode.WAIT

    while True:
        await settle(pilot, ready)
        if isinstance(app.screen, FinalScreen):
            return False
        if isinstance(app.screen, SeasonSummaryScreen):
            await pilot.press("enter")
            await settle(pilot, lambda: not isinstance(app.screen, SeasonSummaryScreen))
            continue
        return _game(app).mode is not Mode.OVER


async def test_a_coached_game_notes_each_situation_once(store) -> None:
    """From the first placement to the final season, each note comes once, at its
    decision; the keys keep working under it (a, Esc, a survey's room cursor)."""
    app = app_for(store, seed=11, offer_resume=False)
    bot = make_bot("easy", 3)
    notes: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        game = await _start(app, pilot)
        assert game.coach is not None
        assert "a starts an excavation" in (_note(app) or "")
        await pilot.press("a")  # the note stays while the cube is placed
        assert game.mode is Mode.PLACE and _note(app) is not None
        await pilot.press("escape")
        booked = False
        while await _my_turn(app, pilot):
            words = _note(app)
            if words is not None and (not notes or notes[-1] != words):
                notes.append(words)
            state, legal = game.state, game.legal
            if not booked and "book a room" in str(decisions.survey_options(state, legal)):
                options = decisions.survey_options(state, legal)
                number = next(i for i, o in enumerate(options, 1) if o.action is None)
                await pilot.press(str(number))
                assert game.mode is Mode.ROOM
                museum = _note(app) or ""
                assert "3-room opening onto a 5-room" in museum
                notes.append(museum)
                await pilot.press("escape")
                booked = True
            game.decide(bot.choose(state))
            await pilot.pause()
        heads = [words.split(".")[0] for words in notes]
        assert len(heads) == len(set(heads)), heads  # each note once
        assert game.coach.shown >= {Situation.PLACEMENT, Situation.SURVEY, Situation.MUSEUM,
                                    Situation.SEASON_END, Situation.FINAL, Situation.PASS,
                                    Situation.NEUTRAL}  # fmt: skip
        assert len(notes) == len(game.coach.shown)
        assert all(words.endswith("F2: coaching off") for words in notes)


async def test_f2_turns_coaching_off_and_play_goes_on(store) -> None:
    app = app_for(store, seed=11, offer_resume=False)
    bot = make_bot("easy", 3)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await _start(app, pilot)
        assert _note(app) is not None
        await pilot.press("f2")
        await settle(pilot, lambda: _note(app) is None)
        assert game.coach is not None and not game.coach.on
        while await _my_turn(app, pilot) and game.state.season < 3:
            assert _note(app) is None
            game.decide(bot.choose(game.state))
            await pilot.pause()
        assert game.state.season >= 2  # a season's end passed without a note
        assert game.coach.shown == {Situation.PLACEMENT}


async def test_a_coached_game_reopened_is_coached_without_repeating_a_note(
    store, monkeypatch
) -> None:
    """Left and opened again (days later, by ``mykerinos --resume``, which knows no
    ``learn --player`` name): still coached, the notes it has shown not shown again; once
    turned off, off for good."""
    app = app_for(store, seed=11, offer_resume=False)
    monkeypatch.setattr(app, "learner", lambda: "Ola")  # mykerinos learn --player Ola
    async with app.run_test(size=(80, 24)) as pilot:
        game = await _start(app, pilot)
        assert "a starts an excavation" in (_note(app) or "")
        assert app.session is not None
        name = app.session.name
    app = app_for(store, resume=name)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        game = cast(GameScreen, app.screen)
        assert game.coach is not None and game.coach.on
        assert game.coach.shown == {Situation.PLACEMENT}
        await settle(pilot, lambda: game.mode is not Mode.WAIT)
        assert _note(app) is None  # the placement's note was read the first time
        await pilot.press("f2")
        await settle(pilot, lambda: not game.coach.on)
    app = app_for(store, resume=name)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        game = cast(GameScreen, app.screen)
        assert game.coach is not None and not game.coach.on
        assert not game.query(CoachNote) or _note(app) is None


async def test_a_door_s_coached_game_is_a_table_against_the_easy_computer(store, server) -> None:
    """Through a door (a session playing at the table server only), the coached game is
    a new table of the player and an easy computer at the server, coached; reopened from
    the lobby, it is coached again."""
    from tests.tui.test_door_mode import door_app, in_the_lobby
    from tui.screens.lobby import LobbyScreen

    app = door_app(store, server.address("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await in_the_lobby(app, pilot)
        coached_game.start_coached_game(app)
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        game = cast(GameScreen, app.screen)
        assert game.coach is not None and game.seat.table is not None
        info = game.seat.table.info
        assert info.title == coached_game.COACHED_TABLE
        assert [(s.name, s.computer) for s in info.seats] == [("ann", None), ("Easy", "easy")]
        await settle(pilot, lambda: _note(app) is not None and game.mode is not Mode.WAIT)
        assert "a starts an excavation" in (_note(app) or "")
        app.open_lobby(come_back=False)
        lobby = await in_the_lobby(app, pilot)
        await settle(pilot, lambda: any(table.id == info.id for table in lobby.tables))
        await settle(pilot, lambda: lobby.selected is not None)
        assert lobby.selected is not None and lobby.selected.id == info.id  # first: its turn
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        again = cast(GameScreen, app.screen)
        assert again is not game and again.coach is not None
        assert Situation.PLACEMENT in again.coach.shown  # remembered: not shown again
        assert "a starts an excavation" not in (_note(app) or "")
        assert not isinstance(app.screen, LobbyScreen)


async def test_a_game_not_coached_has_no_note(store) -> None:
    from tests.tui.conftest import HOT_SEAT_2, session_for

    session_for(store, HOT_SEAT_2, name="plain")
    app = app_for(store, resume="plain")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, GameScreen))
        game = cast(GameScreen, app.screen)
        assert game.coach is None and not game.query(CoachNote)
        assert game.check_action("coaching_off", ()) is False
        await pilot.press("f2")  # nothing, and no crash
        assert KeyPlayer(app, pilot).game is game


@pytest.mark.parametrize("no_color", [False, True], ids=["colour", "NO_COLOR"])
def test_snapshot_first_note(snap_compare, store, monkeypatch, no_color) -> None:
    """Reviewed by eye: the note above the action bar, the board whole above it."""
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")

    async def coached(pilot) -> None:
        app = pilot.app
        await _start(app, pilot)
        await settle(pilot, lambda: _note(app) is not None)

    app = app_for(store, seed=11, offer_resume=False)
    assert snap_compare(app, terminal_size=(80, 24), run_before=coached)


def test_the_off_key_is_free_and_the_notes_keys_are_the_games() -> None:
    """F2 is bound once on the game screen (nothing else, nor the app, takes it), and
    every action key a note names is one the game screen binds."""
    from textual.binding import Binding

    from tui import draft
    from tui.app import MykerinosApp
    from tui.screens.game_menus import GameMenus

    def keys(bindings) -> list[str]:
        found = [b for b in bindings if isinstance(b, Binding)]
        return [key.strip() for b in found for key in b.key.split(",")]

    screen = keys(GameScreen.BINDINGS) + keys(GameMenus.BINDINGS) + keys(MykerinosApp.BINDINGS)
    assert screen.count(coach.OFF_KEY) == 1
    for key in decisions.PATRON_KEYS:
        assert key in draft.KEY_NAMES
    state = _first(Situation.FINAL)
    named = {"a", "b", "p", "n", "m", "x"}
    assert named <= set(draft.KEY_NAMES)
    words = " ".join(coach.note(s, state, ()) for s in Situation)
    for key in named:
        assert f" {key} " in words, key
