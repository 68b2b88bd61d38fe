"""Actions as text and values, and the two kinds of refusal (malformed, illegal)."""

import random

import msgspec
import pytest

import core
from tests.core.pictures import play, position


def positions(players: int, seed: int, every: int = 7):
    """Every ``every``-th position of a game played by seeded random choices."""
    rng = random.Random(seed)
    state = core.new_game(players, seed)
    step = 0
    while not core.is_over(state):
        if step % every == 0:
            yield state
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
        step += 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_action_round_trips_through_the_notation(players):
    kinds: set[type] = set()
    for state in positions(players, seed=20 + players):
        for action in core.legal_actions(state):
            text = core.format_action(action)
            assert core.parse_action(text) == action, text
            kinds.add(type(action))
    assert {core.Excavate, core.Extend, core.Pass, core.TakeParcel, core.BookRoom} <= kinds


@pytest.mark.parametrize("players", [2, 4])
def test_every_legal_action_rebuilds_from_its_repr_and_its_json(players):
    for state in positions(players, seed=30 + players, every=11):
        for action in core.legal_actions(state):
            assert eval(repr(action), vars(core)) == action
            encoded = msgspec.json.encode(action)
            assert msgspec.json.decode(encoded, type=core.Action) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("A c3", core.Excavate(18)),
        ("B c3 c4", core.Extend(18, 26)),
        ("pass", core.Pass()),
        ("violet c3", core.Violet((18,))),
        ("violet c3 d3", core.Violet((18, 19))),
        ("lemon c3 d3", core.Lemon((18, 19))),
        ("brown T3", core.Brown(7)),
        ("blackmore c3 d3", core.Blackmore(18, 19)),
        ("tangerine c3 d3 e3", core.Tangerine((18, 19, 20))),
        ("nA c3", core.NeutralExcavate(18)),
        ("nB c3 d3", core.NeutralExtend(18, 19)),
        ("nskip", core.NeutralSkip()),
        ("take P3", core.TakeParcel(2)),
        ("book D51", core.BookRoom(14)),
        ("neutral P12", core.NeutralParcel(11)),
    ],
)
def test_the_notation_of_each_kind_of_action(text, action):
    assert core.parse_action(text) == action
    assert core.format_action(action) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "jump c3",
        "A",
        "A z9",
        "A c3 c4",
        "B c3",
        "pass now",
        "take 3",
        "take P13",
        "book X9",
        "violet c3 d3 e3",
        "tangerine c3 d3",
        "nskip c3",
    ],
)
def test_malformed_notation_is_refused_as_malformed(text):
    with pytest.raises(core.MalformedActionError):
        core.parse_action(text)


@pytest.mark.parametrize(
    "action",
    [
        core.Excavate(99),
        core.Excavate(-1),
        core.Extend(3, 200),
        core.Violet(()),
        core.Lemon((1, 2, 3)),
        core.Brown(15),
        core.TakeParcel(12),
        "A c3",
        None,
    ],
)
def test_malformed_action_values_are_refused_by_apply_action(action):
    with pytest.raises(core.MalformedActionError):
        core.apply_action(core.new_game(3, seed=0), action)


def test_a_malformed_action_is_an_illegal_action_that_can_be_told_apart():
    """DESIGN's promise: an illegal *or malformed* action raises IllegalActionError (a
    ValueError); the malformed one is the narrower MalformedActionError."""
    assert issubclass(core.IllegalActionError, ValueError)
    assert issubclass(core.MalformedActionError, core.IllegalActionError)
    assert not issubclass(core.IllegalActionError, core.MalformedActionError)
    state = core.new_game(3, seed=0)
    with pytest.raises(core.IllegalActionError) as caught:
        core.apply_action(state, core.Excavate(99))
    assert type(caught.value) is core.MalformedActionError


@pytest.mark.parametrize(
    ("given", "action", "reason"),
    [
        (core.Excavate(99), "Excavate(space=99)", "99 is not a space of the region"),
        (core.Brown(15), "Brown(room=15)", "15 is not a Museum room"),
        (None, "None", "not an action"),
        ("take Px", "take Px", "'Px' is not a parcel (P1..P12)"),
        ("fly away", "fly away", "unknown action 'fly'"),
        ("B c3", "B c3", "wrong number of spaces for 'B'"),
    ],
)
def test_a_malformed_action_names_the_input_and_says_what_is_wrong(given, action, reason):
    """``.action`` is the input as given (text, or repr), ``.reason`` the why alone, and the
    message is both, like an illegal action's."""
    with pytest.raises(core.MalformedActionError) as caught:
        if isinstance(given, str):
            core.parse_action(given)
        else:
            core.apply_action(core.new_game(3, seed=0), given)
    error = caught.value
    assert (error.action, error.reason) == (action, reason)
    assert str(error) == f"{action}: {reason}"


def test_a_hostile_malformed_value_is_quoted_short():
    """A huge value cannot flood the message."""
    with pytest.raises(core.MalformedActionError) as caught:
        core.apply_action(core.new_game(3, seed=0), core.Violet(tuple(range(1000))))
    assert len(caught.value.action) <= 60 and caught.value.action.endswith("…")


EMPTY_REGION = "\n".join(f"{r} . . . . . . . ." for r in range(1, 7))


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("A a9", "a9 is not on this season's region"),
        ("take P1", "survey has not begun"),
        ("nA a1", "only used with 2 players"),
        ("brown T1", "no untilted Sir Brown card"),
        ("B a1 a2", "a1 is not next to one of your cubes"),
    ],
)
def test_an_illegal_action_says_why_and_names_the_action(move, words):
    state = position(EMPTY_REGION, current=0)
    with pytest.raises(core.IllegalActionError) as refused:
        play(state, move)
    message = str(refused.value)
    assert words in message and message.startswith(move)


def test_an_excavation_during_the_survey_is_refused_in_words():
    state = position(
        "1 B . . . . . . .\n" + "2 . . . . . . . .\n" * 5,
        current=0,
        passing=(1, 2, -1),
        last_turn=True,
    )
    state = play(state, "pass")
    with pytest.raises(core.IllegalActionError, match="survey"):
        play(state, "A c3")
    with pytest.raises(core.IllegalActionError, match="P5 is not left in the area"):
        play(state, "take P5")


def test_the_described_action_uses_the_players_name():
    from core.explain import describe_action

    state = position(EMPTY_REGION, current=0)
    assert describe_action(state, core.parse_action("A c3")) == "Blue starts an excavation on c3"


@pytest.mark.parametrize("text", [None, 123])
def test_parse_action_refuses_a_non_string_as_malformed(text):
    with pytest.raises(core.MalformedActionError):
        core.parse_action(text)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_action_can_be_described_with_the_players_name(players):
    from core.explain import describe_action

    for state in positions(players, seed=40 + players, every=13):
        who = state.players[state.current].name
        for action in core.legal_actions(state):
            assert describe_action(state, action).startswith(who)


def test_a_malformed_parcel_is_refused_in_words():
    """No Python jargon ("invalid literal for int()") reaches the player."""
    with pytest.raises(core.MalformedActionError, match="'Px' is not a parcel") as refused:
        core.parse_action("take Px")
    assert "int()" not in str(refused.value)
