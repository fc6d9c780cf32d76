"""The generic engine: one decision, chance, truncation, batches, rollouts.

Every function here is compiled once per game: its first argument ``g`` is the
game's :class:`~boardsim.core.kernels.GameKernels`, and numba resolves ``g.legal_mask``,
``g.apply_action``, ``g.NUM_ACTIONS`` ... at compile time to that game's own kernels
and sizes (static calls, cached on disk per game). From Python, call these through
``game.engine`` (:class:`~boardsim.core.bound.BoundEngine`), which passes ``g``.

What a game's kernels must do is listed in :data:`boardsim.core.kernels.KERNELS`.
Every function here reads only the header of ``core/header.py``.
"""

from typing import NamedTuple

import numpy as np
from numba import prange

from boardsim.core import header as hd
from boardsim.core.checks import refuse
from boardsim.core.header import S_TEMPERATURE
from boardsim.core.jit import jit, jit_inline, jit_parallel, jit_parallel_borrowing
from boardsim.core.nn import (
    H_FLAGS,
    H_SLOTS,
    H_WIDTH,
    NET_HINT,
    NET_PRUNE,
    USE_POLICY,
    forward_legal,
    pick,
    policy_logits,
)
from boardsim.core.rng import derive_seed, rng_below, rng_seed, rng_weighted


@jit_inline
def resolve_chance(g, state, params, outcomes, weights):
    """Draw every pending chance node from the state's generator (unless explicit)."""
    if params[hd.P_EXPLICIT_CHANCE] != 0:
        return
    while state[hd.H_ACTOR] == hd.CHANCE:
        n = g.chance_weights(state, params, outcomes, weights)
        i = rng_weighted(state, hd.H_RNG, weights, n)
        g.apply_chance(state, params, np.int64(outcomes[i]))  # as advance_decision passes it


@jit
def new_game(g, state, params, seed, outcomes, weights):
    """A fresh game in ``state``: zeroed, seeded, set up, chance resolved."""
    state[:] = 0
    state[hd.H_GAME] = params[hd.P_GAME_TAG]
    rng_seed(state, hd.H_RNG, seed)
    g.init(state, params, seed)
    resolve_chance(g, state, params, outcomes, weights)


@jit_inline
def truncate_if_due(state, params):
    """End the game as truncated once ``max_decisions`` decisions have been taken."""
    limit = params[hd.P_MAX_DECISIONS]
    if limit > 0 and state[hd.H_DECISIONS] >= limit and (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) == 0:
        state[hd.H_FLAGS] |= hd.FLAG_TERMINAL | hd.FLAG_TRUNCATED
        state[hd.H_ACTOR] = hd.TERMINAL


@jit_inline
def advance_decision(g, state, params, action, outcomes, weights):
    """Apply one decision (or chance outcome), resolve chance, truncate; return terminal.

    The same transition as ``step_into`` without the rewards (for rollouts).
    """
    if state[hd.H_ACTOR] == hd.CHANCE:
        g.apply_chance(state, params, action)
    else:
        g.apply_action(state, params, action)
        state[hd.H_DECISIONS] += 1
    resolve_chance(g, state, params, outcomes, weights)
    truncate_if_due(state, params)
    return (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0


@jit_inline
def advance_rewarded(g, state, params, action, rewards, before, after, outcomes, weights):
    """:func:`step_into`'s body, inlined where a call a decision would show (the batched
    step's rows)."""
    g.returns(state, params, before)
    advance_decision(g, state, params, action, outcomes, weights)
    g.returns(state, params, after)
    for p in range(rewards.shape[0]):
        rewards[p] = after[p] - before[p]
    return (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0


@jit
def step_into(g, state, params, action, rewards, before, after, outcomes, weights):
    """Apply one decision, resolve chance, write each player's reward; return terminal.

    A chance outcome may be given as the action at an explicit chance node.
    ``before``/``after``/``outcomes``/``weights`` are caller-owned scratch.
    """
    return advance_rewarded(g, state, params, action, rewards, before, after, outcomes, weights)


@jit
def step(g, state, params, action, rewards):
    """Apply one decision (or chance outcome), resolve chance, write rewards; return terminal."""
    before = np.zeros(g.MAX_PLAYERS, np.float64)
    after = np.zeros(g.MAX_PLAYERS, np.float64)
    outcomes = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int32)
    weights = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64)
    return step_into(g, state, params, action, rewards, before, after, outcomes, weights)


@jit
def step_and_mask(g, state, params, action, rewards, mask):
    """``step``, then the mask of whoever is to move next, in one call (the AEC env's step):
    their legal actions, or at an explicit chance node its possible outcomes, or nothing
    at the end. Returns the next actor (``CHANCE``, ``TERMINAL`` or a player)."""
    done = step(g, state, params, action, rewards)
    for a in range(mask.shape[0]):
        mask[a] = 0
    if done:
        return hd.TERMINAL
    if state[hd.H_ACTOR] == hd.CHANCE:
        outcomes = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int32)
        weights = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64)
        n = g.chance_weights(state, params, outcomes, weights)
        for i in range(n):
            mask[outcomes[i]] = 1
    else:
        g.legal_mask(state, params, mask)
    return state[hd.H_ACTOR]


@jit
def chance_outcomes(g, state, params, outcomes, probs):
    """At a chance node: the outcomes and their probabilities; returns how many."""
    weights = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64)
    n = g.chance_weights(state, params, outcomes, weights)
    total = 0
    for i in range(n):
        total += weights[i]
    for i in range(n):
        probs[i] = weights[i] / total
    return n


@jit_inline
def pick_legal(mask, n, prng):
    """The ``k``-th legal action of ``mask`` (``n`` of them), ``k`` drawn uniformly from
    the two words of ``prng``; -1 when there is none."""
    k = rng_below(prng, 0, n)
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@jit_inline
def random_legal(g, state, params, mask, policy_rng):
    """A uniformly random legal action, drawn from the two words of ``policy_rng``."""
    return pick_legal(mask, g.legal_mask(state, params, mask), policy_rng)


@jit_inline
def policy_action(g, state, params, policy, mask, prng):
    """The action compiled policy ``policy`` (``POLICY_RANDOM`` or ``POLICY_HEURISTIC``)
    takes here. Inlined: it is a rollout's every decision (``core/search/tree.py``)."""
    if policy == hd.POLICY_HEURISTIC:
        return g.heuristic_action(state, params, mask, prng)
    return random_legal(g, state, params, mask, prng)


@jit_inline
def restrict_legal(mask, forbidden, player, n):
    """Restricted play (Jaffe's rule, :mod:`boardsim.agents.restricted`): the legal actions
    of ``mask`` (``n`` of them) less those ``forbidden[player]`` forbids, when that leaves
    one; else ``mask`` unchanged. Returns how many are left. A seat table without
    restrictions has ``forbidden`` of width 0, and nothing is read."""
    if forbidden.shape[1] == 0:
        return n
    legal = 0
    kept = 0
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            legal += 1
            if forbidden[player, a] == 0:
                kept += 1
    if kept == 0 or kept == legal:
        return legal
    for a in range(mask.shape[0]):
        if forbidden[player, a] != 0:
            mask[a] = 0
    return kept


@jit_inline
def seat_policy_action(g, state, params, seats, player, code, mask, prng):
    """:func:`policy_action` for ``player``'s seat of ``seats``: a random seat draws among
    the actions its restriction leaves (:func:`restrict_legal`), from the same words of
    ``prng`` as an unrestricted one."""
    if code == hd.POLICY_HEURISTIC:
        return g.heuristic_action(state, params, mask, prng)
    n = restrict_legal(mask, seats.forbidden, player, g.legal_mask(state, params, mask))
    return pick_legal(mask, n, prng)


HINT_SEED = 0x5EED  # the heuristic's generator when it is a network's input (a fixed one)


@jit
def network_input_size(g):
    """The longest input a network of the game reads: the observation and the hint."""
    return g.OBS_SIZE + g.NUM_ACTIONS


@jit
def network_input(g, state, params, player, layout, base, x, mask):
    """What the network at ``layout[base]`` reads for ``player`` (the player to move) at
    ``state``, into ``x``: the observation, and with ``NET_HINT`` a one-hot of the
    heuristic's move after it (``mask``: scratch). The heuristic draws from a fixed
    generator, so the input is a function of the position alone."""
    g.observe(state, params, player, x)
    if layout[base, H_FLAGS] & NET_HINT:
        heuristic_hint(g, state, params, x, mask)


@jit
def heuristic_hint(g, state, params, x, mask):
    """The hint after the observation in ``x``: a one-hot of the heuristic's move for the
    player to move (``mask``: scratch), from the fixed generator ``HINT_SEED``."""
    for a in range(g.NUM_ACTIONS):
        x[g.OBS_SIZE + a] = 0.0
    prng = np.zeros(2, np.int32)
    rng_seed(prng, 0, HINT_SEED)
    a = g.heuristic_action(state, params, mask, prng)
    if 0 <= a < g.NUM_ACTIONS:
        x[g.OBS_SIZE + a] = 1.0


class NetScratch(NamedTuple):
    """A network seat's working arrays (:func:`net_scratch`), by name: numba reads a named
    tuple's fields as it reads a tuple's items, at no cost."""

    input: np.ndarray  # what the network reads (network_input)
    layers: np.ndarray  # [slots, width] its layers' values
    probs: np.ndarray  # [actions] its policy's probabilities


@jit
def net_scratch(g, slots, width):
    """A network seat's working arrays: input, the layers' slots, probabilities."""
    return NetScratch(
        np.zeros(network_input_size(g), np.float32),
        np.zeros((slots, width), np.float32),
        np.zeros(g.NUM_ACTIONS, np.float64),
    )


@jit
def network_action(g, state, params, seats, player, mask, prng, nn):
    """The action of ``player``'s network (seat table ``seats``): its most likely legal
    action, or one drawn from its policy at the seat's temperature (from ``prng``).

    The mask is the legal one, less what the game's ``search_prune`` clears when the
    network was trained on the search's mask (``NET_PRUNE``), less what the seat's
    restriction forbids (:func:`restrict_legal`).
    """
    weights, layout = seats.weights, seats.layout
    base = seats.nets[player]
    obs, act, probs = nn
    network_input(g, state, params, player, layout, base, obs, mask)
    g.legal_mask(state, params, mask)
    if layout[base, H_FLAGS] & NET_PRUNE:
        g.search_prune(state, params, mask)
    restrict_legal(mask, seats.forbidden, player, 0)
    forward_legal(weights, layout, base, obs, act, USE_POLICY, mask)
    logits = policy_logits(act, layout, base)
    return pick(logits, mask, seats.settings[player, S_TEMPERATURE], probs, prng)


@jit
def seat_action(g, state, params, seats, mask, prng, nn):
    """The action of the player to move by his seat of ``seats`` (random, heuristic or
    network; a searching seat is :func:`boardsim.core.search.games.seat_move`'s). ``nn``
    None: no seat is a network, and no network code is compiled (a None argument removes
    its branch at compile time)."""
    player = state[hd.H_ACTOR]
    code = seats.codes[player]
    if nn is None:
        return seat_policy_action(g, state, params, seats, player, code, mask, prng)
    if code == hd.POLICY_NETWORK:
        return network_action(g, state, params, seats, player, mask, prng, nn)
    return seat_policy_action(g, state, params, seats, player, code, mask, prng)


@jit_inline
def play_opponents(
    g, state, params, learners, seats, rewards, tmp, before, after, outcomes, weights, mask,
    prng, nn,
):  # fmt: skip
    """The players outside ``learners`` play (each by his seat of the table ``seats``,
    ``core/seats.py``) until a learner decides or the game ends; their rewards are added
    to ``rewards``.

    ``learners[p]`` is 1 for the players of the learning side (a seat, or a team).
    Inlined: it is every batched step's inner loop (:func:`step_row`, inlined in turn into
    :func:`batch_step`'s loop, which counts no references); a compiled policy's move is
    inlined, a network's is a call.
    """
    done = (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
    while not done and learners[state[hd.H_ACTOR]] == 0:
        player = state[hd.H_ACTOR]
        code = seats.codes[player]
        if code == hd.POLICY_NETWORK:
            a = network_action(g, state, params, seats, player, mask, prng, nn)
        else:
            a = seat_policy_action(g, state, params, seats, player, code, mask, prng)
        done = advance_rewarded(g, state, params, a, tmp, before, after, outcomes, weights)
        for p in range(rewards.shape[0]):
            rewards[p] += tmp[p]
    return done


@jit
def play_step(g, state, params, action, seat, learners, seats, prng, rewards, obs, mask, nn):
    """One single-agent step in one call: the learner's ``action`` (none when < 0, as
    after a reset), the other players by their seats of ``seats`` (drawing from
    ``prng``; ``nn``: :func:`net_scratch`) until a learner is to decide, then what the
    learner sees (``obs``) and may do (``mask``). Accumulates the players' rewards into
    ``rewards``; returns terminal. Chance must be implicit. Few arguments on purpose: the
    Gymnasium env calls it from Python once a step, and numba's dispatch costs about
    0.1 us an argument.
    """
    tmp = np.zeros(g.MAX_PLAYERS, np.float32)
    before = np.zeros(g.MAX_PLAYERS, np.float64)
    after = np.zeros(g.MAX_PLAYERS, np.float64)
    outcomes = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int32)
    weights = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64)
    opp_mask = np.zeros(g.NUM_ACTIONS, np.uint8)
    for p in range(rewards.shape[0]):
        rewards[p] = 0.0
    done = (state[hd.H_FLAGS] & hd.FLAG_TERMINAL) != 0
    if action >= 0 and not done:
        done = step_into(g, state, params, action, tmp, before, after, outcomes, weights)
        for p in range(rewards.shape[0]):
            rewards[p] += tmp[p]
    if not done:
        done = play_opponents(
            g, state, params, learners, seats, rewards, tmp, before, after, outcomes, weights,
            opp_mask, prng, nn,
        )  # fmt: skip
    g.observe(state, params, viewer(state, seat, learners), obs)
    if done:
        for a in range(mask.shape[0]):
            mask[a] = 0
    else:
        g.legal_mask(state, params, mask)
    return done


@jit
def viewer(state, seat, learners):
    """Whose eyes a row's observation uses: the learner to decide (``seat`` or a teammate),
    else ``seat``; with ``seat < 0``, the player to move."""
    actor = state[hd.H_ACTOR]
    if seat < 0:
        return max(actor, 0)
    if actor >= 0 and learners[actor] != 0:
        return actor
    return seat


@jit
def seats_scratch_size(seats):
    """``(slots, width)`` of the largest network of the seat table (1, 1 without)."""
    nets, layout = seats.nets, seats.layout
    slots = 1
    width = 1
    for p in range(nets.shape[0]):
        if nets[p] >= 0:
            slots = max(slots, layout[nets[p], H_SLOTS])
            width = max(width, layout[nets[p], H_WIDTH])
    return slots, width


class BatchScratch(NamedTuple):
    """The batched kernels' per-row working arrays (:func:`new_scratch`), by name."""

    before: np.ndarray  # [rows, players] returns before a step
    after: np.ndarray  # [rows, players] returns after a step
    tmp: np.ndarray  # [rows, players] one step's rewards
    outcomes: np.ndarray  # [rows, outcomes] chance outcomes
    weights: np.ndarray  # [rows, outcomes] chance weights
    mask: np.ndarray  # [rows, actions] a mask for the opponents
    ignored: np.ndarray  # [rows, players] rewards nobody collects (a game's restart)
    net_input: np.ndarray  # [rows, input] a network's input
    net_layers: np.ndarray  # [rows, slots, width] a network's layers
    net_probs: np.ndarray  # [rows, actions] its probabilities


@jit
def new_scratch(g, n, slots, width):
    """Per-row working arrays for the batched kernels, allocated once per batch; the
    opponents' networks need ``slots`` x ``width`` each (``core/seats.py``,
    ``scratch_size``; 1 x 1 without)."""
    return BatchScratch(
        np.zeros((n, g.MAX_PLAYERS), np.float64),
        np.zeros((n, g.MAX_PLAYERS), np.float64),
        np.zeros((n, g.MAX_PLAYERS), np.float32),
        np.zeros((n, g.MAX_CHANCE_OUTCOMES), np.int32),
        np.zeros((n, g.MAX_CHANCE_OUTCOMES), np.int64),
        np.zeros((n, g.NUM_ACTIONS), np.uint8),
        np.zeros((n, g.MAX_PLAYERS), np.float32),
        np.zeros((n, network_input_size(g) if slots > 1 else 1), np.float32),
        np.zeros((n, slots, width), np.float32),
        np.zeros((n, g.NUM_ACTIONS if slots > 1 else 1), np.float64),
    )


@jit_inline
def row_nn(scratch, i):
    """Row ``i``'s network arrays of a batch's scratch (as :func:`net_scratch` gives)."""
    return NetScratch(scratch.net_input[i], scratch.net_layers[i], scratch.net_probs[i])


@jit_inline
def restart_row(
    g, states, params, i, master_seed, game_index, policy_rngs, seat, learners, seats, scratch
):
    """Row ``i`` starts game ``game_index[i]``; with ``seat >= 0`` the opponents move first."""
    seed = derive_seed(master_seed, game_index[i])
    new_game(g, states[i], params, seed, scratch.outcomes[i], scratch.weights[i])
    rng_seed(policy_rngs[i], 0, derive_seed(seed, 1))
    if seat >= 0:
        play_opponents(
            g,
            states[i],
            params,
            learners,
            seats,
            scratch.ignored[i],
            scratch.tmp[i],
            scratch.before[i],
            scratch.after[i],
            scratch.outcomes[i],
            scratch.weights[i],
            scratch.mask[i],
            policy_rngs[i],
            row_nn(scratch, i),
        )


@jit_parallel
def batch_reset(
    g, states, params, master_seed, game_index, policy_rngs, seat, learners, seats, scratch
):
    """Start game ``game_index[i]`` of the run ``master_seed`` in every row ``i``.

    With ``seat >= 0`` the opponents (``seats``) then play until a learner is to decide.
    """
    for i in prange(states.shape[0]):
        restart_row(
            g,
            states,
            params,
            i,
            master_seed,
            game_index,
            policy_rngs,
            seat,
            learners,
            seats,
            scratch,
        )


@jit_inline
def step_row(g, states, params, actions, i, seat, learners, seats, policy_rngs, rewards, scratch):
    """Row ``i`` of :func:`batch_step`: the learner's action, then (``seat >= 0``) the
    other players by their seats until a learner is to decide; its rewards into
    ``rewards[i]``; returns terminal.

    Inlined into :func:`batch_step`'s loop, which runs without reference counts
    (``jit_parallel_borrowing``), and so is :func:`play_opponents`: a call a row, with the
    batch's arrays passed field by field, cost more than a small game's two decisions."""
    state = states[i]
    rw = rewards[i]
    before, after, tmp = scratch.before[i], scratch.after[i], scratch.tmp[i]
    outcomes, weights, mask = scratch.outcomes[i], scratch.weights[i], scratch.mask[i]
    done = advance_rewarded(g, state, params, actions[i], tmp, before, after, outcomes, weights)
    for p in range(rw.shape[0]):
        rw[p] = tmp[p]
    if seat >= 0 and not done:
        done = play_opponents(
            g, state, params, learners, seats, rw, tmp, before, after, outcomes, weights,
            mask, policy_rngs[i], row_nn(scratch, i),
        )  # fmt: skip
    return done


@jit_inline
def observe_row(g, states, params, i, seat, learners, obs, masks):
    """Row ``i``'s observation (``viewer``'s eyes) and mask (inlined, as ``step_row``)."""
    state = states[i]
    g.observe(state, params, viewer(state, seat, learners), obs[i])
    g.legal_mask(state, params, masks[i])


@jit_parallel_borrowing
def batch_step(
    g,
    states,
    params,
    actions,
    seat,
    learners,
    seats,
    master_seed,
    game_index,
    next_game,
    policy_rngs,
    rewards,
    terminated,
    truncated,
    final_obs,
    obs,
    masks,
    scratch,
):
    """Step every row: the learner's action, then (``seat >= 0``) the opponents' policies.

    ``seat < 0``: plain multi-agent stepping, one decision a row. The rows of ``final_obs``
    that ``terminated``/``truncated`` mark from their last use are zeroed first (so
    ``final_obs`` holds the rows that finish now and zeros). A finished row is
    observed into ``final_obs``, restarted as game ``next_game + k`` (k counting the
    rows that finished before it, in row order, so threads do not matter), and its
    new observation and mask are written. Everything goes to preallocated arrays;
    ``scratch`` comes from ``new_scratch``. Returns the next game number.

    A row whose game goes on is observed in the same pass that stepped it (its state is
    still in the cache); only the finished rows wait for their game numbers and take a
    second pass. Compiled without reference counts and allocating nothing
    (``jit_parallel_borrowing``): the row's work is inlined into the loop, and only a
    new game (``new_game``) or a network's move is a call.
    """
    n = states.shape[0]
    for i in prange(n):
        if terminated[i] or truncated[i]:  # this buffer's last final observation
            final_obs[i, :] = 0
        done = step_row(
            g, states, params, actions, i, seat, learners, seats, policy_rngs, rewards, scratch
        )
        flags = states[i, hd.H_FLAGS]
        terminated[i] = done and (flags & hd.FLAG_TRUNCATED) == 0
        truncated[i] = (flags & hd.FLAG_TRUNCATED) != 0
        if not done:
            observe_row(g, states, params, i, seat, learners, obs, masks)
    # game numbers for the rows that finished, in row order (independent of threads)
    k = next_game
    for i in range(n):
        if terminated[i] or truncated[i]:
            game_index[i] = k
            k += 1
    for i in prange(n):
        if terminated[i] or truncated[i]:
            state = states[i]
            g.observe(state, params, viewer(state, seat, learners), final_obs[i])
            restart_row(
                g, states, params, i, master_seed, game_index, policy_rngs, seat, learners,
                seats, scratch,
            )  # fmt: skip
            observe_row(g, states, params, i, seat, learners, obs, masks)
    return k


@jit_parallel
def batch_observe(g, states, params, seat, learners, obs, masks):
    """Observation (see ``viewer``) and mask per row."""
    for i in prange(states.shape[0]):
        g.observe(states[i], params, viewer(states[i], seat, learners), obs[i])
        g.legal_mask(states[i], params, masks[i])


@jit_parallel
def rollout_random(g, states, params, num_steps, master_seed, decisions, games):
    """Uniform-random self-play: ``num_steps`` decisions in every row, restarting finished games.

    Row ``i`` plays its ``k``-th game seeded ``derive_seed(master_seed, i * 2**32 + k)``, so the
    result does not depend on how rows are split among threads.
    """
    for i in prange(states.shape[0]):
        state = states[i]
        outcomes = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int32)
        weights = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64)
        mask = np.zeros(g.NUM_ACTIONS, np.uint8)
        prng = np.zeros(2, np.int32)
        k = 0
        base = np.int64(i) << np.int64(32)
        seed = derive_seed(master_seed, base)
        new_game(g, state, params, seed, outcomes, weights)
        rng_seed(prng, 0, derive_seed(seed, 1))
        d = 0
        for _ in range(num_steps):
            a = random_legal(g, state, params, mask, prng)
            done = advance_decision(g, state, params, a, outcomes, weights)
            d += 1
            if done:
                k += 1
                seed = derive_seed(master_seed, base + k)
                new_game(g, state, params, seed, outcomes, weights)
        decisions[i] = d
        games[i] = k


# ---------------------------------------------------------------- untrusted states
@jit
def validate_header(state, params, where):
    """The engine's words of ``state`` (core/header.py): 0, or the ``V_*`` code that fails."""
    if state[hd.H_RNG] == 0 and state[hd.H_RNG + 1] == 0:
        return refuse(where, hd.V_RNG_STUCK, hd.H_RNG, 0)
    flags = state[hd.H_FLAGS]
    if flags & ~(hd.FLAG_TERMINAL | hd.FLAG_TRUNCATED) != 0:
        return refuse(where, hd.V_FLAGS, hd.H_FLAGS, flags)
    terminal = (flags & hd.FLAG_TERMINAL) != 0
    if (flags & hd.FLAG_TRUNCATED) != 0 and not terminal:
        return refuse(where, hd.V_TRUNCATED_LIVE, hd.H_FLAGS, flags)
    actor = state[hd.H_ACTOR]
    if terminal != (actor == hd.TERMINAL):
        return refuse(where, hd.V_TERMINAL_ACTOR, hd.H_ACTOR, actor)
    if not terminal and actor != hd.CHANCE and not 0 <= actor < params[hd.P_NUM_PLAYERS]:
        return refuse(where, hd.V_ACTOR, hd.H_ACTOR, actor)
    if actor == hd.CHANCE and params[hd.P_EXPLICIT_CHANCE] == 0:
        return refuse(where, hd.V_IMPLICIT_CHANCE, hd.H_ACTOR, actor)
    if not 0 <= state[hd.H_DECISIONS] <= hd.MAX_DECISIONS:
        return refuse(where, hd.V_DECISIONS, hd.H_DECISIONS, state[hd.H_DECISIONS])
    if state[hd.H_RESERVED] != 0:
        return refuse(where, hd.V_RESERVED, hd.H_RESERVED, state[hd.H_RESERVED])
    return 0


@jit
def validate_liveness(g, state, params, where):
    """A live decision has a legal action; a chance node has 1..MAX_CHANCE_OUTCOMES
    outcomes, each an action number with a positive weight."""
    actor = state[hd.H_ACTOR]
    if actor == hd.TERMINAL:
        return 0
    if actor != hd.CHANCE:
        mask = np.zeros(g.NUM_ACTIONS, np.uint8)
        n = g.legal_mask(state, params, mask)
        if n < 1:
            return refuse(where, hd.V_NO_LEGAL_ACTION, hd.H_ACTOR, actor)
        return 0
    outcomes = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int32)
    weights = np.zeros(g.MAX_CHANCE_OUTCOMES, np.int64)
    n = g.chance_weights(state, params, outcomes, weights)
    if not 1 <= n <= g.MAX_CHANCE_OUTCOMES:
        return refuse(where, hd.V_NO_OUTCOME, hd.H_CHANCE_KIND, n)
    total = 0
    for i in range(n):
        if not 0 <= outcomes[i] < g.NUM_ACTIONS:
            return refuse(where, hd.V_OUTCOME_RANGE, i, outcomes[i])
        if weights[i] < 1:
            return refuse(where, hd.V_OUTCOME_WEIGHT, outcomes[i], weights[i])
        total += weights[i]
    if total > (1 << 31):
        return refuse(where, hd.V_OUTCOME_WEIGHT, -1, total)
    return 0


@jit
def validate_state(g, state, params, where):
    """0 if ``state`` is a position the kernels handle safely, else the code of the first
    check that fails, with the index and the value at fault in ``where[0]``, ``where[1]``.

    The header first (codes < 0, ``V_*`` of core/header.py), then every field of the game
    (its ``validate``, codes > 0), then, once every index the kernels use is known to be
    in range, liveness: a live decision has a legal action, a chance node outcomes.
    The game tag (``H_GAME``) is checked by the caller (core/validation.py).
    """
    code = validate_header(state, params, where)
    if code == 0:
        code = g.validate(state, params, where)
    if code == 0:
        code = validate_liveness(g, state, params, where)
    return code
