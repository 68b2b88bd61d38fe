"""Text that comes from players and from files: which characters a name may hold, and how
such text is quoted in a message.

Names, titles and lines of chat are drawn on a terminal and read by other players, so
characters that do not show as themselves are refused: control characters (which move the
cursor or change colours), format characters such as U+202E RIGHT-TO-LEFT OVERRIDE (which
make a name read backwards) or U+200B ZERO WIDTH SPACE (which make two names look alike),
line and paragraph separators, private-use and surrogate code points, code points not
assigned in the Unicode version of this Python, the letters and symbols that are drawn as
blanks (:data:`BLANK_LOOKALIKES`, such as U+3164 HANGUL FILLER: a name of them looks empty),
and more than :data:`MAX_MARKS_IN_A_ROW` combining marks in a row (which pile up over the
lines above and below). Letters of every script, marks, symbols and emoji are kept; a zero
width joiner or non-joiner is allowed between two visible characters, where emoji sequences
and some scripts (Persian, the Indic scripts) need it. :func:`check_shown_text` is the one
check of text a player sends to be shown to others: names, titles, lines of chat.

Text that reaches this terminal from elsewhere (a table server, a file) is shown through
:func:`shown`, which escapes what the check refuses, so that it is safe even when the
sender did not check.

Every message that quotes input goes through :func:`quoted` or :func:`tame`: the text is
cut to :data:`QUOTE_LIMIT` characters and whatever is not printable is shown escaped, so a
hostile file can neither flood a message nor send escape sequences to a terminal. The
messages are plain text: a user interface that reads markup must escape them itself.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

QUOTE_LIMIT: Final = 80
"""The most characters of input a message quotes."""
ELLIPSIS: Final = "…"
MAX_PLAYER_NAME: Final = 40

HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
"""Unicode categories whose characters do not show as themselves."""
JOINERS: Final = frozenset({"\u200c", "\u200d"})
"""Zero width non-joiner and joiner: allowed between two visible characters."""
BLANK_LOOKALIKES: Final = frozenset(
    {
        "\u034f",  # COMBINING GRAPHEME JOINER (Mn): invisible, default-ignorable
        "\u115f",  # HANGUL CHOSEONG FILLER (Lo)
        "\u1160",  # HANGUL JUNGSEONG FILLER (Lo)
        "\u17b4",  # KHMER VOWEL INHERENT AQ (Mn): invisible, its use is discouraged
        "\u17b5",  # KHMER VOWEL INHERENT AA (Mc): likewise
        "\u180e",  # MONGOLIAN VOWEL SEPARATOR (Cf since Unicode 6.3, a space before)
        "\u2800",  # BRAILLE PATTERN BLANK (So)
        "\u3164",  # HANGUL FILLER (Lo)
        "\uffa0",  # HALFWIDTH HANGUL FILLER (Lo)
        "\U00016fe4",  # KHITAN SMALL SCRIPT FILLER (Mn): invisible, default-ignorable
        "\U0001d159",  # MUSICAL SYMBOL NULL NOTEHEAD (So): drawn as nothing
    }
)
"""Letters, marks and symbols that are drawn as a blank, though not spaces (``strip`` keeps
them): the default-ignorable code points outside the format category, except the variation
selectors (emoji need U+FE0F), and the blank Braille pattern and null notehead. Spaces are
not here: they are stripped from the ends of a name, and read as spaces inside it."""
MARKS: Final = frozenset({"Mn", "Mc", "Me"})
"""The categories of combining marks."""
MAX_MARKS_IN_A_ROW: Final = 4
"""Combining marks one character may carry: enough for Vietnamese, Hebrew with its points
and Tibetan stacks, too few to draw over the neighbouring lines ("Zalgo" text)."""
TOO_MANY_MARKS: Final = "too many combining marks in a row"
SHOWN_LIMIT: Final = 400
"""The most characters :func:`shown` keeps of one text: a name, a title, a sentence."""

_CATEGORY_WORDS: Final = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Co": "a private-use character",
    "Cs": "a surrogate",
    "Cn": "a code point not assigned in Unicode " + unicodedata.unidata_version,
}


def is_hidden(char: str) -> bool:
    """Whether ``char`` does not show as itself on a terminal (see the module docstring)."""
    return unicodedata.category(char) in HIDDEN_CATEGORIES or char in BLANK_LOOKALIKES


def is_mark(char: str) -> bool:
    """Whether ``char`` is a combining mark, drawn over or under the character before it."""
    return unicodedata.category(char) in MARKS


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` that a name may not hold, described in words
    ("U+202E RIGHT-TO-LEFT OVERRIDE"), or :data:`TOO_MANY_MARKS` at the first run of more
    than :data:`MAX_MARKS_IN_A_ROW` combining marks; None when the text is allowed."""
    marks = 0
    for index, char in enumerate(text):
        marks = marks + 1 if is_mark(char) else 0
        if marks > MAX_MARKS_IN_A_ROW:
            return TOO_MANY_MARKS
        if not is_hidden(char):
            continue
        if char in JOINERS and _between_visible(text, index):
            continue
        return describe_character(char)
    return None


def _between_visible(text: str, index: int) -> bool:
    before, after = text[index - 1 : index], text[index + 1 : index + 2]
    return bool(before and after) and not is_hidden(before) and not is_hidden(after)


def describe_character(char: str) -> str:
    """``char`` as "U+202E RIGHT-TO-LEFT OVERRIDE", or "U+0007 (a control character)"
    for a character without a name."""
    code = f"U+{ord(char):04X}"
    name = unicodedata.name(char, None)
    if name is not None:
        return f"{code} {name}"
    return f"{code} ({_CATEGORY_WORDS.get(unicodedata.category(char), 'a character')})"


def check_text(text: str, what: str) -> None:
    """Raise ``ValueError`` if ``text`` holds a character a name may not hold; ``what``
    names the text in the message ("the name", "the title")."""
    hidden = hidden_character(text)
    if hidden is not None:
        raise ValueError(f"{what} contains {hidden}, which is not allowed")


def check_shown_text(text: str, what: str) -> None:
    """Raise ``ValueError`` if ``text``, sent by a player to be shown to others, is not
    plain text a terminal shows as itself: not a string, or holding a character a name may
    not hold ("the title contains U+3164 HANGUL FILLER, which is not allowed"), or too many
    combining marks in a row. ``what`` names the text ("the name", "the title", "the
    message"). Length and emptiness are the caller's rules."""
    if not isinstance(text, str):
        raise ValueError(f"{what} must be text")
    check_text(text, what)


def check_player_name(name: str) -> str:
    """``name`` without surrounding spaces, if it is a valid player name; raises
    ``ValueError`` with a sentence saying why not (empty, longer than
    :data:`MAX_PLAYER_NAME` characters, or holding a character that does not show as
    itself, e.g. "the name contains U+202E RIGHT-TO-LEFT OVERRIDE, which is not allowed").
    The new-game form calls it for each name typed; the save format checks the same on
    load."""
    if not isinstance(name, str):
        raise ValueError("a player's name must be text")
    check_text(name, "the name")
    stripped = name.strip()
    if not stripped:
        raise ValueError("a player needs a name")
    if len(stripped) > MAX_PLAYER_NAME:
        raise ValueError(f"the name is longer than {MAX_PLAYER_NAME} characters")
    return stripped


def printable(text: str) -> str:
    """``text`` with every character that does not show as itself written as an escape
    (``\\x1b``, ``\\u202e``): safe to print on a terminal, and still readable."""
    if not any(is_hidden(char) for char in text):
        return text
    return "".join(_escape(char) if is_hidden(char) else char for char in text)


def shown(text: str, limit: int = SHOWN_LIMIT) -> str:
    """``text`` from elsewhere (a server, a file) made safe to draw: what a name may not
    hold escaped as in :func:`printable` (``\\x1b``, ``\\u202e``, ``\\u3164``), each run of
    combining marks cut to :data:`MAX_MARKS_IN_A_ROW`, the whole cut to ``limit``
    characters. Plain text, not markup; showing it twice changes nothing more."""
    text = text[: limit + 1]  # enough to know it was longer, before anything is copied
    if any(is_hidden(char) or is_mark(char) for char in text):
        text = _escape_hidden(_cap_marks(text))
    return cut(text, limit)


def _cap_marks(text: str) -> str:
    kept, marks = [], 0
    for char in text:
        marks = marks + 1 if is_mark(char) else 0
        if marks <= MAX_MARKS_IN_A_ROW:
            kept.append(char)
    return "".join(kept)


def _escape_hidden(text: str) -> str:
    """What :func:`hidden_character` refuses, escaped; a joiner between two visible
    characters (an emoji sequence) is kept."""
    return "".join(
        _escape(char)
        if is_hidden(char) and not (char in JOINERS and _between_visible(text, index))
        else char
        for index, char in enumerate(text)
    )


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def cut(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, the last being "…" when it was longer."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value from input as a message quotes it: its ``repr`` (which escapes what is not
    printable), cut to ``limit`` characters. A huge value is cut before ``repr`` runs."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a number of about {round(value.bit_length() * 0.30103)} digits"
    if isinstance(value, str | bytes | list | tuple | dict) and len(value) > limit:
        value = value[:limit] if not isinstance(value, dict) else dict(list(value.items())[:8])
    return cut(printable(repr(value)), limit)


_QUOTED_RUN = re.compile(r"`[^`]*`|'[^']*'|\"[^\"]*\"|\([^()]*\)|\[[^\[\]]*\]")
_UNCLOSED_RUN = re.compile(r"[`'\"(\[][^`'\"()\[\]]*$")
_CLOSERS = "`'\")]"


def tame(message: str, limit: int = QUOTE_LIMIT) -> str:
    """A message from a library that may quote input (msgspec's, core's) made fit to
    show: non-printable characters escaped, each quoted or bracketed run cut to ``limit``
    characters (a huge message first to its start, where a run may then be unclosed),
    and the whole to a few lines' worth."""
    text = message[: 16 * limit]
    text = _QUOTED_RUN.sub(lambda m: _cut_run(m.group(), limit), text)
    if len(message) > len(text):
        text = _UNCLOSED_RUN.sub(lambda m: _cut_run(m.group(), limit), text)
    return cut(printable(text), 4 * limit)


def _cut_run(run: str, limit: int) -> str:
    if len(run) <= limit:
        return run
    closer = run[-1] if run[-1] in _CLOSERS else ""
    return run[: limit - 1 - len(closer)] + ELLIPSIS + closer


__all__ = [
    "BLANK_LOOKALIKES",
    "MAX_MARKS_IN_A_ROW",
    "MAX_PLAYER_NAME",
    "QUOTE_LIMIT",
    "SHOWN_LIMIT",
    "check_player_name",
    "check_shown_text",
    "check_text",
    "cut",
    "describe_character",
    "hidden_character",
    "is_hidden",
    "is_mark",
    "printable",
    "quoted",
    "shown",
    "tame",
]
