"""Imitation before PPO: the heuristic's decisions, their returns, and a policy fit to them."""

from __future__ import annotations

import json

import numpy as np
import pytest

import boardsim
from boardsim.training.imitation import collect_heuristic_decisions, heuristic_actions, imitate
from boardsim.training.ppo import TrainConfig, Trainer, train
from boardsim.training.vec import SidesVecEnv, learning_seats
from tests.training.helpers import TINY


def _env(seed: int = 0, penalty: float = 0.0) -> SidesVecEnv:
    game = boardsim.make_game("farrapos")
    return SidesVecEnv(game, 4, learning_seats(game), seed=seed, threads=1, step_penalty=penalty)


def test_the_heuristic_s_actions_are_the_compiled_policy_s() -> None:
    env = _env()
    env.reset()
    prngs = np.full((4, 2), 7, np.int32)
    actions = heuristic_actions(env, prngs.copy())
    game = env.game
    mask = np.zeros(game.num_actions, np.uint8)
    for row, state in enumerate([s for p in env.parts for s in p.batch.states]):
        prng = np.full(2, 7, np.int32)
        assert actions[row] == game.kernels.heuristic_action(state, game.params, mask, prng)
    assert env.action_masks()[np.arange(4), actions].all()


def test_demonstrations_are_whole_games_with_their_discounted_returns() -> None:
    demos = collect_heuristic_decisions(_env(penalty=0.01), 300, gamma=0.9, seed=1)
    n = len(demos.actions)
    assert n >= 300 and demos.games >= 4  # every game recorded to its end
    game = boardsim.make_game("farrapos")
    assert demos.obs.shape == (n, game.observation_size) and demos.obs.dtype == np.float32
    assert demos.masks[np.arange(n), demos.actions].all()
    # the heuristic beats random in Farrapos from either side: most games won
    assert demos.wins / demos.games > 0.7
    # a won game's first return: +1 (and penalties) discounted; every return is bounded
    assert np.all(np.abs(demos.returns) <= 1.0 + 0.01 / (1 - 0.9) + 1e-6)


def test_demonstrations_refuse_an_empty_budget() -> None:
    with pytest.raises(boardsim.OptionError):
        collect_heuristic_decisions(_env(), 0, gamma=1.0)


def test_imitation_makes_the_policy_choose_as_the_heuristic(tmp_path) -> None:
    config = TrainConfig(game="farrapos", run_dir=str(tmp_path), total_timesteps=128, **TINY)
    trainer = Trainer(config)
    trainer.model = trainer.new_model()
    demos = collect_heuristic_decisions(trainer.env, 2000, gamma=1.0)
    before = imitate(trainer.model, demos, epochs=1, learning_rate=1e-9)["agreement"]
    after = imitate(trainer.model, demos, epochs=15, batch_size=128)
    # (the heuristic breaks some ties at random: no policy agrees with all its choices)
    assert after["agreement"] > before + 0.2


def test_a_run_that_imitates_writes_its_report_and_then_trains(tmp_path) -> None:
    config = TrainConfig(
        game="farrapos", run_dir=str(tmp_path), total_timesteps=128, imitate=500, **TINY
    )
    lines: list[str] = []
    result = train(config, log=lines.append)
    report = json.loads((tmp_path / "imitation.json").read_text())
    assert report["decisions"] >= 500 and 0 <= report["agreement"] <= 1
    assert result.timesteps == 128 and "imitated" in lines[0]
    saved = json.loads((tmp_path / "config.json").read_text())
    assert saved["imitate"] == 500


def test_bad_imitation_settings_are_refused(tmp_path) -> None:
    for bad in ({"imitate": -1}, {"imitate_epochs": 0}):
        with pytest.raises(boardsim.OptionError, match="imitat"):
            TrainConfig(game="farrapos", run_dir=str(tmp_path), **{**TINY, **bad}).validate()
