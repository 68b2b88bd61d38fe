"""No module of the table or the terminal UI grows past what a newcomer reads in one go.

Issue 25 split the modules that had grown by concept (the client's seat, the app's flows,
the server's hub, the store); this keeps them that way: a module over :data:`MOST_LINES`
lines is a sign that two concepts share it. Split it by concept rather than raising the
bound.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 420
"""About 400 lines, with a little room for a docstring that grows."""
PACKAGES = ("table", "tui")


def _modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_about_400_lines(package: str) -> None:
    long = [
        f"{path.relative_to(ROOT)}: {lines} lines"
        for path in _modules()
        if path.is_relative_to(ROOT / package)
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    ]
    assert not long, f"modules over {MOST_LINES} lines (split them by concept):\n" + "\n".join(long)
