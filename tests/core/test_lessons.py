"""The lessons (issue 28): each can be completed, a wrong try is refused in the rules' own
words and leaves the step, a legal miss says why, and the ideas tell true rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import core
from core.lessons import LESSONS, attempt, lesson
from core.lessons.positions import check_position, position
from core.region import parse_space

RULES = " ".join(
    (Path(__file__).resolve().parents[2] / "docs" / "RULES.md").read_text(encoding="utf-8").split()
)
"""docs/RULES.md with its line breaks as spaces, to find its sentences."""

SOLUTIONS: dict[str, tuple[str, ...]] = {
    "board": ("A b4", "A d1"),
    "start": ("A c3",),
    "extend": ("B e2 f2", "B g2 h2"),
    "pass": ("pass",),
    "survey": ("take P2", "book T1"),
    "museum": ("book F1", "book D12"),
    "violet": ("violet c4", "A e5"),
    "lemon": ("lemon b2", "A e5"),
    "brown": ("brown T3", "A e5"),
    "blackmore": ("blackmore g6 h6", "A e5"),
    "tangerine": ("tangerine d3 e3 f3", "A e5"),
    "scoring": ("take P1", "take P3"),
    "neutral": ("A d5", "nA a6"),
}
"""One correct action per step of every lesson."""

ILLEGAL: dict[str, tuple[int, str]] = {
    "board": (0, "A b5"),
    "start": (0, "A d4"),
    "extend": (0, "B a6 b6"),
    "pass": (0, "take P1"),
    "survey": (0, "A c3"),
    "museum": (0, "book F3"),
    "violet": (0, "violet b2"),
    "lemon": (0, "lemon a1"),
    "brown": (0, "brown F1"),
    "blackmore": (0, "blackmore a1 c1"),
    "tangerine": (0, "tangerine a6 b6 c6"),
    "scoring": (0, "A c3"),
    "neutral": (0, "nA a1"),
}
"""An illegal try for a step of every lesson."""

MISSES: dict[str, tuple[int, str, str]] = {
    "board": (0, "A a1", "area 3 is the lower left one"),
    "start": (0, "pass", "this task is a start"),
    "extend": (0, "B c2 c3", "both cubes stayed in area 1"),
    "pass": (0, "A a1", "this task is to pass"),
    "survey": (0, "take P1", "P2 is worth 3 points"),
    "museum": (0, "book T2", "Violet 5-room"),
    "violet": (0, "A a1", "Lady Violet"),
    "lemon": (0, "A a1", "Lord Lemon"),
    "scoring": (0, "take P2", "another choice adds 6"),
    "neutral": (1, "nskip", "placing none is allowed"),
    "brown": (0, "A a1", "Sir Brown"),
    "blackmore": (0, "B b3 a3", "Mrs. Blackmore"),
    "tangerine": (0, "B d3 e3", "Colonel Tangerine"),
}
"""A legal try that misses a step's task, and words of its check."""


def _to_step(key: str, step: int) -> core.GameState:
    """The position at ``step`` of a lesson, reached by the scripted solution."""
    chosen = lesson(key)
    state = chosen.start()
    for text in SOLUTIONS[key][:step]:
        state = attempt(chosen, SOLUTIONS[key].index(text), state, core.parse_action(text)).state
    return state


def test_every_lesson_has_a_solution_and_a_wrong_try() -> None:
    keys = [chosen.key for chosen in LESSONS]
    assert len(set(keys)) == len(keys)
    assert set(SOLUTIONS) == set(keys) == set(ILLEGAL)
    for key in (
        "board", "start", "extend", "pass", "survey", "museum", "violet", "lemon",
        "brown", "blackmore", "tangerine", "scoring", "neutral",
    ):  # fmt: skip
        assert key in keys


def test_an_unknown_lesson_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        lesson("chess")


@pytest.mark.parametrize("key", list(SOLUTIONS))
def test_the_scripted_solution_finishes_the_lesson(key: str) -> None:
    chosen = lesson(key)
    state = chosen.start()
    check_position(state)
    assert state.current_player == 0
    assert len(SOLUTIONS[key]) == len(chosen.steps)
    for step, text in enumerate(SOLUTIONS[key]):
        outcome = attempt(chosen, step, state, core.parse_action(text))
        assert outcome.done, (key, step, outcome.words)
        assert outcome.words == chosen.steps[step].why
        assert outcome.finished is (step == len(chosen.steps) - 1)
        state = outcome.state
        if not outcome.finished:
            assert state.current_player == 0, (key, step)


@pytest.mark.parametrize("key", list(ILLEGAL))
def test_an_illegal_try_gets_the_rules_words_and_the_step_stays(key: str) -> None:
    step, text = ILLEGAL[key]
    state = _to_step(key, step)
    action = core.parse_action(text)
    with pytest.raises(core.IllegalActionError) as refusal:
        core.apply_action(state, action)
    outcome = attempt(lesson(key), step, state, action)
    assert outcome.words == refusal.value.reason  # as a game's screen says it
    assert outcome.state is state
    assert not outcome.done and not outcome.finished


@pytest.mark.parametrize("key", list(MISSES))
def test_a_legal_miss_says_why_and_undoes(key: str) -> None:
    step, text, words = MISSES[key]
    state = _to_step(key, step)
    action = core.parse_action(text)
    core.apply_action(state, action)  # legal
    outcome = attempt(lesson(key), step, state, action)
    assert words in outcome.words
    assert outcome.state is state
    assert not outcome.done


@pytest.mark.parametrize("key", ["violet", "lemon", "brown", "blackmore", "tangerine"])
def test_a_turned_card_cannot_be_used_again_this_season(key: str) -> None:
    state = _to_step(key, 1)
    patron = core.Patron[key.upper()]
    outcome = attempt(lesson(key), 1, state, core.parse_action(SOLUTIONS[key][0]))
    assert f"you have no untilted {patron.title} card" in outcome.words
    assert not outcome.done


def test_a_reply_finds_another_space_when_the_learner_took_its_own() -> None:
    chosen = lesson("violet")
    outcome = attempt(chosen, 0, chosen.start(), core.parse_action("violet h1"))
    assert outcome.done and outcome.state.current_player == 0
    assert outcome.state.cubes[1].bit_count() == 2  # f2, and a start elsewhere than h1
    assert outcome.state.cubes[0] >> parse_space("h1") & 1


@pytest.mark.parametrize("key", list(SOLUTIONS))
def test_every_legal_try_at_the_first_step_is_handled(key: str) -> None:
    """Whatever legal action the learner tries first, ``attempt`` answers: a miss undoes,
    a success plays the replies through to the learner's turn again (or finishes)."""
    chosen = lesson(key)
    state = chosen.start()
    successes = 0
    for action in core.legal_actions(state):
        outcome = attempt(chosen, 0, state, action)
        assert outcome.words
        if not outcome.done:
            assert outcome.state is state
            continue
        successes += 1
        if not outcome.finished:
            assert outcome.state.current_player == 0, (key, core.format_action(action))
            assert core.legal_actions(outcome.state)
    assert successes >= 1


def test_a_step_out_of_range_is_an_index_error() -> None:
    chosen = lesson("start")
    with pytest.raises(IndexError):
        attempt(chosen, 5, chosen.start(), core.Pass())


def test_the_scoring_lesson_agrees_with_final_scores() -> None:
    chosen = lesson("scoring")
    state = chosen.start()
    before = core.final_scores(state).players[0].total
    after = attempt(chosen, 0, state, core.parse_action("take P1")).state
    gained = core.final_scores(after).players[0].total - before
    assert gained == 6  # a Brown card: the series of five (+5) and its own exhibition 1


def test_a_position_whose_cubes_do_not_add_up_is_refused() -> None:
    with pytest.raises(ValueError):
        position("\n".join(["B B B B B B B B"] * 6), stock={0: 11})  # 48 cubes on the region


def test_the_ideas_tell_the_rules_numbers() -> None:
    museum = lesson("museum").idea + lesson("scoring").idea
    for room in ("5-room", "3-room", "2-room"):
        assert room in museum and room in RULES
    scoring = lesson("scoring").idea
    assert "5 (its 5-room), 3 (its 3-room), 2 (a 2-room" in scoring
    assert "5 (the wing's 5-room), 3 (the wing's 3-room), 2 (a 2-room" in RULES
    assert "series of the five different patrons scores 5" in scoring
    assert "5 points for every complete set of the five different patrons" in RULES
    assert "2 spaces wide and 3 tall" in lesson("board").idea
    assert "2 spaces wide and 3 spaces tall" in RULES
    assert "8 parcels" in lesson("board").idea and "| 1, 2, 3 | 8 |" in RULES
    assert "space 2" in lesson("neutral").idea and "sits on space 2" in RULES
    assert "4 neutral cubes" in lesson("neutral").idea and "4 neutral cubes" in RULES
    assert "3 cubes" in lesson("tangerine").idea and "3 cubes from stock in a chain" in RULES
    assert "lower passing space" in lesson("survey").idea
    assert "lower passing-scale space" in RULES


def test_every_lesson_has_words_for_the_screen() -> None:
    for chosen in LESSONS:
        assert chosen.title and chosen.idea and chosen.steps
        assert not re.search(r"\[[a-z/]", chosen.idea)  # no markup in the words
        for step in chosen.steps:
            assert step.prompt and step.why
            assert len(step.why) <= 100
