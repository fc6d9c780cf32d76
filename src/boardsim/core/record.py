"""Whole games in compiled code that record every decision: the traces the balance metrics read.

:func:`play_recorded` plays exactly the games of :func:`boardsim.core.mcts.play_games`
(and so, with no MCTS seat, of :func:`boardsim.core.engine.play_games`): row ``k``
is game ``first_game + k`` of the run ``master_seed``, the same deal, dice and
moves. On top of their results it writes, for each of the game's first
``actors.shape[1]`` decisions ``t``:

- ``actors[k, t]``: the player who decided;
- ``legal[k, t]``: how many actions were legal (the branching factor there);
- ``values[k, t, p]``: every player's standing before the decision, in ``[-1, 1]`` (the
  scale of the returns): the value head of the network of seat 0 of the ``judge`` table
  when it has one (a learned value, from the viewpoint of the player to move), else the
  game's progress measure ``evaluate_position``.

Its seats are the seat table of ``core/seats.py`` (compiled policies, searches with
settings of their own, networks), so the games are ``mcts.play_games``' games.

A game longer than the buffers is played to its end as usual; only its first
decisions are recorded (``out_decisions`` says how many it had).

A module of its own, beside the engine and the search it calls, so that recording
changes neither of them.
"""

import numpy as np
from numba import prange

from boardsim.core import header as hd
from boardsim.core.engine import advance_decision, new_game, seats_scratch_size
from boardsim.core.jit import jit, jit_parallel
from boardsim.core.mcts import game_workspaces, net_evaluate, net_workspace, seat_move
from boardsim.core.rng import derive_seed, rng_seed


@jit
def record_position(g, state, params, mask, t, actors, legal, values, value, judge, jnws):
    """Write decision ``t``'s actor, legal-action count and value estimate into row buffers
    (the value: ``judge``'s network where its seat 0 has one, else the progress measure)."""
    if t >= actors.shape[0]:
        return
    actors[t] = state[hd.H_ACTOR]
    legal[t] = g.legal_mask(state, params, mask)
    value[:] = 0.0
    if judge[1][0] >= 0:
        net_evaluate(g, state, params, judge, 0, mask, jnws, -1, value)
    else:
        g.evaluate_position(state, params, value)
    for p in range(values.shape[1]):
        values[t, p] = value[p]


@jit_parallel
def play_recorded(
    g, params, seats, judge, master_seed, first_game, out_returns, out_decisions, out_flags,
    actors, legal, values,
):  # fmt: skip
    """The games of ``mcts.play_games`` (its arguments and results: the seat table of
    ``core/seats.py``), each decision recorded into ``actors``/``legal``/``values``
    (``[games, max_len]``, ``[games, max_len]``, ``[games, max_len, MAX_PLAYERS]``); the
    values by ``judge`` (a seat table: its seat 0's network, or the progress measure)."""
    slots, width = seats_scratch_size(judge)
    for k in prange(out_returns.shape[0]):
        state = np.zeros(g.STATE_SIZE, np.int32)
        outcomes = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int32)
        weights = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64)
        mask = np.zeros(g.NUM_ACTIONS, np.uint8)
        root_mask = np.zeros(g.NUM_ACTIONS, np.uint8)
        target = np.zeros(0, np.float32)
        prng = np.zeros(2, np.int32)
        ret = np.zeros(g.MAX_PLAYERS, np.float64)
        value = np.zeros(g.MAX_PLAYERS, np.float64)
        ws, nws = game_workspaces(g, seats)
        jnws = net_workspace(g, 1, 1, slots, width)
        seed = derive_seed(master_seed, first_game + k)
        new_game(g, state, params, seed, outcomes, weights)
        rng_seed(prng, 0, derive_seed(seed, 1))
        search_base = derive_seed(seed, 2)
        done = (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
        while not done:
            t = state[hd.H_DECISIONS]
            record_position(
                g, state, params, mask, t, actors[k], legal[k], values[k], value, judge, jnws
            )
            a = seat_move(
                g, state, params, seats, search_base, ws, nws, mask, prng, root_mask, target
            )
            done = advance_decision(g, state, params, a, outcomes, weights)
        g.returns(state, params, ret)
        for p in range(out_returns.shape[1]):
            out_returns[k, p] = ret[p]
        out_decisions[k] = state[hd.H_DECISIONS]
        out_flags[k] = state[hd.H_FLAGS]
