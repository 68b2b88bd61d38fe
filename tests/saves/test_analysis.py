"""The analysis kept in a save: checked against its game on load (a hostile one is left
out with a sentence, the game loads whole), kept by every autosave, kept into a finished
or watched game without ever changing its moves, merged with what was kept.

The judgements here are made up but coherent (:func:`made_up`): what is checked is how a
save keeps them, not how the computer judges (tests/core/test_analysis*.py).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

import core
import saves
from core.analysis import ANALYSIS_VERSION, Analysis, Judgement, decisions
from core.moves import legal_codes
from saves.analysis import check_analysis, keep_in_file, merged, read_game
from tests.saves.helpers import hot_seat

GAME_SEED = 5
"""A 2-player game whose last decisions are all judged exactly, and quickly."""


def finished_actions(seed: int = GAME_SEED, players: int = 2) -> list[core.Action]:
    """The actions of a random finished game of ``players`` (seeded like ``hot_seat``)."""
    seats = hot_seat(players)
    state = core.new_game(
        players, seed, names=[s.name for s in seats], colours=[s.colour for s in seats]
    )
    rng, log = random.Random(seed), list[core.Action]()
    while not core.is_over(state):
        log.append(rng.choice(core.legal_actions(state)))
        state = core.apply_action(state, log[-1])
    return log


def finished_session(
    store: saves.SaveStore, name: str = "done", seed: int = GAME_SEED, players: int = 2
) -> saves.Session:
    """A finished hot-seat game saved as ``name``, held by the returned session."""
    session = saves.Session.new(store, hot_seat(players), seed=seed, name=name)
    for action in finished_actions(seed, players):
        session.apply(action)
    assert session.finished
    return session


LOSSES = (0.0, 0.5, 2.5, 6.0)
"""Made-up losses, in turn: nothing, a little, a mistake, a blunder."""


def made_up(
    states: list[core.GameState],
    actions: list[core.Action],
    indexes: list[int] | None = None,
    *,
    seed: int = 0,
    complete: bool | None = None,
) -> Analysis:
    """A coherent analysis of the game (every decision, or those of ``indexes``): each
    judgement values what was played and, when it lost something, another legal action."""
    wanted = decisions(states, actions) if indexes is None else indexes
    judgements = []
    for number, index in enumerate(wanted):
        state, action = states[index], actions[index]
        played = core.format_action(action)
        loss = LOSSES[number % len(LOSSES)]
        other = next(c for c in legal_codes(state) if c != core.actions.to_code(action))
        best = core.format_action(core.actions.from_code(other)) if loss else played
        judgements.append(
            Judgement(
                index=index,
                season=state.season,
                seat=state.current,
                played=played,
                best=best,
                loss=loss,
                values={best: 1.0 + loss, played: 1.0},
                margins=tuple(float(seat) for seat in range(len(state.players))),
                exact=index > len(actions) - 4,
            )
        )
    everyone = decisions(states, actions)
    return Analysis(
        version=ANALYSIS_VERSION,
        seed=seed,
        seats=tuple(range(len(states[0].players))),
        decisions=tuple(judgements),
        complete=len(judgements) == len(everyone) if complete is None else complete,
    )


def _document(path: Path) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(path.read_bytes())
    return result


# ---------------------------------------------------------------- hostile analyses


Edit = Callable[[dict[str, Any]], object]


def _judgement(number: int, **fields: object) -> Edit:
    return lambda analysis: analysis["decisions"][number].update(fields)


def _swap(analysis: dict[str, Any]) -> None:
    decided = analysis["decisions"]
    decided[1], decided[2] = decided[2], decided[1]


def _values(number: int, change: Callable[[dict[str, float]], object]) -> Edit:
    return lambda analysis: change(analysis["decisions"][number]["values"])


def _illegal_best(analysis: dict[str, Any]) -> None:
    """The best of judgement 1 an action that was played later, and is not legal there."""
    judgement = analysis["decisions"][1]
    legal = {core.format_action(a) for a in core.legal_actions(_STATES[judgement["index"]])}
    illegal = next(core.format_action(a) for a in _ACTIONS if core.format_action(a) not in legal)
    judgement["values"] = {illegal: 9.0, judgement["played"]: 1.0}
    judgement.update(best=illegal, loss=8.0)


def _flip_seat(judgement: dict[str, Any]) -> None:
    judgement["seat"] = 1 - judgement["seat"]


_ACTIONS = finished_actions()
_STATES = core.replay(
    core.new_game(2, GAME_SEED, names=["Ann", "Bob"], colours=list(core.Colour)[:2]), _ACTIONS
)

HOSTILE: list[tuple[str, Edit, str]] = [
    ("past-the-log", _judgement(-1, index=10**6), "past the game's"),
    ("negative-index", _judgement(0, index=-1), "$.analysis.decisions[0].index"),
    ("out-of-order", _swap, "out of order"),
    ("same-index-twice", _judgement(2, index=None), "out of order"),
    ("another-move", _judgement(1, played="pass"), "was played"),
    ("escape-in-played", _judgement(1, played="\x1b[2J\x1b]0;x\x07"), "was played"),
    ("another-player", lambda a: _flip_seat(a["decisions"][1]), "another player"),
    ("another-season", _judgement(1, season=4), "another player or season"),
    ("best-not-an-action", _judgement(2, best="\x1b[31mfly"), "both what was played"),
    ("value-not-an-action", _values(2, lambda v: v.update({"[/]": 0.5})), "not an action"),
    ("best-not-legal", _illegal_best, "not legal there"),
    ("loss-too-small", _judgement(2, loss=0.0), "loss or a best"),
    ("loss-too-large", _judgement(3, loss=100.0), "loss or a best"),
    ("best-is-not-best", _values(1, lambda v: v.update({next(iter(v)): -5.0})), "loss or a best"),
    ("played-not-valued", _values(2, lambda v: v.popitem()), "both what was played"),
    ("value-out-of-range", _values(2, lambda v: v.update({next(iter(v)): 5e3})), "$.analysis"),
    ("wrong-margins", _judgement(1, margins=[0.0, 1.0, 2.0]), "a margin for each"),
    ("seat-not-at-table", lambda a: a.update(seats=[0, 1, 3]), "seat the game does not have"),
    ("seat-not-asked", lambda a: a.update(seats=[1 - a["decisions"][0]["seat"]]), "not asked"),
    ("falsely-complete", lambda a: a["decisions"].pop(), "complete"),
    ("unknown-field", _judgement(0, cheat=True), "unknown field `cheat`"),
    ("only-a-version", lambda a: [a.pop(key) for key in list(a) if key != "version"], "`seed`"),
    ("huge-loss", _judgement(0, loss=10**30), "$.analysis.decisions[0].loss"),
]


@pytest.fixture(scope="module")
def finished_document(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The JSON document of the finished game with a made-up analysis of every decision."""
    store = saves.SaveStore(tmp_path_factory.mktemp("saves"))
    session = finished_session(store)
    session.keep_analysis(made_up(session.states(), list(session.actions)))
    session.close()
    return _document(session.path)


def _fix_same_index(document: dict[str, Any]) -> None:
    decided = document["analysis"].get("decisions", [])
    for judgement in decided:
        if judgement["index"] is None:
            judgement.update(decided[decided.index(judgement) - 1])


@pytest.mark.parametrize(("edit", "words"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_a_hostile_analysis_is_left_out_and_the_game_loads_whole(
    store: saves.SaveStore, finished_document: dict[str, Any], edit: Edit, words: str
) -> None:
    """The game opens, watches and reads with every move; the analysis is not there, and
    the session says why in one plain sentence naming the file and the problem; the file
    is never changed by loading it."""
    document = json.loads(json.dumps(finished_document))
    edit(document["analysis"])
    _fix_same_index(document)
    store.folder.mkdir(parents=True, exist_ok=True)
    path = store.path("hostile")
    path.write_text(json.dumps(document), encoding="utf-8")
    before = path.read_bytes()
    for session in (store.watch("hostile"), store.open("hostile")):
        assert session.actions == _ACTIONS and session.finished
        assert session.analysis is None
        problem = session.analysis_problem
        assert problem is not None and words in problem and str(path) in problem
        assert saves.printable(problem) == problem
        session.close()
    _, states, analysis, problem = read_game(path)
    assert (analysis, len(states)) == (None, len(_ACTIONS) + 1)
    assert problem is not None and words in problem
    assert path.read_bytes() == before


def test_the_corpus_of_hostile_analyses_is_large() -> None:
    assert len(HOSTILE) >= 20 and len({h[0] for h in HOSTILE}) == len(HOSTILE)


def test_an_analysis_of_an_unfinished_game_is_left_out(store: saves.SaveStore) -> None:
    session = finished_session(store)
    analysis = made_up(session.states(), list(session.actions), complete=False)
    session.keep_analysis(analysis)
    session.close()
    document = _document(session.path)
    document["actions"] = document["actions"][:-1]
    document["analysis"]["decisions"] = [
        j for j in document["analysis"]["decisions"] if j["index"] < len(_ACTIONS) - 1
    ]
    session.path.write_text(json.dumps(document), encoding="utf-8")
    watched = store.watch("done")
    assert watched.analysis is None
    assert watched.analysis_problem is not None and "not finished" in watched.analysis_problem


def test_numbers_that_are_not_numbers_are_refused() -> None:
    """A NaN or an infinity cannot come from JSON, but an analysis built in Python is
    checked as well."""
    analysis = made_up(_STATES, _ACTIONS)
    first = analysis.decisions[0]
    for bad in (float("nan"), float("inf")):
        judgement = msgspec.structs.replace(first, margins=(bad, 0.0))
        hostile = msgspec.structs.replace(analysis, decisions=(judgement, *analysis.decisions[1:]))
        with pytest.raises(ValueError, match="not a number"):
            check_analysis(hostile, _ACTIONS, _STATES)


# ---------------------------------------------------------------- keeping it


def test_keeping_writes_only_the_analysis(store: saves.SaveStore) -> None:
    """A session that plays keeps it in its file: the moves, the title and the time of
    the last move are as before, and the analysis loads back as kept."""
    session = finished_session(store)
    before = _document(session.path)
    analysis = made_up(session.states(), list(session.actions))
    assert session.keep_analysis(analysis) == analysis
    after = _document(session.path)
    assert after.pop("analysis") == json.loads(msgspec.json.encode(analysis))
    assert after == before
    session.close()
    again = store.watch("done")
    assert again.analysis == analysis and again.analysis_problem is None


def test_every_autosave_keeps_it_and_an_undo_leaves_it_behind(store: saves.SaveStore) -> None:
    session = finished_session(store)
    analysis = made_up(session.states(), list(session.actions))
    session.keep_analysis(analysis)
    session.save_as("renamed")
    assert store.watch("renamed").analysis == analysis
    assert session.can_undo()
    session.undo()
    assert session.analysis is None
    assert store.watch("renamed").analysis is None
    session.redo()  # the same moves again: the analysis fits them, and is kept again
    assert session.analysis == analysis
    assert store.watch("renamed").analysis == analysis


def test_a_watched_game_keeps_it_without_touching_the_moves(store: saves.SaveStore) -> None:
    """The game is open in this process's playing session; a watching session (the CLI,
    a replay) keeps the analysis into the file; the player's next save keeps every move."""
    player = finished_session(store)
    watcher = store.watch("done")
    analysis = made_up(watcher.states(), list(watcher.actions))
    assert watcher.keep_analysis(analysis) == analysis
    assert store.watch("done").analysis == analysis
    player.save()  # the player's next save takes in what was kept meanwhile
    assert store.watch("done").analysis == player.analysis == analysis
    player.undo()  # the player plays on as before: every move of theirs is saved
    assert store.watch("done").actions == player.actions == _ACTIONS[: len(player.actions)]
    player.redo()
    assert store.watch("done").actions == _ACTIONS


def test_keeping_is_refused_when_the_moves_changed_meanwhile(store: saves.SaveStore) -> None:
    player = finished_session(store)
    watcher = store.watch("done")
    analysis = made_up(watcher.states(), list(watcher.actions))
    player.undo()
    before = player.path.read_bytes()
    with pytest.raises(saves.SaveError, match="changed since it was analysed"):
        store.keep_analysis("done", analysis, watcher.actions)
    assert player.path.read_bytes() == before


def test_keeping_an_analysis_of_another_game_is_a_mistake(store: saves.SaveStore) -> None:
    session = finished_session(store)
    other = finished_session(store, "other", seed=GAME_SEED + 1)
    analysis = made_up(other.states(), list(other.actions))
    with pytest.raises(ValueError):
        session.keep_analysis(analysis)
    assert store.watch("done").analysis is None


def test_a_lone_file_keeps_it_with_no_lock_file(tmp_path: Path, store: saves.SaveStore) -> None:
    """An exported game outside any save folder: kept in it, and no lock file left."""
    session = finished_session(store)
    session.close()
    lone = tmp_path / "lone"
    lone.mkdir()
    path = lone / "export.json"
    path.write_bytes(session.path.read_bytes())
    save, states, kept, problem = read_game(path)
    assert (kept, problem) == (None, None)
    analysis = made_up(states, list(save.actions))
    assert keep_in_file(path, analysis, save.actions) == analysis
    assert read_game(path)[2] == analysis
    assert sorted(p.name for p in lone.iterdir()) == ["export.json"]


# ---------------------------------------------------------------- merging


def test_one_seed_merges_and_another_never_throws_away_more() -> None:
    everyone = decisions(_STATES, _ACTIONS)
    first, second = everyone[: len(everyone) // 2], everyone[len(everyone) // 2 :]
    half = made_up(_STATES, _ACTIONS, first)
    rest = made_up(_STATES, _ACTIONS, second)
    whole = merged(half, rest, _ACTIONS, _STATES)
    assert [j.index for j in whole.decisions] == everyone and whole.complete
    check_analysis(whole, _ACTIONS, _STATES)
    other_seed = made_up(_STATES, _ACTIONS, first[:3], seed=9)
    assert merged(whole, other_seed, _ACTIONS, _STATES) == whole
    assert merged(other_seed, whole, _ACTIONS, _STATES) == whole
    stale = msgspec.structs.replace(whole, version=ANALYSIS_VERSION - 1)
    assert merged(stale, other_seed, _ACTIONS, _STATES) == other_seed


def test_one_players_analysis_merges_with_the_others() -> None:
    everyone = decisions(_STATES, _ACTIONS)
    ann = [i for i in everyone if _STATES[i].current == 0]
    bob = [i for i in everyone if _STATES[i].current == 1]
    only_ann = msgspec.structs.replace(made_up(_STATES, _ACTIONS, ann), seats=(0,), complete=True)
    only_bob = msgspec.structs.replace(made_up(_STATES, _ACTIONS, bob), seats=(1,), complete=True)
    both = merged(only_ann, only_bob, _ACTIONS, _STATES)
    assert both.seats == (0, 1) and both.complete
    assert [j.index for j in both.decisions] == everyone
