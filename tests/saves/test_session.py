"""Session: apply with autosave, and undo/redo by the rules of the issue (the human's own
decisions, computer moves rolled back with them, never across the deal of a season)."""

from __future__ import annotations

import random

import pytest

import core
import core.ai
import saves
from tests.saves.helpers import against_computers, hot_seat, play_random


def _play_until(session: saves.Session, rng: random.Random, done: object) -> None:
    """Random actions until ``done(session)`` is true (computer seats play randomly too)."""
    assert callable(done)
    while not done(session):
        assert not session.finished, "the game ended before the wanted position"
        session.apply(rng.choice(core.legal_actions(session.state)))


def test_new_session_is_saved_at_once(store: saves.SaveStore) -> None:
    """Session.new writes the file before any action, with the seats and seed given."""
    session = saves.Session.new(store, hot_seat(2), seed=99)
    loaded = store.load(session.name)
    assert loaded.seats == hot_seat(2) and loaded.seed == 99 and loaded.actions == []
    colours = [core.Colour.BLUE, core.Colour.RED]
    assert loaded.state == core.new_game(2, 99, names=["Ann", "Bob"], colours=colours)


def test_new_session_refuses_a_taken_name(store: saves.SaveStore) -> None:
    """Starting a game under the name of another save is refused; that save is unchanged."""
    first = saves.Session.new(store, hot_seat(2), seed=1, name="Sunday")
    before = first.path.read_bytes()
    with pytest.raises(saves.SaveError, match="already exists"):
        saves.Session.new(store, hot_seat(3), seed=2, name="Sunday")
    assert first.path.read_bytes() == before


def test_new_session_refuses_an_unknown_level(store: saves.SaveStore) -> None:
    """A computer seat must have a level core.ai knows."""
    godlike = saves.SeatConfig("Bot", core.Colour.RED, "computer", "godlike")  # type: ignore[arg-type]
    seats = [*hot_seat(1), godlike]
    with pytest.raises(ValueError, match="godlike"):
        saves.Session.new(store, seats, seed=1)
    assert store.names() == set()


@pytest.mark.parametrize("name", ["A" * 41, "Bell\x07", ""])
def test_new_session_refuses_seats_that_could_not_be_loaded_back(
    store: saves.SaveStore, name: str
) -> None:
    """A player name the format refuses on load is refused before any file is written."""
    seats = [saves.SeatConfig(name, core.Colour.BLUE, "human"), *hot_seat(2)[1:]]
    with pytest.raises(ValueError, match="cannot be saved"):
        saves.Session.new(store, seats, seed=1)
    assert store.names() == set()


def test_illegal_action_changes_nothing(store: saves.SaveStore) -> None:
    """An illegal action raises core's error; the log, the state and the file stay as they were."""
    session = saves.Session.new(store, hot_seat(2), seed=3, name="g")
    play_random(session, random.Random(1), limit=4)
    state, before = session.state, session.path.read_bytes()
    occupied = next(a for a in session.actions if isinstance(a, core.Excavate))
    with pytest.raises(core.IllegalActionError):
        session.apply(occupied)
    assert session.state is state and len(session.actions) == 4
    assert session.path.read_bytes() == before


def test_apply_returns_the_events_of_the_action(store: saves.SaveStore) -> None:
    """The events are core's, in words."""
    session = saves.Session.new(store, hot_seat(2), seed=3)
    action = core.legal_actions(session.state)[0]
    expected = core.apply_action_with_events(session.state, action)[1]
    assert session.apply(action) == expected and expected


# ---------------------------------------------------------------- undo in hot-seat


def test_hot_seat_undo_takes_back_one_decision_and_redo_plays_it_again(
    store: saves.SaveStore,
) -> None:
    """With humans only, each undo takes back exactly one action; redo restores it."""
    session = saves.Session.new(store, hot_seat(3), seed=5, name="g")
    play_random(session, random.Random(5), limit=6)
    states, actions = session.states(), list(session.actions)
    session.undo()
    session.undo()
    assert session.actions == actions[:4] and session.state == states[4]
    assert store.load("g").state == states[4], "undo is autosaved"
    session.redo()
    assert session.actions == actions[:5] and session.state == states[5]
    session.redo()
    assert session.actions == actions and not session.can_redo()
    assert store.load("g").actions == actions, "redo is autosaved"


def test_a_new_action_ends_redo(store: saves.SaveStore) -> None:
    """Redo is possible until a new action is taken."""
    session = saves.Session.new(store, hot_seat(2), seed=6)
    play_random(session, random.Random(6), limit=3)
    session.undo()
    assert session.can_redo()
    session.apply(core.legal_actions(session.state)[-1])
    assert not session.can_redo()
    before = list(session.actions)
    session.redo()
    assert session.actions == before


def test_nothing_to_undo_at_the_start(store: saves.SaveStore) -> None:
    """A new game has nothing to undo; undo() then changes nothing."""
    session = saves.Session.new(store, hot_seat(2), seed=6)
    assert not session.can_undo() and not session.can_redo()
    session.undo()
    assert session.actions == []


def test_undo_never_crosses_the_deal_of_a_season(store: saves.SaveStore) -> None:
    """Right after the action that dealt season 2, undo is refused (it would let a player
    see the new region and change their mind); the action before the deal stays too."""
    session = saves.Session.new(store, hot_seat(3), seed=7, name="g")
    rng = random.Random(7)
    _play_until(session, rng, lambda s: s.state.season == 2)
    assert not session.can_undo()
    count = len(session.actions)
    session.undo()
    assert len(session.actions) == count and session.state.season == 2
    session.apply(core.legal_actions(session.state)[0])
    assert session.can_undo()
    session.undo()
    assert len(session.actions) == count and not session.can_undo()


# ---------------------------------------------------------------- undo against computers


def _play_with_bots(session: saves.Session, rng: random.Random, human_moves: int) -> None:
    """Ann plays ``human_moves`` random actions; the computer seats answer each time."""
    bots = {seat: core.ai.make_bot("easy", seed=seat) for seat in range(len(session.seats))}
    played = 0
    while not session.finished:
        seat = session.state.current_player
        assert seat is not None
        if session.is_computer(seat):
            session.apply(bots[seat].choose(session.state))
            continue
        if played == human_moves:
            return
        session.apply(rng.choice(core.legal_actions(session.state)))
        played += 1


def test_undo_against_computers_rolls_back_their_moves_and_the_humans_last(
    store: saves.SaveStore,
) -> None:
    """Undo takes back the computers' moves since Ann's last decision and that decision:
    Ann is to play again in the very position she decided in."""
    session = saves.Session.new(store, against_computers(3), seed=8, name="g")
    rng = random.Random(8)
    _play_with_bots(session, rng, human_moves=3)
    states = session.states()
    human_turns = [i for i, s in enumerate(states[:-1]) if s.current_player == 0]
    last = human_turns[-1]
    assert last < len(session.actions) - 1, "the computers moved after Ann"
    session.undo()
    assert len(session.actions) == last and session.state == states[last]
    assert session.state.current_player == 0
    session.undo()
    assert len(session.actions) == human_turns[-2]
    session.redo()
    session.redo()
    assert session.states() == states, "redo brings back Ann's moves and the computers' answers"


def test_no_undo_when_only_computers_have_moved(store: saves.SaveStore) -> None:
    """If the computers moved first, there is no decision of Ann's to take back."""
    for seed in range(50):
        session = saves.Session.new(store, against_computers(4), seed=seed)
        if session.state.current_player != 0:
            break
    else:
        pytest.fail("no seed gives a computer the first turn")
    session.apply(core.legal_actions(session.state)[0])  # the computer's move
    assert session.is_computer(session.states()[0].current_player)
    assert not session.can_undo()


def test_seat_queries(store: saves.SaveStore) -> None:
    """is_computer and seat_level read the seats."""
    session = saves.Session.new(store, against_computers(2), seed=1)
    assert not session.is_computer(0) and session.is_computer(1)
    assert not session.is_computer(None) and not session.is_computer(7)
    assert session.seat_level(0) is None and session.seat_level(1) == "easy"


# ---------------------------------------------------------------- save as


def test_save_as_moves_an_automatic_save_to_its_new_name(store: saves.SaveStore) -> None:
    """Saving an automatically named game under a name keeps one file: the named one."""
    session = saves.Session.new(store, hot_seat(2), seed=4)
    old = session.name
    play_random(session, random.Random(4), limit=3)
    session.save_as("Sunday game")
    assert store.names() == {"Sunday game"} and old.startswith("game-")
    session.apply(core.legal_actions(session.state)[0])
    loaded = store.load("Sunday game")
    assert loaded.title == "Sunday game" and loaded.actions == session.actions


def test_save_as_renames_a_named_save(store: saves.SaveStore) -> None:
    """Saving as names the game: a game already named keeps one file, under the new name
    (issue 11 #7: "my s", "my save 2", "my save 3" were one game left in four files)."""
    session = saves.Session.new(store, hot_seat(2), seed=4, name="first")
    play_random(session, random.Random(4), limit=3)
    session.save_as("second")
    session.save_as("third")
    assert store.names() == {"third"}
    assert store.load("third").actions == session.actions


@pytest.mark.parametrize("name", ["../escape", "/etc/passwd", "", "a/b", "..", "x" * 65, "dot."])
def test_save_as_refuses_bad_names(store: saves.SaveStore, name: str) -> None:
    """A bad name is a SaveError; the session keeps its name and file."""
    session = saves.Session.new(store, hot_seat(2), seed=4, name="kept")
    with pytest.raises(saves.SaveError):
        session.save_as(name)
    assert session.name == "kept" and store.names() == {"kept"}


def test_save_as_will_not_overwrite_another_game(store: saves.SaveStore) -> None:
    """Saving under the name of another game is refused unless asked to overwrite."""
    other = saves.Session.new(store, hot_seat(3), seed=1, name="other")
    session = saves.Session.new(store, hot_seat(2), seed=2, name="mine")
    with pytest.raises(saves.SaveError, match="already exists"):
        session.save_as("other")
    assert store.load("other").seed == other.seed
    session.save_as("other", overwrite=True)
    assert store.load("other").seed == 2


def test_an_adopted_game_keeps_its_deal_through_later_saves(store: saves.SaveStore) -> None:
    """A game exported from a shared table carries its deal instead of its seed; played on
    here, every autosave keeps the deal, so the file always replays."""
    from saves.format import SaveFile, encode

    real = core.new_game(2, 31, names=["Ann", "Ben"], colours=[core.Colour.BLUE, core.Colour.RED])
    original = saves.Session.new(store, hot_seat(2), seed=31, name="original")
    play_random(original, random.Random(2), limit=5)
    made = original.to_save()
    original.close()
    exported = encode(SaveFile(**{**{f: getattr(made, f) for f in made.__struct_fields__},
                                  "seed": 5, "deal": core.deal_of(real)}))  # fmt: skip
    adopted = saves.Session.adopt(store, exported, "adopted")
    adopted.apply(core.legal_actions(adopted.state)[0])
    adopted.close()
    again = store.watch("adopted")
    assert again.deal == core.deal_of(real) and again.seed == 5
    assert again.actions[:5] == made.actions
    again.close()
    with pytest.raises(saves.SaveError, match="already exists"):
        saves.Session.adopt(store, exported, "adopted")


PLUS_ONE = core.DEFAULT_TEXT.replace("value = 0", "value = 1")
"""Another cards file: every card worth 0 is worth 1."""


def test_a_game_with_its_own_cards_is_saved_and_resumed_with_them(store) -> None:
    """The cards file is recorded in the save: resuming uses it even when the built-in
    deck is in use, and listing other games in between changes nothing."""
    session = saves.Session.new(store, hot_seat(2), seed=8, name="custom", cards=PLUS_ONE)
    assert core.CARDS[0].value == 1  # the game on show plays with its cards
    play_random(session, random.Random(3), limit=30)
    states = session.states()
    session.close()
    core.use_cards(core.DEFAULT_CARDS)
    saves.Session.new(store, hot_seat(2), seed=8, name="plain").close()
    assert [s.name for s in store.list()] and core.CARDS[0].value == 0
    again = store.open("custom")
    assert again.cards == PLUS_ONE and again.states() == states
    assert core.CARDS[0].value == 1
    again.close()


def test_wrong_cards_for_a_new_game_say_why(store) -> None:
    with pytest.raises(core.CardsError, match="2×3 cells"):
        saves.Session.new(store, hot_seat(2), cards=PLUS_ONE.replace("[0, 5]", "[0, 9]"))
    assert store.names() == set()
