"""The ceiling: a plain numba connect four, state and generator in one int32 row, no engine.

Written the way issue 5 describes the reference point ("a plain numba connect
four with the state and generator in one int32 row and prange over 4096 envs"):
the engine's overhead is judged against this loop.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from boardsim.core.jit import jit, jit_parallel
from boardsim.core.rng import derive_seed, rng_below, rng_seed

ROWS, COLS = 6, 7
RNG, BOARD = 0, 2
HEIGHT = BOARD + ROWS * COLS
TURN = HEIGHT + COLS
MOVES = TURN + 1
SIZE = MOVES + 1


@jit
def _reset(s):
    for i in range(ROWS * COLS):
        s[BOARD + i] = -1
    for c in range(COLS):
        s[HEIGHT + c] = 0
    s[TURN] = 0
    s[MOVES] = 0


@jit
def wins(s, board, r, c, p):
    """Player ``p``'s piece at row ``r``, column ``c`` makes four in a row."""
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < ROWS and 0 <= cc < COLS and s[board + rr * COLS + cc] == p:
                n += 1
                rr += sign * dr
                cc += sign * dc
        if n >= 4:
            return True
    return False


@jit_parallel
def plain_rollout(states, num_steps, seed, games):
    for i in prange(states.shape[0]):
        s = states[i]
        rng_seed(s, RNG, derive_seed(seed, i))
        _reset(s)
        g = 0
        for _ in range(num_steps):
            n = 0
            for c in range(COLS):
                if s[HEIGHT + c] < ROWS:
                    n += 1
            k = rng_below(s, RNG, n)
            col = 0
            for c in range(COLS):
                if s[HEIGHT + c] < ROWS:
                    if k == 0:
                        col = c
                        break
                    k -= 1
            r = s[HEIGHT + col]
            p = s[TURN]
            s[BOARD + r * COLS + col] = p
            s[HEIGHT + col] = r + 1
            s[MOVES] += 1
            if wins(s, BOARD, r, col, p) or s[MOVES] == ROWS * COLS:
                g += 1
                _reset(s)
            else:
                s[TURN] = 1 - p
        games[i] = g


def new_states(n: int) -> np.ndarray:
    return np.zeros((n, SIZE), np.int32)
