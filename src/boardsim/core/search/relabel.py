"""Stored positions searched afresh: relabelling a network's positions with a stronger search.

The DAgger refinement of ``training/alphazero.py`` keeps the positions a network reached
by itself and asks a search (a seat of the table) what it would have played there:
:func:`search_positions`; :func:`batch_positions` gives those positions as the network
sees them.
"""

import numpy as np
from numba import prange

from boardsim.core import header as hd
from boardsim.core.engine import heuristic_hint
from boardsim.core.jit import jit_parallel
from boardsim.core.rng import derive_seed
from boardsim.core.search.games import choices_at, game_workspaces, seat_search
from boardsim.core.search.tree import root_stats


@jit_parallel
def search_positions(
    g, params, seats, states, master_seed, out_targets, out_values, out_q, out_visits, out_actions
):
    """Each stored position searched afresh by the seat of its player to move (a
    ``POLICY_MCTS`` seat of ``seats``): its move (``out_actions[i]``), the search's policy
    target (``out_targets[i]``, as ``games.selfplay`` records it) and the root's value for
    every player (``out_values[i]``), and each root child's mean value for the player to
    move and its visits (``out_q[i, a]``, ``out_visits[i, a]``; 0 for an action not
    searched, and everywhere at a position with a single choice, which is not searched).
    Position ``i``'s search is seeded from ``master_seed`` and ``i``, whatever the threads;
    the positions are not changed. Used to relabel positions a network reached by itself
    with a stronger search (DAgger: ``training/alphazero.py``)."""
    for i in prange(states.shape[0]):
        ws, nws = game_workspaces(g, seats)
        state = states[i].copy()
        root_mask = np.zeros(g.NUM_ACTIONS, np.uint8)
        target = np.zeros(g.NUM_ACTIONS, np.float32)
        p = state[hd.H_ACTOR]
        seed = derive_seed(master_seed, i)
        out_actions[i] = seat_search(g, state, params, seats, p, seed, ws, nws, root_mask, target)
        for a in range(target.shape[0]):
            out_targets[i, a] = target[a]
        for q in range(out_values.shape[1]):
            out_values[i, q] = ws.value[0, q] / max(ws.visits[0], 1)
        root_stats(ws, p, out_visits[i], out_q[i])


@jit_parallel
def batch_positions(g, states, params, hint, obs, masks):
    """Each stored position as the network sees it: the observation of the player to move
    (and with ``hint``, the heuristic's move after it: ``core/engine.py``,
    ``network_input``) and the mask the search plays over (legal, less the pruned)."""
    for i in prange(states.shape[0]):
        g.observe(states[i], params, states[i][hd.H_ACTOR], obs[i])
        if hint:
            heuristic_hint(g, states[i], params, obs[i], masks[i])
        choices_at(g, states[i], params, masks[i])
