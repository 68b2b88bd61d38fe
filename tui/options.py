"""Argument types the commands' parsers share (``mykerinos --seed``, ``mykerinos analyse
--seed``). Light on purpose: the game's own parser runs at every start, before its first
frame."""

from __future__ import annotations

import argparse


def seed_argument(text: str) -> int:
    """An option's seed, one a save can hold (0 to 2**63 - 1), else argparse's usage
    error (a negative seed opened a form that refused its own seed; one too large failed
    only at Enter, in the save format's words)."""
    from saves.format import MAX_SEED  # only when a seed is given

    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {MAX_SEED}")
    return seed
