"""RLlib self-play smoke test: two iterations on a local Ray with 2 CPUs, checkpoint and resume."""

from __future__ import annotations

import json

import pytest

from boardsim.training.rllib import RLlibConfig, make_rllib_env, train_rllib

pytestmark = pytest.mark.subprocess


def test_the_rllib_env_masks_and_names_its_observations() -> None:
    env = make_rllib_env("liberation", {"num_players": 2})
    obs, _ = env.reset(seed=0)
    ((agent, first),) = obs.items()
    assert set(first) == {"observations", "action_mask"}
    assert first["action_mask"].dtype.name == "float32" and first["action_mask"].sum() >= 1
    action = int(first["action_mask"].nonzero()[0][0])
    obs, _, terminated, _, _ = env.step({agent: action})
    assert not terminated["__all__"]


def test_two_self_play_iterations_on_a_local_ray_then_resume(tmp_path) -> None:
    config = RLlibConfig(
        game="liberation",
        run_dir=str(tmp_path),
        options={"num_players": 2},
        iterations=2,
        num_cpus=2,
        num_env_runners=1,
        train_batch_size=128,
        minibatch_size=64,
        num_epochs=1,
        hidden=[32],
        checkpoint_every=1,
    )
    result = train_rllib(config)
    assert result["iterations"] == 2 and result["env_steps"] >= 128
    assert result["league_size"] >= 1
    latest = (tmp_path / "rllib" / "latest").read_text().strip()
    assert latest == "iter_000002"
    assert json.loads((tmp_path / "rllib" / latest / "boardsim_league.json").read_text())
    config.iterations = 1
    again = train_rllib(config, resume=True)
    assert again["iterations"] == 3
