"""The computer's analysis of a finished game (core.analysis): judged right, from what the
player could know, the same for a seed; told in the game's words.

Where depth is not the point, decisions are judged with few simulations (``simulations=``)
so the tests stay quick; timings are bench/bench_analysis.py's, never the tests'."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from msgspec.structs import replace

import core
from core.actions import ActionKind, from_code, kind_of, placed_spaces, to_code
from core.ai import make_bot
from core.ai.playout import greedy_code
from core.ai.search import SAMPLES
from core.analysis import (
    BLUNDER,
    MISTAKE,
    Judgement,
    decisions,
    in_words,
    judge,
    summarise,
    turning_points,
)
from core.analysis.exact import margins
from core.analysis.report import moment, severity
from core.moves import legal_codes
from core.public import public_view
from core.rules import apply_code
from core.state import Phase
from tests.ai.positions import random_positions
from tests.core.pictures import picture, position, space
from tests.core.test_survey import REGION, surveyed

FEW = 40
"""Simulations of a decision where depth is not the point."""

_JUDGE = sys.modules["core.analysis.judging"]


def normal_game(number: int) -> tuple[list[core.GameState], list[core.Action]]:
    """A 3-player game between normal players: every position, and the actions."""
    state = core.new_game(3, number)
    bots = [make_bot("normal", number * 10 + seat) for seat in range(3)]
    actions: list[core.Action] = []
    while not core.is_over(state):
        actions.append(bots[state.current].choose(state))
        state = core.apply_action(state, actions[-1])
    return core.replay(core.new_game(3, number), actions), actions


@pytest.fixture(scope="module")
def game() -> tuple[list[core.GameState], list[core.Action]]:
    return normal_game(2)


# ---------------------------------------------------------------- the end, exactly


def _forced_end_margin(state: core.GameState, seat: int) -> float:
    """``seat``'s final margin once every remaining action (each the only one) is played."""
    while state.phase is not Phase.OVER:
        (only,) = legal_codes(state)
        state = apply_code(state, only)
    totals = [float(p.total) for p in core.final_scores(state).players]
    return margins(totals)[seat]


def test_the_last_decision_is_judged_exactly_and_its_best_is_the_best_margin() -> None:
    """After a game's last decision nothing is left to choose: playing each legal action to
    the end gives each its final margin, and the judgement is exactly that."""
    for number in (2, 3, 4):
        states, actions = normal_game(number)
        last = decisions(states, actions)[-1]
        state = states[last]
        judged = judge(state, actions[last], last)
        assert judged is not None and judged.exact
        seat = state.current
        outcome = {
            core.format_action(from_code(c)): _forced_end_margin(apply_code(state, c), seat)
            for c in legal_codes(state)
        }
        assert judged.values[judged.best] == max(outcome.values())
        for notation, value in judged.values.items():
            assert value == outcome[notation]
        assert judged.loss == pytest.approx(max(outcome.values()) - outcome[judged.played])


# ---------------------------------------------------------------- clearly better moves

# Area 1 (a-d, rows 1-3): Red 2, Blue 1; areas 2-4 won by Red and Green, 3 cubes or more.
# Red and Green have passed: Blue's last turn. Two more cubes in area 1 win it (3 to 2).
LAST_TURN = """
  a b c d | e f g h
1 . . . . | . R R .
2 . R B . | . G G .
3 . R . . | . R G .
4 . . G R | . G R .
5 . . G R | . G R .
6 . . G R | . . . .
"""
AREA_1 = {space(f"{c}{r}") for c in "abcd" for r in "123"}


def last_turn() -> core.GameState:
    return position(
        LAST_TURN,
        players=3,
        current=0,
        first_player=1,
        passing=(1, 2, -1),
        last_turn=True,
        region=REGION,
    )


@pytest.mark.parametrize("played", ["pass", "A a6"])
def test_a_placement_that_wins_an_area_is_found(played: str) -> None:
    """Passing, or a cube where it changes nothing, when two cubes would win the area."""
    state = last_turn()
    judged = judge(state, core.parse_action(played), 9, simulations=FEW)
    assert judged is not None, picture(state)
    best = core.parse_action(judged.best)
    assert set(placed_spaces(best)) <= AREA_1 and len(placed_spaces(best)) == 2, judged
    assert judged.loss > 0
    if played == "pass":
        assert judged.loss >= MISTAKE, judged


# Blue alone in area 1 chooses first: P1 is Violet's 3, P2 Violet's card worth nothing.
ALONE = """
  a b c d | e f g h
1 B B . . | R R . .
2 . . . . | G G . .
3 . . . . | . . . .
4 . . . . | . . . .
5 . . . . | . . . .
6 . . . . | . . . .
"""


def test_a_survey_choice_of_the_parcel_worth_more_is_found() -> None:
    state = surveyed(ALONE, (1, 2, 0))
    assert state.current == 0
    judged = judge(state, core.parse_action("take P2"), 20, simulations=FEW)
    assert judged is not None
    assert judged.best == "take P1"
    assert judged.loss >= MISTAKE, judged


# ---------------------------------------------------------------- judged on what was known


def test_the_real_deck_order_beyond_what_was_dealt_never_changes_a_judgement(game) -> None:
    """For decisions of seasons 1-3 (the last survey choice of a season, which deals the
    next parcels, among them), the same judgement whatever the undealt order."""
    states, actions = game
    chosen: dict[tuple[int, bool], int] = {}
    for index in decisions(states, actions):
        state = states[index]
        if state.season < 4:
            ends = state.phase is Phase.SURVEY and states[index + 1].season != state.season
            chosen.setdefault((state.season, ends), index)
    assert {season for season, _ in chosen} == {1, 2, 3}
    assert any(ends for _, ends in chosen)
    for index in chosen.values():
        state = states[index]
        deck = list(state.deck)
        random.Random(index).shuffle(deck)
        other = replace(state, deck=tuple(deck))
        assert other.deck != state.deck
        assert judge(state, actions[index], index, seed=3, simulations=FEW) == judge(
            other, actions[index], index, seed=3, simulations=FEW
        )


def test_the_same_seed_gives_the_same_judgement_and_another_may_not(game) -> None:
    states, actions = game
    indexes = [i for i in decisions(states, actions) if states[i].season == 2][:4]
    first = [judge(states[i], actions[i], i, seed=5, simulations=FEW) for i in indexes]
    again = [judge(states[i], actions[i], i, seed=5, simulations=FEW) for i in indexes]
    other = [judge(states[i], actions[i], i, seed=6, simulations=FEW) for i in indexes]
    assert first == again
    assert first != other


def test_the_playouts_choose_exactly_as_the_hard_computers() -> None:
    """The analysis remembers its playouts' judgements; it must still choose each action,
    and draw each random number, as :func:`core.ai.playout.greedy_code` does."""
    checked = 0
    for players in (2, 3, 4):
        for state in random_positions(players, seed=players, every=5):
            if state.phase is Phase.OVER:
                continue
            view = public_view(state)
            playouts = _JUDGE._Playouts(view.season)
            for draw in range(3):  # the second and third time from memory
                ours, theirs = random.Random(draw), random.Random(draw)
                assert playouts.greedy_code(view, ours) == greedy_code(view, theirs, SAMPLES)
                assert ours.random() == theirs.random()
            checked += 1
    assert checked > 20


def test_a_decision_that_ends_the_season_is_judged_at_its_end(game) -> None:
    """No simulation passes the end of the decision's season: the next deal is hidden."""
    states, actions = game
    index = next(
        i
        for i in decisions(states, actions)
        if states[i].phase is Phase.SURVEY and states[i + 1].season != states[i].season
    )
    playouts = _JUDGE._Playouts(states[index].season)
    after = apply_code(public_view(states[index]), to_code(actions[index]))
    assert playouts.play_ahead(after, random.Random(1), 6) is after


# ---------------------------------------------------------------- which decisions


def test_decisions_skip_forced_moves_and_keep_the_seats_asked_for(game) -> None:
    states, actions = game
    everyone = decisions(states, actions)
    assert everyone and everyone == sorted(everyone)
    for index in range(len(actions)):
        choice = len(legal_codes(states[index])) > 1
        assert (index in everyone) == choice
    for seat in range(3):
        mine = decisions(states, actions, [seat])
        assert mine == [i for i in everyone if states[i].current == seat]
    # A player with an empty stock can only pass: not a decision.
    empty = replace(last_turn(), players=tuple(replace(p, stock=0) for p in last_turn().players))
    assert legal_codes(empty) == [to_code(core.parse_action("pass"))]
    assert decisions([empty], [core.parse_action("pass")]) == []


# ---------------------------------------------------------------- the report


def judgement(index: int, seat: int, loss: float, season: int = 1) -> Judgement:
    played, best = "pass", "pass" if loss == 0 else "A c3"
    return Judgement(
        index=index,
        season=season,
        seat=seat,
        played=played,
        best=best,
        loss=loss,
        values={played: -loss, best: 0.0},
        margins=(0.0, 0.0, 0.0),
        exact=False,
    )


def test_summaries_count_mistakes_and_blunders_at_the_stated_thresholds() -> None:
    judged = [
        judgement(0, 0, 0.0),
        judgement(1, 0, MISTAKE - 0.01),
        judgement(2, 0, MISTAKE),
        judgement(3, 0, BLUNDER - 0.01),
        judgement(4, 0, BLUNDER),
        judgement(5, 1, 9.0),
    ]
    summary = summarise(judged, 0)
    assert (summary.seat, summary.decisions, summary.mistakes, summary.blunders) == (0, 5, 2, 1)
    expected = (MISTAKE - 0.01 + MISTAKE + BLUNDER - 0.01 + BLUNDER) / 5
    assert summary.mean_loss == round(expected, 2)
    assert summarise(judged, 2).decisions == 0 and summarise(judged, 2).mean_loss == 0.0
    assert [severity(j) for j in judged] == ["", "", "mistake", "mistake", "blunder", "blunder"]


def test_turning_points_are_the_largest_losses_largest_first() -> None:
    judged = [
        judgement(0, 0, 1.0),
        judgement(1, 1, 4.0),
        judgement(2, 0, 4.0),
        judgement(3, 0, 0.0),
        judgement(4, 0, 2.5),
        judgement(5, 0, 0.5),
    ]
    assert [j.index for j in turning_points(judged)] == [1, 2, 4]
    assert [j.index for j in turning_points(judged, seat=0)] == [2, 4, 0]
    assert [j.index for j in turning_points(judged, seat=0, count=5)] == [2, 4, 0, 5]
    assert turning_points([judgement(0, 0, 0.0)]) == []


_PRESENT = ("starts", "extends", "excavates", "passes", "appeals", "places", "takes",
            "gives", "books")  # fmt: skip


def test_every_kind_of_action_reads_well_in_a_turning_point() -> None:
    """Played (in the past) and better (a gerund), every verb conjugated, for every kind."""
    found: dict[int, tuple[core.GameState, core.Action]] = {}
    for players in (2, 3, 4):
        for seed in range(8):
            for state in random_positions(players, seed=seed, every=1):
                for action in core.legal_actions(state):
                    found.setdefault(kind_of(to_code(action)), (state, action))
    assert set(found) == set(ActionKind)
    for kind, (state, action) in found.items():
        other = next(a for a in core.legal_actions(state) if a != action)
        for played, best in ((action, other), (other, action)):
            states = [state]
            j = Judgement(
                index=0,
                season=state.season,
                seat=state.current,
                played=core.format_action(played),
                best=core.format_action(best),
                loss=3.14,
                values={core.format_action(played): 0.0, core.format_action(best): 3.14},
                margins=tuple(0.0 for _ in state.players),
                exact=False,
            )
            text = in_words(states, j, viewer=state.current)
            words = text.replace(",", " ").replace(";", " ").replace(":", " ").split()
            assert not set(words) & set(_PRESENT), (ActionKind(kind).name, text)
            assert "{}" not in text
            assert text.startswith(f"Season {state.season}, your ")
            assert text.endswith("would have been worth 3.1 points more (expected).")
            assert ": you " in text


def test_a_turning_point_in_words() -> None:
    state = last_turn()
    j = Judgement(
        index=0,
        season=1,
        seat=0,
        played="violet c3 d3",
        best="B c1 d1",
        loss=3.14,
        values={"violet c3 d3": -1.0, "B c1 d1": 2.14},
        margins=(-1.0, 0.0, 1.0),
        exact=True,
    )
    state = replace(state, players=tuple(replace(p, cards=(0,)) for p in state.players))
    assert in_words([state], j, viewer=0) == (
        f"{moment([state], j, 0)}: you appealed to Lady Violet (+1 cube) and extended onto"
        " c3, d3; extending an excavation onto c1, d1 would have been worth 3.1 points more"
        " (exactly)."
    )
    assert in_words([state], j, viewer=1).startswith("Season 1, Blue's first turn: Blue appealed")
    same = replace(j, best=j.played, loss=0.0)
    assert in_words([state], same, viewer=0).endswith(": the best move found.")


def test_the_records_load_without_the_search_and_the_judge_stays_a_function() -> None:
    """Saves decode analyses with every game: ``core.analysis`` gives the records without
    loading the search, and the judge (at first use) is the function whichever way its
    module was first imported."""
    code = (
        "import sys, core.analysis\n"
        "assert 'core.ai' not in sys.modules and 'core.analysis.judging' not in sys.modules\n"
        "import core.analysis.judging\n"
        "from core.analysis import SIMULATIONS, judge, turning_points\n"
        "assert callable(judge) and callable(turning_points) and SIMULATIONS > 0\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
