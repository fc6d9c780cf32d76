"""numba's on-disk cache made safe for processes that compile side by side.

numba keeps one index file a function (``name-line.pyXY.nbi``: signature -> data file) and
one data file an overload (``name-line.pyXY.N.nbc``). Saving an overload reads the index,
picks the first free number ``N``, writes the index back and then the data, with no lock
(numba 0.68, ``IndexDataCacheFile.save``). Two processes that compile different overloads
of one function at once (two games' engines: ``engine.step`` for Hispania and for Farrapos
are overloads of one function, as are all of ``core/``'s compiled functions) both read the
same index; one's entry is lost, and both may pick the same number, so that an index entry
can point at the *other* overload's machine code. numba does not check, on loading, that
the code it loaded was compiled for the signature asked: a game's engine would then run
another game's code. The build step (``boardsim compile``, a game a process), the demo's
compiler and the test suite's workers all compile side by side.

:func:`install` (called once when :mod:`boardsim.core.jit` is imported, before anything is
compiled) closes both holes, for every cached function of the process:

- a save holds an exclusive lock, and a load a shared one, on a lock file of the cache's
  folder (``fcntl.flock``; where there is no ``fcntl``, as on Windows, no lock), so that a
  save's read-modify-write of the index and its data file are one step for every other
  process, and a load never reads an index entry whose data is being written;
- a loaded overload whose signature is not the one asked for is refused (treated as a miss:
  compiled and saved again), whatever wrote it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: numba's own behaviour, unlocked
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".boardsim-cache.lock"
_INSTALLED = "_boardsim_cache_guard"


@contextlib.contextmanager
def folder_lock(folder: str, exclusive: bool) -> Iterator[None]:
    """Hold the cache folder ``folder``'s lock (exclusive or shared) within the block; no
    lock where the platform has none or the folder cannot be written."""
    if fcntl is None:
        yield
        return
    try:
        fd = os.open(os.path.join(folder, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:  # a read-only cache (numba then only loads)
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _locked(method: Callable[..., Any], exclusive: bool) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any) -> Any:
        with folder_lock(self._cache_path, exclusive):
            return method(self, *args)

    wrapper.__name__ = method.__name__
    wrapper.__doc__ = method.__doc__
    return wrapper


def _checked_load(method: Callable[..., Any]) -> Callable[..., Any]:
    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        loaded = method(self, sig, target_context)
        if loaded is None:
            return None
        wanted = tuple(sig.args) if hasattr(sig, "args") else tuple(sig)
        got = getattr(getattr(loaded, "signature", None), "args", None)
        if got is not None and tuple(got) != wanted:
            return None  # another overload's code under this key: compile it anew
        return loaded

    load_overload.__doc__ = method.__doc__
    return load_overload


def install() -> None:
    """Lock numba's cache files and check what it loads (once a process; idempotent)."""
    from numba.core import caching

    files = caching.IndexDataCacheFile
    if getattr(files, _INSTALLED, False):
        return
    files.save = _locked(files.save, exclusive=True)
    files.load = _locked(files.load, exclusive=False)
    caching.Cache.load_overload = _checked_load(caching.Cache.load_overload)
    setattr(files, _INSTALLED, True)
