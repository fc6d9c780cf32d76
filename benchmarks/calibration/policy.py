# ruff: noqa: F821
"""The calibration connect four's compiled rule-based player (``bind_engine`` needs one).

Compiled into ``connect_four``'s namespace by ``bind_engine``, not imported. A player's
rule: take a column that wins at once; else block a column where the opponent would
win; else a uniformly random legal column.
"""

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
    return random_legal(state, params, mask, prng)
