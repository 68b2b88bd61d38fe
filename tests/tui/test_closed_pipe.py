"""A command whose reader closed stdout (``mykerinos --list | head -1``): the reader had
what it wanted, so the command ends quietly with status 0, no crash report, no traceback.

The reader gone is a pipe whose read end is closed before the command writes: the first
write (or the flush) fails with EPIPE, as under ``| head -1`` once head has left.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui.__main__ import main


@contextlib.contextmanager
def reader_gone(monkeypatch: pytest.MonkeyPatch, data: Path) -> Iterator[io.StringIO]:
    """stdout a pipe nobody reads any more; yields what is said on stderr. Crash reports
    would go under ``data``. Entered in the test itself: pytest's capture sets sys.stdout
    again between a fixture's setup and the test."""
    read, write = os.pipe()
    os.close(read)
    said = io.StringIO()
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    with open(write, "w", encoding="utf-8") as stream, monkeypatch.context() as patch:
        patch.setattr(sys, "stdout", stream)
        patch.setattr(sys, "stderr", said)
        yield said


@pytest.mark.parametrize("argv", [["--list"], ["learn", "--list"]], ids=" ".join)
def test_a_list_to_a_reader_gone_ends_quietly(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with reader_gone(monkeypatch, tmp_path / "data") as said:
        status = main([*argv, "--save-dir", str(tmp_path / "saves")])
    assert (status, said.getvalue()) == (0, "")
    assert not (tmp_path / "data").exists()  # no crash report
