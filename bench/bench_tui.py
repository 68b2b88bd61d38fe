"""Terminal speed of the game, measured in a real pty with bench/ptyprobe.py.

Prints:
- start-up: seconds until the first interactive game frame (`mykerinos --resume` of a saved
  game, until "choose an action" is on screen), and until the new-game form of a first start
  (no saved game, no table server), against a minimal Textual hello-world
  (bench/hello_textual.py), medians of RUNS runs each, and their ratio (issue 29's target:
  ≤ 1.2); with ``--baseline DIR`` (a checkout of an older commit, e.g. ``git worktree add
  /tmp/base 6c12dab``) that tree's game is started too, in the same rotation, by this
  virtualenv's Python with DIR first on ``sys.path`` (both trees then start the same way);
- cursor moves: bytes written and seconds until the terminal goes quiet after each of 50
  moves over the region while a cube is being placed (targets: ≤ 2 KB, ≤ 50 ms median).

Both programs run with Python's default bytecode caching (PYTHONDONTWRITEBYTECODE unset,
after one warm-up run each), as on any normal install: with it set, every start would also
recompile the project's own modules from source (~70 ms here), which the hello-world,
made only of installed packages, never pays.

Run: .venv/bin/python bench/bench_tui.py [--baseline DIR] [--runs N]
(seed 1, 80×24, TERM=xterm-256color)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from ptyprobe import Terminal  # bench/, this script's folder, is first on sys.path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PYTHON = sys.executable
MYKERINOS = str(Path(PYTHON).parent / "mykerinos")
RUNS = 9
READY = "choose an action"
HELLO = "hello-world"
FORM = "Enter starts"
"""What the new-game form, the first frame of a first start, says."""
"""What the game's first interactive frame says."""
MOVES = 50


def terminal(command: list[str]) -> Terminal:
    """``command`` in an 80×24 pty, with Python's default bytecode caching (see above)."""
    return Terminal(command, cols=80, rows=24, env={"PYTHONDONTWRITEBYTECODE": ""}, timeout=20)


def start_up(command: list[str], text: str) -> tuple[float, float]:
    """Seconds from starting ``command`` until ``text`` is on its screen, and the CPU
    seconds it had used by then."""
    with terminal(command) as term:
        step = term.wait(text)
        return step.seconds, step.cpu


def saved_game(folder: Path) -> str:
    """A 3-player hot-seat game a few moves into season 1 (seed 1)."""
    import core
    import saves

    store = saves.SaveStore(folder)
    seats = [saves.SeatConfig(n, c, "human") for n, c in
             zip(["Ann", "Ben", "Cleo"], list(core.Colour)[:3], strict=False)]  # fmt: skip
    session = saves.Session.new(store, seats, seed=1, name="bench")
    for _ in range(4):
        session.apply(next(a for a in core.legal_actions(session.state)
                           if isinstance(a, core.Excavate)))  # fmt: skip
    return session.name


def launcher(tree: Path) -> list[str]:
    """The game of the source tree ``tree``, started by this virtualenv's Python."""
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); from tui.__main__ import main; "
    return [PYTHON, "-c", code + "sys.exit(main())"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="DIR", help="an older tree, timed alongside")
    parser.add_argument("--runs", type=int, default=RUNS, help="start-ups of each program")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="mykerinos-bench-"))
    name = saved_game(folder)
    resume = ["--save-dir", str(folder), "--resume", name]
    # A first start: no saved game, no table server (the socket's folder is empty).
    empty = Path(tempfile.mkdtemp(prefix="mykerinos-bench-empty-"))
    first = ["--save-dir", str(empty), "--socket", str(empty / "none.sock")]
    hello = [PYTHON, str(ROOT / "bench" / "hello_textual.py")]
    programs = {HELLO: (hello, "Hello, Textual")}
    trees = {"": [MYKERINOS]}
    if args.baseline:
        trees = {"before, ": launcher(Path(args.baseline).resolve()), "after, ": launcher(ROOT)}
    for tree, command in trees.items():
        programs[f"{tree}game frame"] = ([*command, *resume], READY)
        programs[f"{tree}new-game form"] = ([*command, *first], FORM)
    game = [MYKERINOS, *resume]

    print(f"load average {os.getloadavg()[0]:.1f}")
    for command, text in programs.values():  # warm-up: bytecode caches, disk cache
        start_up(command, text)
    times: dict[str, list[float]] = {label: [] for label in programs}
    cpu: dict[str, list[float]] = {label: [] for label in programs}
    for _ in range(args.runs):  # interleaved, so all see the same machine load
        for label, (command, text) in programs.items():
            seconds, used = start_up(command, text)
            times[label].append(seconds)
            cpu[label].append(used)
    # The machine may be shared: the fastest run of each is the least disturbed one, and
    # the CPU time the figure a load changes least.
    for how, runs, pick in (("median", times, statistics.median), ("fastest", times, min),
                            ("CPU time, median", cpu, statistics.median)):  # fmt: skip
        figures = {label: pick(values) for label, values in runs.items()}
        base = figures[HELLO]
        shown = ", ".join(
            f"{label} {value * 1000:.0f} ms" + (f" ({value / base:.2f})" if label != HELLO else "")
            for label, value in figures.items()
        )
        print(f"start-up, {how} of {args.runs} (ratio to the hello-world; target <= 1.2): {shown}")
    for frame in ("game frame", "new-game form") if args.baseline else ():
        for what, runs in (("wall", times), ("CPU", cpu)):
            ratios = [a / b for a, b in zip(runs[f"after, {frame}"], runs[f"before, {frame}"],
                                            strict=True)]  # fmt: skip
            print(f"{frame}, after / before, {what} time run by run: "
                  f"median {statistics.median(ratios):.2f}")  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f}")

    with terminal(game) as term:
        term.wait(READY)
        term.key("a")
        term.wait("cube 1 of 1")
        moves = []
        for i in range(MOVES):
            term.key("right" if (i // 7) % 2 == 0 else "left")
            moves.append(term.quiet(0.15))
    sizes = [move.bytes for move in moves]
    on_screen = [move.seconds for move in moves]
    print(f"cursor move, {len(moves)} moves: bytes median {statistics.median(sizes):.0f}, "
          f"max {max(sizes)} (target <= 2048); on screen median "
          f"{statistics.median(on_screen) * 1000:.1f} ms, max {max(on_screen) * 1000:.1f} ms "
          f"(target <= 50 ms)")  # fmt: skip


if __name__ == "__main__":
    main()
