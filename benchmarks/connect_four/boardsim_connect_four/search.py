"""What the generic search (``boardsim.core.search``) needs from connect four: nothing is
hidden, nothing is pruned, an unfinished position is valued even."""

from __future__ import annotations

from boardsim.core.jit import jit


@jit
def determinize(state, params, player, prng):
    """Nothing is hidden in connect four."""
    return


@jit
def evaluate_position(state, params, out):
    """An unfinished game is valued even for both players."""
    out[0] = 0.0
    out[1] = 0.0


@jit
def search_prune(state, params, mask):
    """Every legal column is worth searching."""
    return
