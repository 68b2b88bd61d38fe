"""Issue 18 #12: the log keeps the newest lines in view unless the player scrolled back,
pages without skipping a line, and sums a survey up in one look. After a survey it stayed
at "since your last decision" with "▼ 33 more lines follow", five lines a page."""

from __future__ import annotations

import itertools
import random
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult

import core
import saves
from tests.tui.conftest import app_for, play_until, session_for
from tui import look
from tui.widgets.log import LogView, survey_summary

ANN_AND_TWO = [
    saves.SeatConfig("Ann", core.Colour.BLUE, "human"),
    saves.SeatConfig("Ben", core.Colour.RED, "human"),
    saves.SeatConfig("Cleo", core.Colour.GREEN, "human"),
]


def _after_a_survey(store) -> saves.Session:
    """Season 3's first decision, just after season 2's survey."""
    session = session_for(store, ANN_AND_TWO, seed=7, name="pos")
    play_until(session, lambda s, legal: s.season == 3, seed=4)
    return session


def _survey_span(session: saves.Session) -> tuple[core.GameState, core.GameState]:
    """The position before season 2's survey began and the first one after it."""
    states = session.states()
    last_dig = max(
        i for i, s in enumerate(states) if s.season == 2 and s.phase is core.Phase.EXCAVATION
    )
    first_next = next(i for i, s in enumerate(states) if s.season == 3)
    return states[last_dig], states[first_next]


async def test_after_a_survey_the_newest_lines_and_its_summary_are_in_view(store) -> None:
    session = _after_a_survey(store)
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.screen.query_one(LogView)
        rows = log.render().plain.split("\n")
        assert len(rows) <= log.size.height
        assert not any("more lines follow" in row for row in rows)
        assert rows[-1] == "Game 'pos', season 3."  # the newest line, last
        heading = rows.index("Survey of season 2 in short:")
        names = [row.split(" ")[1] for row in rows[heading + 1 : heading + 4]]
        assert names == ["Ann", "Ben", "Cleo"]  # one line each, all in one look
        assert log.since is not None and log._shown[0] > log.since  # news above the pane
        assert rows[0].startswith("▲ ") and rows[0].endswith("PgUp")
    assert session.state.season == 3


def test_the_survey_summary_says_what_each_player_got() -> None:
    """Points, one cartouche per parcel taken, the rooms booked: from the positions."""
    state, rng = core.new_game(players=3, seed=11), random.Random(5)
    states = [state]
    while state.season == 1 or state.phase is not core.Phase.EXCAVATION:
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
        states.append(state)
    start = max((s for s in states if s.phase is core.Phase.EXCAVATION and s.season == 1),
                key=states.index)  # fmt: skip
    lines = [line.plain for line in survey_summary(start, state)]
    assert lines[0] == "Survey of season 1 in short:" and len(lines) == 4
    for seat, line in enumerate(lines[1:]):
        was, now = start.players[seat], state.players[seat]
        letter = look.seat_letter(start, seat)
        assert line.startswith(f"{letter} {was.name} +{now.score - was.score}:")
        got = line.split(":", 1)[1].strip()
        taken = now.cards[len(was.cards) :]
        booked = [
            r
            for r, (a, b) in enumerate(zip(start.museum, state.museum, strict=True))
            if a != b and b == seat
        ]
        if not taken and not booked:
            assert got == "nothing"
        else:
            assert len(got.split(", ")) == len(taken) + len(booked)
            for card in taken:
                assert look.card_cartouche(card).rstrip() in got.split(", ")
            for room in booked:
                assert look.room_short(start.wings, room) in got


def test_the_summary_is_told_once_when_the_survey_ends_and_only_then() -> None:
    log = LogView()
    state, rng = core.new_game(players=3, seed=3), random.Random(2)
    while not core.is_over(state):
        action = rng.choice(core.legal_actions(state))
        log.tell_action(state, action)
        state = core.apply_action(state, action)
    headings = [line.plain for line in log.lines if line.plain.endswith(" in short:")]
    assert headings == [f"Survey of season {n} in short:" for n in (1, 2, 3, 4)]


class _LogApp(App[None]):
    CSS = "LogView { height: 5; width: 40; }"
    ENTRIES: ClassVar[list[str]] = [
        f"line {i} " + "long words that wrap " * (i % 4) for i in range(40)
    ]

    def compose(self) -> ComposeResult:
        yield LogView()


async def test_paging_shows_every_line_once_in_a_five_row_pane() -> None:
    """Each page starts right after the last line of the one before; back, each page
    reaches the first line of the one after."""
    app = _LogApp()
    async with app.run_test(size=(60, 10)) as pilot:
        log = app.query_one(LogView)
        for text in _LogApp.ENTRIES:
            log.add(Text(text))
        await pilot.pause()
        log.scroll_by_key("home")
        await pilot.pause()
        seen = [log._shown]
        while log.scrolled:
            log.scroll_by_key("pagedown")
            await pilot.pause()
            seen.append(log._shown)
        for (_, last), (first, _) in itertools.pairwise(seen[:-1]):
            assert first == last + 1
        assert seen[0][0] == 0 and seen[-1][1] == len(_LogApp.ENTRIES) - 1
        assert seen[-1][0] <= seen[-2][1] + 1  # the newest page leaves no gap either
        back = [log._shown]
        while back[-1][0] > 0:
            log.scroll_by_key("pageup")
            await pilot.pause()
            back.append(log._shown)
            assert len(back) < 40
        for (first, _), (earlier, last) in itertools.pairwise(back):
            assert earlier < first <= last + 1  # back a page, and no line left out


async def test_a_player_who_scrolled_back_stays_there_as_lines_come() -> None:
    app = _LogApp()
    state = core.new_game(players=3, seed=7)
    async with app.run_test(size=(60, 10)) as pilot:
        log = app.query_one(LogView)
        for text in _LogApp.ENTRIES:
            log.add(Text(text))
        await pilot.pause()
        log.scroll_by_key("pageup")
        await pilot.pause()
        before = log.render().plain
        log.tell(state, "a computer's move")
        log.turn_of(state)  # a turn here does not yank the view either
        await pilot.pause()
        assert log.render().plain.split("\n")[:3] == before.split("\n")[:3]
        log.scroll_by_key("end")
        await pilot.pause()
        assert log.render().plain.endswith("a computer's move")


async def test_news_above_the_pane_are_announced_with_the_key_that_shows_them() -> None:
    app = _LogApp()
    state = core.new_game(players=3, seed=7)
    async with app.run_test(size=(60, 10)) as pilot:
        log = app.query_one(LogView)
        ann = state.current
        other = (ann + 1) % 3
        log.tell(state, "Ann decides", seat=ann, decider=ann)
        for i in range(12):
            log.tell(state, f"Ben move {i}", seat=other, decider=other)
        log.turn_of(state)  # the first to play decides here now
        await pilot.pause()
        rows = log.render().plain.split("\n")
        assert rows[-1].endswith("Ben move 11")
        name = state.players[ann].name
        assert rows[0].startswith("▲ ") and f"since {name}'s" in rows[0]
        assert rows[0].endswith("PgUp")
        count = int(rows[0].split()[1])
        assert count == 12 - (len(rows) - 1)  # the news not in view, exactly
