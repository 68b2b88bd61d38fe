"""A terminal's screen as a person sees it, read through ``pyte``, and the waits on it.

:class:`Screen` is a ``pyte`` screen fed with the bytes a terminal receives (the last of
them kept, for reports). :class:`Watched` is what a test does with a screen that output
reaches meanwhile: read it (:meth:`Watched.screen_text`), wait for a text on it
(:meth:`Watched.wait_for`), for a text gone, for the output to settle. A subclass says how
to read the screen's rows, how to let output in between two looks, what has arrived so
far, and what to report when a wait fails: every wait is bounded, and one that fails
raises an ``AssertionError`` that shows the screen.

The SSH door's tests (a pty, :mod:`tests.door.sshpty`) and the web door's (a browser's
websocket, :mod:`tests.web.browser`) read their terminals through these.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import pyte

DEFAULT_TIMEOUT = 15.0
"""Seconds a wait may take unless told otherwise (a bound against hangs, not a timing)."""
KEEP_OUTPUT = 1 << 20
"""Bytes of a terminal's output kept (the last ones), for reports."""

T = TypeVar("T")


class Screen:
    """A ``cols``×``rows`` ``pyte`` screen, and the bytes it was fed."""

    def __init__(self, cols: int, rows: int) -> None:
        self.screen = pyte.Screen(cols, rows)
        self._stream = pyte.ByteStream(self.screen)
        self.received = bytearray()
        """The output, the last :data:`KEEP_OUTPUT` bytes."""
        self.total = 0
        """Bytes of output in all."""

    def feed(self, chunk: bytes) -> str | None:
        """Draw ``chunk`` on the screen; what the emulator said if it could not read it
        (its fault must not hide what the test sees: the caller keeps it for reports)."""
        self.total += len(chunk)
        self.received += chunk
        if len(self.received) > KEEP_OUTPUT:
            del self.received[: len(self.received) - KEEP_OUTPUT]
        try:
            self._stream.feed(chunk)
        except Exception as exc:
            return f"[pyte could not read the output: {exc!r}]"
        return None

    @property
    def size(self) -> tuple[int, int]:
        """Columns and rows."""
        return self.screen.columns, self.screen.lines

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(rows, cols)

    def lines(self) -> list[str]:
        """The screen's rows, as shown."""
        return list(self.screen.display)


def shown(lines: list[str]) -> str:
    """A screen's rows, one per line, trailing blanks dropped."""
    return "\n".join(line.rstrip() for line in lines).rstrip("\n")


class Watched:
    """The bounded waits of a test on a screen that output reaches meanwhile."""

    def lines(self) -> list[str]:
        """The screen's rows, as shown."""
        raise NotImplementedError

    def pump(self) -> None:
        """Let output in (or just pause) between two looks."""
        raise NotImplementedError

    def arrived(self) -> object:
        """What changes whenever output arrives (for :meth:`wait_quiet`)."""
        raise NotImplementedError

    def report(self, problem: str, timeout: float) -> str:
        """``problem``, what the terminal is, and its screen."""
        raise NotImplementedError

    def screen_text(self) -> str:
        """The screen, one row per line, trailing blanks dropped."""
        return shown(self.lines())

    def framed(self, cols: int, rows: int) -> str:
        """For a report: the ``cols``×``rows`` screen, between two rules."""
        rule = "─" * cols
        return f"the {cols}×{rows} screen:\n{rule}\n{self.screen_text()}\n{rule}"

    def watch(
        self, look: Callable[[], T], check: Callable[[T], bool], timeout: float, problem: str
    ) -> T:
        """Look until ``check`` holds of what ``look`` sees; that. On timeout, an
        ``AssertionError`` with :meth:`report` of ``problem``."""
        end = time.monotonic() + timeout
        while True:
            seen = look()
            if check(seen):
                return seen
            if time.monotonic() > end:
                raise AssertionError(self.report(problem, timeout))
            self.pump()

    def wait_for(
        self,
        text: str | Callable[[str], bool],
        timeout: float = DEFAULT_TIMEOUT,
        *,
        what: str | None = None,
    ) -> str:
        """Wait until ``text`` is on one row of the screen (or, given a function of the
        screen's text, until it holds); the screen's text then. On timeout, an
        ``AssertionError`` showing the screen (:meth:`report`)."""
        check: Callable[[str], bool]
        if callable(text):
            check = text
        else:
            needle = text
            check = lambda screen: any(needle in row for row in screen.split("\n"))  # noqa: E731
        return self.watch(self.screen_text, check, timeout, f"never saw {what or repr(text)}")

    def wait_gone(self, text: str, timeout: float = DEFAULT_TIMEOUT) -> str:
        """Wait until ``text`` is on no row of the screen."""
        return self.wait_for(lambda screen: text not in screen, timeout, what=f"{text!r} gone")

    def wait_quiet(self, quiet: float = 0.3, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until nothing arrived for ``quiet`` seconds (the screen settled, as when a
        person acts on it)."""
        end = time.monotonic() + timeout
        seen, since = self.arrived(), time.monotonic()
        while time.monotonic() - since < quiet:
            if time.monotonic() > end:
                raise AssertionError(self.report(f"never quiet for {quiet:g} s", timeout))
            self.pump()
            if self.arrived() != seen:
                seen, since = self.arrived(), time.monotonic()
