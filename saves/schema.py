"""The JSON Schema of the save format, generated from the Structs of :mod:`saves.format`.

The committed copy lives at ``docs/save-format.schema.json``; a test checks it is current.
Regenerate it after changing the format with::

    .venv/bin/python -m saves.schema            # rewrite docs/save-format.schema.json
    .venv/bin/python -m saves.schema --check    # exit 1 if the committed copy is stale
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import msgspec

from saves.format import SaveFile

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "docs" / "save-format.schema.json"


def schema() -> dict[str, Any]:
    """The JSON Schema of a save file of the current version."""
    document: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Mykerinos save file",
        **msgspec.json.schema(SaveFile),
    }
    return document


def schema_text() -> str:
    """:func:`schema` as the exact text committed under ``docs/``."""
    return json.dumps(schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = schema_text()
    if "--check" in argv:
        current = SCHEMA_PATH.read_text(encoding="utf-8") if SCHEMA_PATH.exists() else ""
        if current != text:
            print(f"{SCHEMA_PATH} is stale: run python -m saves.schema", file=sys.stderr)
            return 1
        return 0
    SCHEMA_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
