"""The one place where the numba options of the library's kernels are set.

Game rules are exact integer logic: no ``fastmath``. Everything is cached on
disk so that a warm import compiles nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numba

F = TypeVar("F", bound=Callable[..., Any])

JIT_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True}


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


def jit_parallel(fn: F) -> F:
    """Compile ``fn`` with ``parallel=True`` (for ``prange`` loops over a batch)."""
    return numba.njit(parallel=True, **JIT_OPTIONS)(fn)  # type: ignore[return-value]
