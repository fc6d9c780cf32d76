"""Compiled helpers for the games' state validators (``games/<game>/validate.py``).

A validator returns 0 for a state its game's kernels handle safely, else the code of
the first check that fails, writing the index and the value at fault into ``where``
(two int64 words); :mod:`boardsim.core.validation` turns the code into words.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.jit import jit_inline


@jit_inline
def refuse(where: np.ndarray, code: int, index: int, value: int) -> int:
    """Record the index and value at fault in ``where``; return the check's ``code``."""
    where[0] = index
    where[1] = value
    return code


@jit_inline
def first_outside(state: np.ndarray, start: int, n: int, low: int, high: int) -> int:
    """The first ``i < n`` with ``state[start + i]`` outside ``[low, high]``, else -1."""
    for i in range(n):
        v = state[start + i]
        if v < low or v > high:
            return i
    return -1
