"""A survey choice with an empty reserve (issue 26, item 11): the options are only the
parcels, which is right (RULES.md §5: booking takes a cube from the reserve), and the
action bar now says why booking is not among them."""

from __future__ import annotations

import random

from msgspec.structs import replace

import core
from core.state import SurveyStep
from tests.table.test_remote_seat import FakeTable, start_state
from tests.tui.conftest import app_for, settle
from tests.tui.test_table_seat import action_bar, show, sit
from tui import decisions

EMPTY = "No cube left in your reserve: no Museum room to book."


def ann_without_reserve() -> FakeTable:
    """A table whose ann has no cube left in reserve (all in her stock), played by first
    seeded random actions to ann's first choice of a survey (a book-or-take step) with
    her reserve still empty."""
    start = start_state()
    ann = start.players[0]
    players = (replace(ann, reserve=0, stock=ann.stock + ann.reserve), *start.players[1:])
    table, rng = FakeTable(replace(start, players=players)), random.Random(0)
    while True:
        state = table.state()
        steps = state.survey_steps
        if steps and steps[0] == (SurveyStep.CHOOSE, 0) and state.players[0].reserve == 0:
            return table
        assert not core.is_over(state), "no survey choice for ann"
        table.play(rng.choice(core.legal_actions(state)))


async def test_the_survey_says_why_booking_is_not_offered(store) -> None:
    table = ann_without_reserve()
    state = table.state()
    legal = core.legal_actions(state)
    assert not any(isinstance(a, core.BookRoom) for a in legal)  # the rule
    assert decisions.why_no_booking(state, legal) == EMPTY
    app = app_for(store, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        seat, _ = await sit(table, "ann")
        await show(app, pilot, seat)
        await settle(pilot, lambda: "take P" in action_bar(app))
        bar = action_bar(app)
        assert EMPTY in bar and "book a room" not in bar
        assert "or book" not in bar.splitlines()[0]  # the prompt does not offer it either


def test_a_reserve_with_cubes_offers_booking_and_says_nothing() -> None:
    table, rng = FakeTable(start_state()), random.Random(0)
    while not (
        table.state().survey_steps and table.state().survey_steps[0][0] is SurveyStep.CHOOSE
    ):
        table.play(rng.choice(core.legal_actions(table.state())))
    state = table.state()
    legal = core.legal_actions(state)
    assert any(isinstance(a, core.BookRoom) for a in legal)
    assert decisions.why_no_booking(state, legal) is None
    assert any(o.action is None for o in decisions.survey_options(state, legal))
