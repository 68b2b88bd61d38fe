"""The documents the code points at exist in the repository and say what is cited."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CITATION = re.compile(r"RULES\.md §(\d+)")


def test_every_rules_section_cited_exists_in_docs_rules() -> None:
    """Code and tests cite "RULES.md §N": each N is a section of docs/RULES.md."""
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    sections = {int(n) for n in re.findall(r"^## (\d+)\. ", rules, flags=re.MULTILINE)}
    files = subprocess.run(
        ["git", "ls-files", "*.py", "*.toml", "*.md"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    cited = {
        (name, int(n))
        for name in files
        if (ROOT / name).is_file()
        for n in CITATION.findall((ROOT / name).read_text(encoding="utf-8"))
    }
    assert cited, "no citation found: the pattern or the file list is wrong"
    missing = sorted((name, n) for name, n in cited if n not in sections)
    assert not missing, f"cited sections missing from docs/RULES.md: {missing}"
