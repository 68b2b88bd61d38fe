"""The terminal driver: Textual's own, made safe against a terminal that goes wrong.

Textual's Linux driver reads the keyboard in a thread that

- spins for ever once input reaches its end (a terminal gone without a SIGHUP, e.g. after
  ``setsid``, or a closed pty): ``read`` returns nothing and the loop goes round again;
- dies on a byte that is not UTF-8 (a Latin-1 terminal typing é), which leaves the game
  deaf to every later key.

:class:`TerminalDriver` reads the same way with two differences: bytes that are not
UTF-8 are decoded leniently (as U+FFFD, which no key binding uses), and the end of input
is treated like a hang-up: it raises SIGHUP in this process, whose handler saves the game
and leaves (see ``MykerinosApp.hang_up``). Everything else is Textual's: the loop below
mirrors ``LinuxDriver.run_input_thread`` of the pinned Textual version.

Textual offers no public way to read the keyboard differently, so this relies on its
internals (:data:`INPUT_THREAD`): the private parser (``textual._xterm_parser``,
``textual._parser``), the method the input thread calls, and the driver's attributes the
loop reads. The app (:mod:`tui.app`) relies on two more: it writes a desktop notice's
escapes through ``App._driver``, in order with the frames, as Textual's own ``bell``
does (:data:`APP_DRIVER`), and it turns an unexpected error into one line and a report
by overriding ``App._fatal_error`` (:data:`CRASH`). This module is imported as the app is
made (``get_driver_class``), so it checks all three then (:func:`check_textual`): a
Textual that changed them stops the game at once with one line naming the patch and the
version, instead of a keyboard that reads nothing, a notice that crashes the game, or a
crash shown as a traceback. docs/ARCHITECTURE.md ("Library internals") says why each is
kept; tests/test_library_patches.py pins them.
"""

from __future__ import annotations

import os
import selectors
import signal
from codecs import getincrementaldecoder
from collections.abc import Callable

from textual.drivers.linux_driver import LinuxDriver

from table.doors.internals import Patch, first, has_signature, is_subclass, uses

READ_SIZE = 4096
CHECKED = "textual 8.2.8"
"""The Textual the patches below were last read against (the lock's)."""

INPUT_THREAD = Patch(
    name="the keyboard's reading thread",
    where="tui.terminal.TerminalDriver.run_input_thread, a copy of Textual's own",
    library="textual",
    checked=CHECKED,
    relies_on="LinuxDriver.run_input_thread(), which the input thread's target "
    "_run_input_thread calls; the driver's fileno and exit_event and Driver._debug; "
    "textual._xterm_parser.XTermParser(debug) with feed(data) and tick(); and "
    "textual._parser.ParseError",
    missing=lambda: first(
        has_signature("textual.drivers.linux_driver", "LinuxDriver.run_input_thread", ["self"]),
        uses("textual.drivers.linux_driver", "LinuxDriver._run_input_thread", "run_input_thread"),
        uses("textual.drivers.linux_driver", "LinuxDriver.__init__", "fileno", "exit_event"),
        uses("textual.driver", "Driver.__init__", "_debug"),
        has_signature("textual._xterm_parser", "XTermParser.__init__", ["self", "debug"]),
        has_signature("textual._xterm_parser", "XTermParser.feed", ["self", "data"]),
        has_signature("textual._xterm_parser", "XTermParser.tick", ["self"]),
        is_subclass("textual._parser", "ParseError", Exception),
    ),
)
APP_DRIVER = Patch(
    name="desktop notices",
    where="tui.shared_tables.SharedTables.write_escapes (a mixin of tui.app.MykerinosApp)",
    library="textual",
    checked=CHECKED,
    relies_on="App._driver, the driver the app runs on, which App._build_driver sets and "
    "App.bell writes to",
    missing=lambda: first(
        uses("textual.app", "App._build_driver", "_driver"),
        uses("textual.app", "App.bell", "_driver", "write"),
    ),
)
CRASH = Patch(
    name="the one line of a crash",
    where="tui.app.MykerinosApp._fatal_error",
    library="textual",
    checked=CHECKED,
    relies_on="App._fatal_error(), which App._handle_exception calls for an unexpected "
    "error while it is being handled (Textual has no public hook for it)",
    missing=lambda: first(
        has_signature("textual.app", "App._fatal_error", ["self"]),
        uses("textual.app", "App._handle_exception", "_fatal_error"),
    ),
)
PATCHES = (INPUT_THREAD, APP_DRIVER, CRASH)


class TextualChanged(SystemExit):
    """This Textual lacks what a patch relies on: the game stops before it starts, with
    one line naming the patch and the version (no traceback: the one reading it may be a
    player at the SSH door)."""


def check_textual() -> None:
    """Stop with :class:`TextualChanged` when this Textual lacks what a patch relies on."""
    problems = [problem for patch in PATCHES if (problem := patch.problem()) is not None]
    if problems:
        raise TextualChanged("mykerinos: the game cannot start: " + " — ".join(problems))


check_textual()

from textual._parser import ParseError  # noqa: E402 - imported once known to be there
from textual._xterm_parser import XTermParser  # noqa: E402


class TerminalDriver(LinuxDriver):
    """``LinuxDriver`` whose input thread survives bad bytes and ends with the input."""

    def run_input_thread(self) -> None:
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")(errors="replace").decode
        try:
            while not self.exit_event.is_set():
                ready = selector.select(0.1)
                if ready and not self._feed(parser, decode, self._read()):
                    end_of_input()
                    return
                for event in parser.tick():
                    self.process_message(event)
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass

    def _read(self) -> bytes:
        """What the terminal sent; nothing once it is gone (EOF, or EIO from a dead pty)."""
        try:
            return os.read(self.fileno, READ_SIZE)
        except OSError:
            return b""

    def _feed(self, parser: XTermParser, decode: Callable[[bytes], str], data: bytes) -> bool:
        """Turn ``data`` into key events; False at the end of input."""
        if not data:
            return False
        text = decode(data)
        if text:  # a byte that may start a character decodes to nothing until the next one
            # comes, and feeding the parser "" would tell it the input has ended.
            for event in parser.feed(text):
                self.process_message(event)
        return True


def end_of_input() -> None:
    """The keyboard is gone for good: behave as on a hang-up (save and leave)."""
    os.kill(os.getpid(), signal.SIGHUP)
