"""The wall between the headless packages and the terminal UI, enforced.

`core` (the rules), `saves` (persistence) and `table` (seats and the table server) must
stay usable without a terminal: importing them must never load `textual` or `rich`, and
their source must not import the UI or anything further up the dependency chain
`tui → table → saves → core`.

A package whose folder does not exist yet is skipped, not failed.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Top-level modules each headless package may never import.
FORBIDDEN_IMPORTS: dict[str, frozenset[str]] = {
    "core": frozenset({"textual", "rich", "tui", "saves"}),
    "saves": frozenset({"textual", "rich", "tui"}),
    "table": frozenset({"textual", "rich", "tui"}),
}
# Modules that must not be loaded at run time after importing a headless package.
FORBIDDEN_LOADED = ("textual", "rich")

# Runs in a fresh interpreter: imports the package and every submodule in it (so a
# lazily imported module such as core.ai.* is checked too), then prints the names
# of forbidden modules that ended up in sys.modules.
_PROBE = """
import importlib, json, pkgutil, sys
package = importlib.import_module(sys.argv[1])
for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    if info.name.rsplit(".", 1)[-1] != "__main__":
        importlib.import_module(info.name)
forbidden = tuple(sys.argv[2:])
print(json.dumps(sorted(
    name for name in sys.modules
    if name in forbidden or name.startswith(tuple(f + "." for f in forbidden))
)))
"""


def _require_package(name: str) -> Path:
    """The package's folder; skips the test when the package does not exist yet."""
    folder = ROOT / name
    if not (folder / "__init__.py").is_file():
        pytest.skip(f"package {name!r} does not exist yet")
    return folder


@pytest.mark.parametrize("package", sorted(FORBIDDEN_IMPORTS))
def test_importing_headless_package_loads_no_terminal_library(package: str) -> None:
    """Importing core or saves (and all their submodules) loads neither textual nor rich."""
    _require_package(package)
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, package, *FORBIDDEN_LOADED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, f"importing {package} failed:\n{result.stderr}"
    loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert loaded == [], f"importing {package} loaded forbidden modules: {', '.join(loaded)}"


def _imported_modules(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) for every import in the tree, static or dynamic."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
        elif isinstance(node, ast.Call) and (target := _dynamic_import_target(node)):
            yield node.lineno, target


def _dynamic_import_target(call: ast.Call) -> str | None:
    """The module named by `import_module("x")` or `__import__("x")`, else None."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in {"import_module", "__import__"} or not call.args:
        return None
    first = call.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


@pytest.mark.parametrize("package", sorted(FORBIDDEN_IMPORTS))
def test_headless_package_source_has_no_forbidden_import(package: str) -> None:
    """No file under core/ or saves/ imports the UI, its libraries, or a package above it."""
    folder = _require_package(package)
    forbidden = FORBIDDEN_IMPORTS[package]
    offences = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module in _imported_modules(tree):
            if module.split(".")[0] in forbidden:
                offences.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
    assert not offences, "forbidden imports:\n" + "\n".join(offences)
