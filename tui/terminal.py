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
"""

from __future__ import annotations

import os
import selectors
import signal
from codecs import getincrementaldecoder
from collections.abc import Callable

from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

READ_SIZE = 4096


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
