"""The garbage collector is paused while the game starts and resumes at its first frame
(``tui.collector``, issue 29): a real start in a pty, and the contract in-process."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tui.ptyapp import AppInPty
from tui import collector

# The app says, once its first frame is drawn, whether the collector was paused when the
# app was made and whether it runs again, with what start-up made frozen.
REPORTING = (
    "import gc, sys, tui.__main__ as m, tui.app as a\n"
    "made = a.make_app\n"
    "def make(*args, **kwargs):\n"
    "    app = made(*args, **kwargs); app.paused_at_start = not gc.isenabled(); return app\n"
    "a.make_app = make\n"
    "ready = a.MykerinosApp.on_ready\n"
    "def on_ready(self):\n"
    "    ready(self)\n"
    "    self.notify(f'paused {self.paused_at_start} runs {gc.isenabled()} '\n"
    "                f'frozen {gc.get_freeze_count() > 0}')\n"
    "a.MykerinosApp.on_ready = on_ready\n"
    "sys.exit(m.main())\n"
)


def test_a_start_pauses_the_collector_until_the_first_frame(tmp_path: Path) -> None:
    app = AppInPty(tmp_path, REPORTING)
    app.wait_for(b"paused True runs True frozen True")
    app.hang_up_quietly()
    assert app.finish(timeout=10.0) == 0


@pytest.fixture
def collecting() -> Iterator[None]:
    """The collector on, as in any process, and left on."""
    assert gc.isenabled()
    yield
    collector.resume()
    gc.unfreeze()
    gc.enable()


@pytest.mark.usefixtures("collecting")
def test_resume_undoes_pause_and_freezes() -> None:
    collector.pause()
    assert not gc.isenabled()
    collector.resume()
    assert gc.isenabled() and gc.get_freeze_count() > 0


@pytest.mark.usefixtures("collecting")
def test_resume_without_pause_changes_nothing() -> None:
    # Tests build apps without the command: their first frame must not freeze the process.
    before = gc.get_freeze_count()
    collector.resume()
    assert gc.isenabled() and gc.get_freeze_count() == before


@pytest.mark.usefixtures("collecting")
def test_pause_leaves_a_collector_someone_else_stopped_to_them() -> None:
    gc.disable()  # e.g. Textual, while it scrolls
    collector.pause()
    collector.resume()
    assert not gc.isenabled()
    gc.enable()


@pytest.mark.usefixtures("collecting")
def test_a_block_that_draws_no_frame_still_resumes_the_collector() -> None:
    with collector.paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with collector.paused(False):  # the command without a terminal: nothing paused
        assert gc.isenabled()
