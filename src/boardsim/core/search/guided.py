"""The network-guided searches: AlphaZero's PUCT and Gumbel AlphaZero, compiled once per game.

They grow the tree of :mod:`boardsim.core.search.tree` (its workspace, its children and
their statistics, its chance and rollouts) but choose by a seat's network: a node the
network has not evaluated is a leaf, evaluated once (its log-prior over the actions and
each player's value, from the viewpoint of the player to move), and mixed with a
rollout's value when the seat's ``S_MIX > 0``. Below the root, PUCT (:func:`puct_select`)
or Gumbel MuZero's deterministic selection (:func:`gumbel_select`); at the root, PUCT
with Dirichlet noise (:func:`search_puct`) or Gumbel's sequential halving among the top
actions by noise and prior (:func:`search_gumbel`), whose improved policy is the
self-play target. Their arrays are in :func:`net_workspace`, beside UCT's.
"""

import math
from typing import NamedTuple

import numpy as np

from boardsim.core import header as hd
from boardsim.core.engine import NetScratch, network_input, network_input_size, policy_action
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
    S_ROLLOUT,
    S_SAMPLE_MOVES,
    S_SEARCH,
    S_SIMS,
    SEARCH_GUMBEL,
)
from boardsim.core.jit import jit, jit_borrowing
from boardsim.core.nn import (
    USE_POLICY,
    USE_VALUE,
    forward_legal,
    masked_log_softmax,
    player_values,
    policy_logits,
    uniform01,
)
from boardsim.core.rng import derive_seed, rng_below, rng_seed
from boardsim.core.search.tree import (
    add_child,
    advance,
    back_up,
    clear_tree,
    determinized_root,
    leaf_value,
    most_visited,
    only_action,
    root_visits,
)


class NetWorkspace(NamedTuple):
    """What a network search needs beside the tree's workspace (:func:`net_workspace`),
    by name (made once per search agent or game)."""

    logp: np.ndarray  # [rows, actions] log-prior of every node the network evaluated
    row_of: np.ndarray  # [nodes] the node's row there (-1: not evaluated yet)
    vnet: np.ndarray  # [rows] the network's value of the node for the player to move there
    obs: np.ndarray  # the network's input
    act: np.ndarray  # [slots, width] the network's layers
    q: np.ndarray  # [actions] scratch: completed Q, then scores
    n: np.ndarray  # [actions] scratch: visits by action
    gumbel: np.ndarray  # [actions] the root's Gumbel noise
    cand: np.ndarray  # [actions] the root's candidates
    pi: np.ndarray  # [actions] probabilities (improved policy, noise, sampling)
    roll: np.ndarray  # [players] a rollout's value
    rows_used: np.ndarray  # [1] rows used
    mask: np.ndarray  # [actions] scratch mask (the hint's heuristic)


@jit
def net_workspace(g, max_nodes, rows, slots, width):
    """What a network search needs beside the tree's workspace: ``rows`` evaluated nodes
    (``max_nodes`` for a search of ``max_nodes - 1`` simulations), a network of ``slots``
    x ``width`` (``core/engine.py``, ``seats_scratch_size``)."""
    return NetWorkspace(
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
    return NetScratch(nws.obs, nws.act, nws.pi)


@jit
def net_evaluate(g, st, params, seats, p, mask, nws, row, leaf):
    """Seat ``p``'s network at ``st``, for the player to move there: the value of each
    player into ``leaf``; with ``row >= 0`` also the log-prior over ``mask`` into that row."""
    weights, layout = seats.weights, seats.layout
    base = seats.nets[p]
    actor = st[hd.H_ACTOR]
    obs, act = nws.obs, nws.act
    network_input(g, st, params, actor, layout, base, obs, nws.mask)
    want = USE_VALUE | (USE_POLICY if row >= 0 else 0)
    forward_legal(weights, layout, base, obs, act, want, mask)
    leaf[:] = 0.0
    player_values(act, layout, base, actor, params[hd.P_NUM_PLAYERS], seats.teams, leaf)
    if row >= 0:
        lp = nws.q
        masked_log_softmax(policy_logits(act, layout, base), mask, lp)
        logp = nws.logp[row]
        for a in range(lp.shape[0]):
            logp[a] = lp[a]
        nws.vnet[row] = leaf[actor]


@jit_borrowing
def child_by_action(ws, node, a):
    """``node``'s child by action ``a`` (-1: none yet)."""
    action, first, sibling = ws.action, ws.first, ws.sibling
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
    action, first, sibling, visits, value = ws.action, ws.first, ws.sibling, ws.visits, ws.value
    untried = ws.untried
    logp = nws.logp[row]
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
    """Visits (``nws.n``) and mean values (``nws.q``) by action of ``node``'s children legal
    now; returns their visits in all."""
    action, first, sibling, visits, value = ws.action, ws.first, ws.sibling, ws.visits, ws.value
    q, n_a = nws.q, nws.n
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
    """Gumbel MuZero's ``sigma(completed Q)`` into ``nws.q`` (from :func:`children_stats`):
    unvisited actions get the mixed value of the node's network value and its visited
    children's Q, then min-max normalized, scaled by ``(c_visit + max visits) c_scale``."""
    q, n_a = nws.q, nws.n
    logp = nws.logp[row]
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
    v_mix = nws.vnet[row]
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
    q = nws.q
    logp = nws.logp[row]
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
    pi = nws.pi
    improved_policy(nws, row, mask, pi)
    n_a = nws.n
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
    settings = seats.settings[p]
    gumbel = int(settings[S_SEARCH]) == SEARCH_GUMBEL
    c = settings[S_C]
    fpu = settings[S_FPU]
    mix = settings[S_MIX]
    path, st, mask, leaf = ws.path, ws.state, ws.mask, ws.leaf
    outcomes, weights, prng = ws.outcomes, ws.weights, ws.prng
    row_of, used = nws.row_of, nws.rows_used
    max_nodes = ws.visits.shape[0]
    determinized_root(g, root, params, player, ws)
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
        rollout_value(g, st, params, settings, mask, outcomes, weights, prng, nws.roll)
        for q in range(g.MAX_PLAYERS):
            leaf[q] = (1.0 - mix) * leaf[q] + mix * nws.roll[q]
    back_up(g, ws, length)
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
    row = nws.row_of[0]
    logp = nws.logp[row]
    eta = nws.pi
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
    left in ``ws.mask``. Returns how many actions it has (0: nobody to decide)."""
    mask, srng, prng = ws.mask, ws.srng, ws.prng
    clear_tree(ws)
    nws.row_of[0] = -1
    nws.rows_used[0] = 0
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
def search_network(g, root, params, seats, p, seed, ws, nws, root_mask, target):
    """Seat ``p``'s network search at ``root`` (:func:`search_puct` or
    :func:`search_gumbel`, by its ``S_SEARCH``), seeded ``seed``: the move (-1: nobody to
    decide); ``root_mask``: the root's searched actions; ``target`` (when not empty): the
    search's policy target there. A root with a single action is not searched."""
    settings = seats.settings[p]
    n = start_search(g, root, params, ws, nws, seed)
    if n == 0:
        return -1
    for a in range(root_mask.shape[0]):
        root_mask[a] = ws.mask[a]
    if n == 1 or int(settings[S_SIMS]) <= 0:
        return only_action(root_mask, target)
    if int(settings[S_SEARCH]) == SEARCH_GUMBEL:
        return search_gumbel(g, root, params, seats, p, ws, nws, root_mask, target, n)
    return search_puct(g, root, params, seats, p, ws, nws, root_mask, target)


@jit
def search_puct(g, root, params, seats, p, ws, nws, root_mask, target):
    """AlphaZero's search for seat ``p`` at ``root`` (begun by :func:`search_network`):
    PUCT with the seat's network as prior and value, Dirichlet noise on the root's prior
    when ``S_NOISE > 0``. The move is the most visited root child, or, in a game's first
    ``S_SAMPLE_MOVES`` decisions, drawn in proportion to the visits; ``target`` (when not
    empty): the visit distribution."""
    settings = seats.settings[p]
    sims = int(settings[S_SIMS])
    player = root[hd.H_ACTOR]
    srng = ws.srng
    count = simulate_net(g, root, params, player, seats, p, ws, nws, 1, -1)
    if settings[S_NOISE] > 0.0:
        add_root_noise(nws, root_mask, settings[S_NOISE], settings[S_ALPHA], srng)
    for _ in range(sims - 1):
        count = simulate_net(g, root, params, player, seats, p, ws, nws, count, -1)
    if target.shape[0] > 0:
        root_visits(ws, target)
    action, first, sibling, visits = ws.action, ws.first, ws.sibling, ws.visits
    if first[0] < 0:  # one simulation: the root's evaluation only, the prior decides
        logp = nws.logp[nws.row_of[0]]
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
    return most_visited(ws, player)


@jit
def top_candidates(nws, mask, k):
    """The ``k`` actions of ``mask`` with the highest Gumbel noise + log-prior, into
    ``nws.cand`` (best first)."""
    row = nws.row_of[0]
    logp = nws.logp[row]
    gum, cand, taken = nws.gumbel, nws.cand, nws.n
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
    row = nws.row_of[0]
    children_stats(ws, nws, 0, player, mask)
    completed_sigma(nws, row, mask, c_visit, c_scale)
    logp, q, gum, cand = nws.logp[row], nws.q, nws.gumbel, nws.cand
    for i in range(1, k):  # insertion sort, k is small
        a = cand[i]
        key = gum[a] + logp[a] + q[a]
        j = i - 1
        while j >= 0 and gum[cand[j]] + logp[cand[j]] + q[cand[j]] < key:
            cand[j + 1] = cand[j]
            j -= 1
        cand[j + 1] = a


@jit
def search_gumbel(g, root, params, seats, p, ws, nws, root_mask, target, n):
    """Gumbel AlphaZero's search for seat ``p`` at ``root`` (Danihelka et al. 2022; begun
    by :func:`search_network`, ``n`` actions to choose from): the top ``S_GUMBEL_M``
    actions by Gumbel noise + log-prior, sequential halving of the simulations among them
    (ranked by noise + log-prior + sigma(completed Q)), Gumbel MuZero's deterministic
    selection below the root. ``target``: the improved policy ``softmax(log-prior +
    sigma(completed Q))``. ``S_GUMBEL_SCALE`` 0 plays without noise."""
    settings = seats.settings[p]
    sims = int(settings[S_SIMS])
    player = root[hd.H_ACTOR]
    c_visit, c_scale = settings[S_C_VISIT], settings[S_C_SCALE]
    srng = ws.srng
    count = simulate_net(g, root, params, player, seats, p, ws, nws, 1, -1)
    gum = nws.gumbel
    scale = settings[S_GUMBEL_SCALE]
    for a in range(root_mask.shape[0]):
        gum[a] = 0.0
        if root_mask[a] != 0 and scale > 0.0:
            gum[a] = -scale * math.log(-math.log(uniform01(srng)))
    k = min(max(int(settings[S_GUMBEL_M]), 1), n)
    top_candidates(nws, root_mask, k)
    cand = nws.cand
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
        row = nws.row_of[0]
        children_stats(ws, nws, 0, player, root_mask)
        completed_sigma(nws, row, root_mask, c_visit, c_scale)
        pi = nws.pi
        improved_policy(nws, row, root_mask, pi)
        for a in range(target.shape[0]):
            target[a] = pi[a]
    return cand[0]
