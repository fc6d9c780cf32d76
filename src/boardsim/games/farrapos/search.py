"""What the generic search (``core/search/``) needs from Farrapos (kernels its
bundle, ``GameKernels.from_package``, gives it).

Everything in Farrapos is public (``observe``), so ``determinize`` changes nothing;
``prune`` has nothing to clear (a composite choice only moves forward in the rules
themselves, ledger row 25);
``evaluate_position`` scores a position that is not over by the VP lead and the
strength on the board, as ``names.evaluate`` does, squashed into ``[-1, 1]``.
"""

import numpy as np

from boardsim.core.jit import jit
from boardsim.games.farrapos import data as D
from boardsim.games.farrapos import layout as L

SCORE_SCALE = 40.0  # 4 VP of lead (10 each) are worth tanh(1)
MILITIA = 3  # PIECE_TYPE of the militia markers (not counted as strength)


@jit
def determinize(state, params, player, prng):
    """Nothing is hidden in Farrapos: the state is its own determinization."""
    return


@jit
def search_prune(state, params, mask):
    """Nothing to clear: composing an attack or a march only adds units or confirms
    (the rules have no cancel and no un-choosing, ledger row 25), and so do the readings'
    compositions (a move's further city, attackers named anew, the advance), so no search
    can wander round a choose-and-cancel loop."""
    return


@jit
def evaluate_position(state, params, out):
    """The Republic's (player 0) and the Empire's standing, opposite numbers in [-1, 1]."""
    lead = state[L.VP] - state[L.VP + 1]
    steps = 0
    for u in range(L.P):
        if D.PIECE_TYPE[u] != MILITIA and state[L.LOC + u] >= 0:
            value = 2 - state[L.STEP + u]
            steps += value if D.PIECE_SIDE[u] == 0 else -value
    v = np.tanh((10.0 * lead + steps) / SCORE_SCALE)
    out[0] = v
    out[1] = -v
