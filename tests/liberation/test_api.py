"""The race through every public surface: PettingZoo, Gymnasium, SB3, vector env, errors."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import boardsim
from boardsim.games.liberation import layout as L


def test_list_games_names_the_race() -> None:
    assert "liberation" in boardsim.list_games()


def test_pettingzoo_api_test() -> None:
    api_test(boardsim.make_env("liberation", num_players=3), num_cycles=400)


def test_pettingzoo_api_test_with_explicit_chance() -> None:
    env = boardsim.make_env("liberation", num_players=2, explicit_chance=True)
    assert "chance" in env.possible_agents
    api_test(env, num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: boardsim.make_env("liberation", num_players=4), num_cycles=200)


def test_pettingzoo_hides_other_hands_and_masks_idle_agents() -> None:
    env = boardsim.make_env("liberation", num_players=3)
    env.reset(seed=2)
    game = env.game
    a = env.state_.array
    # give player 1 a distinctive hand; player 0's observation must not change
    obs0 = env.observe("player_0")["observation"].copy()
    a[L.HAND + 1 * L.K : L.HAND + 2 * L.K] = np.roll(a[L.HAND + 1 * L.K : L.HAND + 2 * L.K], 3)
    assert np.array_equal(env.observe("player_0")["observation"], obs0)
    assert env.observe("player_1")["action_mask"].sum() == 0
    assert env.observe("player_0")["action_mask"].sum() >= 1
    assert game.observation_size == env.observe("player_2")["observation"].shape[0]


def test_observation_shows_own_hand_and_public_facts() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    st = game.new_initial_state(0)
    obs = st.observation(0)
    hand = st.array[L.HAND : L.HAND + L.K]
    assert np.array_equal(obs[L.OBS_HAND : L.OBS_HAND + L.K], hand)
    obs1 = st.observation(1)
    assert np.array_equal(
        obs1[L.OBS_HAND : L.OBS_HAND + L.K], st.array[L.HAND + L.K : L.HAND + 2 * L.K]
    )


def test_pettingzoo_illegal_action_raises_naming_the_legal_ones() -> None:
    env = boardsim.make_env("liberation", num_players=2)
    env.reset(seed=0)
    with pytest.raises(boardsim.IllegalActionError, match="legal actions: 0 \\(roll the die"):
        env.step(L.A_CONFIRM)


def test_render_ansi_and_action_names() -> None:
    env = boardsim.make_env("liberation", num_players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "Venezuela" in text and "P0: VT 0" in text
    st = env.state_
    assert st.action_to_string(L.A_ROLL) == "roll the die and move"


def test_gymnasium_check_env_and_masks() -> None:
    from gymnasium.utils.env_checker import check_env

    env = gym.make("boardsim/Liberation-v0", num_players=2, illegal_action="terminate")
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=3)
    assert obs.shape == (L.OBS_SIZE,) and info["action_mask"].dtype == np.int8
    assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))


def test_gymnasium_learner_plays_to_the_end_against_random() -> None:
    env = boardsim.make_gym_env("liberation", num_players=4, seat=2)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=11)
    total, done = 0.0, False
    while not done:
        assert env.state_.current_player() == 2
        _, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += r
        done = term or trunc
    assert total in (-1.0, 0.0, 1.0)


def test_gymnasium_illegal_action_raises() -> None:
    env = boardsim.make_gym_env("liberation", num_players=2)
    env.reset(seed=0)
    with pytest.raises(boardsim.IllegalActionError):
        env.step(L.A_CONFIRM)


def test_sb3_check_env() -> None:
    from stable_baselines3.common.env_checker import check_env

    check_env(boardsim.make_gym_env("liberation", num_players=2, illegal_action="terminate"))


def test_vector_env_steps_resets_and_masks() -> None:
    venv = boardsim.make_vec_env("liberation", 16, num_players=2, seed=5)
    obs, info = venv.reset(seed=5)
    assert obs.shape == (16, L.OBS_SIZE) and venv.action_masks().shape == (16, L.NUM_ACTIONS)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(3000):
        acts = np.argmax(venv.action_masks() * rng.random((16, L.NUM_ACTIONS)), axis=1)
        obs, rew, term, _, info = venv.step(acts)
        if term.any():
            finished += int(term.sum())
            assert info["_final_obs"][term].all()
            assert set(np.unique(rew[term])) <= {-1.0, 0.0, 1.0}
    assert finished > 0
    with pytest.raises(boardsim.IllegalActionError):
        venv.step(np.full(16, L.A_CONFIRM))


def test_sb3_vec_env_runs_maskable_ppo() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    venv = boardsim.make_vec_env("liberation", 4, num_players=2).to_sb3()
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=256)
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=venv.action_masks())
    assert all(venv.action_masks()[i, a] for i, a in enumerate(actions))


def test_gym_vector_entry_point() -> None:
    venv = gym.make_vec(
        "boardsim/Liberation-v0", num_envs=3, vectorization_mode="vector_entry_point", num_players=2
    )
    obs, _ = venv.reset(seed=0)
    assert obs.shape == (3, L.OBS_SIZE)
