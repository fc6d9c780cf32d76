"""The generic wrappers over Farrapos: PettingZoo and Gymnasium API checks (Gymnasium's
``check_env`` at the defaults is the conformance test's, ``tests/core/test_conformance.py``)."""

from __future__ import annotations

import warnings

import numpy as np
from pettingzoo.test import api_test, seed_test

import boardsim


def test_pettingzoo_api_and_seed() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(boardsim.make_env("farrapos"), num_cycles=300)
        api_test(boardsim.make_env("farrapos", explicit_chance=True), num_cycles=100)
        seed_test(lambda: boardsim.make_env("farrapos"), num_cycles=100)


def test_gymnasium_plays_a_whole_game_with_masks() -> None:
    env = boardsim.make_gym_env("farrapos")
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    done, total, steps = False, 0.0, 0
    while not done:
        assert np.array_equal(info["action_mask"], env.action_masks())
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        done = terminated or truncated
        steps += 1
    assert total in (-1.0, 0.0, 1.0) and steps > 50
