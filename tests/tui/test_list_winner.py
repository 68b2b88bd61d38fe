"""`mykerinos --list` says who won a finished game, by core's final scores and tie-break
(issue 18 #15: it said "finished, leader Ben"), and who leads one still being played."""

from __future__ import annotations

import random

import pytest

import core
import saves
from tests.tui.conftest import HOT_SEAT_3, session_for
from tui.__main__ import main


def _finished(store: saves.SaveStore, seed: int, name: str) -> core.FinalScores:
    """A three-player game played to its end by seeded random choices; its final scores."""
    session = session_for(store, HOT_SEAT_3, seed=seed, name=name)
    rng = random.Random(seed)
    while not session.finished:
        session.apply(rng.choice(sorted(core.legal_actions(session.state), key=core.format_action)))
    session.close()
    return core.final_scores(session.state)


def _line(store: saves.SaveStore, name: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["--save-dir", str(store.folder), "--list"]) == 0
    out = capsys.readouterr().out
    return next(line for line in out.splitlines() if line.strip().startswith(name))


def _names(seats: tuple[int, ...]) -> list[str]:
    return [HOT_SEAT_3[seat].name for seat in seats]


def test_a_finished_game_names_its_winner(store, capsys) -> None:
    """One winner: "finished, won by NAME", and no "leader" any more."""
    scores = _finished(store, seed=7, name="done")
    assert len(scores.winners) == 1
    line = _line(store, "done", capsys)
    assert line.endswith(f"— finished, won by {_names(scores.winners)[0]}")
    assert "leader" not in line


def test_a_tie_break_decides_the_winner_named(store, capsys) -> None:
    """Tied on points, the most cubes in stock wins (RULES.md §5): the list names that
    player alone, as the final scores do, not both tied players."""
    scores = _finished(store, seed=82, name="tiebreak")
    assert scores.tie_break_used and len(scores.winners) == 1, "the seed no longer ties"
    best = max(p.total for p in scores.players)
    tied = [p.seat for p in scores.players if p.total == best]
    assert len(tied) > 1
    line = _line(store, "tiebreak", capsys)
    assert line.endswith(f"— finished, won by {_names(scores.winners)[0]}")


def test_a_shared_win_names_both(store, capsys) -> None:
    """Still tied after the tie-break: "finished, A and B share the win"."""
    scores = _finished(store, seed=80, name="shared")
    assert len(scores.winners) == 2, "the seed no longer ends in a shared win"
    first, second = _names(scores.winners)
    line = _line(store, "shared", capsys)
    assert line.endswith(f"— finished, {first} and {second} share the win")


def test_a_game_going_on_names_its_leader(store, capsys) -> None:
    """Before the end the line gives the season and who leads, as before."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="going")
    rng = random.Random(7)
    while session.state.season < 2:
        session.apply(rng.choice(sorted(core.legal_actions(session.state), key=core.format_action)))
    session.close()
    line = _line(store, "going", capsys)
    assert f"— season 2, leader {saves.leader(session.state)}" in line
    assert "finished" not in line


def test_three_winners_read_as_a_list() -> None:
    """The words for any number of winners (a four-way tie cannot be set up by a seed)."""
    from datetime import UTC, datetime

    from tui.__main__ import standing

    row = saves.SaveSummary(
        "g", "g", ["Ann", "Ben", "Cleo"], 4, None, datetime.now(UTC), True,
        winners=("Ann", "Ben", "Cleo"),
    )  # fmt: skip
    assert standing(row) == "finished, Ann, Ben and Cleo share the win"
