"""Snapshots of the key screens at 80×24 (the SSH default) and 120×40, each reviewed by eye
before being accepted. Positions come from fixed seeds; hot-seat only (no threads)."""

from __future__ import annotations

import pytest

import core
from tests.tui.conftest import HOT_SEAT_3, app_for, play_until, session_for
from tui import decisions

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def _mid_season(store):
    """Season 2, a few cubes on the region, cards owned: a typical game screen."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="snap")
    play_until(
        session,
        lambda s, legal: (
            s.season == 2
            and s.phase is core.Phase.EXCAVATION
            and sum(bin(m).count("1") for m in s.cubes) >= 9
        ),
        seed=4,
    )
    return session


def _last_choice_of_season(season: int):
    """A predicate for play_until: the last decision of ``season``, a survey choice whose
    option 1 takes a parcel (so pressing 1 ends the season)."""

    def wanted(state: core.GameState, legal: tuple[core.Action, ...]) -> bool:
        if state.season != season or state.phase is not core.Phase.SURVEY:
            return False
        first = decisions.survey_options(state, legal)[0].action
        ends = all(core.apply_action(state, a).season == season + 1 for a in legal)
        return ends and isinstance(first, core.TakeParcel)

    return wanted


@pytest.mark.parametrize("size", SIZES)
class TestScreens:
    def test_new_game(self, snap_compare, store, size) -> None:
        """The new-game form with its defaults (three seats, two computers)."""
        assert snap_compare(app_for(store, seed=42), terminal_size=size)

    def test_game_mid_season(self, snap_compare, store, size) -> None:
        """The whole table in season 2 while Extend is being built: highlighted spaces."""
        _mid_season(store)
        assert snap_compare(app_for(store, resume="snap"), terminal_size=size, press=["b"])

    def test_survey_decision(self, snap_compare, store, size) -> None:
        """A survey choice with its numbered options and the surveyed area shaded."""
        session = session_for(store, HOT_SEAT_3, seed=7, name="snap")
        play_until(session, lambda s, legal: any(isinstance(a, core.BookRoom) for a in legal))
        assert snap_compare(app_for(store, resume="snap"), terminal_size=size)

    def test_season_summary(self, snap_compare, store, size) -> None:
        """The end of season 3: what each player got, and the points after each season."""
        session = session_for(store, HOT_SEAT_3, seed=7, name="snap")
        play_until(session, _last_choice_of_season(3), seed=5)
        assert snap_compare(app_for(store, resume="snap"), terminal_size=size, press=["1"])

    def test_final_scores(self, snap_compare, store, size) -> None:
        """The winner, where the points came from and the points after each season as
        bars, then parcels, exhibition per patron with its room, series, total."""
        session = session_for(store, HOT_SEAT_3, seed=7, name="snap")
        play_until(session, lambda s, legal: core.is_over(s), seed=5)
        assert snap_compare(app_for(store, resume="snap"), terminal_size=size, press=["f"])

    def test_help(self, snap_compare, store, size) -> None:
        """Help over the game: keys, board legend, rules in short."""
        _mid_season(store)
        assert snap_compare(app_for(store, resume="snap"), terminal_size=size, press=["?"])


def test_too_small(snap_compare, store) -> None:
    """Under 80×24 a clear message replaces the layout."""
    _mid_season(store)
    assert snap_compare(app_for(store, resume="snap"), terminal_size=(70, 20))
