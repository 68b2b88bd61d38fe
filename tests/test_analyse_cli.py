"""`mykerinos analyse NAME|FILE`: the JSON document and its invariants, the report in
words, --player, a game not over, hostile files, a second run that starts no process,
a read-only file, Ctrl+C that keeps what is done.

To stay quick, the game analysed is a 2-player game whose last decisions are searched
exactly (a fraction of a second); its earlier decisions are made up and kept beforehand
(tests/saves/test_analysis.py), so only the end is judged for real, in worker processes.
A second run is checked by the absence of any worker pool, never by a time.
"""

from __future__ import annotations

import json
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

import core
import saves
from core.analysis import decisions
from saves.analysis import ROUNDING, read_game
from table import analysis as table_analysis
from tests.saves.corpus import CASES, Case, fingerprint, write_case
from tests.saves.helpers import Clock, hot_seat
from tests.saves.test_analysis import HOSTILE, finished_session, made_up
from tests.saves.test_analysis_workers import _children
from tests.tui.test_closed_pipe import reader_gone
from tui.__main__ import main

REAL = 6
"""Decisions at the end of the game judged for real (exactly)."""
BOUND = 60.0
"""Seconds after which a wait counts as a hang (a bound, not a timing)."""
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def store(tmp_path: Path) -> saves.SaveStore:
    return saves.SaveStore(tmp_path / "saves", clock=Clock())


@pytest.fixture
def game(store: saves.SaveStore) -> saves.Session:
    """The finished game "done", its decisions but the last :data:`REAL` kept made up."""
    session = finished_session(store)
    states, actions = session.states(), list(session.actions)
    everyone = decisions(states, actions)
    session.keep_analysis(made_up(states, actions, everyone[:-REAL], complete=False))
    session.close()
    return session


def _no_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(workers: int, cards: str | None) -> None:
        raise AssertionError("a worker pool was started")

    monkeypatch.setattr(table_analysis, "start_pool", refuse)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["analyse", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], store: saves.SaveStore, *argv: str) -> Any:
    code, out, err = _run(capsys, "--save-dir", str(store.folder), "done", "--json", *argv)
    assert code == 0, err
    return json.loads(out)


def _check_document(document: Any, game: saves.Session, players: list[str]) -> None:
    """The shape of the issue, and what each decision must be."""
    assert set(document) == {"decisions", "players"}
    assert list(document["players"]) == players
    for summary in document["players"].values():
        assert set(summary) == {"mean_loss", "mistakes", "blunders"}
    indexes = [decision["index"] for decision in document["decisions"]]
    assert indexes == sorted(set(indexes))
    states = game.states()
    keys = {"index", "season", "player", "played", "best", "loss", "exact", "values"}
    for decision in document["decisions"]:
        assert set(decision) == keys
        index, values = decision["index"], decision["values"]
        assert decision["played"] == core.format_action(game.actions[index])
        assert decision["player"] == game.seats[states[index].current].name in players
        assert decision["season"] == states[index].season
        loss = values[decision["best"]] - values[decision["played"]]
        assert decision["loss"] >= 0 and abs(decision["loss"] - loss) <= ROUNDING
        assert max(values.values()) <= values[decision["best"]] + ROUNDING


def test_json_holds_every_decision_and_the_analysis_is_kept(
    capsys: pytest.CaptureFixture[str], store: saves.SaveStore, game: saves.Session
) -> None:
    document = _json(capsys, store)
    _check_document(document, game, ["Ann", "Bob"])
    everyone = decisions(game.states(), list(game.actions))
    assert [d["index"] for d in document["decisions"]] == everyone
    assert all(d["exact"] for d in document["decisions"][-REAL:])
    kept = store.watch("done").analysis
    assert kept is not None and kept.complete and len(kept.decisions) == len(everyone)


def test_a_second_run_starts_no_process_and_says_the_same(
    capsys: pytest.CaptureFixture[str],
    store: saves.SaveStore,
    game: saves.Session,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = _json(capsys, store)
    before = fingerprint(game.path)
    _no_pool(monkeypatch)
    assert _json(capsys, store) == first
    assert fingerprint(game.path) == before  # nothing new: not even written again


def test_one_players_decisions(
    capsys: pytest.CaptureFixture[str], store: saves.SaveStore, game: saves.Session
) -> None:
    document = _json(capsys, store, "--player", "Bob")
    _check_document(document, game, ["Bob"])
    assert {d["player"] for d in document["decisions"]} == {"Bob"}
    code, _, err = _run(capsys, "--save-dir", str(store.folder), "done", "--player", "Zed")
    assert code == 2 and "no player 'Zed'" in err and "'Ann', 'Bob'" in err


def test_the_report_in_words_fits_80_columns(
    capsys: pytest.CaptureFixture[str], store: saves.SaveStore, game: saves.Session
) -> None:
    code, out, _ = _run(capsys, "--save-dir", str(store.folder), "done")
    assert code == 0
    assert "Ann" in out and "Bob" in out and "mean loss" in out
    assert "at least 2 points is a" in out.replace("\n", " ") and "at least 5, a blunder" in out
    assert "Turning points:" in out and "would have been worth" in out
    assert f"The last {REAL} decisions were searched exactly" in out.replace("\n", " ")
    assert max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize("how", [[], ["--json"]], ids=["words", "json"])
def test_a_report_to_a_reader_gone_ends_quietly(
    how: list[str],
    store: saves.SaveStore,
    game: saves.Session,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`mykerinos analyse done | head -1`: no crash report, status 0; the analysis kept."""
    with reader_gone(monkeypatch, tmp_path / "data") as said:
        status = main(["analyse", "--save-dir", str(store.folder), "done", *how])
    assert status == 0
    assert "unexpected error" not in said.getvalue() and "Traceback" not in said.getvalue()
    assert not (tmp_path / "data").exists()  # no crash report
    kept = store.watch("done").analysis
    assert kept is not None and kept.complete


def test_a_game_not_over_is_refused(
    capsys: pytest.CaptureFixture[str], store: saves.SaveStore
) -> None:
    saves.Session.new(store, hot_seat(2), seed=3, name="going").close()
    code, out, err = _run(capsys, "--save-dir", str(store.folder), "going")
    assert code == 2 and not out
    assert "'going' is not finished: a game can be analysed once it is over" in err


def test_an_exported_file_keeps_its_analysis_and_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: saves.Session
) -> None:
    exported = tmp_path / "exports" / "table 3.json"
    exported.parent.mkdir()
    exported.write_bytes(game.path.read_bytes())
    code, _, err = _run(capsys, str(exported), "--json")
    assert code == 0 and "kept with the game in" in err and str(exported) in err
    analysis = read_game(exported)[2]
    assert analysis is not None and analysis.complete
    assert sorted(p.name for p in exported.parent.iterdir()) == ["table 3.json"]


def test_a_read_only_file_is_printed_and_left_as_it_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: saves.Session
) -> None:
    exported = tmp_path / "export.json"
    exported.write_bytes(game.path.read_bytes())
    exported.chmod(stat.S_IRUSR | stat.S_IRGRP)
    before = fingerprint(exported)
    code, out, err = _run(capsys, str(exported), "--json")
    assert code == 0 and json.loads(out)["decisions"]
    assert "is read-only: the analysis is printed, not kept" in err
    assert fingerprint(exported) == before


@pytest.mark.parametrize("case", [c for c in CASES if not c.loads], ids=lambda c: c.id)
def test_a_hostile_file_is_one_line_and_no_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: Case
) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    path = write_case(case, folder, "hostile")
    before = fingerprint(path)
    for spec in (["--save-dir", str(folder), "hostile"], [str(path)]):
        code, out, err = _run(capsys, *spec)
        assert code == 2 and not out
        assert err.count("\n") == 1 and case.words is not None and case.words in err
        assert saves.printable(err.rstrip("\n")) == err.rstrip("\n")
    assert fingerprint(path) == before


@pytest.mark.parametrize(
    ("edit", "words"), [h[1:] for h in HOSTILE[:6]], ids=[h[0] for h in HOSTILE[:6]]
)
def test_a_hostile_analysis_is_said_and_made_again(
    capsys: pytest.CaptureFixture[str],
    store: saves.SaveStore,
    game: saves.Session,
    edit: Any,
    words: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kept analysis is left out with a note on stderr; the game is analysed again
    (here: judged by a stand-in, the point being what is kept) and kept whole."""
    whole = made_up(game.states(), list(game.actions))
    document = json.loads(game.path.read_bytes())
    document["analysis"] = json.loads(msgspec.json.encode(whole))
    edit(document["analysis"])
    for judgement in document["analysis"]["decisions"]:
        if judgement.get("index") is None:
            judgement["index"] = 0
    game.path.write_text(json.dumps(document), encoding="utf-8")
    monkeypatch.setattr(table_analysis, "_run", lambda jobs, *rest: iter(_judged(jobs, whole)))
    code, _, err = _run(capsys, "--save-dir", str(store.folder), "done", "--json")
    assert code == 0 and words in err and "left out" in err
    assert store.watch("done").analysis == whole


def _judged(jobs: list[Any], whole: Any) -> list[Any]:
    """The made-up judgements of the jobs asked (a stand-in for the workers)."""
    by_index = {j.index: j for j in whole.decisions}
    return [by_index[job[2]] for job in jobs]


# ---------------------------------------------------------------- processes


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")
def test_ctrl_c_stops_prints_and_keeps_what_is_done(store: saves.SaveStore) -> None:
    """Two slow decisions of season 1 left to judge: Ctrl+C once the workers run ends it
    with status 130, the JSON of what is done on stdout, and that kept in the save."""
    session = finished_session(store)
    states, actions = session.states(), list(session.actions)
    everyone = decisions(states, actions)
    session.keep_analysis(made_up(states, actions, everyone[2:], complete=False))
    session.close()
    command = [sys.executable, "-m", "tui", "analyse", "--save-dir", str(store.folder), "done"]
    child = subprocess.Popen(
        [*command, "--json"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + BOUND
        while not _children(child.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _children(child.pid), "no worker started"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=BOUND)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == 130, err
    assert b"Traceback" not in out + err
    assert len(json.loads(out)["decisions"]) >= len(everyone) - 2
    kept = store.watch("done").analysis
    assert kept is not None and not kept.complete and len(kept.decisions) >= len(everyone) - 2


def test_the_command_loads_no_textual_and_is_listed() -> None:
    code = (
        "import sys\n"
        "import tui.analyse_cli\n"
        "assert 'textual' not in sys.modules and 'rich' not in sys.modules, 'UI loaded'\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
    help_text = subprocess.run(
        [sys.executable, "-m", "tui", "--help"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    assert "mykerinos analyse" in help_text


def test_progress_is_one_line_rewritten(capsys: pytest.CaptureFixture[str]) -> None:
    from table.analysis import Progress
    from tui.analyse_cli import show_progress

    show_progress(Progress(12, 38, 10.0, 40.2))
    show_progress(Progress(13, 38, 11.0, None))
    err = capsys.readouterr().err
    first, second = err.split("\r")[1:]
    assert first.startswith("Analysing: 12/38 decisions, about 40 s left — Ctrl+C stops")
    assert second.startswith("Analysing: 13/38 decisions, estimating the time left")
    assert "\n" not in err
