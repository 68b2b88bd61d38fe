"""Text from players and files: which names are refused and why, how input is quoted in
messages, and times made safe to convert."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

import saves
from saves.errors import mismatch
from saves.format import EARLIEST, LATEST, safe_time
from saves.store import _modified
from saves.text import (
    BLANK_LOOKALIKES,
    MAX_MARKS_IN_A_ROW,
    QUOTE_LIMIT,
    check_shown_text,
    hidden_character,
    printable,
    quoted,
    shown,
    tame,
)


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
        "Việt",
        "བསྒྲུབས",
        "תֹּ֖",
        "1\ufe0f\u20e3 ❤\ufe0f 👍🏽",
        "e\u0301\u0302\u0303\u0304",
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
        ("\u3164", "U+3164 HANGUL FILLER"),
        ("Ann\u115f", "U+115F HANGUL CHOSEONG FILLER"),
        ("\u1160Ann", "U+1160 HANGUL JUNGSEONG FILLER"),
        ("A\uffa0nn", "U+FFA0 HALFWIDTH HANGUL FILLER"),
        ("\u2800\u2800", "U+2800 BRAILLE PATTERN BLANK"),
        ("Ann\u180e", "U+180E MONGOLIAN VOWEL SEPARATOR"),
        ("Ann\U0001d159", "U+1D159 MUSICAL SYMBOL NULL NOTEHEAD"),
        ("A\u034fnn", "U+034F COMBINING GRAPHEME JOINER"),
        ("🙂\u200d\u3164", "U+200D ZERO WIDTH JOINER"),
        ("Z" + "\u0300" * 5 + "algo", "too many combining marks in a row"),
        ("e" + "\u0301\u20dd" * 3, "too many combining marks in a row"),
    ],
)
def test_player_names_with_hidden_characters_say_which(name: str, words: str) -> None:
    """The refusal names the character, in the words a player can look up."""
    with pytest.raises(ValueError, match="the name contains") as caught:
        saves.check_player_name(name)
    assert words in str(caught.value) and str(caught.value).endswith("which is not allowed")


def test_every_blank_lookalike_is_refused_by_name() -> None:
    """Each listed character is refused alone, and named in words a player can look up."""
    for char in sorted(BLANK_LOOKALIKES):
        words = hidden_character(f"Ann{char}")
        assert words is not None and words.startswith(f"U+{ord(char):04X} "), (char, words)


def test_the_shown_text_check_names_the_text_and_the_character() -> None:
    """The check of names, titles and chat lines sent to be shown to others."""
    check_shown_text("Sunday game 👩\u200d🚀 Zoë", "the title")
    cases = [
        ("x\x1b]0;PWNED\x07", "the title contains U+001B (a control character)"),
        ("\u202eevil", "the message contains U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("\u3164", "the name contains U+3164 HANGUL FILLER"),
        ("a" + "\u0489" * 9, "the message contains too many combining marks in a row"),
    ]
    for text, words in cases:
        what = words.split(" contains")[0]
        with pytest.raises(ValueError) as caught:
            check_shown_text(text, what)
        assert str(caught.value) == f"{words}, which is not allowed"
    with pytest.raises(ValueError, match="the name must be text"):
        check_shown_text(None, "the name")  # type: ignore[arg-type]


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


HOSTILE = [
    "\x1b]0;PWNED\x07",
    "\x1b]52;c;SGVsbG8=\x07",
    "\x1b[2J\x1b[6n",
    "\x1b]8;;http://evil\x07link\x1b]8;;\x07",
    "\u202eevil\u2066",
    "\u3164\u2800\uffa0",
    "Z" + "\u0300\u0301\u0302" * 40 + "algo",
    "\x9b2J",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_shown_text_holds_nothing_a_terminal_would_obey(text: str) -> None:
    """What a server sends is drawn escaped: no control, format or blank character left,
    no more than a few marks in a row; and showing it again changes nothing."""
    safe = shown(text)
    assert hidden_character(safe) is None, safe
    assert shown(safe) == safe


def test_shown_text_escapes_readably_and_is_bounded() -> None:
    """ESC becomes the visible text \\x1b; marks are capped; a flood is cut to the limit."""
    assert shown("\x1b]0;PWNED\x07") == "\\x1b]0;PWNED\\x07"
    assert shown("\u202eevil\u3164") == "\\u202eevil\\u3164"
    assert shown("Z" + "\u0300" * 50) == "Z" + "\u0300" * MAX_MARKS_IN_A_ROW
    assert shown("Zoë 👩\u200d🚀 [/]") == "Zoë 👩\u200d🚀 [/]"
    assert shown("x" * 10**7, 40) == "x" * 39 + "…"
    assert len(shown("\x1b" * 1000, 40)) == 40


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
