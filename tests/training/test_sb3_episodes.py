"""The SB3 VecEnv reports finished episodes as SB3's VecMonitor does, so SB3 logs
``rollout/ep_rew_mean``: each one's return and length, on its last step."""

from __future__ import annotations

import numpy as np

import boardsim
from boardsim.training.vec import SidesVecEnv


class EpisodeRecorder:
    """The returns and lengths of the episodes, from every step's rewards and dones."""

    def __init__(self, num_envs: int) -> None:
        self.running = np.zeros(num_envs)
        self.lengths = np.zeros(num_envs, np.int64)
        self.episodes: list[tuple[float, int]] = []

    def add(self, rewards: np.ndarray, dones: np.ndarray) -> None:
        self.running += rewards
        self.lengths += 1
        for i in np.flatnonzero(dones):
            self.episodes.append((round(float(self.running[i]), 6), int(self.lengths[i])))
            self.running[i], self.lengths[i] = 0.0, 0


def test_a_short_learn_fills_sb3_s_episode_buffer_with_the_games_returns_and_lengths() -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    venv = boardsim.make_vec_env("farrapos", num_envs=8, threads=1, victory_vp=14).to_sb3()
    recorder = EpisodeRecorder(venv.num_envs)

    class Record(BaseCallback):
        def _on_step(self) -> bool:
            recorder.add(self.locals["rewards"], self.locals["dones"])
            return True

    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=64,
        batch_size=128,
        n_epochs=1,
        seed=0,
        policy_kwargs={"net_arch": [16]},
        device="cpu",
    )
    model.learn(1024, callback=Record())
    assert len(model.ep_info_buffer) > 0
    buffered = [(e["r"], e["l"]) for e in model.ep_info_buffer]
    assert buffered == recorder.episodes[-len(buffered) :]
    assert all(n > 0 for _, n in buffered)


def test_the_every_side_env_reports_episodes_with_the_step_penalty_and_keeps_them_on_resume() -> (
    None
):
    game = boardsim.make_game("farrapos", victory_vp=14)
    env = SidesVecEnv(game, 4, [0, 1], threads=1, step_penalty=0.01)
    env.seed(3)
    env.reset()
    recorder = EpisodeRecorder(env.num_envs)
    reported: list[tuple[float, int]] = []
    rng = np.random.default_rng(0)
    for step in range(400):
        if step == 20:
            saved = env.state_arrays()
            saved_recorder = (recorder.running.copy(), recorder.lengths.copy())
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        env.step_async(actions)
        _, rewards, dones, infos = env.step_wait()
        recorder.add(rewards, dones)
        reported += [(i["episode"]["r"], i["episode"]["l"]) for i in infos if "episode" in i]
    assert reported and reported == recorder.episodes
    assert all(r < 1.0 for r, _ in reported)  # the penalty is in the reported returns
    # a restored env goes on with the episodes under way as they were
    again = SidesVecEnv(game, 4, [0, 1], threads=1, step_penalty=0.01)
    again.restore(saved)
    np.testing.assert_array_equal(again.episode_lengths, saved_recorder[1])
    np.testing.assert_allclose(again.episode_returns, saved_recorder[0])


def test_envs_whose_games_go_on_share_one_read_only_info_and_finished_envs_own_theirs() -> None:
    import pytest
    from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

    from boardsim.wrappers.sb3 import NO_INFO

    venv = boardsim.make_vec_env("liberation", num_envs=16, threads=1, seed=4).to_sb3()
    venv.reset()
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(300):
        masks = venv.action_masks()
        venv.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        _, _, dones, infos = venv.step_wait()
        for done, info in zip(dones, infos, strict=True):
            if done:  # its own dict, which SB3's wrappers write into
                assert info is not NO_INFO and "terminal_observation" in info
                info["terminal_observation"] = info["terminal_observation"] * 2
                finished += 1
            else:
                assert info is NO_INFO and info == {} and isinstance(info, dict)
    assert finished > 0
    with pytest.raises(TypeError, match="read-only"):
        NO_INFO["note"] = 1
    with pytest.raises(TypeError, match="read-only"):
        NO_INFO.update(note=1)
    assert NO_INFO == {} and dict(NO_INFO) == {}
    # SB3's own wrappers, which write into the infos of finished envs, run over it
    wrapped = VecNormalize(VecMonitor(boardsim.make_vec_env("liberation", 8, 1).to_sb3()))
    wrapped.reset()
    for _ in range(200):
        masks = wrapped.venv.venv.action_masks()
        wrapped.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        wrapped.step_wait()
