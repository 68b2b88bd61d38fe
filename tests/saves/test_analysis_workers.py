"""table.analysis: the worker processes (spawned, inheriting no descriptor, dying with
their parent, ignoring Ctrl+C, playing the game's cards), a stop that keeps what is done,
a kept analysis reused without starting any process, and SessionAnalysis keeping its
result in the save.

What is really judged here is the end of a game whose last decisions are searched exactly
(quick); the earlier decisions come from a made-up analysis kept beforehand (see
tests/saves/test_analysis.py). Every wait is bounded and no test measures a time.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

import core
import saves
from core.analysis import Analysis, decisions
from saves.analysis import check_analysis
from table import analysis as table_analysis
from table.analysis import AnalysisRefused, Progress, SessionAnalysis, analyse, start_pool
from tests.saves.test_analysis import GAME_SEED, finished_actions, finished_session, made_up

REAL = 6
"""Decisions at the end of the game judged for real (exactly; a fraction of a second)."""
BOUND = 60.0
"""Seconds after which a wait counts as a hang (a bound, not a timing)."""


def _start() -> core.GameState:
    return core.new_game(2, GAME_SEED, names=["Ann", "Bob"], colours=list(core.Colour)[:2])


ACTIONS = finished_actions()
STATES = core.replay(_start(), ACTIONS)
EVERYONE = decisions(STATES, ACTIONS)


def _kept_but_the_end(real: int = REAL) -> Analysis:
    return made_up(STATES, ACTIONS, EVERYONE[:-real], complete=False)


# ---------------------------------------------------------------- what runs in a worker


def _descriptors() -> dict[int, str]:
    """The worker's open descriptors and what each is."""
    found = {}
    for entry in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the listing's own descriptor, closed since
            found[int(entry)] = os.readlink(f"/proc/self/fd/{entry}")
    return found


def _worker_state() -> tuple[object, tuple[core.Card, ...], int]:
    """How the worker handles Ctrl+C, the cards it plays with, and its niceness."""
    return signal.getsignal(signal.SIGINT), tuple(core.cards.CARDS), os.nice(0)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_worker_inherits_no_descriptor(tmp_path: Path) -> None:
    """Even a descriptor this process marked inheritable is not in the worker: it has
    its standard streams and the pipes of its pool, a handful in all."""
    secret = os.open(tmp_path / "secret", os.O_CREAT | os.O_RDWR)
    os.set_inheritable(secret, True)
    pool = start_pool(1, None)
    try:
        found = pool.apply(_descriptors)
    finally:
        pool.terminate()
        pool.join()
        os.close(secret)
    assert not any("secret" in target for target in found.values()), found
    others = {fd: target for fd, target in found.items() if fd > 2}
    assert all(target.startswith(("pipe:", "socket:", "/dev/null")) for target in others.values())
    assert len(others) <= 8, found
    assert [found.get(fd) for fd in (0, 1, 2)] == ["/dev/null"] * 3, found


_UNDER_TEXTUAL = """
import io, os, sys
from table.analysis import start_pool

class Captured(io.StringIO):
    def fileno(self):
        return -1

if __name__ == "__main__":
    sys.stderr = Captured()
    pool = start_pool(1, None)
    print(pool.apply(os.getpid) != os.getpid())
    pool.terminate()
    pool.join()
"""


def test_a_pool_starts_under_a_captured_stderr(tmp_path: Path) -> None:
    """Under Textual ``sys.stderr`` is a capture whose ``fileno()`` is -1: the pool (and
    multiprocessing's resource tracker, which is handed that number) still starts. In a
    fresh process, where the tracker has not started yet."""
    script = tmp_path / "under_textual.py"
    script.write_text(_UNDER_TEXTUAL)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.strip() == "True", done.stderr


def test_a_worker_ignores_ctrl_c_runs_nicer_and_plays_the_games_cards() -> None:
    cards = core.DEFAULT_TEXT.replace("value = 5", "value = 4")
    assert core.parse_cards(cards) != core.DEFAULT_CARDS
    for text, deck in ((cards, core.parse_cards(cards)), (None, core.DEFAULT_CARDS)):
        pool = start_pool(1, text)
        try:
            handler, in_use, niceness = pool.apply(_worker_state)
        finally:
            pool.terminate()
            pool.join()
        assert handler == signal.SIG_IGN
        assert in_use == deck
        assert niceness >= min(19, os.nice(0) + table_analysis.NICE)


# ---------------------------------------------------------------- judging


def test_the_end_of_a_game_is_judged_in_workers_and_the_kept_reused() -> None:
    kept = _kept_but_the_end()
    seen: list[Progress] = []
    result = analyse(_start(), ACTIONS, kept=kept, workers=2, progress=seen.append)
    assert result.complete and [j.index for j in result.decisions] == EVERYONE
    assert result.decisions[:-REAL] == kept.decisions  # kept as it was: not judged again
    assert all(j.exact for j in result.decisions[-REAL:])
    check_analysis(result, ACTIONS, STATES)
    assert [(p.done, p.total) for p in seen] == [
        (len(EVERYONE) - REAL + made, len(EVERYONE)) for made in range(REAL + 1)
    ]


def test_a_kept_analysis_starts_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same version and seed: nothing to judge, no worker started. Another seed: every
    decision is to be judged again."""

    def no_pool(workers: int, cards: str | None) -> None:
        raise AssertionError("a worker pool was started")

    monkeypatch.setattr(table_analysis, "start_pool", no_pool)
    kept = made_up(STATES, ACTIONS)
    assert analyse(_start(), ACTIONS, kept=kept) == kept
    ann = analyse(_start(), ACTIONS, kept=kept, seats=[0])
    assert ann.seats == (0,) and ann.complete
    assert {j.seat for j in ann.decisions} == {0}
    with pytest.raises(AssertionError, match="pool was started"):
        analyse(_start(), ACTIONS, kept=kept, seed=1)


def test_a_stop_set_before_starts_nothing_and_keeps_the_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_analysis, "start_pool", None)  # calling it would fail
    stop = threading.Event()
    stop.set()
    kept = _kept_but_the_end()
    result = analyse(_start(), ACTIONS, kept=kept, stop=stop)
    assert not result.complete and result.decisions == kept.decisions


def test_stop_returns_with_what_is_done() -> None:
    """Two slow decisions of season 1 left to judge by one worker: stopped once the first
    is judged, the analysis returns with it (the second still being judged is dropped)."""
    slow = EVERYONE[:2]
    kept = made_up(STATES, ACTIONS, EVERYONE[2:], complete=False)
    stop = threading.Event()

    def progress(step: Progress) -> None:
        if step.done > len(kept.decisions):
            stop.set()

    result = analyse(_start(), ACTIONS, kept=kept, workers=1, progress=progress, stop=stop)
    assert not result.complete
    assert [j.index for j in result.decisions] == [slow[0], *EVERYONE[2:]]


def test_a_worker_that_dies_gives_back_what_was_done() -> None:
    """kill -9 of the worker judging a slow decision: the pool would wait for ever; the
    analysis is refused in words, with the kept judgements as its partial result."""
    kept = made_up(STATES, ACTIONS, EVERYONE[1:], complete=False)
    outcome: list[BaseException | Analysis] = []

    def run() -> None:
        try:
            outcome.append(analyse(_start(), ACTIONS, kept=kept, workers=1))
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + BOUND
    while not (workers := multiprocessing.active_children()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert workers, "no worker started"
    for worker in workers:
        os.kill(worker.pid or 0, signal.SIGKILL)
    thread.join(BOUND)
    assert not thread.is_alive()
    (refused,) = outcome
    assert isinstance(refused, AnalysisRefused) and "worker" in str(refused)
    assert refused.partial is not None and refused.partial.decisions == kept.decisions


_PARENT = """
import sys
import core
from table.analysis import analyse
from tests.saves.test_analysis_workers import ACTIONS, _start
print("started", flush=True)
analyse(_start(), ACTIONS, workers=2)
"""


def _children(pid: int) -> set[int]:
    """The processes ``pid`` started (from /proc: every thread's children)."""
    found: set[int] = set()
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as file:
                found.update(int(child) for child in file.read().split())
    except OSError:
        pass
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")
def test_the_workers_die_with_their_parent_even_after_kill_9() -> None:
    root = Path(__file__).resolve().parents[2]
    with tempfile.TemporaryFile() as log:
        parent = subprocess.Popen(
            [sys.executable, "-c", _PARENT], cwd=root, stdout=subprocess.PIPE, stderr=log
        )
        try:
            assert parent.stdout is not None and parent.stdout.readline() == b"started\n"
            deadline = time.monotonic() + BOUND
            while len(workers := _children(parent.pid)) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(workers) >= 2, "the workers did not start"
        finally:
            parent.kill()
            parent.wait()
        deadline = time.monotonic() + 10.0
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers), "a worker outlived its parent"


# ---------------------------------------------------------------- a game of this machine


def test_session_analysis_keeps_its_result_in_the_save(store: saves.SaveStore) -> None:
    session = finished_session(store)
    assert session.actions == ACTIONS
    session.keep_analysis(_kept_but_the_end())
    source = SessionAnalysis(session, workers=1)
    assert source.kept == _kept_but_the_end() and source.note is None
    seen: list[Progress] = []
    result = source.run(None, seen.append, threading.Event())
    assert result.complete and seen[-1].done == seen[-1].total == len(EVERYONE)
    assert store.watch("done").analysis == result == source.kept


def test_session_analysis_of_one_player_keeps_the_others(store: saves.SaveStore) -> None:
    session = finished_session(store)
    everyone = made_up(STATES, ACTIONS)
    session.keep_analysis(everyone)
    result = SessionAnalysis(session, workers=1).run((0,), lambda step: None, threading.Event())
    assert result == everyone


def test_session_analysis_refuses_a_game_not_over(store: saves.SaveStore) -> None:
    session = saves.Session.new(store, finished_session(store).seats, seed=3, name="going")
    with pytest.raises(AnalysisRefused, match="once it is over"):
        SessionAnalysis(session).run(None, lambda step: None, threading.Event())


def test_a_judgement_that_fails_is_said_not_raised_as_is() -> None:
    """A judgement raising in its worker (here: asked of an action not legal where it is
    judged) ends the run with a sentence, not the worker's exception."""
    index = EVERYONE[-1]
    legal = set(core.legal_actions(STATES[index]))
    illegal = next(action for action in ACTIONS if action not in legal)
    with pytest.raises(table_analysis._WorkerDied, match="could not be judged"):
        list(table_analysis._run([(STATES[index], illegal, index, 0)], None, 1, None))
