"""Where a forked door session's memory is (issue 29, target 3): SESSIONS SSH sessions
idle at the lobby of ``mykerinos serve --ssh`` (as part 3 of bench_door.py, fewer), then
each game process's /proc/PID/smaps summed by kind of mapping: the heap (glibc's main
arena: small allocations, and Python's objects when pymalloc is not used), anonymous
mappings (pymalloc's 256 KB arenas, glibc's other arenas, large blocks, thread stacks),
the interpreter's library, other shared libraries (their data: relocations, globals),
other files (mmapped caches); and the same for the warm process that forked them.
Prints figures, asserts none.

Per kind: PSS, and what is private (dirty: written since the fork, in the session's
pages only) against shared (still the warm process's). A page the session wrote is
private; a page it only read is shared with the warm process and the other sessions.

Run: .venv/bin/python bench/door_memory.py [--sessions 10] [--hold SECONDS]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench_door import (  # bench/, this script's folder, is first on sys.path
    MB,
    Door,
    Probe,
    clean_environment,
    close_all,
    create_tables,
    one_session,
    pump,
    reach_lobby,
)

FIELDS = ("Pss", "Private_Dirty", "Private_Clean", "Shared_Dirty", "Shared_Clean", "Rss")
KB = 1024


def kind(name: str, start: int, stacks: set[int]) -> str:
    """The kind of a mapping from its name in smaps (and whether a thread's stack)."""
    if name == "[heap]":
        return "heap (brk)"
    if name == "[stack]":
        return "main stack"
    if name.startswith("["):
        return "other [special]"
    if not name:
        return "thread stacks" if start in stacks else "anonymous"
    base = os.path.basename(name)
    if base.startswith("libpython"):
        return "libpython"
    if ".so" in base:
        return f"lib {base.split('.so')[0]}" if base.startswith(("libc", "_")) else "other .so"
    return "other files"


def thread_stacks(pid: int) -> set[int]:
    """Start addresses of the mappings that hold a thread's stack pointer (best effort:
    the kernel's stat field 29, kstkesp, is 0 unless the thread is stopped; fall back to
    nothing)."""
    found: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        if int(task) == pid:
            continue
        try:
            syscall = Path(f"/proc/{pid}/task/{task}/syscall").read_text().split()
        except OSError:
            continue
        if len(syscall) >= 2:
            found.add(int(syscall[-2], 16))  # the stack pointer
    return found


def breakdown(pid: int) -> dict[str, dict[str, int]]:
    """Bytes per kind of mapping and per field of :data:`FIELDS`."""
    sums: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(FIELDS, 0))
    sps = thread_stacks(pid)
    mappings: list[tuple[int, int, str]] = []
    current = ""
    try:
        text = Path(f"/proc/{pid}/smaps").read_text()
    except OSError:
        return {}
    for line in text.splitlines():
        head = line.split(None, 5)
        if "-" in head[0] and not head[0].endswith(":"):
            low, high = (int(x, 16) for x in head[0].split("-"))
            name = head[5] if len(head) > 5 else ""
            mappings.append((low, high, name))
            hit = {low for sp in sps if low <= sp < high}
            current = kind(name, low, hit)
        else:
            field = line.split(":")[0]
            if field in FIELDS:
                sums[current][field] += int(line.split()[1]) * KB
    return dict(sums)


def table(rows: dict[str, dict[str, float]], title: str) -> None:
    print(f"\n{title}")
    print(f"   {'kind':<22}{'PSS':>8}{'priv dirty':>12}{'priv clean':>12}{'shared':>10}")
    order = sorted(rows, key=lambda k: -rows[k]["Pss"])
    for name in [*order, "total"] if "total" not in rows else order:
        if name == "total":
            continue
        row = rows[name]
        shared = row["Shared_Dirty"] + row["Shared_Clean"]
        if row["Rss"] < 64 * KB:
            continue
        print(
            f"   {name:<22}{row['Pss'] / MB:>8.2f}{row['Private_Dirty'] / MB:>12.2f}"
            f"{row['Private_Clean'] / MB:>12.2f}{shared / MB:>10.2f}"
        )
    total = {f: sum(r[f] for r in rows.values()) for f in FIELDS}
    shared = total["Shared_Dirty"] + total["Shared_Clean"]
    print(
        f"   {'total':<22}{total['Pss'] / MB:>8.2f}{total['Private_Dirty'] / MB:>12.2f}"
        f"{total['Private_Clean'] / MB:>12.2f}{shared / MB:>10.2f}"
    )


def mean_breakdown(pids: list[int]) -> dict[str, dict[str, float]]:
    each = [breakdown(p) for p in pids]
    kinds = {k for b in each for k in b}
    return {
        k: {f: statistics.mean(b.get(k, dict.fromkeys(FIELDS, 0))[f] for b in each) for f in FIELDS}
        for k in kinds
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--sessions", type=int, default=10, help="idle sessions (default 10)")
    parser.add_argument("--hold", type=float, default=0.0, help="seconds to keep them open")
    parser.add_argument("--cold", action="store_true", help="serve --cold-sessions")
    parser.add_argument(
        "--settle", type=float, default=3.0,
        help="seconds at the lobby before measuring (default 3; longer for KSM to merge)",
    )  # fmt: skip
    args = parser.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load}; sessions {args.sessions}; {merging()}")
    opened: list[Probe] = []
    with (
        tempfile.TemporaryDirectory(prefix="myk-dm-", dir="/tmp") as name,
        clean_environment(Path(name) / "env"),
    ):
        (Path(name) / "door").mkdir()
        door = Door(Path(name) / "door", cold=args.cold)
        try:
            door.start()
            create_tables(door)
            keys = door.add_players(["warm", *(f"p{i:03d}" for i in range(args.sessions))])
            one_session(door, door.ssh_argv(keys[0]))
            for key in keys[1:]:
                term = Probe(door.ssh_argv(key))
                opened.append(term)
                reach_lobby(term, opened)
            end = time.monotonic() + args.settle
            while time.monotonic() < end:
                pump(opened, 0.05)
            games = sorted(door.games())
            warm = [p for p in door.seen if "-m tui.zygote" in _cmd(p)]
            pss = [_field(p, "Pss") for p in games]
            print(
                f"{len(games)} game processes: PSS mean {statistics.mean(pss) / MB:.2f} MB "
                f"(min {min(pss) / MB:.2f}, max {max(pss) / MB:.2f})"
            )
            table(mean_breakdown(games), "a game process at the lobby (mean), MB:")
            if warm:
                table(mean_breakdown(warm[:1]), f"the warm process (pid {warm[0]}), MB:")
            if args.hold:
                print(f"\nholding {args.hold:g} s: games {games}, warm {warm}", flush=True)
                end = time.monotonic() + args.hold
                while time.monotonic() < end:
                    pump(opened, 0.2)
        finally:
            close_all(opened)
            door.stop()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at the end {load}")


def merging() -> str:
    """Whether the kernel's same-page merging (KSM) runs, which the warm process offers its
    sessions' memory to (/sys/kernel/mm/ksm/run: 1 runs)."""
    try:
        run = Path("/sys/kernel/mm/ksm/run").read_text().strip()
    except OSError:
        return "KSM: not in this kernel"
    return f"KSM run={run}" + (" (merging)" if run == "1" else " (not merging)")


def _cmd(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _field(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) * KB
    return 0


if __name__ == "__main__":
    main()
