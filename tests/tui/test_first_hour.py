"""Regressions of the newcomer's first hour (issue 11): each test fails on what got in the
way of a new player at 80×24 in tmux."""

from __future__ import annotations

import pytest
from rich.color import Color, ColorSystem

from tui import look


@pytest.mark.parametrize("system", [ColorSystem.STANDARD, ColorSystem.EIGHT_BIT])
def test_players_and_patrons_keep_apart_in_16_and_256_colours(system) -> None:
    """With TERM=xterm Tangerine's t and the red player's R were both ANSI 91."""
    colours = [*look.PATRON_COLOUR.values(), *look.COLOUR_STYLE.values(), look.NEUTRAL_STYLE]
    downgraded = [Color.parse(c).downgrade(system).number for c in colours]
    assert len(set(downgraded)) == len(colours), downgraded
