"""A door session forked by the warm process (:mod:`tui.zygote`), made what a new
process started by the door would have been, before it runs the game.

- Its descriptors: the three the door sent, on stdin, stdout and stderr, and no other
  (the warm process's socket, its signals' pipe: closed).
- Its environment: the door's, built from nothing, and nothing of the warm process's;
  Textual's settings, which Textual reads from it once at import (``ESCDELAY``,
  ``TEXTUAL_COLOR_SYSTEM``, ``TEXTUAL_FPS``…, in :mod:`textual.constants`), read again
  from it (:data:`SETTINGS`).
- Its working folder, its command line (``sys.argv``), its standard streams (line
  buffered on a terminal, as Python makes them), its signals (SIGINT and SIGCHLD as in a
  new interpreter), and its lifeline: SIGHUP, as from a dropped link, if the warm process
  goes (which goes with the server).
- What ``ps`` and /proc say of it: the command line and environment a door's spawn would
  have had (written over the warm process's own, which the server starts with room for
  them: :data:`table.doors.zygote.ROOM`), so a host, the tests and the benches see each
  session for what it is.

Then it returns from the warm process's loop and runs the program like ``python -m``;
its end is a normal interpreter's (threads joined, ``atexit`` run, streams flushed).
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import io
import os
import signal
import sys
from collections.abc import Mapping, Sequence

from table.doors.internals import Patch, first, uses

SETTINGS = Patch(
    name="a forked session's Textual settings",
    where="tui.fresh.run_session, in a session forked by tui.zygote",
    library="textual",
    checked="textual 8.2.8",
    relies_on="textual.constants, which reads ESCDELAY and TEXTUAL_* once at import into "
    "its module attributes (ESCAPE_DELAY, COLOR_SYSTEM, MAX_FPS…), read again by "
    "importlib.reload; XTermParser.parse and App.__init__ read ESCAPE_DELAY and "
    "COLOR_SYSTEM through the module, at each use",
    missing=lambda: first(
        uses("textual.constants", "_get_environ_int", "environ"),
        uses("textual._xterm_parser", "XTermParser.parse", "ESCAPE_DELAY"),
        uses("textual.app", "App.__init__", "COLOR_SYSTEM"),
    ),
)
PATCHES = (SETTINGS,)


def run_session(
    program: str,
    args: Sequence[str],
    env: Mapping[str, str],
    cwd: str,
    fds: Sequence[int],
    warm_process: int,
) -> int:
    """Become the session (see the module's docstring), then run ``program``'s ``main``;
    ``warm_process``: the pid of the process that forked it."""
    from table.lifeline import parent_death_signal

    for number, fd in enumerate(fds):
        os.dup2(fd, number)
    close_others()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parent_death_signal(signal.SIGHUP)
    if os.getppid() != warm_process:  # gone before the signal was set
        os.kill(os.getpid(), signal.SIGHUP)
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    module = importlib.import_module(program)
    sys.argv = [str(module.__file__), *args]
    fresh_streams()
    show_as([sys.executable, "-I", "-m", program, *args], env)
    import textual.constants

    importlib.reload(textual.constants)
    code: int = module.main()
    return code


def close_others() -> None:
    """Close every descriptor but 0, 1 and 2."""
    for name in os.listdir("/proc/self/fd"):
        if int(name) > 2:
            with contextlib.suppress(OSError):  # the listing's own, closed already
                os.close(int(name))


def fresh_streams() -> None:
    """``sys.stdin``, ``stdout`` and ``stderr`` on descriptors 0, 1 and 2 as Python makes
    them at its start (the warm process's were on /dev/null: fully buffered)."""
    for number, name in enumerate(("stdin", "stdout", "stderr")):
        old = getattr(sys, f"__{name}__") or getattr(sys, name)
        raw = io.FileIO(number, "rb" if number == 0 else "wb", closefd=False)
        buffered = io.BufferedReader(raw) if number == 0 else io.BufferedWriter(raw)
        terminal = os.isatty(number)
        stream = io.TextIOWrapper(
            buffered,
            encoding=old.encoding,
            errors=old.errors,
            line_buffering=terminal or number == 2,
            write_through=number == 2,
        )
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def show_as(argv: Sequence[str], env: Mapping[str, str]) -> None:
    """Write ``argv`` and ``env`` over this process's original command line and
    environment, which /proc/PID/cmdline and /proc/PID/environ show (``ps``); cut to the
    room there is. Nothing reads those bytes any more: Python copied its arguments at its
    start, and the C library's environment is the one just set."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return
    if len(fields) < 49:
        return
    # Fields 48 to 51 of proc(5) (the first after the name is field 3).
    arg_start, arg_end, env_start, env_end = (int(field) for field in fields[45:49])
    overwrite(arg_start, arg_end, b"\0".join(os.fsencode(word) for word in argv))
    overwrite(env_start, env_end, b"\0".join(os.fsencode(f"{k}={v}") for k, v in env.items()))


def overwrite(start: int, end: int, text: bytes) -> None:
    """``text`` from ``start``, NUL-padded to ``end``, the last byte NUL (the kernel then
    reads the area as it is)."""
    room = end - start
    if room <= 1:
        return
    ctypes.memmove(start, text[: room - 1].ljust(room, b"\0"), room)
