"""The deck from a cards file (RULES.md §2: the faces are provisional): every problem of a
file said at once, and a switch of deck that changes the game and switches back whole."""

from __future__ import annotations

import random

import msgspec
import pytest

import core
from core.cards import CARDS, DEFAULT_CARDS, DEFAULT_TEXT, PATRONLESS, CardsError, parse_cards

ALL_VALUES_PLUS_ONE = DEFAULT_TEXT.replace("value = 0", "value = 1")
"""A custom deck: every card worth 0 becomes worth 1."""


def test_the_built_in_file_is_the_deck() -> None:
    assert parse_cards(DEFAULT_TEXT) == DEFAULT_CARDS == tuple(CARDS)
    assert len(DEFAULT_CARDS) == 36
    assert DEFAULT_CARDS[PATRONLESS].patron is None
    assert [c.patron for c in DEFAULT_CARDS[:7]] == [core.Patron.VIOLET] * 7


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda t: t + "\nextra = 1\n", "unknown key 'extra'"),
        (lambda t: t.replace('"violet", ', ""), "each of the five patrons once"),
        (lambda t: t.replace('"violet"', '"purple"'), "'purple', which is not a patron"),
        (lambda t: t.replace("[[template]]\nvalue = 3", "[[template]]\nvalue = -3", 1), "value"),
        (lambda t: t.replace("pyramids = [0, 5]", "pyramids = [0, 6]"), "2×3 cells"),
        (lambda t: t.replace("pyramids = [0, 5]", "pyramids = [5, 5]"), "listed twice"),
        (lambda t: t.split("[patronless]")[0], "exactly one card with no patron"),
        (lambda t: t.replace("[[template]]\nvalue = 3\npyramids = [0, 5]\n", ""), "not 6"),
        (lambda t: t.replace("value = 5", 'value = "five"'), "whole number"),
        (lambda t: t + "\n[[[", "not TOML"),
    ],
)
def test_a_wrong_cards_file_says_what_is_wrong(edit, words) -> None:
    with pytest.raises(CardsError, match=words.replace("(", r"\(").replace("[", r"\[")):
        parse_cards(edit(DEFAULT_TEXT))


def test_every_problem_is_said_at_once() -> None:
    text = DEFAULT_TEXT.replace('"violet"', '"purple"').replace("value = 5", "value = 99")
    with pytest.raises(CardsError) as caught:
        parse_cards(text + "\nextra = 1\n")
    assert len(caught.value.problems) == 3


def test_another_deck_changes_the_game_and_the_default_comes_back_whole() -> None:
    before = msgspec.json.encode(_random_game(5))
    custom = parse_cards(ALL_VALUES_PLUS_ONE)
    with core.cards_in_use(custom):
        assert CARDS[0].value == 1
        state = _random_game(5)
        taken = [c for p in state.players for c in p.cards]
        assert taken and all(core.CARDS[c].value >= 1 for c in taken)
    assert tuple(CARDS) == DEFAULT_CARDS
    assert msgspec.json.encode(_random_game(5)) == before


def _random_game(seed: int) -> core.GameState:
    rng = random.Random(seed)
    state = core.new_game(3, seed)
    while not core.is_over(state):
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    return state
