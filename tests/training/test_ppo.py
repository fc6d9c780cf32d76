"""PPO training: it learns, it resumes exactly, its checkpoints play as agents and refuse misuse."""

from __future__ import annotations

import numpy as np
import pytest

import boardsim
from boardsim.agents import load
from boardsim.research.tournament import round_robin
from boardsim.training.checkpoint import export_policy, read_metadata
from boardsim.training.ppo import TrainConfig, net_arch_for, train
from tests.training.helpers import TINY


def _config(run_dir, total: int, **kw) -> TrainConfig:
    return TrainConfig(
        game="liberation",
        run_dir=str(run_dir),
        options={"num_players": 2},
        total_timesteps=total,
        checkpoint_every=128,
        **{**TINY, **kw},
    )


def _policy_weights(path) -> list[np.ndarray]:
    agent = load(f"ppo:{path}", boardsim.make_game("liberation", num_players=2))
    return [agent.network.weights.copy()]


def test_net_arch_grows_with_the_observation_and_stays_bounded() -> None:
    assert net_arch_for(10) == [64, 64]
    assert net_arch_for(752) == [128, 128]
    assert net_arch_for(3000) == [256, 256]
    assert net_arch_for(100_000) == [512, 256]
    with pytest.raises(boardsim.OptionError):
        net_arch_for(0)


def test_resume_after_an_interruption_continues_exactly(tmp_path) -> None:
    """384 steps straight, or 256 then a resume to 384: the same policy, the same games."""
    straight = train(_config(tmp_path / "straight", 384), log=lambda *_: None)
    train(_config(tmp_path / "split", 256), log=lambda *_: None)
    resumed = train(_config(tmp_path / "split", 384), resume=True, log=lambda *_: None)
    assert straight.timesteps == resumed.timesteps == 384
    assert straight.games == resumed.games
    for a, b in zip(
        _policy_weights(straight.checkpoint), _policy_weights(resumed.checkpoint), strict=True
    ):
        np.testing.assert_array_equal(a, b)
    meta = read_metadata(tmp_path / "split")
    assert meta["timesteps"] == 384 and meta["game"] == "liberation"
    assert meta["options"]["num_players"] == 2
    # a run folder is not silently restarted over
    with pytest.raises(boardsim.OptionError, match="already holds a run"):
        train(_config(tmp_path / "split", 512), log=lambda *_: None)
    with pytest.raises(boardsim.OptionError, match="run of 'liberation'"):
        cfg = _config(tmp_path / "split", 512)
        cfg.game = "farrapos"
        train(cfg, resume=True, log=lambda *_: None)


def test_checkpoint_plays_as_an_agent_and_refuses_another_game(tmp_path) -> None:
    result = train(_config(tmp_path / "run", 128), log=lambda *_: None)
    game = boardsim.make_game("liberation", num_players=2)
    slim = export_policy(result.checkpoint, tmp_path / "policy.zip")
    assert (
        slim.stat().st_size
        < 0.6 * (tmp_path / "run" / "checkpoints").glob("*.zip").__next__().stat().st_size
    )
    agent = load(f"ppo:{slim}", game, seed=0)
    state = game.new_initial_state(3)
    for _ in range(50):
        if state.is_terminal():
            break
        mask = state.legal_actions_mask()
        action = agent.act(state.observation(state.current_player()), mask)
        assert mask[action]
        state.apply_action(action)
    with pytest.raises(boardsim.OptionError, match="num_players"):
        load(f"ppo:{slim}", boardsim.make_game("liberation", num_players=3))
    with pytest.raises(boardsim.OptionError, match="trained for 'liberation'"):
        load(f"ppo:{slim}", boardsim.make_game("farrapos"))
    other = load(
        f"ppo:{slim}", boardsim.make_game("liberation", num_players=3), strict_options=False
    )
    assert other.metadata["options"]["num_players"] == 2


@pytest.mark.slow
def test_a_few_thousand_steps_beat_random(tmp_path) -> None:
    """A short run already wins more often against random than random does."""
    config = _config(
        tmp_path / "run",
        8192,
        num_envs=8,
        n_steps=64,
        batch_size=128,
        n_epochs=4,
        learning_rate=1e-3,
        net_arch=[64, 64],
    )
    config.options["reward"] = "vt"  # dense: victory points as they come (evaluated on wins)
    train(config, log=lambda *_: None)

    def maker(spec: str, game, seed: int):
        return load(
            spec, game, seed, **({"deterministic": False} if spec.startswith("ppo") else {})
        )

    # capped: a barely trained policy may wander round the track for a very long time
    result = round_robin(
        "liberation",
        ["random", f"ppo:{tmp_path / 'run'}"],
        200,
        1,
        maker,
        num_players=2,
        max_decisions=1500,
    )
    ppo = next(r for r in result.pairs if r.agent.startswith("ppo"))
    assert ppo.win_rate > 0.5, result.table()


def test_step_penalty_is_taken_off_each_learner_reward_and_not_off_the_statistics(
    tmp_path,
) -> None:
    from boardsim.training.vec import SidesVecEnv

    game = boardsim.make_game("liberation", num_players=2)
    plain = SidesVecEnv(game, 4, [0, 1], seed=3, threads=1)
    taxed = SidesVecEnv(game, 4, [0, 1], seed=3, threads=1, step_penalty=0.01)
    plain.seed(3)
    taxed.seed(3)
    np.testing.assert_array_equal(plain.reset(), taxed.reset())
    for _ in range(50):
        masks = plain.action_masks()
        np.testing.assert_array_equal(masks, taxed.action_masks())
        actions = masks.argmax(axis=1)
        plain.step_async(actions)
        taxed.step_async(actions)
        _, r_plain, d_plain, _ = plain.step_wait()
        _, r_taxed, d_taxed, _ = taxed.step_wait()
        np.testing.assert_allclose(r_taxed, r_plain - 0.01, atol=1e-6)
        np.testing.assert_array_equal(d_plain, d_taxed)
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="step_penalty"):
            TrainConfig(game="liberation", run_dir=str(tmp_path), step_penalty=bad).validate()
    result = train(_config(tmp_path / "run", 2048, step_penalty=0.5))
    meta = read_metadata(result.checkpoint)
    assert meta["config"]["step_penalty"] == 0.5
    # the statistics are the game's returns (+1/-1 win/loss), not the taxed ones
    assert meta["games"] > 0
    assert -1.0 <= meta["return_mean_recent"] <= 1.0


def test_ppo_against_the_heuristic_and_its_own_past_resumes_exactly(tmp_path) -> None:
    """Opponents split in two groups, the heuristic and a pool of the run's past policies
    (a checkpoint every 128 steps joins it): a split run is the straight run."""
    kw = {"opponents": "heuristic,pool", "pool_swap": 2}
    straight = train(_config(tmp_path / "straight", 512, **kw), log=lambda *_: None)
    train(_config(tmp_path / "split", 256, **kw), log=lambda *_: None)
    resumed = train(_config(tmp_path / "split", 512, **kw), resume=True, log=lambda *_: None)
    assert straight.games == resumed.games
    for a, b in zip(
        _policy_weights(straight.checkpoint), _policy_weights(resumed.checkpoint), strict=True
    ):
        np.testing.assert_array_equal(a, b)
    pool = sorted(p.name for p in (tmp_path / "straight" / "pool").glob("*.npz"))
    assert pool[0] == "step_000000000000.npz" and len(pool) >= 4
    assert pool == sorted(p.name for p in (tmp_path / "split" / "pool").glob("*.npz"))
    with pytest.raises(boardsim.OptionError, match="opponents"):
        _config(tmp_path / "bad", 128, opponents="heuristic,nobody").validate()
