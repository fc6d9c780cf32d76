"""Generic Monte Carlo tree search (UCT), compiled once per game.

Like :mod:`boardsim.core.engine`, every function that needs the game takes its
:class:`~boardsim.core.kernels.GameKernels` as ``g`` (from Python: ``game.mcts``).
Beyond the rules, the search calls three kernels of the game's ``search.py``:

- ``determinize(state, params, player, prng)``: replace, in place, everything
  ``player`` cannot see by a sample consistent with what it sees (the liberation
  race: the other hands and the draw pile); a no-op for a game without hidden
  information;
- ``search_prune(state, params, mask)``: clear, in a legal ``mask``, the actions
  the search never needs to consider (Farrapos: cancelling or un-choosing a
  composite choice, which only lets a search wander in circles); never all of them;
- ``evaluate_position(state, params, out)``: each player's standing in
  ``[-1, 1]`` (the win/loss scale of the returns) for a position that is not over,
  used where a rollout is cut by its depth cap.

The search (:func:`search`):

- **Open loop over cloned states.** The tree stores action sequences, not states.
  Each simulation copies the root into one preallocated scratch state, reseeds
  that copy's in-state generator from the search's own generator (so the search
  never sees the real future dice or draws), determinizes it for the player to
  move, and replays the tree's actions on it; chance is sampled along the way. A
  node's statistics thus average over the dice and over the hidden cards.
- **Determinization per simulation** (single-observer information-set MCTS,
  Cowling, Powley & Whitehouse 2012): the other players' hidden cards are
  redrawn for every simulation, and children are scored by UCB1 with
  *availability* counts (how often the child's action was legal when its parent
  was visited), since a determinization or a die roll changes which actions are
  legal below the root.
- **Multi-player.** Every node keeps the summed value vector of all players; at a
  node the player to move picks the child best for himself (``W[child, actor]``),
  so each node's value is read from the perspective of the player who chose into
  it. Teams (Hispania's generals) simply share returns.
- **Heuristic prior** (``prior > 0``): at every tree node a simulation passes, the
  game's compiled ``heuristic_action`` names its move; that move is expanded first
  and its child gets the progressive bias ``prior / (visits + 1)`` (Chaslot et al.
  2008) on top of UCB1. The search thus starts from the heuristic's line and
  leaves it only where the simulations find better. ``prior = 0``: plain UCT.
- **Rollouts** by a compiled policy (``POLICY_RANDOM`` or ``POLICY_HEURISTIC``),
  at most ``rollout_depth`` decisions (negative: to the end of the game); a
  finished game is valued by ``returns``, a cut one by ``evaluate_position``.
- **No allocation in the hot loop:** every array is in the workspace made once by
  :func:`workspace` (``max_nodes`` = simulations + 1: a simulation adds at
  most one node; the network searches' own in :func:`net_workspace`). So a
  simulation and its helpers, UCT's and the network searches' (:func:`simulate_net`,
  the PUCT and Gumbel selections, the rollout at a leaf), are compiled without numba's
  reference counting (``jit_borrowing``, ``core/jit.py``): they borrow the workspaces
  from the search that made them (the network's evaluation itself keeps it). On the
  calibration connect four those atomic counts, on every array a call or an inlined
  helper names, were two thirds of a UCT simulation's time.

The move chosen is the root child visited most (ties: the higher mean value).
"""

import math

import numpy as np
from numba import prange

from boardsim.core import header as hd
from boardsim.core.engine import (
    advance_decision,
    heuristic_hint,
    network_input,
    network_input_size,
    new_game,
    policy_action,
    seat_action,
    seats_scratch_size,
)
from boardsim.core.header import (
    S_ALPHA,
    S_C,
    S_C_SCALE,
    S_C_VISIT,
    S_DEPTH,
    S_FPU,
    S_GUMBEL_M,
    S_GUMBEL_SCALE,
    S_MIX,
    S_NOISE,
    S_PRIOR,
    S_ROLLOUT,
    S_SAMPLE_MOVES,
    S_SEARCH,
    S_SIMS,
    SEARCH_GUMBEL,
    SEARCH_UCT,
)
from boardsim.core.jit import jit, jit_borrowing, jit_inline, jit_parallel
from boardsim.core.nn import (
    USE_POLICY,
    USE_VALUE,
    forward_legal,
    masked_log_softmax,
    player_values,
    policy_logits,
    uniform01,
)
from boardsim.core.rng import derive_seed, rng_below, rng_next, rng_seed, rng_weighted

# workspace slots (the tuple made by workspace)
MW_ACTION = 0
MW_FIRST = 1
MW_SIBLING = 2
MW_VISITS = 3
MW_AVAIL = 4
MW_VALUE = 5


@jit
def workspace(g, max_nodes):
    """Every array one search needs, for trees of up to ``max_nodes`` nodes."""
    return (
        np.zeros(max_nodes, np.int32),  # the action leading into each node
        np.zeros(max_nodes, np.int32),  # its first child (-1: none)
        np.zeros(max_nodes, np.int32),  # its next sibling (-1: none)
        np.zeros(max_nodes, np.int64),  # visits
        np.zeros(max_nodes, np.int64),  # availability (times its action was legal at selection)
        np.zeros((max_nodes, g.MAX_PLAYERS), np.float64),  # summed value, per player
        np.zeros(max_nodes + 1, np.int32),  # the path of one simulation
        np.zeros(g.STATE_SIZE, np.int32),  # the simulated state
        np.zeros(g.NUM_ACTIONS, np.uint8),  # legal mask
        np.zeros(g.NUM_ACTIONS, np.uint8),  # legal actions without a child yet
        np.zeros(g.MAX_CHANCE_OUTCOMES, np.int32),  # chance outcomes
        np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64),  # chance weights
        np.zeros(g.MAX_PLAYERS, np.float64),  # a simulation's value
        np.zeros(2, np.int32),  # the search's generator (chance seeds, determinizations)
        np.zeros(2, np.int32),  # the rollout policy's generator
        np.zeros(g.NUM_ACTIONS, np.uint8),  # the heuristic's scratch mask (the prior)
    )


@jit_borrowing
def settle_chance(g, state, params, outcomes, weights):
    """Draw pending chance nodes from the state's own (reseeded) generator, even when the
    game stops at them (``explicit_chance``): the search samples chance itself."""
    while state[hd.H_ACTOR] == hd.CHANCE and (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) == 0:
        n = g.chance_weights(state, params, outcomes, weights)
        i = rng_weighted(state, hd.H_RNG, weights, n)
        g.apply_chance(state, params, np.int64(outcomes[i]))  # as advance_decision passes it


@jit_borrowing
def advance(g, state, params, action, outcomes, weights):
    """One decision in a simulation, its chance drawn; returns True when the game is over."""
    advance_decision(g, state, params, action, outcomes, weights)
    settle_chance(g, state, params, outcomes, weights)
    return (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0


@jit_borrowing
def rollout(g, state, params, policy, depth, done, mask, prng, outcomes, weights):
    """Play ``state`` on by the compiled ``policy`` for at most ``depth`` decisions
    (negative: to the end), chance drawn as :func:`advance` draws it; returns whether the
    game is over (``done``: it already is).

    The loop is written out with the engine's inlined glue, not a call of :func:`advance`
    a decision: a decision is tens of nanoseconds, and a call a decision is a visible
    share of it. The rare chance node (a game that stops at them) is settled by a call."""
    d = 0
    while not done and (depth < 0 or d < depth):
        a = policy_action(g, state, params, policy, mask, prng)
        done = advance_decision(g, state, params, a, outcomes, weights)
        if not done and state[hd.H_ACTOR] == hd.CHANCE:
            settle_chance(g, state, params, outcomes, weights)
            done = (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
        d += 1
    return done


@jit_borrowing
def leaf_value(g, state, params, out):
    """A finished game's returns; the game's evaluation of a cut one (or a truncated one)."""
    flags = state[hd.H_FLAGS]
    if (flags & hd.FLAG_TERMINAL) != 0 and (flags & hd.FLAG_TRUNCATED) == 0:
        g.returns(state, params, out)
    else:
        out[:] = 0.0
        g.evaluate_position(state, params, out)


@jit
def new_seed(srng):
    """A 62-bit seed drawn from the search's generator."""
    return (rng_next(srng, 0) << 30) ^ rng_next(srng, 0)


@jit_borrowing
def choose_child(ws, node, actor, mask, untried, c_uct, hint, prior):
    """UCB1 over the children legal now (their availability counted); ``untried`` is left
    with the legal actions that have no child. The child of action ``hint`` (the
    heuristic's move here, -1: none) gets the progressive bias ``prior / (visits + 1)``.
    Returns the best child, -1 if none."""
    action, first, sibling, visits, avail, value = ws[0], ws[1], ws[2], ws[3], ws[4], ws[5]
    best = -1
    best_score = -np.inf
    child = first[node]
    while child >= 0:
        a = action[child]
        if mask[a] != 0:
            untried[a] = 0
            avail[child] += 1
            n = visits[child]
            score = value[child, actor] / n + c_uct * np.sqrt(np.log(avail[child]) / n)
            if a == hint:
                score += prior / (n + 1)
            if score > best_score:
                best_score = score
                best = child
        child = sibling[child]
    return best


@jit_borrowing
def pick_untried(untried, srng):
    """A uniformly random action among ``untried`` (-1 when there is none)."""
    count = 0
    for a in range(untried.shape[0]):
        count += untried[a]
    if count == 0:
        return -1
    k = rng_below(srng, 0, count)
    for a in range(untried.shape[0]):
        if untried[a] != 0:
            if k == 0:
                return a
            k -= 1
    return -1


@jit_borrowing
def add_child(ws, parent, a, count):
    """Node ``count`` becomes ``parent``'s child by action ``a``."""
    action, first, sibling, visits, avail, value = ws[0], ws[1], ws[2], ws[3], ws[4], ws[5]
    action[count] = a
    first[count] = -1
    sibling[count] = first[parent]
    first[parent] = count
    visits[count] = 0
    avail[count] = 1
    value[count, :] = 0.0


@jit_borrowing
def simulate(g, root, params, player, c_uct, rollout_policy, rollout_depth, prior, ws, count):
    """One simulation: determinize, select and expand, roll out, back up.

    With ``prior > 0`` the heuristic is asked for its move at every tree node on the
    way: that move is expanded first and keeps the progressive bias of
    :func:`choose_child`, so the search starts from the heuristic's line and
    leaves it where the simulations say another move is better.

    Returns the new node count.
    """
    visits, value = ws[3], ws[5]
    path, st, mask, untried, outcomes, weights, leaf, srng, prng, hmask = ws[6:16]
    max_nodes = visits.shape[0]
    for i in range(st.shape[0]):  # not st[:] = root: an array copy needs numba's runtime
        st[i] = root[i]
    rng_seed(st, hd.H_RNG, new_seed(srng))  # never the real future
    g.determinize(st, params, player, srng)
    settle_chance(g, st, params, outcomes, weights)
    node = np.int64(0)  # not a literal: choose_child and add_child compile once
    path[0] = 0
    length = 1
    done = (st[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
    while not done:
        actor = st[hd.H_ACTOR]
        hint = -1
        if prior > 0.0:
            hint = g.heuristic_action(st, params, hmask, prng)
        g.legal_mask(st, params, mask)
        g.search_prune(st, params, mask)
        for b in range(untried.shape[0]):
            untried[b] = mask[b]
        best = choose_child(ws, node, actor, mask, untried, c_uct, hint, prior)
        a = -1
        if count < max_nodes:
            a = hint if hint >= 0 and untried[hint] != 0 else pick_untried(untried, srng)
        if a >= 0:  # expand one new child, then roll out from it
            add_child(ws, node, a, count)
            node = count
            count += 1
            path[length] = node
            length += 1
            done = advance(g, st, params, a, outcomes, weights)
            break
        if best < 0:  # tree full and nothing here yet: roll out from this node
            break
        node = best
        path[length] = node
        length += 1
        done = advance(g, st, params, np.int64(ws[0][node]), outcomes, weights)
    done = rollout(
        g, st, params, np.int32(rollout_policy), rollout_depth, done, mask, prng, outcomes, weights
    )
    leaf_value(g, st, params, leaf)
    for i in range(length):
        n = path[i]
        visits[n] += 1
        for p in range(g.MAX_PLAYERS):
            value[n, p] += leaf[p]
    return count


@jit
def more_visited(visits, value, a, b, player):
    """Node ``a`` is the better move than ``b``: more visits, or as many and a higher mean."""
    if visits[a] != visits[b]:
        return visits[a] > visits[b]
    return value[a, player] / max(visits[a], 1) > value[b, player] / max(visits[b], 1)


@jit
def search(g, root, params, sims, c_uct, rollout_policy, rollout_depth, prior, seed, ws):
    """The action UCT chooses for the player to move at ``root`` after ``sims`` simulations.

    ``root`` is read only. A node with a single legal action returns it without
    searching; -1 when nobody is to decide (chance or terminal). The tree stays in
    ``ws`` for :func:`root_stats`.
    """
    action, first, sibling, visits, value = ws[0], ws[1], ws[2], ws[3], ws[5]
    mask, srng, prng = ws[8], ws[13], ws[14]
    first[0] = -1
    sibling[0] = -1
    visits[0] = 0
    action[0] = -1
    value[0, :] = 0.0
    player = root[hd.H_ACTOR]
    if player < 0 or (root[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0:
        return -1
    if g.legal_mask(root, params, mask) == 0:
        return -1
    g.search_prune(root, params, mask)
    n = 0
    for a in range(g.NUM_ACTIONS):
        n += mask[a]
    if n == 1 or sims <= 0:
        for a in range(g.NUM_ACTIONS):
            if mask[a] != 0:
                return a
    rng_seed(srng, 0, seed)
    rng_seed(prng, 0, derive_seed(seed, 1))
    count = np.int64(1)  # not a literal: simulate compiles once
    for _ in range(sims):
        count = simulate(
            g, root, params, player, c_uct, rollout_policy, rollout_depth, prior, ws, count
        )
    best = -1
    child = first[0]
    while child >= 0:
        if best < 0 or more_visited(visits, value, child, best, player):
            best = child
        child = sibling[child]
    return action[best]


@jit
def root_stats(ws, player, visits_out, values_out):
    """The root's children after a search: visits and mean value for ``player``, by action."""
    action, first, sibling, visits, value = ws[0], ws[1], ws[2], ws[3], ws[5]
    visits_out[:] = 0
    values_out[:] = 0.0
    child = first[0]
    while child >= 0:
        visits_out[action[child]] = visits[child]
        values_out[action[child]] = value[child, player] / max(visits[child], 1)
        child = sibling[child]


@jit
def root_visits(ws, target):
    """The root's children's visits as a distribution over the actions (``target``)."""
    action, first, sibling, visits = ws[0], ws[1], ws[2], ws[3]
    target[:] = 0.0
    total = 0.0
    child = first[0]
    while child >= 0:
        target[action[child]] = visits[child]
        total += visits[child]
        child = sibling[child]
    if total > 0:
        for a in range(target.shape[0]):
            target[a] /= total


@jit
def only_action(mask, target):
    """The single action of ``mask`` (its target one-hot); -1 when none."""
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            if target.shape[0] > 0:
                target[:] = 0.0
                target[a] = 1.0
            return a
    return -1


# ---------------------------------------------------------------- network searches
# The network's workspace (made once per search agent or game, beside the UCT one):
NW_LOGP = 0  # [rows, actions] log-prior of every node the network evaluated
NW_ROW = 1  # [nodes] the node's row there (-1: not evaluated yet)
NW_VNET = 2  # [rows] the network's value of the node for the player to move there
NW_OBS = 3
NW_ACT = 4
NW_Q = 5  # [actions] scratch: completed Q, then scores
NW_N = 6  # [actions] scratch: visits by action
NW_GUMBEL = 7  # [actions] the root's Gumbel noise
NW_CAND = 8  # [actions] the root's candidates
NW_PI = 9  # [actions] probabilities (improved policy, noise, sampling)
NW_ROLL = 10  # [players] a rollout's value
NW_ROWS = 11  # [1] rows used
NW_MASK = 12  # [actions] scratch mask (the hint's heuristic)


@jit
def net_workspace(g, max_nodes, rows, slots, width):
    """What a network search needs beside :func:`workspace`: ``rows`` evaluated nodes
    (``max_nodes`` for a search of ``max_nodes - 1`` simulations), a network of ``slots``
    x ``width`` (``core/engine.py``, ``seats_scratch_size``)."""
    return (
        np.zeros((rows, g.NUM_ACTIONS), np.float32),
        np.full(max_nodes, -1, np.int32),
        np.zeros(rows, np.float64),
        np.zeros(network_input_size(g), np.float32),
        np.zeros((slots, width), np.float32),
        np.zeros(g.NUM_ACTIONS, np.float64),
        np.zeros(g.NUM_ACTIONS, np.float64),
        np.zeros(g.NUM_ACTIONS, np.float64),
        np.zeros(g.NUM_ACTIONS, np.int32),
        np.zeros(g.NUM_ACTIONS, np.float64),
        np.zeros(g.MAX_PLAYERS, np.float64),
        np.zeros(1, np.int64),
        np.zeros(g.NUM_ACTIONS, np.uint8),
    )


@jit
def nws_nn(nws):
    """The network scratch of a network workspace, as ``engine.seat_action`` takes it."""
    return (nws[NW_OBS], nws[NW_ACT], nws[NW_PI])


@jit
def net_evaluate(g, st, params, seats, p, mask, nws, row, leaf):
    """Seat ``p``'s network at ``st``, for the player to move there: the value of each
    player into ``leaf``; with ``row >= 0`` also the log-prior over ``mask`` into that row."""
    weights, layout = seats[4], seats[5]
    base = seats[1][p]
    actor = st[hd.H_ACTOR]
    obs, act = nws[NW_OBS], nws[NW_ACT]
    network_input(g, st, params, actor, layout, base, obs, nws[NW_MASK])
    want = USE_VALUE | (USE_POLICY if row >= 0 else 0)
    forward_legal(weights, layout, base, obs, act, want, mask)
    leaf[:] = 0.0
    player_values(act, layout, base, actor, params[hd.P_NUM_PLAYERS], seats[3], leaf)
    if row >= 0:
        lp = nws[NW_Q]
        masked_log_softmax(policy_logits(act, layout, base), mask, lp)
        logp = nws[NW_LOGP][row]
        for a in range(lp.shape[0]):
            logp[a] = lp[a]
        nws[NW_VNET][row] = leaf[actor]


@jit_borrowing
def child_by_action(ws, node, a):
    """``node``'s child by action ``a`` (-1: none yet)."""
    action, first, sibling = ws[0], ws[1], ws[2]
    child = first[node]
    while child >= 0:
        if action[child] == a:
            return child
        child = sibling[child]
    return -1


@jit_borrowing
def puct_select(ws, nws, node, row, actor, mask, c, fpu):
    """AlphaZero's PUCT: ``Q + c P sqrt(N) / (1 + n)`` over the actions legal now; a
    child not yet made is valued at its parent's value less ``fpu``."""
    action, first, sibling, visits, value = ws[0], ws[1], ws[2], ws[3], ws[5]
    untried = ws[9]
    logp = nws[NW_LOGP][row]
    n_parent = visits[node]
    q_parent = value[node, actor] / n_parent if n_parent > 0 else 0.0
    sq = math.sqrt(max(n_parent, 1))
    for a in range(mask.shape[0]):
        untried[a] = mask[a]
    best_a = -1
    best = -np.inf
    child = first[node]
    while child >= 0:
        a = action[child]
        if mask[a] != 0:
            untried[a] = 0
            n = visits[child]
            score = value[child, actor] / max(n, 1) + c * math.exp(logp[a]) * sq / (1 + n)
            if score > best:
                best = score
                best_a = a
        child = sibling[child]
    q_new = q_parent - fpu
    for a in range(mask.shape[0]):
        if untried[a] != 0:
            score = q_new + c * math.exp(logp[a]) * sq
            if score > best:
                best = score
                best_a = a
    return best_a


@jit_borrowing
def children_stats(ws, nws, node, actor, mask):
    """Visits (``NW_N``) and mean values (``NW_Q``) by action of ``node``'s children legal
    now; returns their visits in all."""
    action, first, sibling, visits, value = ws[0], ws[1], ws[2], ws[3], ws[5]
    q, n_a = nws[NW_Q], nws[NW_N]
    for a in range(mask.shape[0]):
        q[a] = 0.0
        n_a[a] = 0.0
    total = 0.0
    child = first[node]
    while child >= 0:
        a = action[child]
        if mask[a] != 0 and visits[child] > 0:
            n_a[a] = visits[child]
            q[a] = value[child, actor] / visits[child]
            total += visits[child]
        child = sibling[child]
    return total


@jit_borrowing
def completed_sigma(nws, row, mask, c_visit, c_scale):
    """Gumbel MuZero's ``sigma(completed Q)`` into ``NW_Q`` (from :func:`children_stats`):
    unvisited actions get the mixed value of the node's network value and its visited
    children's Q, then min-max normalized, scaled by ``(c_visit + max visits) c_scale``."""
    q, n_a = nws[NW_Q], nws[NW_N]
    logp = nws[NW_LOGP][row]
    total = 0.0
    max_n = 0.0
    pw = 0.0
    pq = 0.0
    for a in range(mask.shape[0]):
        if mask[a] != 0 and n_a[a] > 0:
            total += n_a[a]
            max_n = max(max_n, n_a[a])
            pr = math.exp(logp[a])
            pw += pr
            pq += pr * q[a]
    v_mix = nws[NW_VNET][row]
    if total > 0 and pw > 0:
        v_mix = (v_mix + total * pq / pw) / (1.0 + total)
    lo = np.inf
    hi = -np.inf
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            if n_a[a] == 0:
                q[a] = v_mix
            lo = min(lo, q[a])
            hi = max(hi, q[a])
    scale = (c_visit + max_n) * c_scale
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            q[a] = scale * (q[a] - lo) / (hi - lo) if hi > lo else 0.0
    return total


@jit_borrowing
def improved_policy(nws, row, mask, out):
    """``softmax(log-prior + sigma(completed Q))`` over ``mask`` (after
    :func:`completed_sigma`) into ``out``."""
    q = nws[NW_Q]
    logp = nws[NW_LOGP][row]
    top = -np.inf
    for a in range(mask.shape[0]):
        if mask[a] != 0 and logp[a] + q[a] > top:
            top = logp[a] + q[a]
    total = 0.0
    for a in range(mask.shape[0]):
        out[a] = math.exp(logp[a] + q[a] - top) if mask[a] != 0 and top > -np.inf else 0.0
        total += out[a]
    if total <= 0.0:  # every legal action unseen by the network's evaluation: uniform
        for a in range(mask.shape[0]):
            out[a] = mask[a]
            total += mask[a]
    for a in range(mask.shape[0]):
        out[a] /= total


@jit_borrowing
def gumbel_select(ws, nws, node, row, actor, mask, c_visit, c_scale):
    """Gumbel MuZero's action below the root: ``argmax pi'(a) - n(a) / (1 + N)``."""
    total = children_stats(ws, nws, node, actor, mask)
    completed_sigma(nws, row, mask, c_visit, c_scale)
    pi = nws[NW_PI]
    improved_policy(nws, row, mask, pi)
    n_a = nws[NW_N]
    best_a = -1
    best = -np.inf
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            score = pi[a] - n_a[a] / (1.0 + total)
            if score > best:
                best = score
                best_a = a
    return best_a


@jit_borrowing
def simulate_net(g, root, params, player, seats, p, ws, nws, count, forced):
    """One simulation of seat ``p``'s network search (PUCT or Gumbel below the root):
    determinize, descend to a node the network has not evaluated, evaluate it there
    (prior and value; the value mixed with a rollout's when ``S_MIX > 0``), back up.
    ``forced >= 0`` is the root action to take (Gumbel's sequential halving). Returns the
    new node count."""
    settings = seats[2][p]
    gumbel = int(settings[S_SEARCH]) == SEARCH_GUMBEL
    c = settings[S_C]
    fpu = settings[S_FPU]
    mix = settings[S_MIX]
    visits, value = ws[3], ws[5]
    path, st, mask, outcomes, weights, leaf, srng, prng = (
        ws[6], ws[7], ws[8], ws[10], ws[11], ws[12], ws[13], ws[14],
    )  # fmt: skip
    row_of, used = nws[NW_ROW], nws[NW_ROWS]
    max_nodes = visits.shape[0]
    for i in range(st.shape[0]):  # not st[:] = root: an array copy needs numba's runtime
        st[i] = root[i]
    rng_seed(st, hd.H_RNG, new_seed(srng))  # never the real future
    g.determinize(st, params, player, srng)
    settle_chance(g, st, params, outcomes, weights)
    node = 0
    path[0] = 0
    length = 1
    done = (st[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
    evaluated = False
    while not done:
        actor = st[hd.H_ACTOR]
        g.legal_mask(st, params, mask)
        g.search_prune(st, params, mask)
        row = row_of[node]
        if row < 0:  # a leaf: the network evaluates it here
            row = used[0]
            used[0] += 1
            row_of[node] = row
            net_evaluate(g, st, params, seats, p, mask, nws, row, leaf)
            evaluated = True
            break
        if node == 0 and forced >= 0:
            a = forced
        elif gumbel:
            c_visit, c_scale = settings[S_C_VISIT], settings[S_C_SCALE]
            a = gumbel_select(ws, nws, node, row, actor, mask, c_visit, c_scale)
        else:
            a = puct_select(ws, nws, node, row, actor, mask, c, fpu)
        child = child_by_action(ws, node, a)
        if child < 0:
            if count >= max_nodes:  # the tree is full: value this position, make no node
                net_evaluate(g, st, params, seats, p, mask, nws, -1, leaf)
                evaluated = True
                break
            add_child(ws, node, a, count)
            child = count
            row_of[child] = -1
            count += 1
        node = child
        path[length] = node
        length += 1
        done = advance(g, st, params, a, outcomes, weights)
    if not evaluated:
        leaf_value(g, st, params, leaf)
    elif mix > 0.0:
        rollout_value(g, st, params, settings, mask, outcomes, weights, prng, nws[NW_ROLL])
        for q in range(g.MAX_PLAYERS):
            leaf[q] = (1.0 - mix) * leaf[q] + mix * nws[NW_ROLL][q]
    for i in range(length):
        n = path[i]
        visits[n] += 1
        for q in range(g.MAX_PLAYERS):
            value[n, q] += leaf[q]
    return count


@jit_borrowing
def rollout_value(g, st, params, settings, mask, outcomes, weights, prng, out):
    """Play on from ``st`` by the seat's rollout policy for at most its rollout depth;
    the value of where it ends (``out``)."""
    depth = int(settings[S_DEPTH])
    policy = int(settings[S_ROLLOUT])
    done = (st[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
    d = 0
    while not done and (depth < 0 or d < depth):
        a = policy_action(g, st, params, policy, mask, prng)
        done = advance(g, st, params, a, outcomes, weights)
        d += 1
    leaf_value(g, st, params, out)


@jit
def normal01(srng):
    """A standard normal number (Box-Muller) from the search's generator."""
    u1 = uniform01(srng)
    u2 = uniform01(srng)
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


@jit
def gamma_sample(alpha, srng):
    """A Gamma(alpha, 1) number (Marsaglia and Tsang; alpha < 1 through alpha + 1)."""
    boost = 1.0
    a = alpha
    if a < 1.0:
        boost = uniform01(srng) ** (1.0 / a)
        a += 1.0
    d = a - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = normal01(srng)
        v = (1.0 + c * x) ** 3
        if v <= 0.0:
            continue
        if math.log(uniform01(srng)) < 0.5 * x * x + d - d * v + d * math.log(v):
            return d * v * boost


@jit
def add_root_noise(nws, mask, frac, alpha, srng):
    """Mix Dirichlet(alpha) noise into the root's prior, weight ``frac`` (AlphaZero)."""
    row = nws[NW_ROW][0]
    logp = nws[NW_LOGP][row]
    eta = nws[NW_PI]
    total = 0.0
    for a in range(mask.shape[0]):
        eta[a] = gamma_sample(alpha, srng) if mask[a] != 0 else 0.0
        total += eta[a]
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            prob = (1.0 - frac) * math.exp(logp[a]) + frac * eta[a] / total
            logp[a] = math.log(prob) if prob > 0.0 else -np.inf


@jit
def start_search(g, root, params, ws, nws, seed):
    """Clear the tree and seed the search's generators; the root's pruned legal mask is
    left in ``ws[8]``. Returns how many actions it has (0: nobody to decide)."""
    action, first, sibling, visits, value = ws[0], ws[1], ws[2], ws[3], ws[5]
    mask, srng, prng = ws[8], ws[13], ws[14]
    first[0] = -1
    sibling[0] = -1
    visits[0] = 0
    action[0] = -1
    value[0, :] = 0.0
    nws[NW_ROW][0] = -1
    nws[NW_ROWS][0] = 0
    if root[hd.H_ACTOR] < 0 or (root[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0:
        return 0
    if g.legal_mask(root, params, mask) == 0:
        return 0
    g.search_prune(root, params, mask)
    rng_seed(srng, 0, seed)
    rng_seed(prng, 0, derive_seed(seed, 1))
    n = 0
    for a in range(mask.shape[0]):
        n += mask[a]
    return n


@jit
def search_puct(g, root, params, seats, p, seed, ws, nws, root_mask, target):
    """AlphaZero's search for seat ``p`` at ``root``: PUCT with the seat's network as
    prior and value, Dirichlet noise on the root's prior when ``S_NOISE > 0``. The move is
    the most visited root child, or, in a game's first ``S_SAMPLE_MOVES`` decisions, drawn
    in proportion to the visits; ``target`` (when not empty): the visit distribution."""
    settings = seats[2][p]
    sims = int(settings[S_SIMS])
    player = root[hd.H_ACTOR]
    n = start_search(g, root, params, ws, nws, seed)
    if n == 0:
        return -1
    for a in range(root_mask.shape[0]):
        root_mask[a] = ws[8][a]
    if n == 1 or sims <= 0:
        return only_action(root_mask, target)
    srng = ws[13]
    count = simulate_net(g, root, params, player, seats, p, ws, nws, 1, -1)
    if settings[S_NOISE] > 0.0:
        add_root_noise(nws, root_mask, settings[S_NOISE], settings[S_ALPHA], srng)
    for _ in range(sims - 1):
        count = simulate_net(g, root, params, player, seats, p, ws, nws, count, -1)
    if target.shape[0] > 0:
        root_visits(ws, target)
    action, first, sibling, visits, value = ws[0], ws[1], ws[2], ws[3], ws[5]
    if first[0] < 0:  # one simulation: the root's evaluation only, the prior decides
        logp = nws[NW_LOGP][nws[NW_ROW][0]]
        best_a = -1
        for a in range(root_mask.shape[0]):
            if root_mask[a] != 0 and (best_a < 0 or logp[a] > logp[best_a]):
                best_a = a
        return best_a
    if root[hd.H_DECISIONS] < settings[S_SAMPLE_MOVES]:
        r = rng_below(srng, 0, max(visits[0] - 1, 1))
        child = first[0]
        while child >= 0:
            r -= visits[child]
            if r < 0:
                return action[child]
            child = sibling[child]
    best = -1
    child = first[0]
    while child >= 0:
        if best < 0 or more_visited(visits, value, child, best, player):
            best = child
        child = sibling[child]
    return action[best]


@jit
def top_candidates(nws, mask, k):
    """The ``k`` actions of ``mask`` with the highest Gumbel noise + log-prior, into
    ``NW_CAND`` (best first)."""
    row = nws[NW_ROW][0]
    logp = nws[NW_LOGP][row]
    gum, cand, taken = nws[NW_GUMBEL], nws[NW_CAND], nws[NW_N]
    for a in range(mask.shape[0]):
        taken[a] = 0.0
    for i in range(k):
        best = -1
        for a in range(mask.shape[0]):
            fresh = mask[a] != 0 and taken[a] == 0.0
            if fresh and (best < 0 or gum[a] + logp[a] > gum[best] + logp[best]):
                best = a
        cand[i] = best
        taken[best] = 1.0


@jit
def rank_candidates(ws, nws, player, mask, k, c_visit, c_scale):
    """Sort the first ``k`` candidates by ``g + log-prior + sigma(completed Q)``."""
    row = nws[NW_ROW][0]
    children_stats(ws, nws, 0, player, mask)
    completed_sigma(nws, row, mask, c_visit, c_scale)
    logp, q, gum, cand = nws[NW_LOGP][row], nws[NW_Q], nws[NW_GUMBEL], nws[NW_CAND]
    for i in range(1, k):  # insertion sort, k is small
        a = cand[i]
        key = gum[a] + logp[a] + q[a]
        j = i - 1
        while j >= 0 and gum[cand[j]] + logp[cand[j]] + q[cand[j]] < key:
            cand[j + 1] = cand[j]
            j -= 1
        cand[j + 1] = a


@jit
def search_gumbel(g, root, params, seats, p, seed, ws, nws, root_mask, target):
    """Gumbel AlphaZero's search for seat ``p`` at ``root`` (Danihelka et al. 2022): the
    top ``S_GUMBEL_M`` actions by Gumbel noise + log-prior, sequential halving of the
    simulations among them (ranked by noise + log-prior + sigma(completed Q)), Gumbel
    MuZero's deterministic selection below the root. ``target``: the improved policy
    ``softmax(log-prior + sigma(completed Q))``. ``S_GUMBEL_SCALE`` 0 plays without noise."""
    settings = seats[2][p]
    sims = int(settings[S_SIMS])
    player = root[hd.H_ACTOR]
    n = start_search(g, root, params, ws, nws, seed)
    if n == 0:
        return -1
    for a in range(root_mask.shape[0]):
        root_mask[a] = ws[8][a]
    if n == 1 or sims <= 0:
        return only_action(root_mask, target)
    c_visit, c_scale = settings[S_C_VISIT], settings[S_C_SCALE]
    srng = ws[13]
    count = simulate_net(g, root, params, player, seats, p, ws, nws, 1, -1)
    gum = nws[NW_GUMBEL]
    scale = settings[S_GUMBEL_SCALE]
    for a in range(root_mask.shape[0]):
        gum[a] = 0.0
        if root_mask[a] != 0 and scale > 0.0:
            gum[a] = -scale * math.log(-math.log(uniform01(srng)))
    k = min(max(int(settings[S_GUMBEL_M]), 1), n)
    top_candidates(nws, root_mask, k)
    cand = nws[NW_CAND]
    phases = 1
    while (1 << phases) < k:
        phases += 1
    budget = sims - 1
    done = 0
    for phase in range(phases):
        if phase == phases - 1:
            per = max(1, (budget - done) // k)
        else:
            per = max(1, budget // (phases * k))
        for i in range(k):
            for _ in range(per):
                if done < budget:
                    count = simulate_net(g, root, params, player, seats, p, ws, nws, count, cand[i])
                    done += 1
        rank_candidates(ws, nws, player, root_mask, k, c_visit, c_scale)
        if k > 1:
            k = (k + 1) // 2
    if target.shape[0] > 0:
        row = nws[NW_ROW][0]
        children_stats(ws, nws, 0, player, root_mask)
        completed_sigma(nws, row, root_mask, c_visit, c_scale)
        pi = nws[NW_PI]
        improved_policy(nws, row, root_mask, pi)
        for a in range(target.shape[0]):
            target[a] = pi[a]
    return cand[0]


@jit_inline
def seat_search(g, root, params, seats, p, seed, ws, nws, root_mask, target):
    """The move seat ``p`` (a ``POLICY_MCTS`` seat) searches for at ``root``, by its
    settings: UCT with rollouts (:func:`search`), or the network searches (PUCT, Gumbel).
    ``target`` (when not empty): the search's policy target at the root; ``root_mask``:
    the root's searched actions. ``nws`` None (a table without networks,
    :func:`play_plain_games`): UCT only, and the network searches are not compiled."""
    settings = seats[2][p]
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
            root_mask[b] = ws[8][b]
        if target.shape[0] > 0:
            if ws[1][0] < 0:  # no tree: a single action
                only_action(root_mask, target)
            else:
                root_visits(ws, target)
        return a
    if mode == SEARCH_GUMBEL:
        return search_gumbel(g, root, params, seats, p, seed, ws, nws, root_mask, target)
    return search_puct(g, root, params, seats, p, seed, ws, nws, root_mask, target)


@jit
def search_sizes(seats):
    """``(simulations, network search)`` of the seat table: the most simulations of its
    searching seats, and whether one of them searches with a network."""
    codes, settings = seats[0], seats[2]
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
    code = seats[0][state[hd.H_ACTOR]]
    if code == hd.POLICY_MCTS:
        s = derive_seed(search_base, state[hd.H_DECISIONS])
        p = state[hd.H_ACTOR]
        return seat_search(g, state, params, seats, p, s, ws, nws, root_mask, target)
    if nws is None:  # seat_action's move for a seat that is not a network
        return policy_action(g, state, params, code, mask, prng)
    return seat_action(g, state, params, seats, mask, prng, nws_nn(nws))


@jit_inline
def play_game(g, params, seats, master_seed, first_game, k, ws, nws, out_returns, out_decisions,
              out_flags):  # fmt: skip
    """Game ``first_game + k`` of the run ``master_seed`` into row ``k`` of the outputs
    (:func:`play_games`), with the search workspaces ``ws``, ``nws`` (:func:`game_workspaces`)."""
    state = np.zeros(g.STATE_SIZE, np.int32)
    outcomes = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int32)
    weights = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64)
    mask = np.zeros(g.NUM_ACTIONS, np.uint8)
    root_mask = np.zeros(g.NUM_ACTIONS, np.uint8)
    target = np.zeros(0, np.float32)
    prng = np.zeros(2, np.int32)
    ret = np.zeros(g.MAX_PLAYERS, np.float64)
    seed = derive_seed(master_seed, first_game + k)
    new_game(g, state, params, seed, outcomes, weights)
    rng_seed(prng, 0, derive_seed(seed, 1))
    search_base = derive_seed(seed, 2)
    done = (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
    while not done:
        a = seat_move(g, state, params, seats, search_base, ws, nws, mask, prng, root_mask, target)
        done = advance_decision(g, state, params, a, outcomes, weights)
    g.returns(state, params, ret)
    for p in range(out_returns.shape[1]):
        out_returns[k, p] = ret[p]
    out_decisions[k] = state[hd.H_DECISIONS]
    out_flags[k] = state[hd.H_FLAGS]


@jit_parallel
def play_games(g, params, seats, master_seed, first_game, out_returns, out_decisions, out_flags):
    """Whole games, every player by his seat of ``seats`` (``core/seats.py``): searched
    (``POLICY_MCTS``: UCT, PUCT or Gumbel, by the seat's settings) or compiled policies.

    Like ``engine.play_games``: row ``k`` is game ``first_game + k`` of the run
    ``master_seed`` (same deal and dice as there), whatever the threads and the
    batch; each searched decision is seeded from the game's seed and the decision
    number. One pair of workspaces per game, made once.
    """
    for k in prange(out_returns.shape[0]):
        ws, nws = game_workspaces(g, seats)
        play_game(
            g, params, seats, master_seed, first_game, k, ws, nws, out_returns, out_decisions,
            out_flags,
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
            g, params, seats, master_seed, first_game, k, ws, None, out_returns, out_decisions,
            out_flags,
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


@jit_parallel
def selfplay(
    g,
    params,
    seats,
    record,
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
    ``out_count[k]``: decisions recorded (at most ``out_states.shape[1]``; later ones are
    played, not recorded)."""
    cap = out_states.shape[1]
    for k in prange(out_returns.shape[0]):
        state = np.zeros(g.STATE_SIZE, np.int32)
        outcomes = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int32)
        weights = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64)
        mask = np.zeros(g.NUM_ACTIONS, np.uint8)
        root_mask = np.zeros(g.NUM_ACTIONS, np.uint8)
        target = np.zeros(g.NUM_ACTIONS, np.float32)
        prng = np.zeros(2, np.int32)
        ret = np.zeros(g.MAX_PLAYERS, np.float64)
        ws, nws = game_workspaces(g, seats)
        seed = derive_seed(master_seed, first_game + k)
        new_game(g, state, params, seed, outcomes, weights)
        rng_seed(prng, 0, derive_seed(seed, 1))
        search_base = derive_seed(seed, 2)
        done = (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
        count = 0
        while not done:
            actor = state[hd.H_ACTOR]
            searched = seats[0][actor] == hd.POLICY_MCTS
            keep = record[actor] != 0 and count < cap
            if keep and not searched:
                keep = choices_at(g, state, params, root_mask) > 1
            a = seat_move(
                g, state, params, seats, search_base, ws, nws, mask, prng, root_mask, target
            )
            if keep and searched:
                choices = 0
                for b in range(root_mask.shape[0]):
                    choices += root_mask[b]
                keep = choices > 1
            if keep:
                out_states[k, count, :] = state
                if searched:
                    out_targets[k, count, :] = target
                    for q in range(out_values.shape[2]):
                        out_values[k, count, q] = ws[5][0, q] / max(ws[3][0], 1)
                else:
                    out_targets[k, count, :] = 0.0
                    out_targets[k, count, a] = 1.0
                    out_values[k, count, :] = np.nan
                count += 1
            done = advance_decision(g, state, params, a, outcomes, weights)
        out_count[k] = count
        g.returns(state, params, ret)
        for p in range(out_returns.shape[1]):
            out_returns[k, p] = ret[p]
        out_decisions[k] = state[hd.H_DECISIONS]
        out_flags[k] = state[hd.H_FLAGS]


@jit_parallel
def search_positions(
    g, params, seats, states, master_seed, out_targets, out_values, out_q, out_visits, out_actions
):
    """Each stored position searched afresh by the seat of its player to move (a
    ``POLICY_MCTS`` seat of ``seats``): its move (``out_actions[i]``), the search's policy
    target (``out_targets[i]``, as :func:`selfplay` records it) and the root's value for
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
            out_values[i, q] = ws[5][0, q] / max(ws[3][0], 1)
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
