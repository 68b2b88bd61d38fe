"""The doors' warm process (issue 29): ``python -I -m tui.zygote FD``, started by
``mykerinos serve`` when it opens a door (:mod:`table.doors.zygote`, the server's side).

A door session used to be a whole new interpreter that imported Textual and the game
(28 MB of private memory each, and most of its start). This process imports them once,
freezes what it holds (:func:`gc.freeze`: the collector no longer writes to those
objects, so their pages stay shared with every session forked after), and then forks one
session for each request that arrives on ``FD``, its end of a Unix socket pair whose other
end the server holds. It holds nothing else of the server's: started without its
descriptors (no store, no listening socket) and with an environment of its own.

A request is one datagram: JSON ``{"id", "program", "args", "env", "cwd"}`` (``program``:
one of :data:`PROGRAMS`, never code) with three descriptors (SCM_RIGHTS), the session's
stdin, stdout and stderr. Answers: ``{"ready"}`` once warm; ``{"started": id, "pid"}``
with the session's pidfd, or ``{"failed": id, "error"}``; ``{"ended": pid, "code"}`` when
a session leaves (``code`` as asyncio's ``returncode``: ``-N`` for signal N).

A session becomes what a new process would have been (:mod:`tui.fresh`): the three
descriptors on 0, 1 and 2 and no other, the environment of the request and nothing of
this one's (Textual's settings read again from it), its own working folder, command line
and standard streams; it hangs up (SIGHUP, as from a dropped link) if this process goes.

It dies with the server: SIGKILL when its parent dies (Linux's parent-death signal), and
it leaves when its socket reaches its end (the server closed it, or died), which covers
a system without that signal.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import json
import os
import select
import signal
import socket
import sys
from dataclasses import dataclass
from typing import Final

PROGRAMS: Final = ("tui.door", "tui.web")
"""What a session may run: the SSH door's game and the web door's."""
REQUEST_SIZE: Final = 65536
"""Bytes of a request at most (its environment is bounded by the doors)."""
WAKE: Final = 1.0
"""Seconds between two looks at the parent's pid where the parent-death signal is not."""


@dataclass(frozen=True)
class Request:
    """One session to start."""

    number: int
    program: str
    args: list[str]
    env: dict[str, str]
    cwd: str
    fds: list[int]
    parent: int = 0
    """This process's pid, the session's parent (set in the session)."""


WARMED: Final = ("core", "saves", "table.client", "tui")
"""Packages imported whole before the first fork: what a session may load, at once or
later (a screen, the computer players, the analysis), is then shared."""
LIBRARY_MODULES: Final = (
    "textual.app", "textual.drivers.linux_driver", "textual.drivers.web_driver",
    "textual.drivers.headless_driver", "textual.pilot", "textual.layouts.horizontal",
    "textual.layouts.stream", "textual.scrollbar", "textual.coordinate",
    "textual.renderables.styled", "rich.emoji", "textual.layouts.factory", "table.address",
    "encodings.ascii",
)  # fmt: skip
"""Textual's and Rich's modules, and the game's outside :data:`WARMED`, that a session loads
by itself (seen in a door session)."""


def warm() -> None:
    """Import what sessions need, so that it is shared (see :data:`WARMED`)."""
    import importlib
    import pkgutil

    for name in LIBRARY_MODULES:
        importlib.import_module(name)
    for package in WARMED:
        found = importlib.import_module(package)
        for info in pkgutil.walk_packages(found.__path__, f"{package}."):
            if info.name.rsplit(".", 1)[-1] != "__main__" or info.name == "tui.__main__":
                importlib.import_module(info.name)
    from rich.cells import cell_len
    from rich.emoji import Emoji
    from textual.widgets import DataTable

    # Rich's tables, loaded at their first use: the emoji names (0.6 MB of strings, for
    # any markup) and the character widths (at the first character not of one cell; for
    # the Unicode version "auto", as in a session, whose environment never names one).
    Emoji.replace(":smile:")
    cell_len("日")
    assert DataTable is not None  # Textual's widgets are loaded on first use


PR_SET_MEMORY_MERGE: Final = 67
MADV_MERGEABLE: Final = 12


def offer_to_merging() -> None:
    """Offer this process's memory, and so its sessions', to Linux's same-page merging
    (KSM), which a host may run (``echo 1 > /sys/kernel/mm/ksm/run``; docs/playing-over-ssh.md).

    Python writes to every object a session touches (its reference count, the bytecode
    it specialises), so a session copies about 15 MB of this process's pages, most of
    them written back the same or the same in every session: KSM finds such pages and
    shares them again. Unless the host runs it, nothing happens and nothing is spent.
    The whole process, inherited by every session (Linux 6.4), else its anonymous
    mappings as they are now (the pages sessions copy)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_MEMORY_MERGE, 1, 0, 0, 0) == 0:
            return
        with open("/proc/self/maps", encoding="ascii") as maps:
            found = [line.split() for line in maps]
    except (OSError, AttributeError):  # not Linux
        return
    libc.madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    for fields in found:
        if fields[1].startswith("rw") and (len(fields) == 5 or fields[5] == "[heap]"):
            low, high = (int(x, 16) for x in fields[0].split("-"))
            libc.madvise(low, high - low, MADV_MERGEABLE)  # refused: stays as it is


def read_request(channel: socket.socket) -> Request | None:
    """The next request (None: the server closed its end, or died)."""
    try:
        data, fds, _flags, _address = socket.recv_fds(channel, REQUEST_SIZE, 3)
    except InterruptedError:  # pragma: no cover - PEP 475 retries
        return Request(-1, "", [], {}, "", [])
    if not data:
        for fd in fds:
            os.close(fd)
        return None
    try:
        raw = json.loads(data)
        request = Request(
            int(raw["id"]), str(raw["program"]), [str(a) for a in raw["args"]],
            {str(k): str(v) for k, v in raw["env"].items()}, str(raw["cwd"]), fds,
        )  # fmt: skip
    except (ValueError, KeyError, TypeError, AttributeError):
        for fd in fds:
            os.close(fd)
        return Request(-1, "", [], {}, "", [])
    return request


def answer(channel: socket.socket, message: dict[str, object], fds: list[int] = ()) -> None:  # type: ignore[assignment]
    with contextlib.suppress(OSError):  # the server is gone: the loop sees the end next
        socket.send_fds(channel, [json.dumps(message).encode()], list(fds))


def reap(channel: socket.socket) -> None:
    """Tell the server of every session that left."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        answer(channel, {"ended": pid, "code": code})


def serve(channel: socket.socket, parent: int) -> Request:
    """Fork a session for each request until the server goes (then exit); returns only
    in a session, its request."""
    woken, wake = os.pipe()
    os.set_blocking(wake, False)
    signal.set_wakeup_fd(wake)
    signal.signal(signal.SIGCHLD, lambda number, frame: None)
    answer(channel, {"ready": True})
    while True:
        ready, _, _ = select.select([channel.fileno(), woken], [], [], WAKE)
        if os.getppid() != parent:
            raise SystemExit(0)
        if woken in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(woken, 512)
            reap(channel)
        if channel.fileno() not in ready:
            continue
        request = read_request(channel)
        if request is None:
            raise SystemExit(0)
        if request.program not in PROGRAMS or len(request.fds) != 3:
            for fd in request.fds:
                os.close(fd)
            answer(channel, {"failed": request.number, "error": "not a door's request"})
            continue
        warm_process = os.getpid()
        try:
            pid = os.fork()
        except OSError as exc:
            for fd in request.fds:
                os.close(fd)
            answer(channel, {"failed": request.number, "error": str(exc)})
            continue
        if pid == 0:
            signal.set_wakeup_fd(-1)
            os.close(woken)
            os.close(wake)
            channel.detach()  # closed below with every other descriptor, not by this object
            return dataclasses.replace(request, parent=warm_process)
        for fd in request.fds:
            os.close(fd)
        pidfd = os.pidfd_open(pid)
        answer(channel, {"started": request.number, "pid": pid}, [pidfd])
        os.close(pidfd)


def main() -> int:
    parent = os.getppid()
    from table.lifeline import parent_death_signal

    parent_death_signal(signal.SIGKILL)
    if os.getppid() != parent:  # the server died before the signal was set
        return 0
    channel = socket.socket(fileno=int(sys.argv[1]))
    warm()
    from table.doors.internals import LibraryChanged, check
    from tui import fresh

    try:  # a Textual that changed: no warm process, the doors start their games as before
        check(fresh.PATCHES)
    except LibraryChanged as exc:
        print(f"mykerinos: the doors' warm process cannot fork sessions: {exc}", file=sys.stderr)
        return 1

    # A Ctrl-C in serve's terminal reaches this process too: the server decides what ends.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.collect()
    gc.freeze()
    offer_to_merging()
    request = serve(channel, parent)
    return fresh.run_session(
        request.program, request.args, request.env, request.cwd, request.fds, request.parent
    )


if __name__ == "__main__":
    sys.exit(main())
