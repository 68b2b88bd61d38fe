"""Scripted full games: replaying a stored action list gives exactly the stored scores.

The games in tests/core/games/ were played once by a seeded random policy (make_games.py)
and their final scores checked by hand for plausibility (cards x best room per patron,
series, parcels = the values of the cards taken). A rule change that alters any game
changes these scores: if it is deliberate, regenerate the files and review the diff.
"""

import re
from pathlib import Path

import pytest

import core
from core.cards import CARDS

GAMES = sorted((Path(__file__).parent / "games").glob("*p_seed*.txt"))
SCORE = re.compile(
    r"score (\d): parcels=(\d+) exhibition=([\d,]+) series=(\d+) total=(\d+) stock=(\d+)"
)


def read_game(path: Path) -> tuple[dict[str, str], list[dict[str, object]], list[str]]:
    """The header fields, the expected scores, and the actions of a game file."""
    head, actions = path.read_text(encoding="utf-8").split("actions:\n")
    fields, scores = {}, []
    for line in head.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        if match := SCORE.fullmatch(line):
            seat, parcels, exhibition, series, total, stock = match.groups()
            scores.append(
                {
                    "seat": int(seat),
                    "parcels": int(parcels),
                    "exhibition": tuple(int(x) for x in exhibition.split(",")),
                    "series": int(series),
                    "total": int(total),
                    "stock": int(stock),
                }
            )
        else:
            key, value = line.split(":", 1)
            fields[key] = value.strip()
    return fields, scores, actions.split("\n")[:-1]


def test_there_is_a_game_for_2_3_and_4_players():
    assert sorted(p.name[0] for p in GAMES) == ["2", "3", "4"]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_scripted_game_replays_to_its_exact_final_scores(path):
    fields, expected, actions = read_game(path)
    state = core.new_game(int(fields["players"]), int(fields["seed"]))
    for number, text in enumerate(actions, 1):
        assert not core.is_over(state), f"over before action {number}"
        state = core.apply_action(state, core.parse_action(text))
    assert core.is_over(state)
    result = core.final_scores(state)
    got = [
        {
            "seat": s.seat,
            "parcels": s.parcels,
            "exhibition": s.exhibition,
            "series": s.series,
            "total": s.total,
            "stock": s.stock,
        }
        for s in result.players
    ]
    assert got == expected
    winners = tuple(int(w) for w in fields["winners"].split(","))
    assert result.winners == winners


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_scripted_game_keeps_its_books(path):
    """At the end: each player's parcel points are the values of their cards, each player's
    25 cubes are in reserve, stock or the Museum, and all 36 cards are owned or discarded."""
    fields, _, actions = read_game(path)
    state = core.new_game(int(fields["players"]), int(fields["seed"]))
    for text in actions:
        state = core.apply_action(state, core.parse_action(text))
    for seat, player in enumerate(state.players):
        assert player.score == sum(CARDS[c].value for c in player.cards)
        in_museum = sum(holder == seat for holder in state.museum)
        assert player.reserve + player.stock + in_museum == 25
    owned = [c for p in state.players for c in p.cards]
    assert sorted(owned + list(state.discard)) == list(range(36))
