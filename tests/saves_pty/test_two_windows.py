"""Two real processes on one save folder, as the same player logged in twice: one holds
the game, the other is refused, watches, or takes it over; after a take-over the first
cannot write; and every move acknowledged to either is in the final file.

The processes are tests/saves_pty/window.py, driven line by line over pipes, so the
steps are in a known order while the locking between them is the real thing (separate
processes, real flock, real fsync).
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import saves

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs flock")

WINDOW = Path(__file__).with_name("window.py")
TIMEOUT = 20.0
Answer = dict[str, Any]


class Window:
    """window.py in its own process; :meth:`ask` sends a command and reads the answer."""

    def __init__(self, folder: Path, seed: int, *options: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(WINDOW), str(folder), str(seed), *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.pid = self.process.pid
        self._answers: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.answer() == {"ready": True}

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._answers.put(line)

    def send(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def answer(self) -> Answer:
        try:
            line = self._answers.get(timeout=TIMEOUT)
        except queue.Empty:
            self.process.kill()
            raise AssertionError("the window did not answer in time") from None
        answer: Answer = json.loads(line)
        return answer

    def ask(self, command: str) -> Answer:
        self.send(command)
        return self.answer()

    def answers_until_done(self) -> list[Answer]:
        """The answers to a ``play`` command, up to its ``done``."""
        answers = []
        while (answer := self.answer()) != {"done": True}:
            answers.append(answer)
        return answers

    def play(self, moves: int) -> list[Answer]:
        self.send(f"play {moves}")
        return self.answers_until_done()

    def quit(self) -> None:
        self.send("quit")
        try:
            self.process.wait(timeout=TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()


@pytest.fixture
def windows(tmp_path: Path):
    """Two windows on one save folder; both are ended after the test, whatever happens."""
    started: list[Window] = []

    def start(seed: int, *options: str) -> Window:
        started.append(Window(tmp_path, seed, *options))
        return started[-1]

    yield start
    for window in started:
        window.quit()


def _acks(answers: list[Answer]) -> list[tuple[int, str]]:
    return [(a["ack"], a["move"]) for a in answers if "ack" in a]


def _check_every_ack_is_saved(folder: Path, name: str, acks: list[tuple[int, str]]) -> int:
    """Each acknowledged (index, move) is in the file at its index; the log's length."""
    import core

    actions = saves.SaveStore(folder).read(name)[0].actions
    assert [core.format_action(actions[index]) for index, _ in acks] == [m for _, m in acks]
    return len(actions)


def test_second_window_is_refused_watches_and_takes_over(tmp_path: Path, windows) -> None:
    """A holds the game; B is told who holds it, watches A's moves arrive, takes it over;
    A is then refused (and stays refused) without losing a move of its own."""
    a, b = windows(1), windows(2)
    assert a.ask("new g")["ok"]
    acks = _acks(a.play(5))
    refused = b.ask("open g")
    assert refused["error"] == "GameOpenElsewhere"
    assert (
        f"pid {a.pid}" in refused["message"]
        and "open in another window since" in (refused["message"])
    )
    assert b.ask("watch g") == {"ok": True, "actions": 5}
    acks += _acks(a.play(3))
    assert b.ask("refresh") == {"changed": True, "actions": 8}
    assert b.ask("refresh") == {"changed": False, "actions": 8}
    assert b.play(1)[0]["refused"] == "ReadOnly", "a watching window never writes"
    assert b.ask("take g") == {"ok": True, "actions": 8}
    for _ in range(2):
        [taken] = a.play(1)
        assert taken["refused"] == "TakenOver" and taken["actions"] == 8
        assert f"pid {b.pid}" in taken["message"] and "taken over" in taken["message"]
    acks += _acks(b.play(4))
    assert a.ask("close") == b.ask("close") == {"ok": True}
    assert _check_every_ack_is_saved(tmp_path, "g", acks) == 12
    assert saves.SaveStore(tmp_path).open_elsewhere("g") is None


def test_take_over_in_the_middle_of_a_stream_of_moves_loses_nothing(
    tmp_path: Path, windows
) -> None:
    """A plays as fast as it can; B takes over at some moment of it: A's last move is
    either saved and acknowledged before B reads the game, or refused; never lost."""
    a, b = windows(3), windows(4)
    for round_ in range(3):
        name = f"race {round_}"
        assert a.ask(f"new {name}")["ok"]
        a.send("play 100000")
        streamed = [a.answer() for _ in range(4 + round_ * 3)]
        taken = b.ask(f"take {name}")
        streamed += a.answers_until_done()
        assert streamed[-1]["refused"] == "TakenOver", "the game ended before the take-over"
        a_acks = _acks(streamed)
        assert taken["actions"] == len(a_acks), "B read every move A acknowledged, no more"
        b_acks = _acks(b.play(5))
        assert a.ask("close") == b.ask("close") == {"ok": True}
        length = _check_every_ack_is_saved(tmp_path, name, a_acks + b_acks)
        assert length == len(a_acks) + 5


def test_new_games_started_in_the_same_second_get_their_own_files(tmp_path: Path, windows) -> None:
    """Two processes with the same frozen clock start 15 games each at the same moment:
    30 names, 30 files, each game loads as its own."""
    a, b = windows(5, "--frozen-clock"), windows(6, "--frozen-clock")
    a.send("new-auto 15")
    b.send("new-auto 15")
    names = a.answer()["names"] + b.answer()["names"]
    assert len(set(names)) == 30
    store = saves.SaveStore(tmp_path)
    assert store.names() == set(names)
    assert all(row.error is None for row in store.list())
