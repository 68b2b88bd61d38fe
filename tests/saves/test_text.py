"""Text from players and files: which names are refused and why, how input is quoted in
messages, and times made safe to convert."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

import saves
from saves.errors import mismatch
from saves.format import EARLIEST, LATEST, safe_time
from saves.store import _modified
from saves.text import QUOTE_LIMIT, printable, quoted, tame


@pytest.mark.parametrize(
    "name",
    [
        "Ann",
        "Zoë",
        "محمد",
        "李小龍",
        "क्षत्रिय",
        "Ἀθηνᾶ",
        "👩\u200d🚀 Ann",
        "🇫🇷",
        "[bold]Bob[/]",
        "می\u200cخواهم",
    ],
)
def test_player_names_of_every_script_and_emoji_are_accepted(name: str) -> None:
    """Letters of every script, marks, emoji (with their joiners) and markup-like text."""
    assert saves.check_player_name(name) == name


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Ann\u202enib", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("An\u200bn", "U+200B ZERO WIDTH SPACE"),
        ("\u200dAnn", "U+200D ZERO WIDTH JOINER"),
        ("Ann\u200d", "U+200D ZERO WIDTH JOINER"),
        ("Ann\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("Ann\x1b[31m", "U+001B (a control character)"),
        ("Ann\x9b", "U+009B (a control character)"),
        ("Ann\u2029", "U+2029 PARAGRAPH SEPARATOR"),
        ("Ann\ue000", "U+E000 (a private-use character)"),
        ("Ann\u0378", "U+0378 (a code point not assigned in Unicode"),
        ("Ann\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
    ],
)
def test_player_names_with_hidden_characters_say_which(name: str, words: str) -> None:
    """The refusal names the character, in the words a player can look up."""
    with pytest.raises(ValueError, match="the name contains") as caught:
        saves.check_player_name(name)
    assert words in str(caught.value) and str(caught.value).endswith("which is not allowed")


def test_player_name_is_trimmed_and_bounded() -> None:
    """Surrounding spaces go; an empty or blank name and a name over 40 characters do not."""
    assert saves.check_player_name("  Ann ") == "Ann"
    for bad in ("", "   ", "A" * 41):
        with pytest.raises(ValueError):
            saves.check_player_name(bad)


def test_a_seat_with_a_hidden_character_cannot_start_a_game(store: saves.SaveStore) -> None:
    """Session.new refuses it before writing anything (it would not load back)."""
    import core

    seats = [
        saves.SeatConfig("Ann\u202e", core.Colour.BLUE, "human"),
        saves.SeatConfig("Bob", core.Colour.RED, "human"),
    ]
    with pytest.raises(ValueError, match="U\\+202E"):
        saves.Session.new(store, seats, seed=1)
    assert store.names() == set()


def test_printable_escapes_what_does_not_show() -> None:
    """Escape sequences, bidi overrides and separators are written as escapes; the rest,
    emoji included, is kept."""
    assert printable("A\x1b[2J\u202eB\u2028👩") == "A\\x1b[2J\\u202eB\\u2028👩"


def test_quoted_input_is_cut_and_plain() -> None:
    """A huge value is quoted in at most QUOTE_LIMIT characters, escapes shown as text."""
    assert len(quoted("x" * 1_000_000)) == QUOTE_LIMIT and quoted("x" * 1000).endswith("…")
    assert quoted("\x1b]0;t\x07") == "'\\x1b]0;t\\x07'"
    assert "digits" in quoted(10**5000)


def test_tame_cuts_each_quoted_run_and_mismatch_keeps_the_json_path() -> None:
    """A library's message quoting a huge value keeps its words and its path."""
    message = "Object contains unknown field `" + "k" * 100_000 + "` - at `$.players[0]`"
    tamed = mismatch(message)
    assert "(object contains unknown field `kkk" in tamed and "k…" in tamed
    assert tamed.endswith("- at `$.players[0]`)") and len(tamed) < 200
    huge = "expected 1 or 2 spaces, got (" + ", ".join(["1"] * 2_000_000) + ")"
    assert len(tame(huge)) < 130


@pytest.mark.parametrize(
    "when",
    [
        datetime(2026, 1, 1, 10, 0),
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14))),
        datetime(9999, 12, 31, 23, 59, tzinfo=timezone(-timedelta(hours=14))),
        datetime.max,
    ],
)
def test_safe_time_is_aware_and_converts_anywhere(when: datetime) -> None:
    """Naive times are taken as UTC; extreme ones are brought into range."""
    safe = safe_time(when)
    assert safe.tzinfo is not None and EARLIEST <= safe <= LATEST
    for hours in (-23, 23):
        safe.astimezone(timezone(timedelta(hours=hours)))


def test_a_file_time_beyond_datetime_is_clamped() -> None:
    """A file system may hold times datetime cannot: a damaged row still gets one."""
    assert _modified(1e13) == LATEST and _modified(-1e13) == EARLIEST
    assert _modified(0.0) == datetime(1970, 1, 1, tzinfo=UTC)
