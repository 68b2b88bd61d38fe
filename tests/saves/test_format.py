"""The save format: round-trips, the committed JSON Schema, and the migration path."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import msgspec
import pytest

import core
import saves
from saves import format as save_format
from saves.schema import SCHEMA_PATH, schema_text
from tests.saves.helpers import against_computers, hot_seat, play_random


def test_save_file_round_trips_through_json(store: saves.SaveStore) -> None:
    """encode then decode gives back an equal SaveFile (actions as tagged Structs)."""
    session = saves.Session.new(store, against_computers(4), seed=12)
    play_random(session, random.Random(12), limit=40)
    save = session.to_save()
    data = save_format.encode(save)
    assert save_format.decode(session.path, data) == save
    assert json.loads(data)["actions"][0]["type"] in {"excavate", "extend", "pass"}


def test_the_file_holds_no_game_state(store: saves.SaveStore) -> None:
    """Only the seed, seats and log are stored: the state is always derived by replay."""
    session = saves.Session.new(store, hot_seat(2), seed=1)
    play_random(session, random.Random(1), limit=5)
    document = json.loads(session.path.read_bytes())
    assert set(document) == {
        "format", "version", "title", "seed", "players", "actions", "created", "updated"
    }  # fmt: skip
    assert document["format"] == "mykerinos-save" and document["version"] == saves.VERSION


def test_committed_schema_is_current() -> None:
    """docs/save-format.schema.json is what `python -m saves.schema` generates now."""
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), (
        "the save format changed: run `.venv/bin/python -m saves.schema` and commit the result"
    )


def test_schema_describes_a_real_save(store: saves.SaveStore) -> None:
    """The schema names every top-level field of a save (the optional ``deal``, ``cards``,
    ``lines``, ``standins`` and ``analysis`` too: only an exported shared game, an
    analysed one, or one played with ``--cards`` has them) and forbids others."""
    schema = json.loads(schema_text())
    root = schema["$defs"][schema["$ref"].rsplit("/", 1)[-1]]
    session = saves.Session.new(store, hot_seat(2), seed=1)
    optional = {"deal", "cards", "lines", "standins", "analysis"}
    assert set(root["properties"]) == set(json.loads(session.path.read_bytes())) | optional
    assert set(root["required"]) == set(root["properties"]) - optional
    assert root.get("additionalProperties") is False


# ---------------------------------------------------------------- migration


def _version_0(moves: list[str], players: list[dict[str, object]]) -> bytes:
    """A save in the prototype format 0 (see saves.migrations)."""
    document = {
        "format": "mykerinos-save",
        "version": 0,
        "seed": 21,
        "players": players,
        "moves": moves,
        "saved": "2025-06-01T10:00:00Z",
    }
    return json.dumps(document).encode()


V0_PLAYERS: list[dict[str, object]] = [
    {"name": "Ann", "colour": "blue", "computer": None},
    {"name": "Bot", "colour": "green", "computer": "normal"},
]


def test_version_0_is_migrated(store: saves.SaveStore) -> None:
    """A version 0 save loads: moves in notation become actions, and the replayed game is the
    same; the next autosave writes the current version."""
    rng = random.Random(21)
    state = core.new_game(
        2, 21, names=["Ann", "Bot"], colours=[core.Colour.BLUE, core.Colour.GREEN]
    )
    moves = []
    for _ in range(30):
        action = rng.choice(core.legal_actions(state))
        moves.append(core.format_action(action))
        state = core.apply_action(state, action)
    store.folder.mkdir(parents=True)
    path = store.folder / "old.json"
    data = _version_0(moves, V0_PLAYERS)
    path.write_bytes(data)
    session = store.load("old")
    assert session.state == state
    assert session.seats[1] == saves.SeatConfig("Bot", core.Colour.GREEN, "computer", "normal")
    assert session.created == datetime(2025, 6, 1, 10, tzinfo=UTC)
    assert path.read_bytes() == data, "loading never rewrites the file"
    session.apply(core.legal_actions(session.state)[0])
    assert json.loads(path.read_bytes())["version"] == saves.VERSION


@pytest.mark.parametrize(
    ("moves", "players", "words"),
    [
        (["A c3", "fly away"], V0_PLAYERS, "move 2 cannot be read"),
        (["A c3", 7], V0_PLAYERS, "$.moves[1]"),
        (["A c3"], [{"name": "Ann", "colour": "blue", "computer": None, "hat": 1}], "`hat`"),
        (["A c3"], "Ann and Bot", "no list of players"),
    ],
)
def test_bad_version_0_save(
    store: saves.SaveStore, moves: list[object], players: object, words: str
) -> None:
    """A damaged old save fails with a SaveError naming the file, like a current one."""
    store.folder.mkdir(parents=True)
    path = store.folder / "old.json"
    path.write_bytes(_version_0(moves, players))  # type: ignore[arg-type]
    with pytest.raises(saves.SaveError) as caught:
        store.load("old")
    assert str(path) in str(caught.value) and words in str(caught.value)


def test_current_structs_reject_unknown_fields() -> None:
    """forbid_unknown_fields holds for the seats as well as the file."""
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        msgspec.json.decode(
            b'{"name": "A", "colour": "red", "kind": "human", "age": 3}', type=saves.SeatConfig
        )
