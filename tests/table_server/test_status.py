"""`mykerinos status` against a real server: where it is your turn, in one line, with the
exit status a shell prompt can test."""

from __future__ import annotations

import msgspec

from table import protocol as wire
from table import status
from tests.table_server.bots import Bot, create


def run(server, player: str, capsys) -> tuple[int, str]:
    code = status.main(["--socket", str(server.socket), "--player", player])
    return code, capsys.readouterr().out.strip()


async def test_status_names_the_tables_where_it_is_your_turn(server, capsys) -> None:
    assert run(server, "ann", capsys) == (1, "No table is waiting for ann.")
    seats = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben")]
    tables = [await create(server.socket, "ann", seats) for _ in range(5)]
    seen = [await Bot.join(server.socket, "ann", table) for table in tables]
    for player, seat in (("ann", 0), ("ben", 1)):
        waiting = sum(1 for bot in seen if bot.state.current_player == seat)
        code, words = run(server, player, capsys)
        if waiting:
            assert code == 0 and words.startswith(f"Your turn at {waiting} table")
            assert words.count("ann, ben (s1)") == waiting
        else:
            assert (code, words) == (1, f"No table is waiting for {player}.")


def test_status_without_a_server_says_so_with_status_2(tmp_path, capsys) -> None:
    assert status.main(["--socket", str(tmp_path / "none.sock")]) == 2
    assert "no table server" in capsys.readouterr().err


def test_the_few_protocol_words_status_uses_are_the_protocol_s() -> None:
    """status speaks the protocol with the standard library: its words must be these."""
    assert status.VERSION == wire.VERSION
    hello = msgspec.json.decode(wire.frame(wire.Hello(wire.VERSION, "ann"))[4:])
    assert hello == {"t": "hello", "version": status.VERSION, "player": "ann"}
    assert msgspec.json.decode(wire.frame(wire.ListTables(1))[4:]) == {"t": "list", "ref": 1}
    assert wire.Welcome.__struct_config__.tag == "welcome"
    assert status.MAX_FRAME == wire.MAX_FRAME
