"""Other libraries' registries find every game (issue 35) and what they make travels
(issue 38): ``pettingzoo.make("aec", "boardsim/<game>-v0")`` is ``boardsim.make_env``,
passing PettingZoo's ``api_test`` and ``seed_test``; ``gym.make`` and ``gym.make_vec`` of
every id pickle and continue where they were (the entry points are module-level
functions named by strings, no longer local functions)."""

from __future__ import annotations

import pickle
from typing import Any

import gymnasium as gym
import numpy as np
import pettingzoo as pz
import pytest
from pettingzoo.test import api_test, seed_test

import boardsim
from boardsim.games import gym_id
from boardsim.registration import pettingzoo_id

GAMES = boardsim.list_games()


def test_every_game_has_a_pettingzoo_id() -> None:
    for game in GAMES:
        assert pz.spec("aec", pettingzoo_id(game)).kwargs == {"game": game}
    # PettingZoo's own spelling of a version reaches the same id
    assert pz.spec("aec", "boardsim/farrapos_v0").id == "boardsim/farrapos-v0"


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_make_is_make_env(game: str) -> None:
    env = pz.make("aec", pettingzoo_id(game), explicit_chance=True, max_decisions=300)
    mine = boardsim.make_env(game, explicit_chance=True, max_decisions=300)
    assert type(env) is type(mine)
    assert env.game.options == mine.game.options
    assert env.possible_agents == mine.possible_agents
    env.reset(seed=5)
    mine.reset(seed=5)
    for _ in range(60):
        if not env.agents:
            break
        obs, reward, term, trunc, _ = env.last()
        theirs = mine.last()
        assert env.agent_selection == mine.agent_selection
        assert np.array_equal(obs["observation"], theirs[0]["observation"])
        assert (reward, term, trunc) == theirs[1:4]
        action = None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1])
        env.step(action)
        mine.step(action)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_and_seed_tests_pass_on_the_registered_env(game: str) -> None:
    env = pz.make("aec", pettingzoo_id(game), max_decisions=200)
    api_test(env, num_cycles=200)
    seed_test(lambda: pz.make("aec", pettingzoo_id(game), max_decisions=200), num_cycles=50)


def test_a_bad_option_through_the_registry_is_named() -> None:
    with pytest.raises(boardsim.OptionError, match="unknown option"):
        pz.make("aec", pettingzoo_id("farrapos"), no_such_option=1)


def _round_trip(obj: Any) -> Any:
    return pickle.loads(pickle.dumps(obj))


@pytest.mark.parametrize("game", GAMES)
def test_gym_make_of_every_id_pickles_and_continues(game: str) -> None:
    env = gym.make(gym_id(game))
    _, info = env.reset(seed=3)
    for k in range(10):
        legal = np.flatnonzero(info["action_mask"])
        _, _, term, trunc, info = env.step(int(legal[k % len(legal)]))
        if term or trunc:
            _, info = env.reset()
    twin = _round_trip(env)
    assert twin.spec == env.spec
    for k in range(30):
        legal = np.flatnonzero(info["action_mask"])
        action = int(legal[k % len(legal)])
        mine, theirs = env.step(action), twin.step(action)
        for x, y in zip(mine[:4], theirs[:4], strict=True):
            assert np.array_equal(x, y)
        assert np.array_equal(mine[4]["action_mask"], theirs[4]["action_mask"])
        info = mine[4]
        if mine[2] or mine[3]:
            break


@pytest.mark.parametrize("game", GAMES)
def test_gym_make_vec_of_every_id_pickles_and_continues(game: str) -> None:
    venv = gym.make_vec(gym_id(game), num_envs=3, threads=1, seed=2)
    rng = np.random.default_rng(0)

    def actions(masks: np.ndarray) -> np.ndarray:
        return np.argmax(masks * rng.random(masks.shape), axis=1)

    for _ in range(10):
        venv.step(actions(venv.action_masks()))
    twin = _round_trip(venv)
    for _ in range(40):
        acts = actions(venv.action_masks())
        assert np.array_equal(twin.action_masks(), venv.action_masks())
        for x, y in zip(venv.step(acts)[:4], twin.step(acts)[:4], strict=True):
            assert np.array_equal(x, y)


def test_make_vec_refuses_another_episode_limit() -> None:
    with pytest.raises(boardsim.OptionError, match="max_decisions"):
        gym.make_vec(gym_id("farrapos"), num_envs=2, max_episode_steps=10)
