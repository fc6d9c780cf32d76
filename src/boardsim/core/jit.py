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


def jit_parallel(fn: F) -> F:
    """Compile ``fn`` with ``parallel=True`` (for ``prange`` loops over a batch)."""
    return numba.njit(parallel=True, **JIT_OPTIONS)(fn)  # type: ignore[return-value]
