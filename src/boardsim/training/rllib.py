"""Multi-agent self-play with Ray RLlib (optional extra ``rllib``): PPO on the PettingZoo env.

The game's PettingZoo AEC env goes through RLlib's ``PettingZooEnv``; its
observations ``{"observation", "action_mask"}`` are renamed to the
``{"observations", "action_mask"}`` RLlib's action-masking RL module reads
(``ActionMaskingTorchRLModule`` of RLlib's examples, new API stack), which puts
the logits of illegal actions at the float minimum.

Self-play with a frozen-opponent league, as in RLlib's self-play examples: the
module ``main`` learns; in every game one seat (chosen by the episode) is
``main`` and the others are frozen snapshots ``main_v0``, ``main_v1``, ... drawn
at random. ``main_v0`` is a copy of ``main`` before any training; whenever
``main`` wins more than ``win_rate_threshold`` of its recent games a new snapshot
of it joins the league. In a cooperative game (Hispania's generals) every
player is ``main`` and there is no league.

Runs on an existing Ray cluster (``address``) or a local Ray (``num_cpus``).
Checkpoints (RLlib's own format) go to ``RUN_DIR/rllib/iter_<n>`` with a
``latest`` pointer file written atomically; ``resume`` restores the newest.
Ray is imported only inside the functions here.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.api import make_env, make_game
from boardsim.core.cluster import init_ray
from boardsim.core.errors import OptionError
from boardsim.files import atomic_write_text

RLLIB_DIR = "rllib"


@dataclass
class RLlibConfig:
    """One RLlib self-play run."""

    game: str
    run_dir: str
    options: dict[str, Any] = field(default_factory=dict)
    iterations: int = 10
    seed: int = 0
    address: str | None = None  # None: start a local Ray
    num_cpus: int | None = None  # of a local Ray (None: all)
    num_env_runners: int = 1
    train_batch_size: int = 4000
    minibatch_size: int = 256
    num_epochs: int = 4
    learning_rate: float = 3e-4
    hidden: list[int] = field(default_factory=lambda: [128, 128])
    win_rate_threshold: float = 0.6
    checkpoint_every: int = 5
    keep_checkpoints: int = 2

    def validate(self) -> None:
        """Raise :class:`~boardsim.OptionError` for a setting out of range."""
        for name in ("iterations", "train_batch_size", "minibatch_size", "num_epochs"):
            if int(getattr(self, name)) < 1:
                raise OptionError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.num_env_runners < 0 or self.checkpoint_every < 1 or self.keep_checkpoints < 1:
            raise OptionError("num_env_runners >= 0, checkpoint_every >= 1, keep_checkpoints >= 1")
        if not 0 < self.win_rate_threshold < 1:
            raise OptionError(f"win_rate_threshold in (0, 1), got {self.win_rate_threshold}")


def env_name(game: str) -> str:
    """The name ``game``'s PettingZoo env is registered under with RLlib (``boardsim_<game>``)."""
    return f"boardsim_{game}"


def make_rllib_env(game: str, options: dict[str, Any]) -> Any:
    """The game's PettingZoo env as an RLlib ``MultiAgentEnv`` with masked-module observations."""
    # deferred on purpose: Ray (and the PettingZoo wrappers it needs) is heavy and optional
    from gymnasium import spaces
    from pettingzoo.utils.wrappers import BaseWrapper
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    class MaskKeys(BaseWrapper):
        """Observation ``{"observations": float32, "action_mask": float32 0/1}``."""

        def observation_space(self, agent: str) -> spaces.Space:
            inner = self.env.observation_space(agent)
            n = inner["action_mask"].shape[0]
            return spaces.Dict(
                {
                    "observations": inner["observation"],
                    "action_mask": spaces.Box(0.0, 1.0, (n,), dtype=np.float32),
                }
            )

        def observe(self, agent: str) -> Any:
            obs = self.env.observe(agent)
            return {
                "observations": obs["observation"],
                "action_mask": obs["action_mask"].astype(np.float32),
            }

    return PettingZooEnv(MaskKeys(make_env(game, **options)))


class _League:
    """The league's bookkeeping: which snapshots exist, who plays whom."""

    def __init__(self, agents: list[str], cooperative: bool, seed: int) -> None:
        self.agents = agents
        self.cooperative = cooperative
        self.snapshots = 1  # main_v0
        self.seed = seed

    def mapping_fn(self) -> Any:
        agents, cooperative, snapshots, seed = (
            list(self.agents),
            self.cooperative,
            self.snapshots,
            self.seed,
        )

        def agent_to_module(agent_id: str, episode: Any, **kwargs: Any) -> str:
            if cooperative:
                return "main"
            key = hash((episode.id_, seed))
            if key % len(agents) == agents.index(agent_id):
                return "main"
            return f"main_v{hash((key, agent_id)) % snapshots}"

        return agent_to_module


def _callback_class(league: _League, threshold: float) -> Any:
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS

    class LeagueCallback(RLlibCallback):
        """Logs main's win rate; adds a frozen snapshot of main when it wins often enough."""

        def on_episode_end(self, *, episode: Any, metrics_logger: Any, **kwargs: Any) -> None:
            rewards = episode.get_rewards()
            for agent_id, values in rewards.items():
                if episode.module_for(agent_id) == "main" and len(values):
                    metrics_logger.log_value(
                        "main_win_rate", float(values[-1] > 0), reduce="mean", window=200
                    )
                    break

        def on_train_result(self, *, algorithm: Any, result: dict, **kwargs: Any) -> None:
            result["league_size"] = league.snapshots
            win_rate = result.get(ENV_RUNNER_RESULTS, {}).get("main_win_rate")
            if league.cooperative or win_rate is None or win_rate <= threshold:
                return
            new_id = f"main_v{league.snapshots}"
            league.snapshots += 1
            main = algorithm.get_module("main")
            algorithm.add_module(
                module_id=new_id,
                module_spec=RLModuleSpec.from_module(main),
                new_agent_to_module_mapping_fn=league.mapping_fn(),
            )
            algorithm.set_state(
                {"learner_group": {"learner": {"rl_module": {new_id: main.get_state()}}}}
            )
            result["league_size"] = league.snapshots

    return LeagueCallback


def build_algorithm(config: RLlibConfig) -> tuple[Any, _League]:
    """The RLlib PPO algorithm for a config (Ray must be initialised)."""
    # deferred on purpose: Ray is heavy and optional
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    game = make_game(config.game, **config.options)
    if game.options.get("explicit_chance"):
        raise OptionError("RLlib self-play resolves chance inside the env: explicit_chance=False")
    agents = game.agent_names()
    cooperative = game.is_cooperative()
    league = _League(agents, cooperative, config.seed)
    name, options = config.game, dict(config.options)
    register_env(env_name(name), lambda _cfg: make_rllib_env(name, options))
    modules = {"main": RLModuleSpec(module_class=ActionMaskingTorchRLModule)}
    if not cooperative:
        modules["main_v0"] = RLModuleSpec(module_class=ActionMaskingTorchRLModule)
    algo_config = (
        PPOConfig()
        # RLlib's checker steps random actions, most of them illegal here: the env is tested
        # by boardsim's own suite (pettingzoo's api_test)
        .environment(env_name(name), disable_env_checking=True)
        .framework("torch")
        .env_runners(num_env_runners=config.num_env_runners, num_envs_per_env_runner=1)
        .multi_agent(
            policies=set(modules),
            policy_mapping_fn=league.mapping_fn(),
            policies_to_train=["main"],
        )
        .rl_module(
            model_config=DefaultModelConfig(fcnet_hiddens=list(config.hidden)),
            rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules),
        )
        .training(
            lr=config.learning_rate,
            train_batch_size_per_learner=config.train_batch_size,
            minibatch_size=config.minibatch_size,
            num_epochs=config.num_epochs,
        )
        .callbacks(_callback_class(league, config.win_rate_threshold))
        .debugging(seed=config.seed)
    )
    algo = algo_config.build_algo()
    if not cooperative:  # the first frozen opponent is main before training
        main_state = algo.get_module("main").get_state()
        algo.set_state({"learner_group": {"learner": {"rl_module": {"main_v0": main_state}}}})
    return algo, league


def _save(algo: Any, run_dir: Path, iteration: int, league: _League, keep: int) -> Path:
    folder = run_dir / RLLIB_DIR
    target = folder / f"iter_{iteration:06d}"
    tmp = folder / f".iter_{iteration:06d}.tmp"
    if tmp.exists():
        shutil.rmtree(tmp)
    algo.save_to_path(str(tmp.resolve()))
    atomic_write_text(tmp / "boardsim_league.json", json.dumps({"snapshots": league.snapshots}))
    if target.exists():
        shutil.rmtree(target)
    tmp.rename(target)  # a complete checkpoint appears at once
    atomic_write_text(folder / "latest", target.name + "\n")
    for old in sorted(folder.glob("iter_*"))[:-keep]:
        shutil.rmtree(old)
    return target


def _latest(run_dir: Path) -> Path | None:
    pointer = run_dir / RLLIB_DIR / "latest"
    if not pointer.exists():
        return None
    return pointer.parent / pointer.read_text().strip()


def train_rllib(config: RLlibConfig, resume: bool = False) -> dict[str, Any]:
    """Run ``config.iterations`` RLlib training iterations; returns a summary of the last one."""
    try:
        import ray
    except ModuleNotFoundError:
        raise OptionError(
            "the rllib backend needs Ray RLlib: pip install 'boardsim[rllib]'"
        ) from None
    config.validate()
    run_dir = Path(config.run_dir)
    # a cluster's workers print to this driver; a local Ray's stay quiet
    address = config.address or None
    started_ray = init_ray(address, log_to_driver=address is not None, num_cpus=config.num_cpus)
    start = time.perf_counter()
    try:
        algo, league = build_algorithm(config)
        checkpoint = _latest(run_dir) if resume else None
        if checkpoint is not None:
            algo.restore_from_path(str(checkpoint.resolve()))
            saved = json.loads((checkpoint / "boardsim_league.json").read_text())
            _regrow_league(algo, league, int(saved["snapshots"]))
        else:
            atomic_write_text(run_dir / RLLIB_DIR / "config.json", json.dumps(asdict(config)))
        result: dict[str, Any] = {}
        first = int(algo.iteration)
        for _ in range(config.iterations):
            result = algo.train()
            if algo.iteration % config.checkpoint_every == 0:
                _save(algo, run_dir, algo.iteration, league, config.keep_checkpoints)
        path = _save(algo, run_dir, algo.iteration, league, config.keep_checkpoints)
        summary = _summary(result, algo.iteration, first, league, path, time.perf_counter() - start)
        algo.stop()
        return summary
    finally:
        if started_ray:
            ray.shutdown()


def _regrow_league(algo: Any, league: _League, snapshots: int) -> None:
    """Add back the snapshots a restored run had beyond ``main_v0`` (their weights restored)."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    main = algo.get_module("main")
    while league.snapshots < snapshots:
        new_id = f"main_v{league.snapshots}"
        league.snapshots += 1
        algo.add_module(
            module_id=new_id,
            module_spec=RLModuleSpec.from_module(main),
            new_agent_to_module_mapping_fn=league.mapping_fn(),
        )


def _summary(
    result: dict[str, Any], iteration: int, first: int, league: _League, path: Path, sec: float
) -> dict[str, Any]:
    from ray.rllib.utils.metrics import (
        ENV_RUNNER_RESULTS,
        NUM_ENV_STEPS_SAMPLED_LIFETIME,
    )

    runners = result.get(ENV_RUNNER_RESULTS, {})
    win = runners.get("main_win_rate")
    return {
        "iterations": iteration,
        "iterations_this_session": iteration - first,
        "env_steps": int(runners.get(NUM_ENV_STEPS_SAMPLED_LIFETIME, 0) or 0),
        "main_win_rate": None if win is None else float(win),
        "league_size": league.snapshots,
        "checkpoint": str(path),
        "seconds": round(sec, 1),
    }
