"""What the generic search needs from the calibration connect four (``core/mcts.py``).

Nothing is hidden, nothing is pruned; a position that is not over is valued even.
"""

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
