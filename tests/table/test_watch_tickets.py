"""A watch link's ticket (issue 26 #19): its session may list its one table, watch it,
leave and export it, and nothing else: Join, Create, Play, chat, another table are
refused in words."""

from __future__ import annotations

import core
from table import protocol as wire
from table.client.connection import connect
from tests.table.test_tickets import door_server  # noqa: F401 (a fixture)


async def _tables(door_server) -> tuple[int, int]:  # noqa: F811
    """Two tables of ann and ben, both playing."""
    ann = await connect(door_server.socket, None, door_server.hub.issue_ticket("ann"))
    seats = (wire.SeatSpec("player", "ann"), wire.SeatSpec("player", "ben"))
    ids = []
    for title in ("one", "two"):
        answer = await ann.ask(wire.CreateTable(ann.new_ref(), seats, title))
        assert isinstance(answer, wire.Lobby), answer
        ids.append(answer.tables[0].id)
    await ann.close()
    return ids[0], ids[1]


async def test_a_watch_ticket_watches_its_table_only(door_server) -> None:  # noqa: F811
    one, two = await _tables(door_server)
    ticket = door_server.hub.issue_ticket("guest 1a2b", watching=one)
    guest = await connect(door_server.socket, None, ticket)
    assert guest.player == "guest 1a2b"

    lobby = await guest.ask(wire.ListTables(guest.new_ref()))
    assert isinstance(lobby, wire.Lobby) and [t.id for t in lobby.tables] == [one], lobby
    seen = await guest.ask(wire.Watch(guest.new_ref(), one))
    assert isinstance(seen, wire.Snapshot) and seen.seats_here == (), seen

    refused: dict[str, wire.Request] = {
        "join": wire.Join(guest.new_ref(), one),
        "join another": wire.Join(guest.new_ref(), two),
        "watch another": wire.Watch(guest.new_ref(), two),
        "create": wire.CreateTable(
            guest.new_ref(), (wire.SeatSpec("player", "guest 1a2b"), wire.SeatSpec("open"))
        ),
        "play": wire.Play(guest.new_ref(), one, 0, core.Pass()),
        "say": wire.Say(guest.new_ref(), one, "hello"),
        "ladder": wire.Ladder(guest.new_ref()),
    }
    for what, message in refused.items():
        answer = await guest.ask(message)
        assert isinstance(answer, wire.Error), (what, answer)
        assert "watch" in answer.reason, (what, answer.reason)
    joined = await guest.ask(wire.Join(guest.new_ref(), two))
    assert isinstance(joined, wire.Error) and "table" in joined.reason
    await guest.close()

    player = await connect(door_server.socket, None, door_server.hub.issue_ticket("ann"))
    joined = await player.ask(wire.Join(player.new_ref(), two))
    assert isinstance(joined, wire.Snapshot), joined  # a player's ticket is as before
    await player.close()


# ---------------------------------------------------------------- the host's side


def test_a_watch_invitation_signs_a_browser_in_for_its_table_only(tmp_path) -> None:
    """``invite_watch`` makes a code for an existing table only; a browser redeems it
    into a session whose name says the table and is no player's; a key cannot take it;
    the host sees it in words."""
    import subprocess
    import sys

    from table.host.players import Players, PlayersError, watched_table, who
    from table.server import rules
    from table.store import TableStore

    db = tmp_path / "tables.db"
    store = TableStore(db)
    rows = rules.seat_rows((wire.SeatSpec("player", "ann"), wire.SeatSpec("open")))
    made = store.create("one", 7, rows, "days", 300, "ann")
    store.close()
    with Players(db) as players:
        try:
            players.invite_watch(made.id + 1)
            raise AssertionError("a watch link of a table that is not there")
        except PlayersError as exc:
            assert f"no table {made.id + 1}" in str(exc)
        code = players.invite_watch(made.id, days=2)
        [invitation] = players.invitations()
        assert who(invitation.name) == f"a guest watching table {made.id}"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "k")],
                       check=True)  # fmt: skip
        key = (tmp_path / "k.pub").read_text()
        try:
            players.redeem(code, key)
            raise AssertionError("a key took a watch link")
        except PlayersError as exc:
            assert "open it in a browser" in str(exc)
        name, token = players.redeem_web(code)
        assert watched_table(name) == made.id and players.web_player(token) == name
        assert watched_table("ann") is None and watched_table(" watch x") is None
    done = subprocess.run(
        [sys.executable, "-m", "tui", "invite", "--watch", str(made.id), "--db", str(db)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "join?code=" in done.stdout and f"To watch table {made.id}" in done.stdout
