# ruff: noqa: F821
"""The generic engine, compiled once per game inside that game's rules namespace.

This file is not imported as a module. :func:`boardsim.core.engine.bind_engine`
compiles its source into the namespace of a game's ``rules.py``, so that every
function below calls that game's kernels directly (numba inlines and caches
them; a closure or a function argument would defeat numba's on-disk cache).

A game's ``rules.py`` provides, before binding:

- constants ``STATE_SIZE``, ``NUM_ACTIONS``, ``OBS_SIZE``, ``MAX_CHANCE_OUTCOMES``,
  ``MAX_PLAYERS``;
- ``init(state, params, seed)``: lay out a new game on a zeroed state (the
  generator is already seeded); it may leave a chance node pending;
- ``legal_mask(state, params, mask) -> int``: fill ``mask`` (uint8), return the count;
- ``apply_action(state, params, action)``: one decision of the player to move;
- ``chance_weights(state, params, outcomes, weights) -> int``: at a chance node,
  the possible outcomes and their integer weights;
- ``apply_chance(state, params, outcome)``: make one outcome happen;
- ``observe(state, params, player, out)``: what ``player`` may see (float32);
- ``returns(state, params, out)``: the players' cumulative returns (float64).

and, in a ``policy.py`` beside ``rules.py`` (compiled into the same namespace after
this file, so it may call anything here):

- ``heuristic_action(state, params, mask, prng) -> int``: the game's rule-based
  player, a legal action for the player to move (``prng``: two words of generator
  for its tie-breaks; ``mask``: scratch of ``NUM_ACTIONS``).

Every function here reads only the header of ``core/header.py``.
"""

import numpy as np
from numba import prange

from boardsim.core.header import (
    CHANCE,
    FLAG_TERMINAL,
    FLAG_TRUNCATED,
    H_ACTOR,
    H_DECISIONS,
    H_FLAGS,
    H_RNG,
    P_EXPLICIT_CHANCE,
    P_MAX_DECISIONS,
    POLICY_HEURISTIC,
    TERMINAL,
)
from boardsim.core.jit import jit, jit_inline, jit_parallel
from boardsim.core.rng import derive_seed, rng_below, rng_seed, rng_weighted


@jit_inline
def resolve_chance(state, params, outcomes, weights):
    """Draw every pending chance node from the state's generator (unless explicit)."""
    if params[P_EXPLICIT_CHANCE] != 0:
        return
    while state[H_ACTOR] == CHANCE:
        n = chance_weights(state, params, outcomes, weights)
        i = rng_weighted(state, H_RNG, weights, n)
        apply_chance(state, params, outcomes[i])


@jit
def new_game(state, params, seed, outcomes, weights):
    """A fresh game in ``state``: zeroed, seeded, set up, chance resolved."""
    state[:] = 0
    rng_seed(state, H_RNG, seed)
    init(state, params, seed)
    resolve_chance(state, params, outcomes, weights)


@jit_inline
def _truncate_if_due(state, params):
    limit = params[P_MAX_DECISIONS]
    if limit > 0 and state[H_DECISIONS] >= limit and (state[H_FLAGS] & FLAG_TERMINAL) == 0:
        state[H_FLAGS] |= FLAG_TERMINAL | FLAG_TRUNCATED
        state[H_ACTOR] = TERMINAL


@jit_inline
def advance_decision(state, params, action, outcomes, weights):
    """Apply one decision (or chance outcome), resolve chance, truncate; return terminal.

    The same transition as ``step_into`` without the rewards (for rollouts).
    """
    if state[H_ACTOR] == CHANCE:
        apply_chance(state, params, action)
    else:
        apply_action(state, params, action)
        state[H_DECISIONS] += 1
    resolve_chance(state, params, outcomes, weights)
    _truncate_if_due(state, params)
    return (state[H_FLAGS] & FLAG_TERMINAL) != 0


@jit
def step_into(state, params, action, rewards, before, after, outcomes, weights):
    """Apply one decision, resolve chance, write each player's reward; return terminal.

    A chance outcome may be given as the action at an explicit chance node.
    ``before``/``after``/``outcomes``/``weights`` are caller-owned scratch.
    """
    returns(state, params, before)
    advance_decision(state, params, action, outcomes, weights)
    returns(state, params, after)
    for p in range(rewards.shape[0]):
        rewards[p] = after[p] - before[p]
    return (state[H_FLAGS] & FLAG_TERMINAL) != 0


@jit
def step(state, params, action, rewards):
    """Apply one decision (or chance outcome), resolve chance, write rewards; return terminal."""
    before = np.zeros(MAX_PLAYERS, np.float64)
    after = np.zeros(MAX_PLAYERS, np.float64)
    outcomes = np.zeros(MAX_CHANCE_OUTCOMES, np.int32)
    weights = np.zeros(MAX_CHANCE_OUTCOMES, np.int64)
    return step_into(state, params, action, rewards, before, after, outcomes, weights)


@jit
def step_and_mask(state, params, action, rewards, mask):
    """``step``, then the mask of whoever is to move next, in one call (the AEC env's step):
    their legal actions, or at an explicit chance node its possible outcomes, or nothing
    at the end. Returns the next actor (``CHANCE``, ``TERMINAL`` or a player)."""
    done = step(state, params, action, rewards)
    for a in range(mask.shape[0]):
        mask[a] = 0
    if done:
        return TERMINAL
    if state[H_ACTOR] == CHANCE:
        outcomes = np.zeros(MAX_CHANCE_OUTCOMES, np.int32)
        weights = np.zeros(MAX_CHANCE_OUTCOMES, np.int64)
        n = chance_weights(state, params, outcomes, weights)
        for i in range(n):
            mask[outcomes[i]] = 1
    else:
        legal_mask(state, params, mask)
    return state[H_ACTOR]


@jit
def chance_outcomes(state, params, outcomes, probs):
    """At a chance node: the outcomes and their probabilities; returns how many."""
    weights = np.zeros(MAX_CHANCE_OUTCOMES, np.int64)
    n = chance_weights(state, params, outcomes, weights)
    total = 0
    for i in range(n):
        total += weights[i]
    for i in range(n):
        probs[i] = weights[i] / total
    return n


@jit_inline
def random_legal(state, params, mask, policy_rng):
    """A uniformly random legal action, drawn from the two words of ``policy_rng``."""
    n = legal_mask(state, params, mask)
    k = rng_below(policy_rng, 0, n)
    for a in range(NUM_ACTIONS):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@jit
def policy_action(state, params, policy, mask, prng):
    """The action compiled policy ``policy`` (``POLICY_*`` of core/header.py) takes here."""
    if policy == POLICY_HEURISTIC:
        return heuristic_action(state, params, mask, prng)
    return random_legal(state, params, mask, prng)


@jit
def _play_opponents(
    state, params, learners, policies, rewards, tmp, before, after, outcomes, weights, mask, prng
):
    """The players outside ``learners`` play (each by its compiled policy, ``policies[p]``)
    until a learner decides or the game ends.

    ``learners[p]`` is 1 for the players of the learning side (a seat, or a team).
    """
    done = (state[H_FLAGS] & FLAG_TERMINAL) != 0
    while not done and learners[state[H_ACTOR]] == 0:
        a = policy_action(state, params, policies[state[H_ACTOR]], mask, prng)
        done = step_into(state, params, a, tmp, before, after, outcomes, weights)
        for p in range(rewards.shape[0]):
            rewards[p] += tmp[p]
    return done


@jit
def play_step(state, params, action, seat, learners, policies, prng, rewards, obs, mask):
    """One single-agent step in one call: the learner's ``action`` (none when < 0, as
    after a reset), the other players by their compiled policies (drawing from
    ``prng``) until a learner is to decide, then what the learner sees (``obs``) and may
    do (``mask``). Accumulates the players' rewards into ``rewards``; returns terminal.
    Chance must be implicit. Few arguments on purpose: the Gymnasium env calls it from
    Python once a step, and numba's dispatch costs about 0.1 us an argument.
    """
    tmp = np.zeros(MAX_PLAYERS, np.float32)
    before = np.zeros(MAX_PLAYERS, np.float64)
    after = np.zeros(MAX_PLAYERS, np.float64)
    outcomes = np.zeros(MAX_CHANCE_OUTCOMES, np.int32)
    weights = np.zeros(MAX_CHANCE_OUTCOMES, np.int64)
    opp_mask = np.zeros(NUM_ACTIONS, np.uint8)
    for p in range(rewards.shape[0]):
        rewards[p] = 0.0
    done = (state[H_FLAGS] & FLAG_TERMINAL) != 0
    if action >= 0 and not done:
        done = step_into(state, params, action, tmp, before, after, outcomes, weights)
        for p in range(rewards.shape[0]):
            rewards[p] += tmp[p]
    if not done:
        done = _play_opponents(
            state, params, learners, policies, rewards, tmp, before, after, outcomes, weights,
            opp_mask, prng,
        )  # fmt: skip
    observe(state, params, viewer(state, seat, learners), obs)
    if done:
        for a in range(mask.shape[0]):
            mask[a] = 0
    else:
        legal_mask(state, params, mask)
    return done


@jit
def viewer(state, seat, learners):
    """Whose eyes a row's observation uses: the learner to decide (``seat`` or a teammate),
    else ``seat``; with ``seat < 0``, the player to move."""
    actor = state[H_ACTOR]
    if seat < 0:
        return max(actor, 0)
    if actor >= 0 and learners[actor] != 0:
        return actor
    return seat


@jit
def new_scratch(n):
    """Per-row working arrays for the batched kernels, allocated once per batch."""
    return (
        np.zeros((n, MAX_PLAYERS), np.float64),  # returns before a step
        np.zeros((n, MAX_PLAYERS), np.float64),  # returns after a step
        np.zeros((n, MAX_PLAYERS), np.float32),  # one step's rewards
        np.zeros((n, MAX_CHANCE_OUTCOMES), np.int32),  # chance outcomes
        np.zeros((n, MAX_CHANCE_OUTCOMES), np.int64),  # chance weights
        np.zeros((n, NUM_ACTIONS), np.uint8),  # a mask for the random opponents
        np.zeros((n, MAX_PLAYERS), np.float32),  # rewards nobody collects (a game's restart)
    )


@jit
def _restart_row(
    states, params, i, master_seed, game_index, policy_rngs, seat, learners, policies, scratch
):
    """Row ``i`` starts game ``game_index[i]``; with ``seat >= 0`` the opponents move first."""
    before, after, tmp, outcomes, weights, mask, ignored = scratch
    seed = derive_seed(master_seed, game_index[i])
    new_game(states[i], params, seed, outcomes[i], weights[i])
    rng_seed(policy_rngs[i], 0, derive_seed(seed, 1))
    if seat >= 0:
        _play_opponents(
            states[i],
            params,
            learners,
            policies,
            ignored[i],
            tmp[i],
            before[i],
            after[i],
            outcomes[i],
            weights[i],
            mask[i],
            policy_rngs[i],
        )


@jit_parallel
def batch_reset(
    states, params, master_seed, game_index, policy_rngs, seat, learners, policies, scratch
):
    """Start game ``game_index[i]`` of the run ``master_seed`` in every row ``i``.

    With ``seat >= 0`` the opponents (``policies``) then play until a learner is to decide.
    """
    for i in prange(states.shape[0]):
        _restart_row(
            states,
            params,
            i,
            master_seed,
            game_index,
            policy_rngs,
            seat,
            learners,
            policies,
            scratch,
        )


@jit_parallel
def batch_step(
    states,
    params,
    actions,
    seat,
    learners,
    policies,
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

    ``seat < 0``: plain multi-agent stepping, one decision a row. A finished row is
    observed into ``final_obs``, restarted as game ``next_game + k`` (k counting the
    rows that finished before it, in row order, so threads do not matter), and its
    new observation and mask are written. Everything goes to preallocated arrays;
    ``scratch`` comes from ``new_scratch``. Returns the next game number.
    """
    n = states.shape[0]
    before, after, tmp, outcomes, weights, mask, _ = scratch
    for i in prange(n):
        state = states[i]
        rw = rewards[i]
        rw[:] = 0
        done = step_into(
            state, params, actions[i], tmp[i], before[i], after[i], outcomes[i], weights[i]
        )
        for p in range(rw.shape[0]):
            rw[p] += tmp[i][p]
        if seat >= 0 and not done:
            done = _play_opponents(
                state,
                params,
                learners,
                policies,
                rw,
                tmp[i],
                before[i],
                after[i],
                outcomes[i],
                weights[i],
                mask[i],
                policy_rngs[i],
            )
        terminated[i] = done and (state[H_FLAGS] & FLAG_TRUNCATED) == 0
        truncated[i] = (state[H_FLAGS] & FLAG_TRUNCATED) != 0
    # game numbers for the rows that finished, in row order (independent of threads)
    k = next_game
    for i in range(n):
        if terminated[i] or truncated[i]:
            game_index[i] = k
            k += 1
    for i in prange(n):
        state = states[i]
        if terminated[i] or truncated[i]:
            observe(state, params, viewer(state, seat, learners), final_obs[i])
            _restart_row(
                states,
                params,
                i,
                master_seed,
                game_index,
                policy_rngs,
                seat,
                learners,
                policies,
                scratch,
            )
        observe(state, params, viewer(state, seat, learners), obs[i])
        legal_mask(state, params, masks[i])
    return k


@jit_parallel
def batch_observe(states, params, seat, learners, obs, masks):
    """Observation (see ``viewer``) and mask per row."""
    for i in prange(states.shape[0]):
        observe(states[i], params, viewer(states[i], seat, learners), obs[i])
        legal_mask(states[i], params, masks[i])


@jit_parallel
def rollout_random(states, params, num_steps, master_seed, decisions, games):
    """Uniform-random self-play: ``num_steps`` decisions in every row, restarting finished games.

    Row ``i`` plays games seeded ``derive_seed(master_seed, i * 2**32 + g)``, so the
    result does not depend on how rows are split among threads.
    """
    for i in prange(states.shape[0]):
        state = states[i]
        outcomes = np.zeros(MAX_CHANCE_OUTCOMES, np.int32)
        weights = np.zeros(MAX_CHANCE_OUTCOMES, np.int64)
        mask = np.zeros(NUM_ACTIONS, np.uint8)
        prng = np.zeros(2, np.int32)
        g = 0
        base = np.int64(i) << np.int64(32)
        seed = derive_seed(master_seed, base)
        new_game(state, params, seed, outcomes, weights)
        rng_seed(prng, 0, derive_seed(seed, 1))
        d = 0
        for _ in range(num_steps):
            a = random_legal(state, params, mask, prng)
            done = advance_decision(state, params, a, outcomes, weights)
            d += 1
            if done:
                g += 1
                seed = derive_seed(master_seed, base + g)
                new_game(state, params, seed, outcomes, weights)
        decisions[i] = d
        games[i] = g


@jit_parallel
def play_games(params, policies, master_seed, first_game, out_returns, out_decisions, out_flags):
    """Play whole games, every player by its compiled policy; one game per output row.

    Row ``k`` is game ``first_game + k`` of the run ``master_seed`` (seeded
    ``derive_seed(master_seed, first_game + k)``, its policies' generator from
    that seed), so a game's result depends on neither the thread count nor the
    batch it is played in. Writes the final returns, the decisions taken and the
    final header flags (``FLAG_TRUNCATED`` when ``max_decisions`` cut it).
    """
    for k in prange(out_returns.shape[0]):
        state = np.zeros(STATE_SIZE, np.int32)
        outcomes = np.zeros(MAX_CHANCE_OUTCOMES, np.int32)
        weights = np.zeros(MAX_CHANCE_OUTCOMES, np.int64)
        mask = np.zeros(NUM_ACTIONS, np.uint8)
        prng = np.zeros(2, np.int32)
        ret = np.zeros(MAX_PLAYERS, np.float64)
        seed = derive_seed(master_seed, first_game + k)
        new_game(state, params, seed, outcomes, weights)
        rng_seed(prng, 0, derive_seed(seed, 1))
        done = (state[H_FLAGS] & FLAG_TERMINAL) != 0
        while not done:
            a = policy_action(state, params, policies[state[H_ACTOR]], mask, prng)
            done = advance_decision(state, params, a, outcomes, weights)
        returns(state, params, ret)
        for p in range(out_returns.shape[1]):
            out_returns[k, p] = ret[p]
        out_decisions[k] = state[H_DECISIONS]
        out_flags[k] = state[H_FLAGS]
