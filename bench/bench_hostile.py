"""How long each kind of hostile save file takes to be refused (the issue's bound: 2 s).

For every case of the corpus in tests/saves/corpus.py, alone in a folder beside one good
save, prints the slowest cases and the worst time of each path:

- ``list``: ``SaveStore.list()`` (what the load screen and the resume offer read);
- ``load``: ``SaveStore.open()`` refusing it (or opening it, for a valid hostile file);
- ``cli --list`` and ``cli --resume``: ``mykerinos --list`` / ``--resume NAME`` in-process
  (``--resume`` stops before the UI: no terminal here).

Run: ``.venv/bin/python bench/bench_hostile.py`` (or ``make bench``).
"""

from __future__ import annotations

import contextlib
import io
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import saves
from tests.saves.corpus import CASES, good_bytes, write_case
from tui.__main__ import main

LIMIT = 2.0


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    with (
        contextlib.suppress(saves.SaveError),
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()),
    ):
        call()
    return time.perf_counter() - start


def measure(folder: Path, name: str) -> dict[str, float]:
    store = saves.SaveStore(folder)
    args = ["--save-dir", str(folder)]
    times = {
        "list": timed(store.list),
        "load": timed(lambda: store.open(name).close()),
        "cli --list": timed(lambda: main([*args, "--list"])),
        "cli --resume": timed(lambda: main([*args, "--resume", name])),
    }
    return times


def main_bench() -> None:
    rows: list[tuple[float, str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for index, case in enumerate(CASES):
            folder = Path(tmp) / f"case{index}"
            folder.mkdir()
            (folder / "good.json").write_bytes(good_bytes())
            write_case(case, folder, "hostile")
            times = measure(folder, "hostile")
            rows.append((max(times.values()), case.id, times))
    rows.sort(reverse=True)
    print(f"{len(CASES)} kinds of hostile file; the slowest (seconds, limit {LIMIT}):")
    for worst, case_id, times in rows[:6]:
        detail = "  ".join(f"{path} {t:.3f}" for path, t in times.items())
        print(f"  {case_id:<32} {worst:.3f}   ({detail})")
    for path in rows[0][2]:
        values = [times[path] for _, _, times in rows]
        print(f"{path:<13} median {statistics.median(values):.4f} s   worst {max(values):.3f} s")
    over = [case_id for worst, case_id, _ in rows if worst > LIMIT]
    print("over the limit:", ", ".join(over) if over else "none")


if __name__ == "__main__":
    main_bench()
