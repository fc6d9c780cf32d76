"""Conformance checks every game's tests call (and a new game's tests should).

They hold for any registered game because they use only the generic engine and
the ``Game``/``State`` API: a batch steps exactly like single states, and a
compiled rollout does not depend on the thread count.
"""

from __future__ import annotations

import numba
import numpy as np

from boardsim.core.batch import Batch, threads_used
from boardsim.core.game import Game
from boardsim.core.rng import py_derive_seed


def assert_batch_equals_single(
    game: Game, num_envs: int = 4, steps: int = 300, seed: int = 77
) -> None:
    """Rows of a multi-agent batch (``seat=-1``) equal single games, masks and restarts included.

    Row ``i`` plays game ``derive_seed(seed, k)`` for the game number ``k`` the
    batch gives it; random legal actions are drawn from the batch's masks.
    """
    batch = Batch(game, num_envs, seat=-1, seed=seed)
    singles = [game.new_initial_state(py_derive_seed(seed, i)) for i in range(num_envs)]
    rng = np.random.default_rng(seed)
    for step in range(steps):
        for i, single in enumerate(singles):
            assert np.array_equal(batch.states[i], single.array), (step, i)
            assert np.array_equal(batch.masks[i], single.legal_actions_mask()), (step, i)
        actions = np.argmax(batch.masks * rng.random(batch.masks.shape), axis=1)
        batch.step(actions)
        for i, single in enumerate(singles):
            single.apply_action(int(actions[i]))
            done = single.is_terminal()
            assert done == bool(batch.terminated[i] or batch.truncated[i]), (step, i)
            if done:
                singles[i] = game.new_initial_state(py_derive_seed(seed, int(batch.game_index[i])))


def assert_rollout_thread_invariant(
    game: Game, num_envs: int = 5, steps: int = 700, seed: int = 4
) -> None:
    """The compiled random rollout ends in the same states on 1 and on 2 threads."""
    finals = []
    for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
        states = np.zeros((num_envs, game.state_size), np.int32)
        decisions = np.zeros(num_envs, np.int64)
        games = np.zeros(num_envs, np.int64)
        with threads_used(threads):
            game.engine.rollout_random(states, game.params, steps, seed, decisions, games)
        finals.append((states, decisions, games))
    for a, b in zip(finals[0], finals[-1], strict=True):
        assert np.array_equal(a, b)
    assert int(finals[0][1].sum()) == num_envs * steps
