"""Issue 18 #3: the patron legend under the region names every patron letter, at every
width the region takes: one line of short names when the region is wide, two lines when
it is narrow (80 columns, and the replay screen, which draws the same region)."""

from __future__ import annotations

import pytest

import core
from tests.tui.conftest import HOT_SEAT_3, app_for, play_until, session_for
from tui import look
from tui.widgets.region import COMPACT, ROOMY, RegionPicture, RegionView

NAMES = ("Violet", "Lemon", "Brown", "Blackmore", "Tangerine", "no patron")


def legend_of(view: RegionView) -> list[str]:
    """The region's lines under its last row (the legend)."""
    lines = ["".join(segment.text for segment in strip) for strip in view._lines]
    last_row = max(i for i, line in enumerate(lines) if line[:3].strip().isdigit())
    return lines[last_row + 1 :]


@pytest.mark.parametrize(("metrics", "lines"), [(COMPACT, 2), (ROOMY, 1)])
def test_the_legend_names_every_patron_within_the_region_s_width(metrics, lines) -> None:
    legend = look.patron_legend(metrics.width)
    text = " ".join(line.plain for line in legend)
    assert len(legend) == lines and all(name in text for name in NAMES), text
    letters = [look.patron_letter(p) for p in (*core.Patron, None)]
    assert all(f"{letter} " in text for letter in letters)
    assert all(line.cell_len <= metrics.width for line in legend)
    assert "…" not in text


@pytest.mark.parametrize("roomy", [False, True])
def test_the_region_draws_the_whole_legend_in_every_season(store, roomy) -> None:
    session = session_for(store, HOT_SEAT_3, seed=7, name="legend")
    play_until(session, lambda s, legal: s.season == 4)  # the tallest region
    view = RegionView(RegionPicture(session.state), roomy=roomy)
    legend = legend_of(view)
    assert all(name in " ".join(legend) for name in NAMES), legend
    assert all(len(line.rstrip()) <= view.metrics.width for line in legend)


async def test_at_80_columns_the_game_screen_shows_violet_lemon_and_tangerine(store) -> None:
    """At 80 columns only 's Sir Brown  k Mrs. Blackmore  * no patron' showed."""
    session_for(store, HOT_SEAT_3, seed=7, name="legend")
    app = app_for(store, resume="legend")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(RegionView)
        assert view.region.height == len(view._lines)  # nothing of it cut off
        assert all(name in " ".join(legend_of(view)) for name in NAMES)


async def test_the_replay_screen_s_region_names_every_patron(store) -> None:
    """The replay screen draws the narrow region even at 120 columns: it cut the legend."""
    from tui.messages import ReplayRequested

    session = session_for(store, HOT_SEAT_3, seed=7, name="legend")
    play_until(session, lambda s, legal: len(session.actions) >= 5)
    app = app_for(store, resume="legend")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.post_message(ReplayRequested(session.states(), session.actions, "legend"))
        await pilot.pause()
        view = app.screen.query_one(RegionView)
        assert all(name in " ".join(legend_of(view)) for name in NAMES)
