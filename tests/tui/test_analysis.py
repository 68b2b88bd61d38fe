"""The computer's analysis of a finished game in the terminal (issue 27): ``a`` on the final
scores and in the replay, the progress while it is made, Esc keeping what is done, the
report (summary, turning points, the margin chart) at 80×24 and without colour, and a
turning point replayed with the better move on the board.

The analysis comes from a fake source here (the screens take any ``AnalysisSource``): a
prepared analysis of the snapshot game, handed out one judgement at a time when the test
says so. The real sources (a save's, a table's) are tested where they are made.
"""

from __future__ import annotations

import random
import threading

import pytest
from rich.console import Console
from textual.widgets import OptionList, ProgressBar, Static

import core
import saves
import table.analysis
from core.analysis import ANALYSIS_VERSION, Analysis, Judgement, decisions
from table.analysis import AnalysisRefused, Progress
from tests.tui.conftest import HOT_SEAT_3, app_for, play_until, session_for, settle
from tui import charts
from tui.screens.analysis import AnalysisScreen, time_left, viewer_of
from tui.screens.replay import ReplayScreen
from tui.screens.summary import FinalScreen
from tui.widgets.keys import KeysBar
from tui.widgets.margin_chart import MarginChart
from tui.widgets.museum import MuseumView
from tui.widgets.region import RegionView

WAIT = 0.01
"""Seconds a fake judgement waits for the test's go between two looks at ``stop``."""
PATIENCE = 3000
"""Looks a fake judgement makes before giving up (a test that never says go fails)."""


def _finished(store: saves.SaveStore) -> saves.Session:
    """The snapshot tests' finished game (seed 7, played by seed 5), saved as ``snap``."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="snap")
    play_until(session, lambda state, legal: core.is_over(state), seed=5)
    return session


def _final_margins(state: core.GameState) -> tuple[float, ...]:
    totals = {score.seat: float(score.total) for score in core.final_scores(state).players}
    return tuple(
        totals[seat] - max(t for other, t in totals.items() if other != seat) for seat in totals
    )


def prepared(states: list[core.GameState], actions: list[core.Action]) -> Analysis:
    """An analysis of every decision, made up but faithful in form: the best move another
    legal one (a placement when there is one) where something was lost, the margins
    drifting from level towards the final ones, the last season's decisions exact."""
    rng = random.Random(27)
    final = _final_margins(states[-1])
    judged = []
    for index in decisions(states, actions):
        state, played = states[index], actions[index]
        legal = [a for a in core.legal_actions(state) if a != played]
        others = sorted(legal, key=lambda a: (not core.placed_spaces(a), core.format_action(a)))
        loss = round(rng.random() ** 5 * 9, 1)
        best = others[0] if loss else played
        part = index / len(actions)
        margins = tuple(round(m * part + rng.uniform(-1.5, 1.5) * (1 - part), 2) for m in final)
        value = margins[state.current]
        judged.append(
            Judgement(
                index=index,
                season=state.season,
                seat=state.current,
                played=core.format_action(played),
                best=core.format_action(best),
                loss=loss,
                values={core.format_action(played): value, core.format_action(best): value + loss},
                margins=margins,
                exact=state.season == 4 and index >= len(actions) - 6,
            )
        )
    return Analysis(ANALYSIS_VERSION, 0, (0, 1, 2), tuple(judged), complete=True)


class FakeSource:
    """An ``AnalysisSource`` handing out a prepared analysis: all of it kept, or judged
    one at a time, each when the test releases ``go`` (never, for a slow one), keeping
    what was done when stopped."""

    def __init__(self, full: Analysis, *, kept: int | None = None, slow: bool = False) -> None:
        self.full = full
        self._kept: Analysis | None = full if kept is None else self._part(full.decisions[:kept])
        self.go = threading.Semaphore(0) if slow else None
        self.refusal: str | None = None
        self.note: str | None = None
        self.runs = 0

    def _part(self, judged: tuple[Judgement, ...]) -> Analysis:
        complete = len(judged) == len(self.full.decisions)
        return Analysis(ANALYSIS_VERSION, 0, self.full.seats, judged, complete)

    @property
    def kept(self) -> Analysis | None:
        return self._kept

    def run(self, seats, progress, stop: threading.Event) -> Analysis:
        self.runs += 1
        if self.refusal is not None:
            raise AnalysisRefused(self.refusal)
        done = list(self._kept.decisions) if self._kept else []
        total = len(self.full.decisions)
        progress(Progress(len(done), total, 0.0, None))
        for judgement in self.full.decisions[len(done) :]:
            if not self._wait(stop):
                break
            done.append(judgement)
            progress(Progress(len(done), total, 1.0, 40.0))
        self._kept = self._part(tuple(done))
        return self._kept

    def _wait(self, stop: threading.Event) -> bool:
        """Whether to judge one more (the test said go), False once stopped."""
        for _ in range(PATIENCE):
            if stop.is_set():
                return False
            if self.go is None or self.go.acquire(timeout=WAIT):
                return True
        return False


@pytest.fixture
def finished(store: saves.SaveStore) -> saves.Session:
    return _finished(store)


@pytest.fixture
def source(finished: saves.Session, monkeypatch: pytest.MonkeyPatch) -> FakeSource:
    """The save's source, as the app finds it (``table.analysis.SessionAnalysis``)."""
    fake = FakeSource(prepared(finished.states(), list(finished.actions)))
    monkeypatch.setattr(table.analysis, "SessionAnalysis", lambda session: fake, raising=False)
    return fake


def _shown_at_once(screen) -> bool:
    """The analysis screen is laid out, with what it shows before any work is done."""
    if not isinstance(screen, AnalysisScreen) or not screen.query(KeysBar):
        return False
    return bool(str(screen.query_one("#state-words", Static).render()))


async def _analysis_from_final_scores(pilot) -> AnalysisScreen:
    """The player's way in: the finished game, its final scores, a."""
    await pilot.pause()
    await pilot.press("f")
    assert isinstance(pilot.app.screen, FinalScreen)
    await pilot.press("a")
    await settle(pilot, lambda: _shown_at_once(pilot.app.screen))
    screen = pilot.app.screen
    assert isinstance(screen, AnalysisScreen)
    return screen


def _text(screen, selector: str) -> str:
    """What a widget shows, line by line (a table's too)."""
    widget = screen.query_one(selector)
    return "\n".join(widget.render_line(y).text.rstrip() for y in range(widget.size.height))


def _words(screen, selector: str) -> str:
    """A line's words, whole (however they wrap on screen)."""
    return str(screen.query_one(selector, Static).render())


async def _replay_open(pilot) -> ReplayScreen:
    """The replay in front, laid out."""
    app = pilot.app
    await settle(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.query(KeysBar))
    return app.screen


def _keys(screen) -> str:
    return str(screen.query_one(KeysBar).render())


async def test_a_on_the_final_scores_shows_the_kept_analysis_at_once(store, source) -> None:
    """Kept whole with the game: the report at once, nothing run, no progress bar; the
    summary of each player with the thresholds stated once, the turning points, the chart."""
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        await settle(pilot, lambda: screen.query_one(OptionList).option_count == 3)
        assert source.runs == 0
        assert not screen.query_one("#analysis-progress").display
        summary = _text(screen, "#summary")
        for name in ("B Ann", "R Ben", "G Cleo"):
            assert name in summary
        words = _text(screen, "#state-words")
        assert "Mistake: loses ≥ 2.0 points" in words and "blunder: ≥ 5.0" in words
        assert "Judged exactly: 6 of" in words
        first = str(screen.query_one(OptionList).get_option_at_index(0).prompt)
        biggest = max(j.loss for j in source.full.decisions)
        assert first.startswith("Blunder  Season ") and f"worth {biggest:.1f} points" in first
        assert "esc  Close" in _keys(screen)
        await pilot.press("escape")
        assert isinstance(app.screen, FinalScreen)


async def test_the_progress_shows_then_the_report(store, source) -> None:
    """Nothing kept: the progress bar with decisions done and the time left, then, once
    every judgement is in, the report without the bar."""
    source._kept = None
    source.go = threading.Semaphore(0)
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        total = len(source.full.decisions)
        source.go.release(2)
        await settle(pilot, lambda: _text(screen, "#progress-words").startswith("2/"))
        words = _text(screen, "#progress-words")
        assert words == f"2/{total} decisions · about 40 s left · Esc stops and keeps what is done"
        assert screen.query_one(ProgressBar).progress == 2
        assert "The report fills in when the analysis is done" in _text(screen, "#state-words")
        assert "Stop, keep what is done" in _keys(screen)
        source.go.release(total)
        await settle(pilot, lambda: not screen.running)
        assert not screen.query_one("#analysis-progress").display
        assert screen.analysis is not None and screen.analysis.complete
        assert screen.query_one(OptionList).option_count == 3
        assert "judged so far" not in _text(screen, "#state-words")


async def test_esc_mid_run_keeps_what_is_done_and_esc_again_closes(store, source) -> None:
    """Esc while it runs stops the work and shows what was judged (and c goes on from
    there); a second Esc closes the analysis."""
    source._kept = source._part(source.full.decisions[:5])
    source.go = threading.Semaphore(0)
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        assert screen.analysis is not None and len(screen.analysis.decisions) == 5  # kept, shown
        source.go.release(7)
        await settle(pilot, lambda: _text(screen, "#progress-words").startswith("12/"))
        await pilot.press("escape")
        await settle(pilot, lambda: not screen.running)
        assert isinstance(app.screen, AnalysisScreen), "the first Esc only stops"
        assert len(screen.analysis.decisions) == 12
        total = len(source.full.decisions)
        assert f"12 of {total} decisions judged; c goes on." in _text(screen, "#state-words")
        assert "Go on" in _keys(screen)
        source.go.release(total)
        await pilot.press("c")
        await settle(pilot, lambda: not screen.running and screen.analysis.complete)
        assert source.runs == 2
        await pilot.press("escape")
        assert isinstance(app.screen, FinalScreen)


async def test_leaving_stops_the_work(store, source) -> None:
    """Closing the screen mid-run (after a stop) ends the source's run: nothing waits."""
    source._kept = None
    source.go = threading.Semaphore(0)
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        stop = screen._stop
        screen.dismiss(None)
        await settle(pilot, stop.is_set)
        assert isinstance(app.screen, FinalScreen)


async def test_a_refusal_is_said_in_words(store, source) -> None:
    source._kept = None
    source.refusal = "This table is still being played: it can be analysed once it is over."
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        await settle(pilot, lambda: not screen.running)
        assert _text(screen, "#state-words").startswith("This table is still being played")
        assert "Traceback" not in _text(screen, "#state-words")


async def test_enter_on_a_turning_point_replays_it_with_the_better_move(store, source) -> None:
    """Enter: the replay at that moment, before the decision, the better move said above
    the board and drawn on it (its cubes as a placement being built); Esc comes back."""
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        await settle(pilot, lambda: screen.query_one(OptionList).option_count == 3)
        shown = screen._shown
        number = next(
            n for n, j in enumerate(shown) if core.placed_spaces(core.parse_action(j.best))
        )
        chosen = screen._shown[number]
        await pilot.press(*["down"] * number, "enter")
        replay = await _replay_open(pilot)
        assert replay.position == chosen.index
        better = _words(replay, "#replay-better")
        assert better.startswith("Better: ") and f"(+{chosen.loss:.1f} expected)" in better
        action = core.parse_action(chosen.best)
        spaces = core.placed_spaces(action)
        assert spaces, "the made-up analysis prefers placements"
        assert replay.query_one(RegionView).picture.placed == tuple(spaces)
        assert replay.query_one(MuseumView).legal == frozenset()
        await pilot.press("right")
        assert not replay.query_one("#replay-better").display  # another moment: not shown
        assert replay.query_one(RegionView).picture.placed == ()
        await pilot.press("escape")
        assert app.screen is screen


async def test_a_in_the_replay_of_a_finished_game(store, source) -> None:
    """The replay from the final scores offers a too; the load list's replay of a saved
    game as well, for a finished game only."""
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "r")
        assert "Analyse" in _keys(await _replay_open(pilot))
        await pilot.press("a")
        await settle(pilot, lambda: isinstance(app.screen, AnalysisScreen))
        await pilot.press("escape", "escape")
        app.replay_saved("snap")
        assert (await _replay_open(pilot)).analysis is source


async def test_no_analysis_without_a_source_nor_for_a_game_not_over(store) -> None:
    """A build without the save's source does not offer a; nor does a game not over."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="mid")
    play_until(session, lambda state, legal: state.season == 2)
    app = app_for(store, resume="mid")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.replay_saved("mid")
        replay = await _replay_open(pilot)
        assert replay.analysis is None and "Analyse" not in _keys(replay)


async def test_the_report_fits_80x24_and_scrolls(store, source) -> None:
    """At 80×24 every line fits the width, the keys stay on screen, the report scrolls."""
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        await settle(pilot, lambda: screen.query_one(OptionList).option_count == 3)
        report = screen.query_one("#analysis-report")
        assert report.max_scroll_y > 0
        for widget in (screen.query_one(KeysBar), report):
            assert widget.region.right <= 80 and widget.region.bottom <= 24
        chart = screen.query_one(MarginChart)
        assert chart.region.right <= 80
        drawn = chart.render().plain.splitlines()
        assert len(drawn) == chart.size.height and max(map(len, drawn)) <= chart.size.width
        await pilot.press("pagedown", "pagedown", "pagedown")
        assert report.scroll_y == report.max_scroll_y


async def test_the_player_filter(store, source) -> None:
    """p: one player's turning points and letters, then the next, then everyone again."""
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        await pilot.press("p")
        assert screen.only == 0 and all(j.seat == 0 for j in screen._shown)
        assert "Ann (B)" in _text(screen, "#turning-heading")
        await pilot.press("p", "p", "p")
        assert screen.only is None


async def test_no_color_chart_has_the_letters(store, source, monkeypatch) -> None:
    """NO_COLOR: the chart still tells the players apart, by their letters."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        chart = screen.query_one(MarginChart)
        lines = "\n".join(chart.render_line(y).text for y in range(chart.size.height))
        assert all(letter in lines for letter in "BRG")
        assert "┼" in lines and "S4" in lines


def test_time_left_in_words() -> None:
    assert time_left(None) == "working out the time left"
    assert time_left(40.2) == "about 40 s left"
    assert time_left(200) == "about 3 min left"


class TestMarginChart:
    """The chart as a pure function: letters for every player, higher for more."""

    def _judgement(self, index: int, margins: tuple[float, ...], season: int = 1) -> Judgement:
        return Judgement(index=index, season=season, seat=0, played="pass", best="pass",
                         loss=0.0, values={"pass": 0.0}, margins=margins, exact=False)  # fmt: skip

    def test_letters_and_zero_line(self) -> None:
        state = core.new_game(3, seed=1)
        judged = [self._judgement(i, (i - 3.0, 3.0 - i, -1.0), 1 + i // 3) for i in range(8)]
        text = charts.margin_chart(state, judged, rows=7, width=40)
        plain = text.plain
        letters = [state.players[seat].colour.letter for seat in range(3)]
        assert all(letter in plain for letter in letters)
        assert "┼" in plain and "S1" in plain and "S3" in plain
        assert all(len(line) <= 40 for line in plain.splitlines())

    def test_a_larger_margin_is_never_lower(self) -> None:
        """Monotone: one player's rising margins climb (or stay) row by row."""
        state = core.new_game(2, seed=1)
        ordered = [self._judgement(n, (v / 2, -v / 2)) for n, v in enumerate(range(-13, 14))]
        lines = charts.margin_chart(state, ordered, rows=9, width=60).plain.splitlines()
        letter = state.players[0].colour.letter
        rows = [
            next(
                y
                for y, line in enumerate(lines[:-1])
                if line[column : column + 1] in (letter, charts.MEET)
            )
            for column in range(charts.AXIS, charts.AXIS + len(ordered))
        ]
        assert rows == sorted(rows, reverse=True) and rows[0] == 8 and rows[-1] == 0

    def test_many_decisions_share_the_columns(self) -> None:
        state = core.new_game(3, seed=1)
        judged = [self._judgement(i, (1.0, -1.0, -2.0)) for i in range(300)]
        plain = charts.margin_chart(state, judged, rows=5, width=50).plain
        assert all(len(line) <= 50 for line in plain.splitlines())

    def test_no_color_keeps_the_letters(self) -> None:
        state = core.new_game(3, seed=1)
        judged = [self._judgement(i, (2.0, -2.0, -5.0)) for i in range(5)]
        console = Console(no_color=True, width=40, record=True)
        console.print(charts.margin_chart(state, judged, rows=5, width=40))
        shown = console.export_text()
        assert all(state.players[s].colour.letter in shown for s in range(3))


class TestSnapshots:
    def test_report_at_80x24(self, snap_compare, store, source) -> None:
        """The report kept with the game: title, each player's summary, what the numbers
        mean and the thresholds, the turning points with the first highlighted, and the
        top of the chart; the keys on the last line."""

        async def open_analysis(pilot) -> None:
            await _analysis_from_final_scores(pilot)

        assert snap_compare(
            app_for(store, resume="snap"), terminal_size=(80, 24), run_before=open_analysis
        )

    def test_chart_at_80x24(self, snap_compare, store, source) -> None:
        """The report scrolled to its end: the chart of the three players' margins."""

        async def open_chart(pilot) -> None:
            await _analysis_from_final_scores(pilot)
            await pilot.press("pagedown", "pagedown", "pagedown")

        assert snap_compare(
            app_for(store, resume="snap"), terminal_size=(80, 24), run_before=open_chart
        )

    def test_better_move_at_80x24(self, snap_compare, store, source) -> None:
        """A turning point replayed: the better move said above the board, its cubes on
        the region as a placement being built."""

        async def open_moment(pilot) -> None:
            await _analysis_from_final_scores(pilot)
            await pilot.press("enter")

        assert snap_compare(
            app_for(store, resume="snap"), terminal_size=(80, 24), run_before=open_moment
        )


async def test_quitting_the_app_stops_the_work(store, source) -> None:
    """The app ending with the analysis under way stops it: nothing keeps it waiting."""
    source._kept = None
    source.go = threading.Semaphore(0)
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        stop = screen._stop
        app.exit()
    assert stop.is_set()


async def test_a_better_room_is_bracketed_in_the_museum(store, finished, source) -> None:
    """A better booking (or Sir Brown) brackets its room in the Museum, and is said."""
    booking = next(
        j for j in source.full.decisions if isinstance(core.parse_action(j.best), core.BookRoom)
    )
    action = core.parse_action(booking.best)
    assert isinstance(action, core.BookRoom)
    room = action.room
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        history = (finished.states(), list(finished.actions))
        app.push_screen(ReplayScreen(history, start=booking.index, better=booking))
        replay = await _replay_open(pilot)
        assert replay.query_one(MuseumView).legal == frozenset({room})
        assert replay.query_one(RegionView).picture.placed == ()
        assert _words(replay, "#replay-better").startswith("Better: booking the ")


class JudgeSource(FakeSource):
    """The real judge, in this process, with few simulations, on the end of the game only
    (the last :data:`LAST` decisions, most of them exact): the screens on true judgements."""

    LAST = 8

    def __init__(self, session: saves.Session) -> None:
        super().__init__(Analysis(ANALYSIS_VERSION, 0, (0, 1, 2), (), complete=True))
        self._kept = None
        self.states, self.actions = session.states(), list(session.actions)

    def run(self, seats, progress, stop: threading.Event) -> Analysis:
        from core.analysis import judge

        wanted = decisions(self.states, self.actions)[-self.LAST :]
        judged = []
        for index in wanted:
            judgement = judge(self.states[index], self.actions[index], index, simulations=3)
            assert judgement is not None
            judged.append(judgement)
            progress(Progress(len(judged), len(wanted), 0.1, None))
        return Analysis(ANALYSIS_VERSION, 0, (0, 1, 2), tuple(judged), complete=True)


async def test_true_judgements_of_the_end_of_the_game(store, finished, monkeypatch) -> None:
    """Judged for real: the end of season 4 is exact, and a better survey choice (a parcel
    to take) is said in words in the replay, nothing drawn on the region."""
    source = JudgeSource(finished)
    monkeypatch.setattr(table.analysis, "SessionAnalysis", lambda session: source, raising=False)
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        await settle(pilot, lambda: not screen.running)
        assert screen.analysis is not None and len(screen.analysis.decisions) == JudgeSource.LAST
        assert "Judged exactly: " in _text(screen, "#state-words")
        first = screen._shown[0]
        assert first.exact and first.loss == max(j.loss for j in screen.analysis.decisions)
        await pilot.press("enter")
        replay = await _replay_open(pilot)
        better = _words(replay, "#replay-better")
        assert better.startswith("Better: taking parcel P") and better.endswith(
            f"(+{first.loss:.1f} exactly) · played: {first.played}"
        )
        assert replay.query_one(RegionView).picture.placed == ()


def test_the_viewer_is_the_one_seat_decided_here() -> None:
    assert viewer_of(lambda seat: seat == 1, 3) == 1
    assert viewer_of(lambda seat: True, 3) is None  # hot seat: nobody is "you"
    assert viewer_of(lambda seat: False, 3) is None  # watching


async def test_the_player_here_is_told_you(store, finished, source) -> None:
    """With the player at this terminal known, their row says (you) and their turning
    points are told "your … you …"."""
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        history = (finished.states(), list(finished.actions))
        app.push_screen(AnalysisScreen(*history, source, title="Mine", viewer=0))
        await settle(pilot, lambda: _shown_at_once(app.screen))
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert "B Ann (you)" in _text(screen, "#summary")
        await pilot.press("p")
        first = str(screen.query_one(OptionList).get_option_at_index(0).prompt)
        assert ", your " in first and ": you " in first


async def test_the_source_note_is_said_beside_the_report(store, source) -> None:
    """A kept analysis that did not fit its game was left out: the source says why, and
    the report says it (as text: a file's name is never read as markup)."""
    source.note = "lost-game.json: its analysis was left out ([/] does not fit the game)."
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _analysis_from_final_scores(pilot)
        await settle(pilot, lambda: "left out" in _text(screen, "#state-words"))
        assert "([/] does not fit the game)" in _text(screen, "#state-words")
