"""The search tree and UCT: generic Monte Carlo tree search, compiled once per game.

Like :mod:`boardsim.core.engine`, every function that needs the game takes its
:class:`~boardsim.core.kernels.GameKernels` as ``g`` (from Python: ``game.mcts``,
:class:`~boardsim.core.bound.BoundSearch`). Beyond the rules, the search calls three
kernels of the game's ``search.py``:

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
  most one node; the network searches' own in
  :func:`boardsim.core.search.guided.net_workspace`). So a
  simulation and its helpers, UCT's and the network searches' (``guided.simulate_net``,
  the PUCT and Gumbel selections, the rollout at a leaf), are compiled without numba's
  reference counting (``jit_borrowing``, ``core/jit.py``): they borrow the workspaces
  from the search that made them (the network's evaluation itself keeps it). On the
  calibration connect four those atomic counts, on every array a call or an inlined
  helper names, were two thirds of a UCT simulation's time.

The move chosen is the root child visited most (ties: the higher mean value).
"""

from typing import NamedTuple

import numpy as np

from boardsim.core import header as hd
from boardsim.core.engine import advance_decision, policy_action
from boardsim.core.jit import jit, jit_borrowing, jit_inline
from boardsim.core.rng import derive_seed, rng_below, rng_next, rng_seed, rng_weighted


class Workspace(NamedTuple):
    """Every array one search needs (:func:`workspace`), by name: numba reads a named
    tuple's fields as it reads a tuple's items, at no cost."""

    action: np.ndarray  # [nodes] the action leading into each node
    first: np.ndarray  # [nodes] its first child (-1: none)
    sibling: np.ndarray  # [nodes] its next sibling (-1: none)
    visits: np.ndarray  # [nodes] visits
    avail: np.ndarray  # [nodes] availability (times its action was legal at selection)
    value: np.ndarray  # [nodes, players] summed value, per player
    path: np.ndarray  # [nodes + 1] the path of one simulation
    state: np.ndarray  # the simulated state
    mask: np.ndarray  # [actions] legal mask (after a search: the root's searched actions)
    untried: np.ndarray  # [actions] legal actions without a child yet
    outcomes: np.ndarray  # chance outcomes
    weights: np.ndarray  # chance weights
    leaf: np.ndarray  # [players] a simulation's value
    srng: np.ndarray  # the search's generator (chance seeds, determinizations)
    prng: np.ndarray  # the rollout policy's generator
    hint_mask: np.ndarray  # [actions] the heuristic's scratch mask (the prior)


@jit
def workspace(g, max_nodes):
    """Every array one search needs, for trees of up to ``max_nodes`` nodes."""
    return Workspace(
        np.zeros(max_nodes, np.int32),
        np.zeros(max_nodes, np.int32),
        np.zeros(max_nodes, np.int32),
        np.zeros(max_nodes, np.int64),
        np.zeros(max_nodes, np.int64),
        np.zeros((max_nodes, g.MAX_PLAYERS), np.float64),
        np.zeros(max_nodes + 1, np.int32),
        np.zeros(g.STATE_SIZE, np.int32),
        np.zeros(g.NUM_ACTIONS, np.uint8),
        np.zeros(g.NUM_ACTIONS, np.uint8),
        np.zeros(g.MAX_CHANCE_OUTCOMES, np.int32),
        np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64),
        np.zeros(g.MAX_PLAYERS, np.float64),
        np.zeros(2, np.int32),
        np.zeros(2, np.int32),
        np.zeros(g.NUM_ACTIONS, np.uint8),
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
    action, first, sibling = ws.action, ws.first, ws.sibling
    visits, avail, value = ws.visits, ws.avail, ws.value
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
    ws.action[count] = a
    ws.first[count] = -1
    ws.sibling[count] = ws.first[parent]
    ws.first[parent] = count
    ws.visits[count] = 0
    ws.avail[count] = 1
    ws.value[count, :] = 0.0


@jit_borrowing
def clear_tree(ws):
    """The tree emptied: its root alone, unvisited, without children."""
    ws.first[0] = -1
    ws.sibling[0] = -1
    ws.visits[0] = 0
    ws.action[0] = -1
    ws.value[0, :] = 0.0


@jit_borrowing
def simulate(g, root, params, player, c_uct, rollout_policy, rollout_depth, prior, ws, count):
    """One simulation: determinize, select and expand, roll out, back up.

    With ``prior > 0`` the heuristic is asked for its move at every tree node on the
    way: that move is expanded first and keeps the progressive bias of
    :func:`choose_child`, so the search starts from the heuristic's line and
    leaves it where the simulations say another move is better.

    Returns the new node count.
    """
    path, st, mask, untried = ws.path, ws.state, ws.mask, ws.untried
    outcomes, weights = ws.outcomes, ws.weights
    srng, prng, hmask = ws.srng, ws.prng, ws.hint_mask
    max_nodes = ws.visits.shape[0]
    determinized_root(g, root, params, player, ws)
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
        done = advance(g, st, params, np.int64(ws.action[node]), outcomes, weights)
    done = rollout(
        g, st, params, np.int32(rollout_policy), rollout_depth, done, mask, prng, outcomes, weights
    )
    leaf_value(g, st, params, ws.leaf)
    back_up(g, ws, length)
    return count


@jit_inline
def determinized_root(g, root, params, player, ws):
    """A simulation's start in ``ws.state``: ``root`` copied, its generator reseeded from
    the search's (never the real future), what ``player`` cannot see redrawn, chance
    settled."""
    st, srng = ws.state, ws.srng
    for i in range(st.shape[0]):  # not st[:] = root: an array copy needs numba's runtime
        st[i] = root[i]
    rng_seed(st, hd.H_RNG, new_seed(srng))
    g.determinize(st, params, player, srng)
    settle_chance(g, st, params, ws.outcomes, ws.weights)


@jit_inline
def back_up(g, ws, length):
    """The simulation's value ``ws.leaf`` added to the first ``length`` nodes of its path,
    each visited once more."""
    path, visits, value, leaf = ws.path, ws.visits, ws.value, ws.leaf
    for i in range(length):
        n = path[i]
        visits[n] += 1
        for p in range(g.MAX_PLAYERS):
            value[n, p] += leaf[p]


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
    mask, srng, prng = ws.mask, ws.srng, ws.prng
    clear_tree(ws)
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
    return most_visited(ws, player)


@jit
def most_visited(ws, player):
    """The action of the root's child visited most (ties: the higher mean value for
    ``player``); the root has children."""
    action, first, sibling, visits, value = ws.action, ws.first, ws.sibling, ws.visits, ws.value
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
    action, first, sibling, visits, value = ws.action, ws.first, ws.sibling, ws.visits, ws.value
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
    action, first, sibling, visits = ws.action, ws.first, ws.sibling, ws.visits
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
