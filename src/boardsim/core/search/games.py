"""Whole games in compiled code: every player by his seat, searched or not; self-play.

:func:`play_game` is the one compiled "play one game": game ``first_game + k`` of the run
``master_seed`` (seeded ``derive_seed(master_seed, first_game + k)``; the policies'
generator from ``derive_seed(seed, 1)``, each searched decision from ``derive_seed(seed,
2)`` and the decision number), so a game's result depends on neither the threads nor the
batch it is played in. Its three callers each give it what they need, and numba compiles
only that (an argument that is None removes its branch at compile time):

- :func:`play_policy_games`: compiled policies and networks only (no search compiled);
- :func:`play_games` and :func:`play_plain_games`: searching seats too (UCT, PUCT,
  Gumbel; the plain ones UCT only, without the network code);
- :func:`boardsim.core.record.play_recorded`: :func:`play_games`' games, each decision
  traced (:class:`Trace`, :func:`record_position`) for the balance metrics.

:func:`selfplay` plays the same games and records the searches' targets for training.
"""

from typing import NamedTuple

import numpy as np
from numba import prange

from boardsim.core import header as hd
from boardsim.core.engine import (
    advance_decision,
    net_scratch,
    new_game,
    random_legal,
    restrict_legal,
    seat_action,
    seat_policy_action,
    seats_scratch_size,
)
from boardsim.core.header import (
    S_C,
    S_DEPTH,
    S_PRIOR,
    S_ROLLOUT,
    S_SEARCH,
    S_SIMS,
    SEARCH_UCT,
)
from boardsim.core.jit import jit, jit_inline, jit_parallel
from boardsim.core.nn import uniform01
from boardsim.core.rng import derive_seed, rng_below, rng_seed
from boardsim.core.search.guided import (
    net_evaluate,
    net_workspace,
    nws_nn,
    search_network,
)
from boardsim.core.search.tree import (
    more_visited,
    only_action,
    root_visits,
    search,
    workspace,
)


@jit_inline
def seat_search(g, root, params, seats, p, seed, ws, nws, root_mask, target):
    """The move seat ``p`` (a ``POLICY_MCTS`` seat) searches for at ``root``, by its
    settings: UCT with rollouts (:func:`search`), or the network searches (PUCT, Gumbel).
    ``target`` (when not empty): the search's policy target at the root; ``root_mask``:
    the root's searched actions. ``nws`` None (a table without networks,
    :func:`play_plain_games`): UCT only, and the network searches are not compiled."""
    settings = seats.settings[p]
    mode = int(settings[S_SEARCH])
    if nws is None or mode == SEARCH_UCT:
        a = search(
            g,
            root,
            params,
            int(settings[S_SIMS]),
            settings[S_C],
            int(settings[S_ROLLOUT]),
            int(settings[S_DEPTH]),
            settings[S_PRIOR],
            seed,
            ws,
        )
        for b in range(root_mask.shape[0]):
            root_mask[b] = ws.mask[b]
        if target.shape[0] > 0:
            if ws.first[0] < 0:  # no tree: a single action
                only_action(root_mask, target)
            else:
                root_visits(ws, target)
        return a
    return search_network(g, root, params, seats, p, seed, ws, nws, root_mask, target)


@jit
def search_sizes(seats):
    """``(simulations, network search)`` of the seat table: the most simulations of its
    searching seats, and whether one of them searches with a network."""
    codes, settings = seats.codes, seats.settings
    sims = 0
    net = False
    for p in range(codes.shape[0]):
        if codes[p] == hd.POLICY_MCTS:
            sims = max(sims, int(settings[p, S_SIMS]))
            if int(settings[p, S_SEARCH]) != SEARCH_UCT:
                net = True
    return sims, net


@jit
def game_workspaces(g, seats):
    """A game's search workspaces for the seat table: UCT's, the network's."""
    sims, net = search_sizes(seats)
    slots, width = seats_scratch_size(seats)
    ws = workspace(g, sims + 1)
    nws = net_workspace(g, sims + 1, sims + 1 if net else 1, slots, width)
    return ws, nws


@jit_inline
def seat_move(g, state, params, seats, search_base, ws, nws, mask, prng, root_mask, target):
    """The move of the player to move by his seat: searched (seeded from ``search_base``
    and the decision number) or by the engine's compiled policies. ``nws`` None: a table
    without networks (:func:`play_plain_games`; no network code is compiled)."""
    code = seats.codes[state[hd.H_ACTOR]]
    if code == hd.POLICY_MCTS:
        s = derive_seed(search_base, state[hd.H_DECISIONS])
        p = state[hd.H_ACTOR]
        a = seat_search(g, state, params, seats, p, s, ws, nws, root_mask, target)
        if seats.forbidden.shape[1] > 0:
            a = allowed_search_move(g, state, params, seats.forbidden, p, a, ws, mask)
        return a
    if nws is None:  # seat_action's move for a seat that is not a network
        p = state[hd.H_ACTOR]
        return seat_policy_action(g, state, params, seats, p, code, mask, prng)
    return seat_action(g, state, params, seats, mask, prng, nws_nn(nws))


@jit
def allowed_search_move(g, state, params, forbidden, p, a, ws, mask):
    """Restricted play for a UCT seat (``core/seats.py`` refuses the network searches): its
    search's move ``a`` when the restriction allows it, else the allowed root action the
    search visited most (ties: the higher mean value for ``p``), else the first allowed
    one; as :meth:`boardsim.agents.mcts.MCTSAgent.act_among` decides in Python."""
    legal = g.legal_mask(state, params, mask)
    if a < 0 or restrict_legal(mask, forbidden, p, legal) == legal or mask[a] != 0:
        return a
    best = -1
    child = ws.first[0]
    while child >= 0:
        if mask[ws.action[child]] != 0 and (
            best < 0 or more_visited(ws.visits, ws.value, child, best, p)
        ):
            best = child
        child = ws.sibling[child]
    if best >= 0:
        return ws.action[best]
    for b in range(mask.shape[0]):
        if mask[b] != 0:
            return b
    return a


class Trace(NamedTuple):
    """Where :func:`play_game` traces one game's decisions (:func:`record_position`): the
    game's rows of the recorder's buffers and the judge of its values."""

    actors: np.ndarray  # [max_len] the player who decided
    legal: np.ndarray  # [max_len] how many actions were legal
    values: np.ndarray  # [max_len, players] every player's standing before the decision
    value: np.ndarray  # [players] scratch
    judge: tuple  # a seat table: its seat 0's network values the positions, if it has one
    jnws: tuple  # the judge's network workspace (net_workspace)


@jit
def record_position(g, state, params, mask, trace):
    """Write the decision's actor, legal-action count and value estimate into the trace
    (the value: the judge's network where its seat 0 has one, else the progress measure);
    nothing past the trace's length."""
    t = state[hd.H_DECISIONS]
    if t >= trace.actors.shape[0]:
        return
    trace.actors[t] = state[hd.H_ACTOR]
    trace.legal[t] = g.legal_mask(state, params, mask)
    value = trace.value
    value[:] = 0.0
    if trace.judge.nets[0] >= 0:
        net_evaluate(g, state, params, trace.judge, 0, mask, trace.jnws, -1, value)
    else:
        g.evaluate_position(state, params, value)
    for p in range(trace.values.shape[1]):
        trace.values[t, p] = value[p]


@jit_inline
def game_arrays(g, targets):
    """One game's working arrays: ``(state, outcomes, weights, mask, root_mask, target,
    prng)``, the search's ``target`` over ``targets`` actions (0: none recorded)."""
    return (
        np.zeros(g.STATE_SIZE, np.int32),
        np.zeros(g.MAX_CHANCE_OUTCOMES, np.int32),
        np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64),
        np.zeros(g.NUM_ACTIONS, np.uint8),
        np.zeros(g.NUM_ACTIONS, np.uint8),
        np.zeros(targets, np.float32),
        np.zeros(2, np.int32),
    )


@jit_inline
def start_game(g, state, params, seed, outcomes, weights, prng):
    """Game ``seed`` set up in ``state``, the policies' generator ``prng`` seeded; returns
    the base seed of its searches."""
    new_game(g, state, params, seed, outcomes, weights)
    rng_seed(prng, 0, derive_seed(seed, 1))
    return derive_seed(seed, 2)


@jit_inline
def write_result(g, state, params, k, out_returns, out_decisions, out_flags):
    """Row ``k`` of the outputs: the finished game's returns, decisions and header flags."""
    ret = np.zeros(g.MAX_PLAYERS, np.float64)
    g.returns(state, params, ret)
    for p in range(out_returns.shape[1]):
        out_returns[k, p] = ret[p]
    out_decisions[k] = state[hd.H_DECISIONS]
    out_flags[k] = state[hd.H_FLAGS]


@jit_inline
def play_game(g, params, seats, master_seed, first_game, k, ws, nws, nn, trace, out_returns,
              out_decisions, out_flags):  # fmt: skip
    """Game ``first_game + k`` of the run ``master_seed`` into row ``k`` of the outputs,
    every player by his seat of ``seats``. ``ws`` None: no seat searches, and the moves
    are the engine's (``seat_action``, networks through the scratch ``nn``); else the
    search workspaces ``ws``, ``nws`` (:func:`game_workspaces`; ``nws`` None: UCT only, no
    network) and ``nn`` None. ``trace`` (None: none): every decision recorded
    (:func:`record_position`). Each None removes its branch at compile time: the engine's
    games compile no search, the plain ones no network, the untraced ones no recorder."""
    state, outcomes, weights, mask, root_mask, target, prng = game_arrays(g, 0)
    seed = derive_seed(master_seed, first_game + k)
    search_base = start_game(g, state, params, seed, outcomes, weights, prng)
    done = (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
    while not done:
        if trace is not None:
            record_position(g, state, params, mask, trace)
        if ws is None:
            a = seat_action(g, state, params, seats, mask, prng, nn)
        else:
            a = seat_move(
                g, state, params, seats, search_base, ws, nws, mask, prng, root_mask, target
            )
        done = advance_decision(g, state, params, a, outcomes, weights)
    write_result(g, state, params, k, out_returns, out_decisions, out_flags)


@jit_parallel
def play_policy_games(
    g, params, seats, master_seed, first_game, out_returns, out_decisions, out_flags
):
    """Whole games, every player by his seat of ``seats`` (random, heuristic or a network;
    ``core/seats.py``; no search); one game per output row (:func:`play_game`). Writes the
    final returns, the decisions taken and the final header flags (``FLAG_TRUNCATED``
    when ``max_decisions`` cut it)."""
    slots, width = seats_scratch_size(seats)
    for k in prange(out_returns.shape[0]):
        nn = net_scratch(g, slots, width)
        play_game(
            g, params, seats, master_seed, first_game, k, None, None, nn, None, out_returns,
            out_decisions, out_flags,
        )  # fmt: skip


@jit_parallel
def play_games(g, params, seats, master_seed, first_game, out_returns, out_decisions, out_flags):
    """Whole games, every player by his seat of ``seats`` (``core/seats.py``): searched
    (``POLICY_MCTS``: UCT, PUCT or Gumbel, by the seat's settings) or compiled policies.

    Like :func:`play_policy_games`: row ``k`` is game ``first_game + k`` of the run
    ``master_seed`` (same deal and dice as there), whatever the threads and the
    batch; each searched decision is seeded from the game's seed and the decision
    number. One pair of workspaces per game, made once.
    """
    for k in prange(out_returns.shape[0]):
        ws, nws = game_workspaces(g, seats)
        play_game(
            g, params, seats, master_seed, first_game, k, ws, nws, None, None, out_returns,
            out_decisions, out_flags,
        )  # fmt: skip


@jit_parallel
def play_plain_games(
    g, params, seats, master_seed, first_game, out_returns, out_decisions, out_flags
):
    """:func:`play_games` for a seat table without networks (no ``POLICY_NETWORK`` seat,
    every search UCT): the same games, but only UCT and the compiled policies are compiled
    (the network searches and the network seat are a large share of a cold compile)."""
    sims = search_sizes(seats)[0]
    for k in prange(out_returns.shape[0]):
        ws = workspace(g, sims + 1)
        play_game(
            g, params, seats, master_seed, first_game, k, ws, None, None, None, out_returns,
            out_decisions, out_flags,
        )  # fmt: skip


@jit
def choices_at(g, state, params, mask):
    """How many actions the search would consider at ``state`` (legal, less the pruned)."""
    g.legal_mask(state, params, mask)
    g.search_prune(state, params, mask)
    n = 0
    for a in range(mask.shape[0]):
        n += mask[a]
    return n


@jit_inline
def random_opening(g, state, params, most, seed, mask, outcomes, weights):
    """A self-play game's opening: ``k`` uniformly random moves from the start, ``k``
    uniform in ``[0, most]`` (drawn, with the moves, from ``seed``); fewer when the game
    ends first. Returns whether it did."""
    orng = np.zeros(2, np.int32)
    rng_seed(orng, 0, seed)
    k = rng_below(orng, 0, most + 1)
    done = (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
    for _ in range(k):
        if done:
            break
        a = random_legal(g, state, params, mask, orng)
        done = advance_decision(g, state, params, a, outcomes, weights)
    return done


@jit_inline
def opens(share, seed):
    """Whether a self-play game has a random opening: always with ``share >= 1`` (no
    draw), else with probability ``share`` (drawn from ``seed``)."""
    if share >= 1.0:
        return True
    orng = np.zeros(2, np.int32)
    rng_seed(orng, 0, seed)
    return uniform01(orng) < share


@jit_parallel
def selfplay(
    g,
    params,
    seats,
    cheap,
    full_share,
    record,
    opening,
    opening_share,
    master_seed,
    first_game,
    out_states,
    out_targets,
    out_values,
    out_count,
    out_returns,
    out_decisions,
    out_flags,
):
    """Whole games as :func:`play_games`, recording the decisions of the players with
    ``record[p] != 0`` that had a choice (after the search's pruning): the state
    (``out_states[k, i]``), the policy target over the actions (``out_targets[k, i]``: the
    search's, or the move played, one-hot, for a seat that does not search) and the
    root's value for every player (``out_values[k, i, p]``, the search's mean over its
    simulations; NaN without a search).
    **Playout-cap randomization** (KataGo): with ``full_share < 1`` a searched decision is
    searched by ``seats`` (the full budget) with probability ``full_share``, else by
    ``cheap`` (the same seats, a small budget; the draw from the game's own generator
    ``derive_seed(seed, 3)``), and a cheap decision is recorded without a policy target
    (its target row all zero; its values kept). ``cheap`` is a table like ``seats``
    (``seats`` itself when ``full_share >= 1``: then never used).
    **Random openings** (``opening > 0``): a game begins with ``k`` uniformly random
    moves, ``k`` uniform in ``[0, opening]`` (:func:`random_opening`, from the game's own
    ``derive_seed(seed, 4)``), neither searched nor recorded: the positions played from
    are those random play reaches as well as those self-play does. With
    ``opening_share < 1`` only that share of the games has one (the draw from the game's
    own ``derive_seed(seed, 5)``); the others are played from the start.
    ``out_count[k]``: decisions recorded (at most ``out_states.shape[1]``; later ones are
    played, not recorded)."""
    cap = out_states.shape[1]
    for k in prange(out_returns.shape[0]):
        state, outcomes, weights, mask, root_mask, target, prng = game_arrays(g, g.NUM_ACTIONS)
        ws, nws = game_workspaces(g, seats)
        seed = derive_seed(master_seed, first_game + k)
        search_base = start_game(g, state, params, seed, outcomes, weights, prng)
        crng = np.zeros(2, np.int32)
        rng_seed(crng, 0, derive_seed(seed, 3))
        if opening > 0 and opens(opening_share, derive_seed(seed, 5)):
            done = random_opening(
                g, state, params, opening, derive_seed(seed, 4), mask, outcomes, weights
            )
        else:
            done = (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
        count = 0
        while not done:
            actor = state[hd.H_ACTOR]
            searched = seats.codes[actor] == hd.POLICY_MCTS
            keep = record[actor] != 0 and count < cap
            if keep and not searched:
                keep = choices_at(g, state, params, root_mask) > 1
            full = not searched or full_share >= 1.0 or uniform01(crng) < full_share
            table = seats if full else cheap
            a = seat_move(
                g, state, params, table, search_base, ws, nws, mask, prng, root_mask, target
            )
            if keep and searched:
                choices = 0
                for b in range(root_mask.shape[0]):
                    choices += root_mask[b]
                keep = choices > 1
            if keep:
                out_states[k, count, :] = state
                if searched:
                    if full:
                        out_targets[k, count, :] = target
                    else:  # a cheap search: no policy target
                        out_targets[k, count, :] = 0.0
                    for q in range(out_values.shape[2]):
                        out_values[k, count, q] = ws.value[0, q] / max(ws.visits[0], 1)
                else:
                    out_targets[k, count, :] = 0.0
                    out_targets[k, count, a] = 1.0
                    out_values[k, count, :] = np.nan
                count += 1
            done = advance_decision(g, state, params, a, outcomes, weights)
        out_count[k] = count
        write_result(g, state, params, k, out_returns, out_decisions, out_flags)
