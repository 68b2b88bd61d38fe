"""The SSH door's gate without a client: what becomes of a typed invitation code when
asyncssh gives up waiting for its answer (the connection dropped, or the client sent
another answer), and the memory of wrong codes.

The gate end to end, with asyncssh's client, is in tests/table/test_door_protocol.py."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest

from table.doors.ssh import gate as gate_module
from table.doors.ssh.gate import SWEEP_EVERY, WRONG_CODES_PER_ADDRESS, Gate, Visitor, WrongCodes
from table.host.players import Players

ADDRESS = "192.0.2.7"


@pytest.fixture
def gate(tmp_path: Path) -> Iterator[Gate]:
    opened = Gate(tmp_path / "tables.db")
    yield opened
    opened.close()


@pytest.fixture
def logged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lines the gate logs."""
    lines: list[str] = []
    monkeypatch.setattr(gate_module, "log", lines.append)
    monkeypatch.setattr(gate_module, "log_once", lambda _kind, words: lines.append(words))
    return lines


def visitor(gate: Gate) -> tuple[Visitor, bytes]:
    """A connection from :data:`ADDRESS` whose unknown key's signature was verified."""
    key = asyncssh.generate_private_key("ssh-ed25519").public_data
    comer = Visitor(gate, lambda _visitor: None)
    comer.address = ADDRESS
    comer._unknown_key = key
    return comer, key


async def answered_then_gone(gate: Gate, codes: list[str]) -> list[bytes]:
    """Each code typed on a connection of its own, which drops while the store is looking
    at it: asyncssh cancels the check under way (as it does when the client sends another
    answer at once), and the store goes on. The keys, once the store has done."""
    redeem = Players.redeem
    looking, go_on = threading.Event(), threading.Event()

    def slow_redeem(players: Players, code: str, key: str | bytes, now: float | None = None) -> str:
        looking.set()
        go_on.wait(10)
        return redeem(players, code, key, now)

    Players.redeem = slow_redeem  # type: ignore[method-assign,assignment]
    try:
        loop = asyncio.get_running_loop()
        keys = []
        for code in codes:
            looking.clear()
            go_on.clear()
            comer, key = visitor(gate)
            keys.append(key)
            check = asyncio.create_task(comer.validate_kbdint_response("x", [code]))
            assert await loop.run_in_executor(None, looking.wait, 10), "the store never looked"
            check.cancel()  # the connection dropped
            go_on.set()
            await gate.store.call(lambda players: None)  # the store has done
            await asyncio.sleep(0)  # its answer is settled on the loop
    finally:
        Players.redeem = redeem  # type: ignore[method-assign]
    return keys


async def test_wrong_codes_count_even_when_the_client_does_not_wait_for_the_answer(
    gate: Gate, logged: list[str]
) -> None:
    """Ten wrong codes from one address whose connections all dropped before the answer:
    the address is held back all the same (else hanging up after each code would type
    them without end), and the wrong codes are logged."""
    await answered_then_gone(gate, [f"WRONG-{n}" for n in range(WRONG_CODES_PER_ADDRESS)])
    assert gate.wrong.blocked(ADDRESS) > 0
    assert any(f"a wrong invitation code from {ADDRESS}" in line for line in logged), logged


async def test_a_code_redeemed_for_a_client_that_left_is_logged(
    gate: Gate, logged: list[str]
) -> None:
    """The right code, and the connection drops while the store binds the key: the key is
    the player's (the code is used up) and the host's log says so, as for any redeemed
    invitation; the code does not count as a wrong one."""
    with Players(gate.store.players.path) as players:
        code = players.invite("ann")
    [key] = await answered_then_gone(gate, [code])
    assert await gate.owner(key) == "ann"
    assert [line for line in logged if "ann redeemed an invitation" in line], logged
    assert gate.wrong.blocked(ADDRESS) == 0 and len(gate.wrong) == 0


def test_wrong_codes_forget_addresses_once_their_window_passed() -> None:
    """Addresses heard from once each (a crowd, or one host of many IPv6 addresses) do
    not pile up in the door's memory: those whose window has passed are forgotten."""
    wrong = WrongCodes(limit=3, window=60)
    for n in range(5 * SWEEP_EVERY):
        wrong.add(f"2001:db8::{n:x}", now=n / 1000)
    assert len(wrong) == 5 * SWEEP_EVERY
    for _ in range(SWEEP_EVERY):
        wrong.add("192.0.2.1", now=1000.0)
    assert len(wrong) == 1
    moment = wrong.add("192.0.2.2", now=1000.0)
    wrong.forgive("192.0.2.2", moment)  # that code was right after all
    assert wrong.blocked("192.0.2.2", now=1000.0) == 0 and len(wrong) == 1
