"""Every env's observation space has the true bounds of each feature (issue 38): Gymnasium's
``check_env`` and PettingZoo's ``api_test`` find nothing unbounded, and observations along
random play, in every sample option set, every player's and the vector env's, lie within
them."""

from __future__ import annotations

import re
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import boardsim
from boardsim.games import definition, gym_id
from boardsim.testing import BOUNDS_WARNINGS, check_observation_bounds
from boardsim.wrappers.spaces import observation_bounds

GAMES = ("farrapos", "hispania", "liberation")


def _bounds_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    texts = [str(w.message) for w in caught]
    return [t for t in texts if any(re.match(p, t, re.S) for p in BOUNDS_WARNINGS)]


@pytest.mark.parametrize("game", GAMES)
def test_the_checkers_find_no_unbounded_observation(game: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(boardsim.make_gym_env(game, illegal_action="terminate").unwrapped)
        gym.make(gym_id(game)).reset(seed=1)  # Gymnasium's passive checker
        api_test(boardsim.make_env(game, max_decisions=400), num_cycles=40)
    assert _bounds_warnings(caught) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_option_set_has_finite_bounds_each_low_below_its_high(game: str) -> None:
    """Finite, and no feature's low equal to its high (Gymnasium's checker warns of it)."""
    for options in ({}, *definition(game).sample_options):
        low, high = observation_bounds(boardsim.make_game(game, **options))
        assert np.all(np.isfinite(low)) and np.all(np.isfinite(high)), options
        assert np.all(low < high), (options, np.flatnonzero(low >= high))


@pytest.mark.parametrize("game", GAMES)
def test_every_env_declares_the_same_finite_bounds(game: str) -> None:
    made = boardsim.make_game(game)
    low, high = observation_bounds(made)
    assert np.all(np.isfinite(low)) and np.all(np.isfinite(high)) and np.all(low <= high)
    assert np.all(low <= 0) and np.all(high >= 0)  # an all-zero observation fits (chance)
    gym_space = boardsim.make_gym_env(game).observation_space
    aec = boardsim.make_env(game)
    aec_space = aec.observation_space(aec.possible_agents[0])
    vec_space = boardsim.make_vec_env(game, 2, threads=1).single_observation_space
    for space in (gym_space, aec_space["observation"], vec_space):
        assert np.array_equal(space.low, low) and np.array_equal(space.high, high)


@pytest.mark.parametrize("game", GAMES)
def test_observations_of_random_play_lie_within_the_bounds(game: str) -> None:
    """Every player's observation at every position of random games, in each sample option
    set (more players, variants, scenarios, explicit chance)."""
    rng = np.random.default_rng(38)
    for options in ({}, *definition(game).sample_options):
        made = boardsim.make_game(game, **{**options, "max_decisions": 1500})
        bounds = observation_bounds(made)
        for seed in range(2):
            state = made.new_initial_state(seed)
            check_observation_bounds(made, state, bounds)
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(outcomes, p=np.asarray(probs))))
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
                check_observation_bounds(made, state, bounds)


@pytest.mark.parametrize("game", GAMES)
def test_the_vector_env_observations_lie_within_its_space(game: str) -> None:
    env = boardsim.make_vec_env(game, 16, threads=1, seed=5)
    space = env.single_observation_space
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        assert all(space.contains(row) for row in obs)
        masks = info["action_mask"]
        obs, _, _, _, info = env.step(np.argmax(masks * rng.random(masks.shape), axis=1))
        if "final_obs" in info:
            assert all(space.contains(row) for row in info["final_obs"][info["_final_obs"]])
