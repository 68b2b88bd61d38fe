"""The load screen over a folder holding every kind of hostile file of the corpus
(tests/saves/corpus.py) at once: each row shows; a damaged file's detail and the one
message Enter gives name the file; a hostile but valid one (markup and escapes in its
names, extreme dates) replays and can be asked about; nothing hangs, nothing crashes,
and every file is left byte-identical."""

from __future__ import annotations

import asyncio

import pytest
from textual import events
from textual.widgets import DataTable

from tests.saves.corpus import CASES, Case, fingerprint, good_bytes, write_case
from tests.tui.conftest import app_for
from tui.screens.dialogs import ConfirmScreen
from tui.screens.load import LoadScreen
from tui.screens.replay import ReplayScreen

STEP_LIMIT = 10.0
"""Seconds one key may take before the test calls it a hang (the issue's figure, 2 s, is
measured where timings belong: bench/bench_hostile.py)."""


async def press(pilot, *keys: str) -> None:
    """The keys in one burst (Pilot.press idles after each, which over 116 files would
    take a minute), then wait until they are handled; a wait over STEP_LIMIT is a hang."""
    for key in keys:
        pilot.app.post_message(events.Key(key, None))
    await asyncio.wait_for(pilot.pause(), STEP_LIMIT)


def notices(app) -> list[str]:
    return [str(toast.render()) for toast in app.screen.query("Toast")]


SAMPLE = [case for index, case in enumerate(CASES) if index % 12 == 0 or case.loads]
"""A few of each family of the corpus, and every hostile but valid file: the fast suite's
share (the whole corpus runs in ``make test-slow``)."""


async def test_hostile_files_in_the_load_screen(store) -> None:
    await check_load_screen(store, SAMPLE)


@pytest.mark.slow
async def test_every_hostile_file_in_the_load_screen(store) -> None:
    await check_load_screen(store, CASES)


async def check_load_screen(store, cases: list[Case]) -> None:
    folder = store.folder
    folder.mkdir(parents=True)
    (folder / "good.json").write_bytes(good_bytes())
    names = [f"c{index:03d}" for index in range(len(cases))]
    paths = {name: write_case(case, folder, name) for name, case in zip(names, cases, strict=True)}
    before = {name: fingerprint(path) for name, path in paths.items()}
    app = app_for(store, offer_resume=False)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        app.open_load()
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        screen: LoadScreen = app.screen
        shown = set(screen.summaries)
        assert set(paths) <= shown, f"missing rows: {sorted(set(paths) - shown)}"
        for name, case in zip(names, cases, strict=True):
            screen.query_one(DataTable).move_cursor(row=list(screen.summaries).index(name))
            await press(pilot)
            detail = str(screen.query_one("#load-detail").render())
            assert "\n" not in detail.strip() or len(detail) < 400, (case.id, detail)
            if case.loads:  # valid, but names and titles hostile: replay it, ask to delete it
                await press(pilot, "r")
                assert isinstance(app.screen, ReplayScreen), case.id
                await press(pilot, "escape")
                await press(pilot, "d")
                assert isinstance(app.screen, ConfirmScreen), case.id
                await press(pilot, "n")
            else:
                assert str(paths[name]) in detail, (case.id, detail)
                app.clear_notifications()
                await press(pilot, "enter")
                said = notices(app)
                assert len(said) == 1 and str(paths[name]) in said[0], (case.id, said)
            assert app.screen is screen, case.id
    after = {name: fingerprint(path) for name, path in paths.items()}
    assert after == before
