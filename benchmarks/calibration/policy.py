"""The calibration connect four's compiled rule-based player (the engine needs one).

A player's rule: take a column that wins at once; else block a column where the opponent would
win; else a uniformly random legal column.
"""

from benchmarks.calibration.connect_four import COLS, HEIGHT, ROWS, legal_mask, wins_if_dropped
from boardsim.core.engine import pick_legal
from boardsim.core.header import H_ACTOR
from boardsim.core.jit import jit


@jit
def _column_wins(state, column, player):
    r = state[HEIGHT + column]
    return r < ROWS and wins_if_dropped(state, r, column, player)


@jit
def heuristic_action(state, params, mask, prng):
    """Win now, else block, else a random legal column."""
    n = legal_mask(state, params, mask)
    if n == 0:
        return -1
    me = state[H_ACTOR]
    for c in range(COLS):
        if _column_wins(state, c, me):
            return c
    for c in range(COLS):
        if _column_wins(state, c, 1 - me):
            return c
    return pick_legal(mask, n, prng)
