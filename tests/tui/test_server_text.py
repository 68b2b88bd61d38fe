"""The door server data comes in by (tui.server_text): every string of every message is
shown safely, the rest of the message is untouched, and a refusal quotes the server
safely too."""

from __future__ import annotations

from pathlib import Path

import pytest

import core
from saves.text import hidden_character
from table import journal
from table import protocol as wire
from table.client.connection import Refused
from table.client.directory import ServerAddress, TableUnavailable
from tui.server_text import ShownLink, shown_message, shown_server

EVIL = "\x1b]0;PWNED\x07\u202e\u3164"
SHOWN_EVIL = "\\x1b]0;PWNED\\x07\\u202e\\u3164"


def strings(value: object) -> list[str]:
    """Every string inside a message (enum members are not the server's words)."""
    if isinstance(value, str):
        return [] if isinstance(value, core.Colour) else [value]
    if isinstance(value, tuple):
        return [s for item in value for s in strings(item)]
    if hasattr(value, "__struct_fields__"):
        return [s for name in value.__struct_fields__ for s in strings(getattr(value, name))]
    return []


def hostile_table() -> wire.TableInfo:
    seats = (wire.SeatInfo(core.Colour.BLUE, EVIL), wire.SeatInfo(core.Colour.RED, None))
    return wire.TableInfo(1, EVIL, seats, "waiting", None, 0, 0.0, 0.0, 0, paused_by=EVIL)


def test_every_string_of_a_message_is_shown_safely_and_nothing_else_changes() -> None:
    """A lobby, a snapshot (names in the position, its journal: chat, a hand-over, the
    ratings), a Told, a refusal, a ladder."""
    start = core.public_view(core.new_game(2, 1, [EVIL, "ben"]))
    told: tuple[journal.Any, ...] = (
        journal.Chat(1.0, 0, EVIL, EVIL + "\u0301" * 30),
        journal.HandOver(2.0, 0, EVIL, 0, EVIL, "easy"),
        journal.End(3.0, 0, (journal.Rated(EVIL, 25.0, 1),)),
    )
    messages: list[wire.ServerMessage] = [
        wire.Lobby(3, (hostile_table(),)),
        wire.Snapshot(4, hostile_table(), start, (), (0,), told),
        wire.Told(0, hostile_table(), 3, (journal.Pause(4.0, 0, EVIL, 5.0),)),
        wire.Error(5, EVIL),
        wire.Standings(6, (wire.Standing(EVIL, 25.0, 8.0, 1, 0),)),
    ]
    for message in messages:
        safe = shown_message(message)
        assert type(safe) is type(message)
        assert SHOWN_EVIL in strings(safe)
        assert all(hidden_character(text) is None for text in strings(safe)), strings(safe)
    snapshot = shown_message(messages[1])
    assert isinstance(snapshot, wire.Snapshot)
    assert snapshot.start.players[0].name == SHOWN_EVIL
    assert snapshot.start.players[0].colour is core.Colour.BLUE
    assert snapshot.start.deck == start.deck and snapshot.table.id == 1


def test_a_message_with_nothing_to_escape_is_the_same_object() -> None:
    """The position of every move crosses this door: a clean one is not copied."""
    state = core.new_game(3, 2, ["ann", "ben", "Zoë 👩\u200d🚀"])
    action = core.legal_actions(state)[0]
    move = journal.Move(1.0, 0, 0, action)
    table = wire.TableInfo(1, "ann, ben", (), "playing", 0, 1, 0.0, 0.0, 1)
    played = wire.Told(1, table, 0, (move,), state, (core.Event("ann excavates", 0),))
    assert shown_message(played) is played


async def test_the_link_shows_answers_updates_and_errors_safely() -> None:
    class Link:
        player = EVIL

        async def ask(self, message: wire.ClientMessage) -> wire.ServerMessage:
            return wire.Error(1, EVIL)

        async def unasked(self) -> wire.ServerMessage:
            raise ConnectionError(f"malformed message from the server: {EVIL}")

        def new_ref(self) -> int:
            return 1

        async def close(self) -> None:
            pass

    link = ShownLink(Link())
    assert link.player == SHOWN_EVIL
    assert await link.ask(wire.ListTables(1)) == wire.Error(1, SHOWN_EVIL)
    with pytest.raises(ConnectionError) as caught:
        await link.unasked()
    assert str(caught.value).endswith(SHOWN_EVIL)


async def test_a_refused_hello_quotes_the_server_safely(monkeypatch, tmp_path: Path) -> None:
    async def refuse(self: ServerAddress) -> None:
        raise Refused(EVIL)

    monkeypatch.setattr(ServerAddress, "dial", refuse)
    with pytest.raises(TableUnavailable) as caught:
        await shown_server(ServerAddress(tmp_path / "s")).directory()
    assert str(caught.value).endswith(f"refused this terminal: {SHOWN_EVIL}")
