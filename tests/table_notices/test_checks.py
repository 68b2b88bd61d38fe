"""What a channel's address may be: the checks before it is stored and before each
sending, with real name resolution on loopback."""

from __future__ import annotations

import ipaddress

import pytest

from table.notices import NoticeRefused
from table.notices.checks import AllowList, check_address, code_hash, new_code, resolved

ALLOW = AllowList(frozenset({"ntfy.sh", "127.0.0.1:8123", "localhost"}))


@pytest.mark.parametrize("address", ["alice@example.org", "a.b+game@mail.example.co.uk"])
def test_an_email_address_is_kept(address: str) -> None:
    assert check_address("email", f"  {address} ", ALLOW) == address


NOT_EMAIL = ["alice", "alice@localhost", "a@b@c.org", "x y@ex.org", "",
             "a@ex.org\nBcc: eve@ex.org", "a" * 70 + "@ex.org"]  # fmt: skip


@pytest.mark.parametrize("address", NOT_EMAIL)
def test_what_is_not_an_email_address_is_refused_in_words(address: str) -> None:
    with pytest.raises(NoticeRefused, match=r"e-mail address|printable"):
        check_address("email", address, ALLOW)


def test_a_push_address_must_be_on_a_host_the_host_allowed() -> None:
    assert check_address("ntfy", "https://ntfy.sh/alice-turns", ALLOW)
    assert check_address("webhook", "http://127.0.0.1:8123/hook", ALLOW)
    with pytest.raises(NoticeRefused, match=r"does not post to evil\.example"):
        check_address("ntfy", "https://evil.example/topic", ALLOW)
    with pytest.raises(NoticeRefused, match=r"does not post to 127\.0\.0\.1"):
        check_address("webhook", "http://127.0.0.1:22/", ALLOW)  # another port of it
    with pytest.raises(NoticeRefused, match="carries no login"):
        check_address("ntfy", "https://user:pw@ntfy.sh/x", ALLOW)
    with pytest.raises(NoticeRefused, match="starts with https"):
        check_address("ntfy", "file:///etc/passwd", ALLOW)
    with pytest.raises(NoticeRefused, match="allows no push service"):
        check_address("ntfy", "https://ntfy.sh/x", AllowList())


def test_a_name_that_resolves_to_loopback_or_a_private_address_is_refused() -> None:
    """An allowed name is no way in: what it resolves to is checked too (here the real
    resolver's localhost, and private addresses a hostile DNS could answer)."""
    with pytest.raises(NoticeRefused, match="loopback or private address"):
        resolved("localhost", 80, ALLOW)
    for hostile in ("10.1.2.3", "192.168.0.9", "169.254.169.254", "::1", "fd00::1"):

        def answer(host: str, port: int, address: str = hostile) -> list[str]:
            return [address]

        with pytest.raises(NoticeRefused, match="loopback or private"):
            resolved("ntfy.sh", 443, ALLOW, answer)
    with pytest.raises(NoticeRefused, match=r"is 10\.0\.0\.1"):
        resolved("ntfy.sh", 443, ALLOW, lambda host, port: ["93.184.216.34", "10.0.0.1"])


def test_a_private_network_the_host_listed_is_reached() -> None:
    allow = AllowList(frozenset({"localhost"}), (ipaddress.ip_network("127.0.0.0/8"),))
    assert resolved("localhost", 80, allow, lambda h, p: ["127.0.0.1"]) == "127.0.0.1"
    assert resolved("ntfy.sh", 443, ALLOW, lambda h, p: ["159.203.148.75"]) == "159.203.148.75"


def test_a_code_is_six_digits_kept_as_its_hash() -> None:
    code = new_code()
    assert len(code) == 6 and code.isdigit()
    assert (
        code_hash(code)
        == code_hash(f" {code} ")
        != code_hash("000000" if code != "000000" else "1")
    )


def test_a_turn_is_told_after_the_delay_counted_from_the_later_of_its_start_and_the_leaving() -> (
    None
):
    from table.notices.when import Facts, judge

    here = Facts(True, False, None, None, False)
    assert judge(here, 1000.0, 0.0, 60.0) == ("wait", "the player is here", 1060.0)
    left_lately = Facts(True, False, None, 990.0, False)
    assert judge(left_lately, 1000.0, 0.0, 60.0) == ("wait", "the player left lately", 1050.0)
    long_gone = Facts(True, False, None, 10.0, False)
    assert judge(long_gone, 1000.0, 500.0, 60.0) == ("send", "", None)
    assert judge(long_gone, 520.0, 500.0, 60.0)[0] == "wait"  # their turn began lately
    paused = Facts(True, False, 1200.0, 10.0, False)
    assert judge(paused, 1000.0, 0.0, 60.0) == ("wait", "the table is paused", 1200.0)
    assert judge(Facts(False, False, None, 10.0, False), 1000.0, 0.0, 60.0)[0] == "drop"
    assert judge(Facts(True, True, None, 10.0, False), 1000.0, 0.0, 60.0)[0] == "drop"
