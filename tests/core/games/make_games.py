"""Write the scripted games of tests/core/test_scripted_games.py (run once, by hand).

    .venv/bin/python tests/core/games/make_games.py

Each game is played by a seeded random policy (``random.Random(seed).choice`` over
``core.legal_actions``) and stored as its action list in the text notation, followed by
the final scores by category. Regenerate ONLY after a deliberate rule change, and read the
diff of the scores before committing: the files exist to catch unintended changes.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import core

GAMES = [(2, 1), (3, 2), (4, 3)]
HERE = Path(__file__).parent


def score_lines(state: core.GameState) -> list[str]:
    """The final scores in the file's words (also used by the test to compare)."""
    result = core.final_scores(state)
    lines = []
    for s in result.players:
        exhibition = ",".join(map(str, s.exhibition))
        lines.append(
            f"score {s.seat}: parcels={s.parcels} exhibition={exhibition} "
            f"series={s.series} total={s.total} stock={s.stock}"
        )
    lines.append(f"winners: {','.join(map(str, result.winners))}")
    return lines


def write_game(players: int, seed: int) -> Path:
    rng = random.Random(seed)
    state = core.new_game(players, seed)
    moves = []
    while not core.is_over(state):
        action = rng.choice(core.legal_actions(state))
        moves.append(core.format_action(action))
        state = core.apply_action(state, action)
    path = HERE / f"{players}p_seed{seed}.txt"
    header = [
        f"# Mykerinos, {players} players, seed {seed}: a seeded random game (make_games.py).",
        f"players: {players}",
        f"seed: {seed}",
        *score_lines(state),
        "actions:",
    ]
    path.write_text("\n".join(header + moves) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    for players, seed in GAMES:
        print(write_game(players, seed))
