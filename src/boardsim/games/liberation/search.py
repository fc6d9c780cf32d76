"""What the generic search (``core/search/``) needs from the liberation race (kernels
its bundle, ``GameKernels.from_package``, gives it).

- ``determinize``: the other players' hands are hidden. Everything a player has
  not seen (the draw pile, which keeps no order, and the other hands) is pooled
  and redealt at random, each other player keeping the size of his hand; the
  Royalist cards a player composing an attack has chosen (public, ``SELECTED``)
  stay in his hand. The result depends only on what the searching player sees,
  never on the real hidden cards (ledger L22).
- ``evaluate_position``: a standing in ``[-1, 1]`` from Victory Tokens, the board
  and the hand, relative to the best opponent.
"""

import numpy as np

from boardsim.core import header as H
from boardsim.core.jit import jit
from boardsim.core.rng import rng_weighted
from boardsim.games.liberation import data as D
from boardsim.games.liberation import layout as L
from boardsim.games.liberation.rules import (
    hand_size,
)

SCORE_SCALE = 20.0  # a score lead (10 a Victory Token) worth tanh(1)
SIZE_BITS = 8  # hand sizes are packed 8 bits a player while the hands are pooled


@jit
def determinize(state, params, player, prng):
    """Redeal the cards ``player`` has not seen (pile and other hands) from ``prng``."""
    n = params[H.P_NUM_PLAYERS]
    sizes = np.int64(0)  # packed: no allocation in the search's hot loop
    for q in range(n):
        if q == player:
            continue
        sizes |= np.int64(hand_size(state, q)) << np.int64(SIZE_BITS * q)
        for k in range(L.K):
            state[L.PILE + k] += state[L.HAND + q * L.K + k]
            state[L.HAND + q * L.K + k] = 0
    pile = state[L.PILE : L.PILE + L.K]
    for q in range(n):
        if q == player:
            continue
        size = (sizes >> np.int64(SIZE_BITS * q)) & np.int64((1 << SIZE_BITS) - 1)
        if state[L.PHASE] == L.PH_ENEMY and q == state[L.MOVER]:
            for k in range(L.K):  # the Royalist cards he chose for his attack are public
                state[L.HAND + q * L.K + k] += state[L.SELECTED + k]
                state[L.PILE + k] -= state[L.SELECTED + k]
                size -= state[L.SELECTED + k]
        for _ in range(size):
            k = rng_weighted(prng, 0, pile, L.K)
            state[L.PILE + k] -= 1
            state[L.HAND + q * L.K + k] += 1


@jit
def score(state, p):
    """Victory Tokens first (10 each), then counters and card force on the board, then cards."""
    board = 0.0
    for s in range(D.NUM_SPACES):
        if state[L.OWNER + s] == p and state[L.INDEP + D.SPACE_COUNTRY[s]] == 0:
            board += state[L.COUNTERS + s] + D.KIND_FORCE[state[L.CARD + s]] / 4.0
    return 10.0 * state[L.VT + p] + board + 0.2 * hand_size(state, p)


@jit
def search_prune(state, params, mask):
    """Every legal action is worth searching here: nothing is pruned."""
    return


@jit
def evaluate_position(state, params, out):
    """Each player's standing: ``tanh`` of his score's lead over the best other score."""
    n = params[H.P_NUM_PLAYERS]
    best = -1
    for p in range(n):
        out[p] = score(state, p)
        if best < 0 or out[p] > out[best]:
            best = p
    second = -np.inf
    for p in range(n):
        if p != best and out[p] > second:
            second = out[p]
    top = out[best]
    for p in range(n):
        lead = out[p] - (second if p == best else top)
        out[p] = np.tanh(lead / SCORE_SCALE)
