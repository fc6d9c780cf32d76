"""Connect four on boardsim's spine: a calibration game for the benchmarks, not a library game.

The same generic engine (``core/engine.py``) drives it as drives the registered
games, so its random-rollout speed against pgx and OpenSpiel, on identical
work, measures the engine's own overhead. Board: 6 rows x 7 columns, row 0 at
the bottom; player 0 moves first; +1 / -1 at a win, 0 at a full board.
"""

from __future__ import annotations

import numpy as np

from benchmarks.calibration.plain_connect_four import wins
from boardsim.core.header import (
    FLAG_TERMINAL,
    H_ACTOR,
    H_FLAGS,
    HEADER_SIZE,
    PARAMS_HEADER,
    TERMINAL,
)
from boardsim.core.jit import jit

ROWS, COLS = 6, 7
BOARD = HEADER_SIZE  # ROWS * COLS cells: -1 empty, else the player
HEIGHT = BOARD + ROWS * COLS  # pieces in each column
MOVES = HEIGHT + COLS
WINNER = MOVES + 1  # -1 none yet or a draw
STATE_SIZE = WINNER + 1
NUM_ACTIONS = COLS
OBS_SIZE = 2 * ROWS * COLS
MAX_PLAYERS = 2
MAX_CHANCE_OUTCOMES = 1
PARAMS = np.zeros(PARAMS_HEADER, np.int32)
PARAMS[0] = 2


@jit
def init(state, params, seed):
    for i in range(ROWS * COLS):
        state[BOARD + i] = -1
    state[WINNER] = -1
    state[H_ACTOR] = 0


@jit
def legal_mask(state, params, mask):
    n = 0
    for c in range(COLS):
        ok = state[HEIGHT + c] < ROWS
        mask[c] = 1 if ok else 0
        n += mask[c]
    return n


@jit
def apply_action(state, params, action):
    player = state[H_ACTOR]
    r = state[HEIGHT + action]
    state[BOARD + r * COLS + action] = player
    state[HEIGHT + action] = r + 1
    state[MOVES] += 1
    if wins(state, BOARD, r, action, player):
        state[WINNER] = player
        state[H_FLAGS] |= FLAG_TERMINAL
        state[H_ACTOR] = TERMINAL
        return
    if state[MOVES] == ROWS * COLS:
        state[H_FLAGS] |= FLAG_TERMINAL
        state[H_ACTOR] = TERMINAL
        return
    state[H_ACTOR] = 1 - player


@jit
def wins_if_dropped(state, r, c, player):
    """A piece of ``player`` dropped into column ``c`` (landing on row ``r``) wins."""
    return wins(state, BOARD, r, c, player)


@jit
def chance_weights(state, params, outcomes, weights):
    return 0


@jit
def apply_chance(state, params, outcome):
    pass


@jit
def observe(state, params, player, out):
    for i in range(ROWS * COLS):
        v = state[BOARD + i]
        out[i] = 1.0 if v == player else 0.0
        out[ROWS * COLS + i] = 1.0 if v >= 0 and v != player else 0.0


@jit
def returns(state, params, out):
    out[:] = 0.0
    w = state[WINNER]
    if w >= 0:
        out[w] = 1.0
        out[1 - w] = -1.0
