"""Write the lock files: the exact version of every package `make` installs into .venv.

- ``requirements/play.txt``: what the game needs to run, installed by ``make play``;
- ``requirements/test.txt``: the test and lint tools on top of it (``make test``, ``make lint``).

Both are installed with ``pip install --no-deps``, so the venv holds exactly these versions
and nothing pip would choose on the day. They are written here, never by hand:

    python3 requirements/relock.py           # keep every current pin that still fits
    python3 requirements/relock.py --upgrade # the newest versions pyproject.toml allows
    python3 requirements/relock.py --check   # exit 1 if pyproject.toml's dependencies moved

pip resolves ``.[test]`` in a scratch venv (never in .venv), ``pip check`` vetoes an
inconsistent set, and a second, dry-run resolution of ``.`` alone within those versions
says which of them the game itself needs. Only the standard library is used, so this runs
on the plain ``python3`` that bootstraps everything else.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAY = ROOT / "requirements" / "play.txt"
TEST = ROOT / "requirements" / "test.txt"
FINGERPRINT = "# pyproject.toml dependencies sha256: "

NOTES = {
    "textual": "the snapshot SVGs depend on its exact output: review tests/tui/__snapshots__",
    "rich": "draws what textual shows: the snapshot SVGs depend on it too",
    "pytest": "held < 9 in pyproject.toml on purpose: pytest-textual-snapshot 1.1.0 pins "
    "syrupy 4.8.0, which needs pytest < 9; lift both together",
    "syrupy": "pinned exactly by pytest-textual-snapshot 1.1.0",
}
"""Why a pin matters, written beside it in the lock files."""

HEADERS = {
    PLAY: "The game's runtime packages, exact versions: `make play` installs these alone.",
    TEST: "The test and lint tools on top of play.txt: `make test` and `make lint` add these.",
}


def canonical(name: str) -> str:
    """A distribution name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def fingerprint() -> str:
    """A digest of everything in pyproject.toml that decides what gets installed."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {
        "requires-python": project.get("requires-python"),
        "dependencies": project.get("dependencies", []),
        "optional-dependencies": project.get("optional-dependencies", {}),
    }
    return hashlib.sha256(json.dumps(wanted, sort_keys=True).encode()).hexdigest()[:16]


def check() -> int:
    """0 when the lock files were written from pyproject.toml's current dependencies."""
    for path in (PLAY, TEST):
        lines = path.read_text().splitlines() if path.exists() else []
        recorded = next((ln[len(FINGERPRINT) :] for ln in lines if ln.startswith(FINGERPRINT)), "")
        if recorded != fingerprint():
            print(
                f"{path.relative_to(ROOT)} was not written from pyproject.toml's current "
                "dependencies.\nRun `make lock` (keeps the other pins) or `make upgrade` "
                "(newest versions), and commit the result.",
                file=sys.stderr,
            )
            return 1
    return 0


def pins(path: Path) -> dict[str, str]:
    """The ``name==version`` lines of a lock file, by canonical name."""
    found = {}
    for line in path.read_text().splitlines() if path.exists() else []:
        requirement = line.split("#", 1)[0].strip()
        if "==" in requirement:
            name, _, version = requirement.partition("==")
            found[canonical(name)] = version.strip()
    return found


class Scratch:
    """A throwaway venv and the pip that installs into it."""

    def __init__(self, folder: Path) -> None:
        self.python = folder / "bin" / "python"
        # python3's own pip can drive a venv made without one (pip >= 22.3, --python).
        base = [sys.executable, "-m", "pip", "--python", str(self.python)]
        own_pip = subprocess.run(
            [*base[:3], "--python", sys.executable, "--version"], capture_output=True
        )
        if own_pip.returncode == 0:
            subprocess.run([sys.executable, "-m", "venv", "--without-pip", folder], check=True)
            self.pip = base
        else:
            subprocess.run([sys.executable, "-m", "venv", folder], check=True)
            self.pip = [str(self.python), "-m", "pip"]

    def run(self, *args: str, capture: bool = False) -> str:
        output = subprocess.PIPE if capture else None
        environ = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
        done = subprocess.run(
            [*self.pip, *args], cwd=ROOT, check=True, text=True, stdout=output, env=environ
        )
        return done.stdout or ""


def resolve(keep: dict[str, str], folder: Path) -> tuple[dict[str, str], set[str]]:
    """Every package of ``.[test]`` with its version, and the names the game alone needs."""
    scratch = Scratch(folder / "venv")
    constraints = folder / "keep.txt"
    constraints.write_text("".join(f"{name}=={version}\n" for name, version in keep.items()))
    print("Resolving .[test] in a scratch venv…", flush=True)
    scratch.run("install", "--quiet", "--no-compile", "-c", str(constraints), ".[test]")
    scratch.run("check")
    frozen = scratch.run("freeze", "--exclude", "mykerinos", capture=True)
    everything = {}
    for line in frozen.splitlines():
        name, _, version = line.partition("==")
        if version:
            everything[canonical(name)] = version
    full = folder / "full.txt"
    full.write_text("".join(f"{name}=={version}\n" for name, version in everything.items()))
    print("Finding which of them the game alone needs…", flush=True)
    dry_run = ["install", "--quiet", "--dry-run", "--ignore-installed", "--report", "-"]
    report = json.loads(scratch.run(*dry_run, "-c", str(full), ".", capture=True))
    runtime = {canonical(item["metadata"]["name"]) for item in report["install"]}
    runtime.discard("mykerinos")
    return everything, runtime


def write(path: Path, versions: dict[str, str]) -> None:
    lines = [
        f"# {HEADERS[path]}",
        "# Written by `make lock` / `make upgrade` (requirements/relock.py); do not edit by hand.",
        f"{FINGERPRINT}{fingerprint()}",
    ]
    for name in sorted(versions):
        if name in NOTES:
            lines.append(f"# {name}: {NOTES[name]}")
        lines.append(f"{name}=={versions[name]}")
    path.write_text("\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--upgrade", action="store_true", help="newest versions allowed")
    what.add_argument("--check", action="store_true", help="is the lock up to date?")
    args = parser.parse_args()
    if args.check:
        return check()
    keep = {} if args.upgrade else {**pins(PLAY), **pins(TEST)}
    with tempfile.TemporaryDirectory(prefix="mykerinos-lock-") as folder:
        try:
            everything, runtime = resolve(keep, Path(folder))
        except subprocess.CalledProcessError:
            hint = "" if args.upgrade else " (a pin may no longer fit: try `make upgrade`)"
            print(f"relock: pip failed, the lock files are unchanged{hint}", file=sys.stderr)
            return 1
    write(PLAY, {n: v for n, v in everything.items() if n in runtime})
    write(TEST, {n: v for n, v in everything.items() if n not in runtime})
    tools = len(everything) - len(runtime)
    print(f"Wrote {PLAY.name} ({len(runtime)} packages) and {TEST.name} ({tools}): review the diff")
    return 0


if __name__ == "__main__":
    sys.exit(main())
