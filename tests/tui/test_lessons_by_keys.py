"""Every real lesson completed by keys on the lesson's game screen, with one wrong try in
each (issue 28): a legal try that misses the task gets the task's words and the lesson
does not move on; the right keys then finish it and it is marked done. The actions are
those of ``tests/core/test_lessons.py``, pressed as a player would. (Illegal tries get the
game's own refusals: ``tests/tui/test_lessons.py`` and ``tests/core/test_lessons.py``.)"""

from __future__ import annotations

import pytest

import core
from core.lessons import LESSONS
from tests.core.test_lessons import MISSES, SOLUTIONS
from tests.tui.conftest import app_for, settle
from tests.tui.driver import KeyPlayer
from tui.screens.lesson import LessonPanel, LessonScreen
from tui.screens.lessons import LessonsScreen
from tui.widgets.actionbar import ActionBar


class LessonPlayer(KeyPlayer):
    """The game's key player, reading the position from the lesson's seat."""

    @property
    def state(self) -> core.GameState:
        screen = self.game
        assert isinstance(screen, LessonScreen)
        return screen.lesson_seat.state


def _bar(app) -> str:
    bars = app.screen.query(ActionBar)
    return bars.first().text if bars else ""


def _panel(app) -> str:
    rendered = app.screen.query_one(LessonPanel).render()
    return getattr(rendered, "plain", str(rendered))


@pytest.mark.parametrize("index", range(len(LESSONS)), ids=[lesson.key for lesson in LESSONS])
async def test_a_lesson_by_keys(store, index: int, monkeypatch) -> None:
    monkeypatch.setattr("tui.local_games.LocalGames.learner", lambda self: "Ann")
    chosen = LESSONS[index]
    app = app_for(store, lessons=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LessonsScreen))
        app.open_lesson(index)
        await settle(pilot, lambda: isinstance(app.screen, LessonScreen))
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        seat = screen.lesson_seat
        player = LessonPlayer(app, pilot)
        missed_at, miss, words = MISSES[chosen.key]
        for number, text in enumerate(SOLUTIONS[chosen.key]):
            if number == missed_at:
                before = seat.state
                await player.press_action(core.parse_action(miss))
                await settle(pilot, lambda w=words: w in _bar(app))
                assert seat.step == number and seat.state == before
            await player.press_action(core.parse_action(text))
            if number + 1 < len(chosen.steps):
                await settle(pilot, lambda n=number: seat.step == n + 1)
        await settle(pilot, lambda: "Lesson done" in _panel(app))
        assert "Lesson done." in _bar(app)
        from saves.lessons import LessonProgress, default_folder

        folder = default_folder(str(store.folder))
        await settle(pilot, lambda: chosen.key in LessonProgress(folder).done("Ann"))


async def test_a_panel_too_small_for_its_lesson_keeps_the_task_and_says_i(
    store, monkeypatch
) -> None:
    """At 80×24 the lessons' words may not fit beside the board: the panel keeps the
    beginning (the title, the task), ends on how to read it all, and never overflows;
    ``i`` shows the whole idea."""
    from tui.screens.dialogs import InfoScreen
    from tui.screens.lesson import CUT

    monkeypatch.setattr("tui.local_games.LocalGames.learner", lambda self: "Ann")
    app = app_for(store, lessons=True)
    cut = []
    async with app.run_test(size=(80, 24)) as pilot:
        for index, chosen in enumerate(LESSONS):
            app.open_lesson(index)
            key = chosen.key

            def shown(key: str = key) -> bool:
                screen = app.screen
                if not isinstance(screen, LessonScreen) or screen.lesson_seat.lesson.key != key:
                    return False
                return any(p.content_size.height > 0 for p in screen.query(LessonPanel))

            await settle(pilot, shown)
            panel = app.screen.query_one(LessonPanel)
            lines = _panel(app).splitlines()
            assert lines[0].startswith(f"Lesson {index + 1}/") and "Task 1/" in _panel(app)
            assert len(lines) <= panel.content_size.height
            if lines[-1] == CUT:
                cut.append(chosen.key)
                assert chosen.idea.split()[-1] not in lines[-2]
            else:
                assert _panel(app) == panel.words.plain  # all of it, uncut
        await pilot.press("i")
        await settle(pilot, lambda: isinstance(app.screen, InfoScreen))
    assert cut, "no lesson is cut at 80×24: this test no longer tests the cut"
