"""The one place where the numba options of the library's kernels are set.

Game rules are exact integer logic: no ``fastmath``. Everything is cached on
disk so that a warm import compiles nothing; importing this module makes that cache safe
for processes that compile side by side (:mod:`boardsim.core.numba_cache`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numba

from boardsim.core import numba_cache

F = TypeVar("F", bound=Callable[..., Any])

# numba's cache locked against processes that compile side by side (the build step's
# workers, the test suite's), and checked on loading: core/numba_cache.py
numba_cache.install()

# ``_nrt`` (numba's runtime: allocation and reference counts) is set, not left to numba:
# a function compiled for the first time from a caller without it (``jit_borrowing``)
# would otherwise inherit the caller's, and a kernel that allocates would not compile
# (which kernel is compiled first, from where, would decide).
JIT_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": True}


def jit(fn: F) -> F:
    """Compile ``fn`` in nopython mode with the library's options."""
    return numba.njit(**JIT_OPTIONS)(fn)  # type: ignore[return-value]


def jit_inline(fn: F) -> F:
    """Compile ``fn`` to be inlined into its callers at numba-IR level (``inline="always"``).

    For the engine's small glue between a game's kernels (one decision of a
    rollout): numba does not inline one compiled function into another otherwise,
    and at tens of nanoseconds a decision the calls are a measurable share
    (``benchmarks/README.md``, calibration connect four).
    """
    return numba.njit(inline="always", **JIT_OPTIONS)(fn)  # type: ignore[return-value]


def jit_borrowing(fn: F) -> F:
    """Compile ``fn`` without numba's reference counting (its runtime, NRT, off).

    For the search's hot loops (``core/search/``): numba counts the references of every
    array a compiled function receives or names, atomically, on entry and on every
    inlined helper's arguments, and on the calibration connect four those counts were
    most of a UCT simulation's time. Such a function only *borrows* arrays from its
    caller, who keeps them alive: it must allocate nothing (numba refuses to compile it
    then) and return no array (only scalars). Its results are the same.
    """
    return numba.njit(**{**JIT_OPTIONS, "_nrt": False})(fn)  # type: ignore[return-value]


def jit_parallel(fn: F) -> F:
    """Compile ``fn`` with ``parallel=True`` (for ``prange`` loops over a batch)."""
    return numba.njit(parallel=True, **JIT_OPTIONS)(fn)  # type: ignore[return-value]


def jit_parallel_borrowing(fn: F) -> F:
    """``jit_parallel`` without reference counting (``jit_borrowing``'s rule: allocate
    nothing, return no array).

    For the batched step (``core/engine.py``, ``batch_step``), whose row body is inlined
    into the ``prange`` loop: with reference counts on, every row view of the batch's
    arrays is an atomic count on its array's one shared word; and a row body behind a call
    of its own pays for passing a dozen arrays' fields by value. On the calibration connect
    four, one thread, one learner step (two decisions) took 135 ns a row as a borrowing
    call, 76 ns inlined into a loop with reference counts and 65 ns inlined here."""
    return numba.njit(parallel=True, **{**JIT_OPTIONS, "_nrt": False})(fn)  # type: ignore[return-value]
