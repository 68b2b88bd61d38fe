"""The half-built action (`tui.draft`) on its own, without Textual: each step from each
mode, what it builds, what it refuses and why, and which keys apply."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import cast

import pytest

import core
from table.seat import GameSeat
from tui import decisions, placement
from tui import draft as d
from tui.draft import IDLE, Draft, Mode, Refusal


def reach(players: int, seed: int, wanted, limit: int = 2000) -> core.GameState:
    """A position of a random game (actions picked in notation order, so the position does
    not depend on core's listing order) where ``wanted(state, legal)`` holds."""
    rng = random.Random(seed)
    state = core.new_game(players, seed=seed)
    for _ in range(limit):
        legal = core.legal_actions(state)
        if wanted(state, legal):
            return state
        state = core.apply_action(state, rng.choice(sorted(legal, key=core.format_action)))
    raise AssertionError("position not reached")


def has(kind):
    return lambda state, legal: any(isinstance(a, kind) for a in legal)


class FakeSeat:
    """Just what `draft.allows` asks of a seat (a game of this machine, at no table)."""

    table = None
    elsewhere = None

    def __init__(self, state: core.GameState, undo: bool = False, redo: bool = False) -> None:
        self.state = state
        self._legal = core.legal_actions(state)
        self._undo, self._redo = undo, redo

    def legal_actions(self) -> tuple[core.Action, ...]:
        return self._legal

    def can_undo(self) -> bool:
        return self._undo

    def can_redo(self) -> bool:
        return self._redo


def test_importing_the_draft_loads_no_textual() -> None:
    probe = "import sys, tui.draft; print(any(m.startswith('textual') for m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


class TestModes:
    def test_excavation_survey_wait_and_over(self) -> None:
        start = core.new_game(3, seed=1)
        assert d.mode(start, IDLE, decides_here=True) is Mode.CHOOSE
        assert d.mode(start, IDLE, decides_here=False) is Mode.WAIT
        survey = reach(3, 2, lambda s, _: s.phase is core.Phase.SURVEY)
        assert d.mode(survey, IDLE, decides_here=True) is Mode.SURVEY
        over = reach(3, 3, lambda s, _: core.is_over(s), limit=5000)
        assert d.mode(over, IDLE, decides_here=True) is Mode.OVER

    def test_the_draft_step_decides_while_the_player_decides(self) -> None:
        start = core.new_game(3, seed=1)
        assert d.mode(start, Draft("place", kind=placement.EXCAVATE), True) is Mode.PLACE
        assert d.mode(start, Draft("room", room_action=core.Brown), True) is Mode.ROOM
        assert d.mode(start, Draft("variant", key="v"), True) is Mode.VARIANT
        assert d.mode(start, Draft("variant", key="v"), False) is Mode.WAIT


class TestPlacing:
    def test_a_start_is_one_cube_on_a_legal_space(self) -> None:
        state = core.new_game(3, seed=1)
        legal = core.legal_actions(state)
        draft = d.press(IDLE, "a", state, legal)
        assert draft == Draft("place", kind=placement.EXCAVATE)
        pyramid = min(core.region.spaces_of(state.pyramids))
        refusal = d.choose_space(draft, pyramid, state, legal)
        assert isinstance(refusal, Refusal) and "pyramid" in refusal.reason
        free = min(d.next_spaces(draft, state))
        assert d.choose_space(draft, free, state, legal) == core.Excavate(free)

    def test_an_extension_builds_cube_by_cube_and_esc_takes_back(self) -> None:
        state = reach(3, 4, has(core.Extend))
        legal = core.legal_actions(state)
        extend = next(a for a in legal if isinstance(a, core.Extend))
        draft = d.press(IDLE, "b", state, legal)
        assert isinstance(draft, Draft) and draft.kind == placement.EXTEND
        half = d.choose_space(draft, extend.first, state, legal)
        assert isinstance(half, Draft) and half.placed == (extend.first,)
        assert extend.second in d.next_spaces(half, state)
        assert d.choose_space(half, extend.second, state, legal) == extend
        assert d.back(half) == draft  # Esc takes back the cube…
        assert d.back(draft) == IDLE  # …then leaves the action

    def test_a_second_cube_away_from_the_first_is_refused_and_the_draft_kept(self) -> None:
        state = reach(3, 4, has(core.Extend))
        legal = core.legal_actions(state)
        extend = next(a for a in legal if isinstance(a, core.Extend))
        draft = d.press(IDLE, "b", state, legal)
        assert isinstance(draft, Draft)
        half = d.choose_space(draft, extend.first, state, legal)
        assert isinstance(half, Draft)
        far = next(
            s for s in range(48) if s not in d.next_spaces(half, state) and s != extend.first
        )
        outcome = d.choose_space(half, far, state, legal)
        assert isinstance(outcome, Refusal) and outcome.reason

    def test_a_patron_with_both_actions_asks_a_or_b(self) -> None:
        def both(state, legal) -> bool:
            violets = [a for a in legal if isinstance(a, core.Violet)]
            return {len(a.spaces) for a in violets} == {1, 2}

        state = reach(3, 5, both, limit=5000)
        legal = core.legal_actions(state)
        variant = d.press(IDLE, "v", state, legal)
        assert variant == Draft("variant", key="v")
        assert d.press(variant, "b", state, legal) == Draft("place", kind=placement.VIOLET_B)
        assert d.press(variant, "a", state, legal) == Draft("place", kind=placement.VIOLET_A)


class TestWholeActionsAndRefusals:
    def test_pass_is_played_at_once(self) -> None:
        state = core.new_game(3, seed=1)
        assert d.press(IDLE, "p", state, core.legal_actions(state)) == core.Pass()

    def test_a_key_with_nothing_legal_behind_it_says_why(self) -> None:
        state = core.new_game(3, seed=1)  # season 1: nobody owns a card yet
        outcome = d.press(IDLE, "t", state, core.legal_actions(state))
        assert isinstance(outcome, Refusal) and "Tangerine" in outcome.reason

    def test_neutral_cubes_or_none_after_a_start_with_two_players(self) -> None:
        state = reach(2, 6, lambda s, _: s.neutral_pending)
        legal = core.legal_actions(state)
        assert d.press(IDLE, "x", state, legal) == core.NeutralSkip()
        assert d.press(IDLE, "n", state, legal) == Draft("place", kind=placement.NEUTRAL_A)

    def test_a_survey_option_takes_a_parcel_or_opens_the_museum(self) -> None:
        state = reach(3, 7, has(core.BookRoom))
        legal = core.legal_actions(state)
        options = decisions.survey_options(state, legal)
        first = d.pick_option(IDLE, 1, state, legal)
        assert first == options[0].action and isinstance(first, core.TakeParcel)
        booking = d.pick_option(IDLE, len(options), state, legal)
        assert booking == Draft("room", room_action=core.BookRoom)
        room = min(d.open_rooms(booking, legal))
        assert d.choose_room(booking, room) == core.BookRoom(room)
        assert isinstance(d.pick_option(IDLE, len(options) + 1, state, legal), Refusal)


class TestKeysThatApply:
    @pytest.mark.parametrize(
        ("action", "parameter", "mode", "expected"),
        [
            ("press", "a", Mode.CHOOSE, True),
            ("press", "t", Mode.CHOOSE, False),  # no card yet
            ("press", "a", Mode.WAIT, False),
            ("press", "a", Mode.VARIANT, True),
            ("press", "p", Mode.VARIANT, False),
            ("back", None, Mode.CHOOSE, False),
            ("back", None, Mode.PLACE, True),
            ("hurry", None, Mode.WAIT, True),
            ("hurry", None, Mode.CHOOSE, False),
            ("final", None, Mode.OVER, True),
            ("final", None, Mode.CHOOSE, False),
            ("hint", None, Mode.PLACE, False),
            ("option", 1, Mode.CHOOSE, False),
            ("help", None, Mode.WAIT, True),
        ],
    )
    def test_in_the_first_position(self, action, parameter, mode, expected) -> None:
        seat = FakeSeat(core.new_game(3, seed=1))
        assert d.allows(action, parameter, mode, cast(GameSeat, seat)) is expected

    def test_undo_follows_the_seat_even_while_others_decide(self) -> None:
        """At a shared table your last action is yours to take back while the next
        player thinks; redo never while waiting."""
        seat = FakeSeat(core.new_game(3, seed=1), undo=True, redo=True)
        assert d.allows("undo", None, Mode.CHOOSE, cast(GameSeat, seat))
        assert d.allows("undo", None, Mode.WAIT, cast(GameSeat, seat))
        assert not d.allows("redo", None, Mode.WAIT, cast(GameSeat, seat))
        seat = FakeSeat(core.new_game(3, seed=1), undo=False, redo=False)
        assert not d.allows("undo", None, Mode.CHOOSE, cast(GameSeat, seat))
        assert not d.allows("redo", None, Mode.CHOOSE, cast(GameSeat, seat))

    def test_options_exist_up_to_their_number(self) -> None:
        state = reach(3, 7, has(core.BookRoom))
        seat = FakeSeat(state)
        count = len(decisions.survey_options(state, seat.legal_actions()))
        assert d.allows("option", count, Mode.SURVEY, cast(GameSeat, seat))
        assert not d.allows("option", count + 1, Mode.SURVEY, cast(GameSeat, seat))
