"""Connect four's compiled rule-based player: take a column that wins at once; else block
a column where the opponent would win; else a uniformly random legal column."""

from __future__ import annotations

from boardsim.core.engine import pick_legal
from boardsim.core.header import H_ACTOR
from boardsim.core.jit import jit
from boardsim_connect_four.data import COLS
from boardsim_connect_four.rules import legal_mask, wins_if_dropped


@jit
def heuristic_action(state, params, mask, prng):
    """Win now, else block, else a random legal column (from the two words of ``prng``)."""
    n = legal_mask(state, params, mask)
    if n == 0:
        return -1
    me = state[H_ACTOR]
    for c in range(COLS):
        if wins_if_dropped(state, c, me):
            return c
    for c in range(COLS):
        if wins_if_dropped(state, c, 1 - me):
            return c
    return pick_legal(mask, n, prng)
