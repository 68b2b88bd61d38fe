"""The computer players: legal, deterministic per seed, blind to the undealt deck order."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

import core
from core.actions import to_code
from core.ai import LEVELS, hint, make_bot
from core.public import public_view, unseen_cards
from tests.ai.positions import random_positions

# Small searches: the tests check behaviour, not strength.
HARD_TEST_ITERATIONS = 6


def bot(level: str, seed: int) -> core.ai.Bot:
    if level == "hard":
        return make_bot(level, seed, iterations=HARD_TEST_ITERATIONS)
    return make_bot(level, seed)


def shuffled_deck(state: core.GameState, seed: int) -> core.GameState:
    """The same position with the undealt parcels in another order (and orientations)."""
    deck = list(state.deck)
    random.Random(seed).shuffle(deck)
    deck = [face ^ 1 for face in deck]
    return replace(state, deck=tuple(deck))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", LEVELS)
def test_bots_only_choose_legal_actions(level: str, players: int) -> None:
    """On many varied positions, every level picks one of legal_actions."""
    every = (9 if players < 4 else 15) if level == "hard" else 3
    checked = 0
    for game in range(2):
        for state in random_positions(players, seed=100 * players + game, every=every):
            choice = bot(level, seed=game).choose(state)
            assert choice in core.legal_actions(state), core.format_action(choice)
            checked += 1
    assert checked >= 15


@pytest.mark.parametrize("level", LEVELS)
def test_whole_games_between_bots_finish(level: str) -> None:
    """Bots of a level play a whole game against each other through the public API."""
    state = core.new_game(3, seed=11)
    bots = (
        [bot(level, seed) for seed in range(3)]
        if level != "hard"
        else [bot("hard", 0), bot("normal", 1), bot("easy", 2)]
    )
    moves = 0
    while not core.is_over(state):
        state = core.apply_action(state, bots[state.current].choose(state))
        moves += 1
        assert moves < 2000
    assert core.final_scores(state).winners


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_choices(level: str) -> None:
    """Two bots of one level and seed make the same choice in every position."""
    first, second = bot(level, 5), bot(level, 5)
    for state in random_positions(3, seed=42, every=11):
        assert first.choose(state) == second.choose(state)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("level", LEVELS)
def test_choices_ignore_the_order_of_the_undealt_parcels(level: str, players: int) -> None:
    """Two states differing only in the undealt order give the same choice for one seed."""
    compared = 0
    for state in random_positions(players, seed=7 + players, every=5 if level != "hard" else 13):
        if len(state.deck) < 2:
            continue
        other = shuffled_deck(state, seed=compared)
        assert other.deck != state.deck
        assert bot(level, 3).choose(state) == bot(level, 3).choose(other)
        compared += 1
    assert compared > 3


def test_the_last_survey_choice_of_a_season_ignores_the_next_deal() -> None:
    """Where a choice ends the season (and deals the next parcels), the deck order still
    does not matter: the bots decide on a public view."""
    found = 0
    for game in range(30):
        for state in random_positions(3, seed=game, every=1):
            last_step = state.phase is core.Phase.SURVEY and state.survey_area == 3
            if last_step and len(core.legal_actions(state)) > 1 and state.season < 4:
                other = shuffled_deck(state, seed=game)
                for level in ("normal", "hard"):
                    assert bot(level, 1).choose(state) == bot(level, 1).choose(other)
                found += 1
                break
        if found >= 3:
            break
    assert found >= 1


def test_public_view_rebuilds_the_undealt_cards_from_public_facts() -> None:
    """The unseen cards are exactly the deck's cards; the view's deck is in canonical order."""
    for players in (2, 3, 4):
        for state in random_positions(players, seed=players, every=10):
            assert unseen_cards(state) == sorted(face >> 1 for face in state.deck)
            view = public_view(state)
            assert view.deck == tuple(2 * card for card in sorted(f >> 1 for f in state.deck))
            assert public_view(shuffled_deck(state, 1)) == view


def test_unknown_level_is_refused_with_the_levels_named() -> None:
    """A mistyped level gets a message naming the levels."""
    with pytest.raises(ValueError, match="easy, normal, hard"):
        make_bot("grandmaster")


def test_hint_is_a_legal_action_and_deterministic() -> None:
    """The hint is what a (short) hard search would play: legal, and the same for a seed."""
    state = core.new_game(3, seed=2)
    for _ in range(3):
        state = core.apply_action(state, core.legal_actions(state)[-1])
    advice = hint(state, seed=4, iterations=20)
    assert advice in core.legal_actions(state)
    assert hint(state, seed=4, iterations=20) == advice


def test_bots_refuse_a_finished_game() -> None:
    """Asking a bot to move in a finished game is a clear error, not an IndexError."""
    rng = random.Random(0)
    state = core.new_game(2, seed=0)
    while not core.is_over(state):
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    for level in LEVELS:
        with pytest.raises(ValueError, match="over"):
            bot(level, 0).choose(state)


class _Polls:
    """A ``stop`` that says "stop" from its ``after``-th call on, counting the calls."""

    def __init__(self, after: int) -> None:
        self.after, self.calls = after, 0

    def __call__(self) -> bool:
        self.calls += 1
        return self.calls > self.after


def _searched_position() -> core.GameState:
    """A position where the hard bot has several candidates to search among."""
    return next(s for s in random_positions(3, seed=4, every=3) if len(core.legal_actions(s)) > 20)


def test_a_stopped_search_returns_at_once_with_the_heuristics_choice(monkeypatch) -> None:
    """Stopped before any simulation, the hard bot plays its heuristic's best candidate."""
    from core.ai import search
    from core.ai.players import rank_codes

    simulations: list[int] = []
    real = core.redetermine

    def counted(state, rng):
        simulations.append(1)
        return real(state, rng)

    monkeypatch.setattr(search, "redetermine", counted)
    state = _searched_position()
    stop = _Polls(after=0)
    choice = make_bot("hard", 1).choose(state, stop)
    assert simulations == [] and stop.calls == 1
    assert to_code(choice) == rank_codes(public_view(state))[0][1]


def test_the_search_polls_stop_before_every_simulation(monkeypatch) -> None:
    """With a stop that fires on its 6th poll, exactly 5 simulations run: leaving a screen
    stops a search within one simulation (a few milliseconds)."""
    from core.ai import search

    simulations: list[int] = []
    real = core.redetermine

    def counted(state, rng):
        simulations.append(1)
        return real(state, rng)

    monkeypatch.setattr(search, "redetermine", counted)
    stop = _Polls(after=5)
    choice = make_bot("hard", 1).choose(_searched_position(), stop)
    assert choice in core.legal_actions(_searched_position())
    assert (len(simulations), stop.calls) == (5, 6)


@pytest.mark.parametrize("level", LEVELS)
def test_every_bot_takes_a_stop_and_still_plays_legally(level: str) -> None:
    """The one Bot contract: ``choose(state, stop)`` for every level."""
    state = _searched_position()
    assert bot(level, 2).choose(state, lambda: True) in core.legal_actions(state)
    assert bot(level, 2).choose(state, None) in core.legal_actions(state)


def test_a_stopped_hint_is_still_a_legal_action() -> None:
    state = _searched_position()
    stop = _Polls(after=2)
    assert hint(state, seed=4, stop=stop) in core.legal_actions(state)
    assert stop.calls == 3


def test_the_levels_are_one_list_shared_with_the_save_format() -> None:
    """``LEVELS`` is read from the ``Level`` type, and a save's seat uses that type."""
    from typing import get_args, get_type_hints

    from core.levels import Level
    from saves.format import SeatConfig

    assert get_args(Level) == LEVELS == ("easy", "normal", "hard")
    assert get_type_hints(SeatConfig)["level"] == Level | None


def test_a_computer_seat_without_a_level_is_refused_in_words() -> None:
    """The type allows None (a human's level), so a computer with none is caught by name."""
    from saves.format import SeatConfig, check_seat

    with pytest.raises(ValueError, match="'Bot' has no level \\(choose one of easy, normal"):
        check_seat(SeatConfig("Bot", core.Colour.RED, "computer", None))


def test_the_public_view_hides_the_seed() -> None:
    """The game's seed would deal the real deck again: a bot's view carries none."""
    state = core.new_game(3, seed=77)
    assert public_view(state).seed == 0
