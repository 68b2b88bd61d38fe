"""What the doors take from libraries' internals, and the check made before a door listens.

A door patches a library only where the library offers no public way to keep a bound
the door promises (each reason is in docs/ARCHITECTURE.md, "Library internals"). Each
such reliance is a :class:`Patch` that says what it relies on and how to tell that it is
still there. A door checks its patches before it listens (:func:`check`): a library
that changed stops the start with one line naming the patch, the library and its
version, instead of a door that quietly lost a bound. The game's terminal driver
(:mod:`tui.terminal`) describes its own patches of Textual the same way.
tests/test_library_patches.py pins them all, one test each.

The checks look at names and signatures only (a code object's names, a function's
parameters), never at source text, so they cost nothing at start and hold for an
installation without sources.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterator, Sequence
from types import CodeType
from typing import Any

import msgspec

LIBRARY_INTERNALS: str = "docs/ARCHITECTURE.md, “Library internals”"


class LibraryChanged(OSError):
    """A patched library lacks what a patch relies on; ``str`` names the patch, the
    library and its version (an ``OSError``: like a port in use, it stops the start
    with one line)."""


class Patch(msgspec.Struct, frozen=True):
    """One reliance on a library's internals (a Struct: the game's start makes this
    class, and a dataclass would compile its methods then)."""

    name: str
    """What the patch is for, in a few words."""
    where: str
    """The code that relies on it."""
    library: str
    """The distribution, as pip names it."""
    checked: str
    """The version the patch was last read against (the lock's)."""
    relies_on: str
    """What of the library's internals it relies on."""
    missing: Callable[[], str | None]
    """What of that the installed version lacks, in words (None: all there)."""

    def problem(self) -> str | None:
        """Why this patch cannot be trusted with the installed library (None: it can)."""
        try:
            missing = self.missing()
        except Exception as exc:  # the check itself met something it did not expect
            missing = f"could not be looked at ({exc!r})"
        if missing is None:
            return None
        return (
            f"{self.name} ({self.where}) relies on {self.relies_on}; in "
            f"{self.library} {installed(self.library)} {missing}. Re-check that patch "
            f"against this version ({LIBRARY_INTERNALS}; last read on {self.checked})"
        )


def check(patches: Sequence[Patch]) -> None:
    """Raise :class:`LibraryChanged` when any of ``patches`` lacks what it relies on."""
    problems = [problem for patch in patches if (problem := patch.problem()) is not None]
    if problems:
        raise LibraryChanged(" — ".join(problems))


def installed(library: str) -> str:
    # Imported here: only a problem names a version, and importlib.metadata costs the
    # game's start (tui.terminal's patches are checked as each app is made) ~20 ms.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(library)
    except PackageNotFoundError:
        return "(not installed)"


# ---------------------------------------------------------------- what a check looks at


def lookup(module: str, path: str) -> Any:
    """``module``'s attribute at the dotted ``path`` (``Class.method``); None when absent."""
    found: Any = importlib.import_module(module)
    for name in path.split("."):
        found = getattr(found, name, None)
        if found is None:
            return None
    return found


def first(*problems: str | None) -> str | None:
    """The first problem found, or None."""
    return next((problem for problem in problems if problem is not None), None)


def has_signature(
    module: str, path: str, parameters: Sequence[str], coroutine: bool = False
) -> str | None:
    """Whether ``module.path`` is a function taking exactly ``parameters``, in order (and
    a coroutine function when ``coroutine``); None when it is, else what it is."""
    function = lookup(module, path)
    if function is None:
        return f"{path} is gone"
    try:
        found = list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return f"{path} is no longer a function"
    if found != list(parameters):
        return f"{path} takes ({', '.join(found)}), not ({', '.join(parameters)})"
    if coroutine and not inspect.iscoroutinefunction(function):
        return f"{path} is no longer a coroutine function"
    return None


def is_subclass(module: str, path: str, base: type) -> str | None:
    """Whether ``module.path`` is still a subclass of ``base``; None when it is."""
    found = lookup(module, path)
    if found is None:
        return f"{path} is gone"
    if not (isinstance(found, type) and issubclass(found, base)):
        return f"{path} is no longer a kind of {base.__name__}"
    return None


def uses(module: str, path: str, *names: str) -> str | None:
    """Whether the function ``module.path`` still names each of ``names`` (an attribute
    it reads or sets, or a string it builds a name from); None when it does."""
    function = lookup(module, path)
    code = getattr(inspect.unwrap(function), "__code__", None) if function is not None else None
    if code is None:
        return f"{path} is gone"
    named = set(_names(code))
    lacking = [name for name in names if name not in named]
    if lacking:
        return f"{path} no longer uses {', '.join(lacking)}"
    return None


def _names(code: CodeType) -> Iterator[str]:
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, str):
            yield constant
        elif isinstance(constant, CodeType):  # a nested function or comprehension
            yield from _names(constant)
