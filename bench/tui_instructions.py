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

``--imports`` also counts each program's imports alone: the modules its first frame had
loaded (in ``sys.modules``' order, written by the warm-up run), imported by a fresh Python
that runs no app. What the game adds to the hello-world's imports is the cost of its own
code being loaded, which no change to how it starts can remove.

Run: .venv/bin/python bench/tui_instructions.py [--baseline DIR] [--imports]
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

WRITE_MODULES = """
def write_modules():  # for --imports: the modules loaded by now, in the order they were
    modules_out = os.environ.get("MODULES_OUT")
    if modules_out:
        with open(modules_out, "w", encoding="utf-8") as out:
            out.write("\\n".join(sys.modules))
"""
"""Defines ``write_modules()`` in the programs below (it reads ``os`` and ``sys`` when called)."""

HELLO = (
    WRITE_MODULES
    + """
import os, sys
sys.path.insert(0, {bench!r})
from hello_textual import Hello
def on_ready(self):
    write_modules()
    os._exit(0)
Hello.on_ready = on_ready
Hello().run()
"""
)

GAME = (
    WRITE_MODULES
    + """
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
    write_modules()
    os._exit(0)
tui.app.MykerinosApp.on_ready = on_ready
sys.exit(main(sys.argv[1:]))
"""
)


IMPORTS = """
import importlib, os, sys
sys.path.insert(0, {tree!r})
sys.path.insert(0, {bench!r})
for name in open({modules!r}, encoding="utf-8").read().split():
    if name != "__main__":
        importlib.import_module(name)
os._exit(0)  # as the first frames end: no interpreter teardown counted
"""


def run(command: list[str], modules_out: Path | None = None) -> None:
    """``command`` in an 80×24 pty, until it ends (at its first frame); with
    ``modules_out``, the program writes there the modules it had loaded by then."""
    env = {"PYTHONDONTWRITEBYTECODE": "", "PYTHONHASHSEED": "0"}
    if modules_out is not None:
        env["MODULES_OUT"] = str(modules_out)
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
    parser.add_argument("--imports", action="store_true", help="also each one's imports alone")
    args = parser.parse_args()
    if args.imports and args.baseline:
        parser.error("--imports counts this tree only: leave out --baseline")
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
    loaded = {label: work / f"modules.{n}" for n, label in enumerate(programs)}
    for label, (code, argv) in list(programs.items()):  # warm-up: bytecode caches written
        run([PYTHON, "-c", code, *argv], loaded[label])
        if args.imports:  # this tree only (no --baseline): every label is one of ours
            imports = IMPORTS.format(tree=str(ROOT), bench=str(ROOT / "bench"),
                                     modules=str(loaded[label]))  # fmt: skip
            programs[f"{label}, imports alone"] = (imports, [])
    print(f"load average {os.getloadavg()[0]:.1f} (no matter: instructions)")
    jobs = [(code, argv, work / f"callgrind.{n}")
            for n, (code, argv) in enumerate(programs.values())]  # fmt: skip
    with ThreadPoolExecutor(max_workers=2) as pool:  # two at a time: the machine's 2 cores
        counts = dict(zip(programs, pool.map(lambda job: instructions(*job), jobs), strict=True))
    base = counts["hello-world"]
    for label, count in counts.items():
        ratio = "" if label == "hello-world" else f" ({count / base:.3f} of the hello-world)"
        print(f"{label}: {count / 1e6:.1f} M instructions{ratio}")
    if args.imports:
        hello_rest = base - counts["hello-world, imports alone"]
        print(f"hello-world beyond its imports: {hello_rest / 1e6:.1f} M")
    for frame in ("game frame", "new-game form") if args.imports else ():
        own = counts[f"{frame}, imports alone"] - counts["hello-world, imports alone"]
        rest = counts[frame] - counts[f"{frame}, imports alone"]
        print(
            f"{frame}: imports beyond the hello-world's {own / 1e6:.1f} M "
            f"({own / base:.3f} of the hello-world), beyond its imports {rest / 1e6:.1f} M"
        )
    for frame in ("game frame", "new-game form") if args.baseline else ():
        after, before = counts[f"after, {frame}"], counts[f"before, {frame}"]
        print(f"{frame}, after / before: {after / before:.3f}")


if __name__ == "__main__":
    main()
