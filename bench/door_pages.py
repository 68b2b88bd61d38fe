"""Which of a forked door game's pages are its own, and why (issue 29, target 3): run as
root (page frame numbers in /proc/PID/pagemap need it) against the doors' warm process
and one of its games, both alive (``bench/door_memory.py --hold 600`` prints their pids).

Each present page of the game's writable mappings is: shared (the very frame the warm
process has at that address), copied (the warm process has the address on another frame:
the game wrote to it), or new (the warm process has nothing there). The copied pages are
compared with the warm process's: no word changed (written back the same: a reference
taken and dropped), or which objects' words changed, named by their type (an object's
type is read where CPython 3.11 puts it: after its reference count, behind a 16-byte
collector header for the objects it tracks), in pymalloc's pools (16 KiB, one size of
block each) and the heap's chunks. A page counts once for each type it changed.

The warm process runs on after the fork (it forks the next games), so a few pages are
its writes, not the game's. Prints figures, asserts none.

Run: sudo .venv/bin/python bench/door_pages.py WARM_PID GAME_PID
"""

from __future__ import annotations

import argparse
import bisect
import struct
from collections import Counter, defaultdict
from io import BufferedReader

PAGE = 4096
POOL = 16384
"""pymalloc's pool in CPython 3.11 on 64 bits (1 MiB arenas of 16 KiB pools)."""
POOL_HEADER = 48
MB = 1024 * 1024
PFN = (1 << 55) - 1


def mappings(pid: int) -> list[tuple[int, int, str, str]]:
    found = []
    with open(f"/proc/{pid}/maps", encoding="ascii", errors="replace") as maps:
        for line in maps:
            fields = line.split(None, 5)
            low, high = (int(x, 16) for x in fields[0].split("-"))
            found.append((low, high, fields[1], fields[5].strip() if len(fields) > 5 else ""))
    return found


def frames(pid: int, low: int, high: int) -> list[int]:
    """The frame of each page from ``low`` to ``high`` (-1: not present)."""
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        pagemap.seek(low // PAGE * 8)
        data = pagemap.read((high - low) // PAGE * 8)
    return [v & PFN if v >> 63 else -1 for v in struct.unpack(f"{len(data) // 8}Q", data)]


def kind(name: str) -> str:
    if name == "[heap]":
        return "heap"
    if not name:
        return "anonymous"
    return "libpython" if "libpython" in name else "other"


class Memory:
    """Another process's memory, read through /proc/PID/mem."""

    def __init__(self, pid: int) -> None:
        self.file: BufferedReader = open(f"/proc/{pid}/mem", "rb")  # noqa: SIM115
        self.names: dict[int, str | None] = {}

    def read(self, address: int, size: int) -> bytes:
        try:
            self.file.seek(address)
            return self.file.read(size)
        except (OSError, OverflowError, ValueError):
            return b""

    def word(self, address: int) -> int:
        data = self.read(address, 8)
        return struct.unpack("Q", data)[0] if len(data) == 8 else 0

    def type_name(self, pointer: int) -> str | None:
        """The name of the type at ``pointer`` (None: not a type)."""
        if pointer not in self.names:
            name = self.read(self.word(pointer + 24), 64).split(b"\0")[0]
            ok = bool(name) and all(32 < c < 127 for c in name)
            self.names[pointer] = name.decode() if ok else None
        return self.names[pointer]

    def object_type(self, start: int) -> str:
        """The type of the object in the block at ``start`` ('?': none found)."""
        words = struct.unpack("4Q", self.read(start, 32).ljust(32, b"\0"))
        for refcount, pointer in ((words[0], words[1]), (words[2], words[3])):
            if refcount < 1 << 32:
                name = self.type_name(pointer)
                if name is not None:
                    return name
        return "?"


def heap_chunks(warm: Memory, low: int, high: int) -> list[int]:
    """Where each of glibc's chunks in the heap holds its data (its header's end)."""
    data, starts, at = warm.read(low, high - low), [], 0
    while at + 16 <= len(data):
        size = struct.unpack_from("Q", data, at + 8)[0] & ~7
        if size < 32 or at + size > len(data):
            break
        starts.append(low + at + 16)
        at += size
    return starts


def changed_types(warm: Memory, address: int, changed: list[int], chunks: list[int]) -> set[str]:
    """The types of the objects whose words at ``changed`` (indices of 8-byte words in the
    page at ``address``) changed."""
    found = set()
    if chunks:
        for index in changed:
            at = bisect.bisect_right(chunks, address + 8 * index) - 1
            found.add(warm.object_type(chunks[at]) if at >= 0 else "?")
        return found
    pool = address & ~(POOL - 1)
    size_class = struct.unpack("I", warm.read(pool + 36, 4).ljust(4, b"\0"))[0]
    if size_class >= 32:
        return {"not a pymalloc pool"}
    block = (size_class + 1) * 16
    for index in changed:
        offset = address + 8 * index - pool
        if offset >= POOL_HEADER:
            found.add(
                warm.object_type(pool + POOL_HEADER + (offset - POOL_HEADER) // block * block)
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("warm", type=int, help="the warm process's pid")
    parser.add_argument("game", type=int, help="the pid of a game it forked")
    args = parser.parse_args()
    warm, game = Memory(args.warm), Memory(args.game)
    theirs = mappings(args.warm)
    pages: dict[str, Counter[str]] = defaultdict(Counter)
    why: dict[str, Counter[str]] = defaultdict(Counter)
    for low, high, mode, name in mappings(args.game):
        if "w" not in mode:
            continue
        where = kind(name)
        own = frames(args.game, low, high)
        cover = [(lo, hi) for lo, hi, _, _ in theirs if lo < high and low < hi]
        warm_frames = {}
        for lo, hi in cover:
            start, end = max(lo, low), min(hi, high)
            for i, frame in enumerate(frames(args.warm, start, end)):
                warm_frames[start + i * PAGE] = frame
        chunks = heap_chunks(warm, low, high) if where == "heap" else []
        for i, frame in enumerate(own):
            if frame < 0:
                continue
            address = low + i * PAGE
            before = warm_frames.get(address, -1)
            state = "new" if before < 0 else "shared" if before == frame else "copied"
            pages[where][state] += 1
            if state != "copied" or where not in ("anonymous", "heap"):
                continue
            old, now = warm.read(address, PAGE), game.read(address, PAGE)
            if len(old) != PAGE or len(now) != PAGE:
                continue
            a, b = struct.unpack("512Q", old), struct.unpack("512Q", now)
            changed = [j for j in range(512) if a[j] != b[j]]
            if not changed:
                why[where]["(no word changed)"] += 1
            for type_name in changed_types(warm, address, changed, chunks):
                why[where][type_name] += 1
    print(f"game {args.game} against the warm process {args.warm}, MB:")
    for where, counts in pages.items():
        said = ", ".join(f"{state} {n * PAGE / MB:.2f}" for state, n in counts.most_common())
        print(f"   {where}: {said}")
    for where, counts in why.items():
        print(f"copied pages of {where}, by what changed in them (a page once per type), MB:")
        for type_name, n in counts.most_common(15):
            print(f"   {type_name:<32}{n * PAGE / MB:>6.2f}")


if __name__ == "__main__":
    main()
