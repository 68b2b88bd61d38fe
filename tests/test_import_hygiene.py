"""The walls between the packages, enforced.

`core` (the rules), `saves` (persistence) and `table` (seats and the table server) must
stay usable without a terminal: importing them must never load `textual` or `rich`, and
their source must not import the UI or anything further up the dependency chain
`tui → table → saves → core` (so `core` and `saves` never import `table`, and `table`
never imports `tui`).

Inside `table`, the server never imports a door nor `table.serve` (the composition root
that starts both), and every SQL statement lives behind the store's interface
(`table/store/`): no other module of core, saves, table or tui imports `sqlite3` (or
another database's driver) or holds a string that is an SQL statement, so moving the
store to another database stays one package. The tests and the benches may use SQL.

A package whose folder does not exist yet is skipped, not failed.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Top-level modules each headless package may never import.
FORBIDDEN_IMPORTS: dict[str, frozenset[str]] = {
    "core": frozenset({"textual", "rich", "tui", "saves", "table"}),
    "saves": frozenset({"textual", "rich", "tui", "table"}),
    "table": frozenset({"textual", "rich", "tui"}),
}
# Modules that must not be loaded at run time after importing a headless package.
FORBIDDEN_LOADED = ("textual", "rich")
# Packages inside `table` and the modules (with their submodules) they may never import,
# in their source or at run time.
INNER_WALLS: dict[str, tuple[str, ...]] = {
    "table.server": ("table.doors", "table.serve"),
}

# Where SQL may be: the store's package. The packages scanned for SQL elsewhere.
STORE = ROOT / "table" / "store"
SQL_FREE_PACKAGES = ("core", "saves", "table", "tui")
DATABASE_DRIVERS = frozenset({"sqlite3", "_sqlite3", "apsw", "psycopg", "psycopg2", "asyncpg"})
# A string that starts like an SQL statement (select, insert, update, delete, create,
# alter, drop, pragma, a transaction's begin, commit or rollback; any case) in the shape
# SQL has: "select … from t where", not "Select a game from the list."; a bare "BEGIN"
# in capitals only (a "Begin" button is words).
SQL_STATEMENT = re.compile(
    r"""\s*(
        select\s.+?\sfrom\s+(\w+(\s+(where|order|group|limit|join|left|inner|natural)\b
                                 |\s*[;,)]|\s*$)
                              |[{%?]|$)
      | insert\s+(or\s+\w+\s+)?into\s
      | update\s+(or\s+\w+\s+)?\S+\s+set\s
      | delete\s+from\s
      | create\s+(temp(orary)?\s+|unique\s+|virtual\s+)?(table|index|view|trigger)\s
      | pragma\s+\w
      | (alter|drop)\s+(table|index|view|trigger)\s
      | begin\s+(deferred|immediate|exclusive|transaction)\b
      | (commit|rollback)\s+transaction\b
      | (?-i:BEGIN|COMMIT|ROLLBACK)\s*;?\s*$
    )""",
    re.IGNORECASE | re.VERBOSE | re.DOTALL,
)

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
    """Importing core or saves (and all their submodules) loads neither textual nor rich,
    nor a package above it (core and saves load no table, table loads no tui)."""
    _require_package(package)
    forbidden = sorted(set(FORBIDDEN_LOADED) | FORBIDDEN_IMPORTS[package])
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, package, *forbidden],
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


def _module_name(path: Path) -> str:
    """The dotted name of the module in ``path`` (a file under ROOT)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_names(path: Path, tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, absolute dotted name) of everything the file imports: each module, and
    each name taken from one (``from table import doors`` imports ``table.doors``);
    relative imports resolved against the file's own package."""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    yield from _imported_modules(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            anchor = package[: len(package) - node.level + 1]
            base = ".".join([*anchor, base] if base else anchor)
            yield node.lineno, base
        for alias in node.names:
            yield node.lineno, f"{base}.{alias.name}"


def _within(module: str, walled: str) -> bool:
    """Whether ``module`` is ``walled`` or one of its submodules (``table.server`` is not
    within ``table.serve``)."""
    return module == walled or module.startswith(walled + ".")


@pytest.mark.parametrize("package", sorted(INNER_WALLS))
def test_inner_package_source_imports_nothing_beyond_its_wall(package: str) -> None:
    """No file of table/server/ imports a door or table.serve, directly, relatively, or
    as a name taken from its package."""
    folder = _require_package(package.replace(".", "/"))
    offences = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module in _imported_names(path, tree):
            if any(_within(module, walled) for walled in INNER_WALLS[package]):
                offences.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
    assert not offences, "imports through a wall:\n" + "\n".join(sorted(set(offences)))


@pytest.mark.parametrize("package", sorted(INNER_WALLS))
def test_importing_inner_package_loads_nothing_beyond_its_wall(package: str) -> None:
    """Importing table.server and all its submodules loads no door and not table.serve,
    not even through a module it imports."""
    _require_package(package.replace(".", "/"))
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, package, *INNER_WALLS[package]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, f"importing {package} failed:\n{result.stderr}"
    loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert loaded == [], f"importing {package} loaded modules beyond its wall: {', '.join(loaded)}"


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstrings' nodes (words about the code, never run)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _strings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, text) of every string of the code that is not a docstring; an f-string
    whole, each placeholder standing as ``x`` (``f"SELECT * FROM {table}"`` is SQL)."""
    skipped = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skipped.update(id(part) for part in node.values)
            text = "".join(
                str(part.value) if isinstance(part, ast.Constant) else "x" for part in node.values
            )
            yield node.lineno, text
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skipped
        ):
            yield node.lineno, node.value


def _sql_in(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, what) for each import of a database's driver and each SQL statement."""
    for line, module in _imported_modules(tree):
        if module.split(".")[0] in DATABASE_DRIVERS:
            yield line, f"imports {module}"
    for line, text in _strings(tree):
        if SQL_STATEMENT.match(text):
            yield line, f"SQL {text.strip()[:40]!r}"


def test_no_sql_outside_the_store() -> None:
    """Only table/store/ imports sqlite3 or holds SQL: core, saves, the rest of table
    and tui go through the store's classes (the players' keys and web sessions too)."""
    offences: list[str] = []
    for package in SQL_FREE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if not path.is_relative_to(STORE):
                tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
                where = path.relative_to(ROOT)
                offences.extend(f"{where}:{line}: {what}" for line, what in _sql_in(tree))
    assert not offences, "SQL outside table/store/:\n" + "\n".join(offences)


@pytest.mark.parametrize(
    "source",
    [
        "import sqlite3",
        "from sqlite3 import connect",
        "importlib.import_module('sqlite3')",
        "db.execute('SELECT name FROM player_keys WHERE key = ?')",
        "q = 'select count(*) from web_sessions'",
        "q = f'SELECT * FROM {table}'",
        "q = 'SELECT * FROM ' + table",
        "q = 'INSERT OR IGNORE INTO player_keys VALUES (?)'",
        "q = 'update invitations set used_at = ?'",
        "q = 'DELETE FROM web_sessions WHERE expires <= ?'",
        "q = 'CREATE TABLE t (x)'",
        "q = 'PRAGMA journal_mode=WAL'",
        "q = 'BEGIN IMMEDIATE'",
        "q = 'BEGIN'",
        "q = 'COMMIT'",
        "q = 'rollback transaction'",
        "q = 'ALTER TABLE seats ADD COLUMN standin TEXT'",
    ],
)
def test_the_sql_wall_sees_sql(source: str) -> None:
    """The scan finds a driver's import and SQL in the forms code writes it."""
    assert [line for line, _ in _sql_in(ast.parse(source))] == [1]


@pytest.mark.parametrize(
    "words",
    [
        "Create a table; returns how it stands",
        "Select a game from the list.",
        "Delete the saved game",
        "Begin surveying the area",
        "Begin",
        "Commit",
        "Drop the card on the table",
        "create",
        "Update your mykerinos to play here",
        "Insert the card into the row",
        "pragmatic",
    ],
)
def test_the_sql_wall_lets_words_be(words: str) -> None:
    """Sentences and labels that start with an SQL word are not SQL."""
    assert not SQL_STATEMENT.match(words)
