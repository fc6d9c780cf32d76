"""Whole games in compiled code that record every decision: the traces the balance metrics read.

:func:`play_recorded` plays exactly the games of :func:`boardsim.core.search.games.play_games`
(and so, with no MCTS seat, of ``play_policy_games``): row ``k`` is game ``first_game + k``
of the run ``master_seed``, the same deal, dice and moves, by the same compiled
"play one game" (:func:`boardsim.core.search.games.play_game`) with a trace. On top of
their results it writes, for each of the game's first ``actors.shape[1]`` decisions ``t``:

- ``actors[k, t]``: the player who decided;
- ``legal[k, t]``: how many actions were legal (the branching factor there);
- ``values[k, t, p]``: every player's standing before the decision, in ``[-1, 1]`` (the
  scale of the returns): the value head of the network of seat 0 of the ``judge`` table
  when it has one (a learned value, from the viewpoint of the player to move), else the
  game's progress measure ``evaluate_position``.

Its seats are the seat table of ``core/seats.py`` (compiled policies, searches with
settings of their own, networks), so the games are ``play_games``' games.

A game longer than the buffers is played to its end as usual; only its first
decisions are recorded (``out_decisions`` says how many it had).
"""

import numpy as np
from numba import prange

from boardsim.core.engine import seats_scratch_size
from boardsim.core.jit import jit_parallel
from boardsim.core.search.games import Trace, game_workspaces, play_game
from boardsim.core.search.guided import net_workspace


@jit_parallel
def play_recorded(
    g, params, seats, judge, master_seed, first_game, out_returns, out_decisions, out_flags,
    actors, legal, values,
):  # fmt: skip
    """The games of ``play_games`` (its arguments and results: the seat table of
    ``core/seats.py``), each decision recorded into ``actors``/``legal``/``values``
    (``[games, max_len]``, ``[games, max_len]``, ``[games, max_len, MAX_PLAYERS]``); the
    values by ``judge`` (a seat table: its seat 0's network, or the progress measure)."""
    slots, width = seats_scratch_size(judge)
    for k in prange(out_returns.shape[0]):
        value = np.zeros(g.MAX_PLAYERS, np.float64)
        ws, nws = game_workspaces(g, seats)
        jnws = net_workspace(g, 1, 1, slots, width)
        trace = Trace(actors[k], legal[k], values[k], value, judge, jnws)
        play_game(
            g, params, seats, master_seed, first_game, k, ws, nws, None, trace, out_returns,
            out_decisions, out_flags,
        )  # fmt: skip
