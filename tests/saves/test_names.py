"""Save names can never point outside the save folder."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import saves
from saves.names import auto_name
from tests.saves.helpers import Clock


@pytest.mark.parametrize(
    "name", ["Sunday game", "ann_vs_bob-2", "a", "X" * saves.MAX_NAME_LENGTH, "2026 01 01"]
)
def test_good_names(store: saves.SaveStore, name: str) -> None:
    """Letters, digits, space, _ and - are allowed; the file is <name>.json in the folder."""
    assert saves.check_name(name) == name
    assert store.path(name) == store.folder / f"{name}.json"


@pytest.mark.parametrize(
    "name",
    [
        "",
        "..",
        "../x",
        "a/b",
        "a\\b",
        "/etc/passwd",
        "~",
        "x" * (saves.MAX_NAME_LENGTH + 1),
        " padded",
        "padded ",
        "dot.json",
        "nul\0byte",
        "new\nline",
        "café",
    ],
)
def test_bad_names_are_refused(store: saves.SaveStore, name: str) -> None:
    """Separators, dots, absolute paths, empty or long names, and other characters: SaveError."""
    with pytest.raises(saves.SaveError):
        store.path(name)
    with pytest.raises(saves.SaveError):
        store.load(name)
    with pytest.raises(saves.SaveError):
        store.delete(name)


def test_a_symbolic_link_is_never_followed(store: saves.SaveStore, tmp_path: Path) -> None:
    """A save file that is a link (here to a file outside the folder) is not read; deleting
    it removes the link only, never what it points to."""
    outside = tmp_path / "secret.json"
    outside.write_text("{}")
    store.folder.mkdir(parents=True)
    os.symlink(outside, store.folder / "link.json")
    with pytest.raises(saves.SaveError, match="symbolic link"):
        store.load("link")
    store.delete("link")
    assert outside.read_text() == "{}" and store.names() == set()


def test_a_symbolic_link_loop_can_be_listed_and_deleted(store: saves.SaveStore) -> None:
    """x.json -> y.json -> x.json: listed as damaged, refused on load, and deleted (the
    link only) without an error about resolving it."""
    store.folder.mkdir(parents=True)
    os.symlink("y.json", store.folder / "x.json")
    os.symlink("x.json", store.folder / "y.json")
    assert {s.name: "symbolic link" in (s.error or "") for s in store.list()} == {
        "x": True,
        "y": True,
    }
    with pytest.raises(saves.SaveError, match="symbolic link"):
        store.load("x")
    store.delete("x")
    assert store.names() == {"y"}


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("a\u202eb", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("a\u200bb", "U+200B ZERO WIDTH SPACE"),
        ("a\x1b[2J", "U+001B (a control character)"),
    ],
)
def test_a_save_name_says_which_character_is_refused(name: str, words: str) -> None:
    """A name with an invisible or control character is refused, naming the character."""
    with pytest.raises(saves.SaveError, match=re.escape(f"contains {words}, which is not")):
        saves.check_name(name)


def test_automatic_names_are_fresh_and_recognised() -> None:
    """auto_name never returns a taken name, and says when the game began."""
    now = Clock()()
    first = auto_name(now, set())
    second = auto_name(now, {first})
    assert first == now.strftime("game-%Y%m%d-%H%M%S") and second == f"{first}-2"


@settings(max_examples=300, deadline=None)
@given(name=st.text(max_size=80))
def test_any_accepted_name_stays_in_the_folder(
    tmp_path_factory: pytest.TempPathFactory, name: str
) -> None:
    """Whatever the text, a name is either refused or names a file directly in the folder."""
    folder = tmp_path_factory.getbasetemp() / "names"
    try:
        path = saves.SaveStore(folder).path(name)
    except saves.SaveError as exc:
        assert str(exc)
    else:
        assert path.parent == folder and path.name == f"{name}.json"
