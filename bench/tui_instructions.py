"""Instructions to the first frame, counted by valgrind (callgrind): a figure no load moves.

The same three first frames as bench_tui.py (the hello-world, a saved game resumed, a first
start's new-game form), each run once in an 80×24 pty under ``valgrind --tool=callgrind``
and ended as its first frame is on screen (Textual's ``Ready``), with ``PYTHONHASHSEED=0``.
Prints the instructions of each and their ratio to the hello-world's; with ``--baseline
DIR`` also those of an older tree's game (run by this virtualenv's Python, DIR first on
``sys.path``, as bench_tui.py does). Timers and threads still vary a little from run to
run (about ±1.5% here): compare figures of the same run.

Slow (valgrind runs Python some 50 times slower: a minute or two a program, two at a
time; hence not named ``bench_*``, which ``make bench`` runs); needs valgrind. The
CPU-time figure the issue quotes is bench_tui.py's; this one says whether a change moved
the work, whatever the machine's load.

Run: .venv/bin/python bench/tui_instructions.py [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench_tui import saved_game  # bench/, this script's folder, is first on sys.path
from ptyprobe import Terminal

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
LIMIT = 900.0
"""Seconds a program may take under valgrind before it is given up."""

HELLO = """
import os, sys
sys.path.insert(0, {bench!r})
from hello_textual import Hello
Hello.on_ready = lambda self: os._exit(0)
Hello().run()
"""

GAME = """
import os, sys
sys.path.insert(0, {tree!r})
from tui.__main__ import main
try:  # as the command does before it imports the app (a tree before issue 29 has none)
    from tui import collector
    collector.pause()
except ImportError:
    pass
import tui.app
ready = getattr(tui.app.MykerinosApp, "on_ready", None)
def on_ready(self):
    if ready is not None:
        ready(self)
    os._exit(0)
tui.app.MykerinosApp.on_ready = on_ready
sys.exit(main(sys.argv[1:]))
"""


def run(command: list[str]) -> None:
    """``command`` in an 80×24 pty, until it ends (at its first frame)."""
    env = {"PYTHONDONTWRITEBYTECODE": "", "PYTHONHASHSEED": "0"}
    with Terminal(command, cols=80, rows=24, env=env, timeout=LIMIT) as term:
        if not term.ended():
            raise RuntimeError(f"{command[:4]} did not end within {LIMIT:.0f} s")


def instructions(code: str, args: list[str], out: Path) -> int:
    """The instructions ``python -c code args`` executes until its first frame, under
    callgrind (its figures in ``out``)."""
    run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
         f"--log-file={out}.log", PYTHON, "-c", code, *args])  # fmt: skip
    for line in out.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise RuntimeError(f"no summary in {out} (see {out}.log)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="DIR", help="an older tree, counted alongside")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("tui_instructions: valgrind is not installed")
    work = Path(tempfile.mkdtemp(prefix="mykerinos-instructions-"))
    (work / "saves").mkdir()
    name = saved_game(work / "saves")
    empty = work / "empty"
    empty.mkdir()
    resume = ["--save-dir", str(work / "saves"), "--resume", name]
    first = ["--save-dir", str(empty), "--socket", str(empty / "none.sock")]
    trees = {"": ROOT}
    if args.baseline:
        trees = {"before, ": Path(args.baseline).resolve(), "after, ": ROOT}
    programs: dict[str, tuple[str, list[str]]] = {
        "hello-world": (HELLO.format(bench=str(ROOT / "bench")), [])
    }
    for label, tree in trees.items():
        programs[f"{label}game frame"] = (GAME.format(tree=str(tree)), resume)
        programs[f"{label}new-game form"] = (GAME.format(tree=str(tree)), first)
    for code, argv in programs.values():  # warm-up: bytecode caches written, as in real use
        run([PYTHON, "-c", code, *argv])
    print(f"load average {os.getloadavg()[0]:.1f} (no matter: instructions)")
    jobs = [(code, argv, work / f"callgrind.{n}")
            for n, (code, argv) in enumerate(programs.values())]  # fmt: skip
    with ThreadPoolExecutor(max_workers=2) as pool:  # two at a time: the machine's 2 cores
        counts = dict(zip(programs, pool.map(lambda job: instructions(*job), jobs), strict=True))
    base = counts["hello-world"]
    for label, count in counts.items():
        ratio = "" if label == "hello-world" else f" ({count / base:.3f} of the hello-world)"
        print(f"{label}: {count / 1e6:.1f} M instructions{ratio}")
    for frame in ("game frame", "new-game form") if args.baseline else ():
        after, before = counts[f"after, {frame}"], counts[f"before, {frame}"]
        print(f"{frame}, after / before: {after / before:.3f}")


if __name__ == "__main__":
    main()
