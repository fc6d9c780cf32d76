"""PPO training: sb3-contrib's MaskablePPO on the batched engine, with checkpoints and resume.

:func:`train` runs one training run described by a :class:`TrainConfig` into a
run folder::

    RUN_DIR/config.json            the configuration it trains with (written at each start)
    RUN_DIR/checkpoints/step_*.zip checkpoints every ``checkpoint_every`` steps (the last few kept)
    RUN_DIR/checkpoints/latest     the newest checkpoint's name
    RUN_DIR/tb/                    TensorBoard logs (``tensorboard --logdir RUN_DIR/tb``)

A resumed run's TensorBoard logs hide what the interrupted session logged after the
checkpoint (:func:`resumed_logger`): each step is shown once.

The policy plays every side of the game at once (a :class:`~.vec.SidesVecEnv`:
the envs are split over the first player of each side), against the compiled
``opponents``: ``"random"``, ``"heuristic"``, ``"net:PATH"`` (a fixed network), or
``"pool"``: the run's own past policies (:class:`OpponentPool`: the policy at the start
and at every checkpoint, compiled; each pool env plays one drawn at random, drawn again
every ``pool_swap`` rollouts). Several, comma-separated (``"heuristic,pool"``), split each
seat's envs evenly between them. Checkpoints are taken between rollouts, where the model, the
optimizer, the envs and every random generator are in a consistent state; a run
resumed from one (``resume=True``) continues exactly as the uninterrupted run
would have (same games, same updates), only the wall clock differs.
"""

from __future__ import annotations

import io
import json
import random
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardsim import __version__
from boardsim.api import make_game
from boardsim.core.errors import OptionError
from boardsim.core.game import checked_seed
from boardsim.core.header import POLICY_NETWORK, S_TEMPERATURE
from boardsim.core.network import Network
from boardsim.core.seats import Seat
from boardsim.training.checkpoint import (
    atomic_write_text,
    game_metadata,
    latest_checkpoint,
    read_metadata,
    read_resume_arrays,
    resume_settings,
    write_checkpoint,
)
from boardsim.training.imitation import collect_heuristic_decisions, imitate
from boardsim.training.run_log import after_earlier_event_files

# observation size -> hidden layers of the policy and value networks (first size that fits)
NET_ARCH_BY_OBS_SIZE: tuple[tuple[int, list[int]], ...] = (
    (64, [64, 64]),
    (1024, [128, 128]),
    (4096, [256, 256]),
)
LARGEST_NET_ARCH = [512, 256]
STATS_WINDOW = 1000  # finished games the win rate and mean return are measured over


def net_arch_for(observation_size: int) -> list[int]:
    """Hidden layer sizes for an MLP over observations of ``observation_size`` values.

    A layer a little smaller than the input for small inputs, capped for large ones,
    so the first layer holds most of the parameters and the net stays quick on a CPU.
    """
    if observation_size < 1:
        raise OptionError(f"observation size must be positive, got {observation_size}")
    for limit, arch in NET_ARCH_BY_OBS_SIZE:
        if observation_size <= limit:
            return list(arch)
    return list(LARGEST_NET_ARCH)


@dataclass
class TrainConfig:
    """One PPO training run. Sizes are in decisions of the learner (SB3's timesteps)."""

    game: str
    run_dir: str
    options: dict[str, Any] = field(default_factory=dict)
    total_timesteps: int = 200_000
    num_envs: int = 16
    opponents: str | list[str] = "random"
    pool_swap: int = 1  # rollouts between two draws of the pool's opponents
    seed: int = 0
    n_steps: int = 128
    batch_size: int = 256
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    # subtracted from the learner's reward at each of its decisions: a policy that is losing
    # gains nothing by stalling (e.g. choosing and cancelling a composite move) to put its
    # discounted loss off; 0 trains on the game's reward alone
    step_penalty: float = 0.0
    clip_range: float = 0.2
    # heuristic decisions to imitate before PPO (0: none): the policy is first fit to the
    # compiled heuristic's choices in the learner's seats, its value head to their returns
    # (boardsim.training.imitation), for games where random play never wins
    imitate: int = 0
    imitate_epochs: int = 4
    net_arch: list[int] | None = None  # None: net_arch_for(observation size)
    checkpoint_every: int = 50_000
    keep_checkpoints: int = 3
    threads: int | None = None
    torch_threads: int | None = 1  # a small MLP on a CPU: more threads mostly wait
    tensorboard: bool = True
    progress: bool = True

    def validate(self) -> None:
        """Refuse sizes that cannot work, with the reason."""
        try:
            self.seed = checked_seed(self.seed)
        except ValueError as exc:
            raise OptionError(str(exc)) from None
        positive = ("total_timesteps", "num_envs", "n_steps", "batch_size", "n_epochs")
        for name in (*positive, "checkpoint_every", "keep_checkpoints"):
            if int(getattr(self, name)) < 1:
                raise OptionError(f"{name} must be at least 1, got {getattr(self, name)}")
        if not 0 < self.gamma <= 1 or not 0 <= self.gae_lambda <= 1:
            raise OptionError("gamma must be in (0, 1] and gae_lambda in [0, 1]")
        if self.learning_rate <= 0:
            raise OptionError(f"learning_rate must be positive, got {self.learning_rate}")
        if int(self.imitate) < 0 or int(self.imitate_epochs) < 1:
            raise OptionError(
                f"imitate must be >= 0 decisions and imitate_epochs >= 1, got "
                f"{self.imitate} and {self.imitate_epochs}"
            )
        if not 0 <= self.step_penalty < float("inf"):  # NaN fails too
            raise OptionError(f"step_penalty must be a finite number >= 0, got {self.step_penalty}")
        if int(self.pool_swap) < 1:
            raise OptionError(f"pool_swap must be at least 1 rollout, got {self.pool_swap}")
        for group in opponent_groups(self.opponents):
            if group not in GROUPS and not str(group).startswith("net:"):
                raise OptionError(
                    f"opponents: {group!r} is not one of {', '.join(GROUPS)} or net:PATH"
                )
        if self.net_arch is not None and (
            not self.net_arch or any(int(h) < 1 for h in self.net_arch)
        ):
            raise OptionError(f"net_arch must be positive layer sizes, got {self.net_arch}")


GROUPS = ("random", "heuristic", "pool")


def opponent_groups(opponents: str | list[str]) -> list[str]:
    """The opponent groups of ``opponents``: ``"heuristic,pool"`` -> two groups; a list
    (one name a player) is one group."""
    if isinstance(opponents, str):
        return [g.strip() for g in opponents.split(",") if g.strip()]
    return [opponents]  # type: ignore[list-item]


class OpponentPool:
    """The run's past policies as compiled networks, in ``RUN_DIR/pool/step_*.npz``; which
    one each pool group plays, drawn from the pool's own generator."""

    def __init__(self, folder: Path, groups: list[int], seed: int) -> None:
        self.folder = folder
        self.groups = groups  # the indices of the pool groups among the env's groups
        self.steps: list[int] = []
        self.current = np.full(len(groups), -1, np.int64)
        self.rng = np.random.default_rng(seed + 17)
        self._networks: dict[int, Any] = {}

    def add(self, model: Any, step: int) -> None:
        """The model's policy as it is now joins the pool."""
        from boardsim.training.networks import from_sb3_policy  # deferred: imports torch

        if step in self.steps:
            return
        net = from_sb3_policy(model.policy, {"source": "ppo", "timesteps": step})
        net.save(self.folder / f"step_{step:012d}.npz")
        self._networks[step] = net
        self.steps.append(step)

    def network(self, step: int) -> Any:
        """The pool's policy of ``step`` (loaded from its file once)."""
        if step not in self._networks:
            self._networks[step] = Network.load(self.folder / f"step_{step:012d}.npz")
        return self._networks[step]

    def draw(self, env: Any) -> None:
        """Each pool group plays a past policy drawn uniformly from the pool."""
        for k, group in enumerate(self.groups):
            self.current[k] = self.steps[int(self.rng.integers(len(self.steps)))]
            self._apply(env, k, group)

    def _apply(self, env: Any, k: int, group: int) -> None:
        net = self.network(int(self.current[k]))
        env.set_group_opponents(group, Seat(POLICY_NETWORK, net, {S_TEMPERATURE: 1.0}, "pool"))

    def arrays(self) -> dict[str, np.ndarray]:
        """The pool's state for a checkpoint: its steps, each group's draw, its generator."""
        return {
            "pool_steps": np.asarray(self.steps, np.int64),
            "pool_current": self.current.copy(),
            "pool_rng": np.frombuffer(json.dumps(self.rng.bit_generator.state).encode(), np.uint8),
        }

    def restore(self, arrays: dict[str, np.ndarray], env: Any) -> None:
        """Put back what :meth:`arrays` saved; each group plays its saved draw again."""
        self.steps = [int(x) for x in arrays["pool_steps"]]
        self.current[:] = arrays["pool_current"]
        self.rng.bit_generator.state = json.loads(bytes(arrays["pool_rng"]).decode())
        for k, group in enumerate(self.groups):
            if self.current[k] >= 0:
                self._apply(env, k, group)


@dataclass
class TrainResult:
    """What a finished (or resumed and finished) run reports."""

    run_dir: str
    checkpoint: str
    timesteps: int
    games: int
    win_rate: float
    return_mean: float
    wall_seconds: float
    # steps this call trained: 0 when a resumed run was already at its budget
    trained: int = 0


def planned_timesteps(start: int, total: int, num_envs: int, n_steps: int) -> int:
    """The steps a run from ``start`` to ``total`` ends at: PPO trains in whole rollouts
    of ``num_envs * n_steps`` steps, so ``total`` is rounded up to the next rollout."""
    if total <= start:
        return start
    rollout = num_envs * n_steps
    return start + -(-(total - start) // rollout) * rollout


class GameStats:
    """Returns of the learner's finished games, from the rewards and dones of each step."""

    def __init__(self, num_envs: int) -> None:
        self.running = np.zeros(num_envs, np.float64)
        self.returns: deque[float] = deque(maxlen=STATS_WINDOW)
        self.finished = 0

    def add_step(self, rewards: np.ndarray, dones: np.ndarray) -> None:
        """Add one step's rewards of every env; count and record the games that ended."""
        self.running += rewards
        for i in np.flatnonzero(dones):
            self.returns.append(float(self.running[i]))
            self.running[i] = 0.0
            self.finished += 1

    def win_rate(self) -> float:
        """Share of the recent games the learner's side won (a return above zero)."""
        return float(np.mean(np.asarray(self.returns) > 0)) if self.returns else float("nan")

    def return_mean(self) -> float:
        """The mean return of the finished games so far (NaN before the first)."""
        return float(np.mean(self.returns)) if self.returns else float("nan")

    def arrays(self) -> dict[str, np.ndarray]:
        """The counters as arrays, to be saved in a checkpoint."""
        return {
            "stats_running": self.running.copy(),
            "stats_returns": np.asarray(self.returns, np.float64),
            "stats_finished": np.array([self.finished], np.int64),
        }

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Set the counters from :meth:`arrays` of a checkpoint."""
        self.running[:] = arrays["stats_running"]
        self.returns.clear()
        self.returns.extend(float(x) for x in arrays["stats_returns"])
        self.finished = int(arrays["stats_finished"][0])


def rng_arrays() -> dict[str, np.ndarray]:
    """The torch, numpy (global) and Python generator states, as arrays."""
    import torch  # deferred on purpose: heavy, and only training needs it

    kind, keys, pos, has_gauss, cached = np.random.get_state()
    assert kind == "MT19937"
    version, words, gauss = random.getstate()
    return {
        "rng_torch": torch.get_rng_state().numpy().copy(),
        "rng_numpy_keys": np.asarray(keys, np.uint32),
        "rng_numpy_rest": np.array([pos, has_gauss, cached], np.float64),
        "rng_python_words": np.asarray(words, np.uint64),
        "rng_python_rest": np.array([version, np.nan if gauss is None else gauss], np.float64),
    }


def restore_rng(arrays: dict[str, np.ndarray]) -> None:
    """Put back the generator states saved by :func:`rng_arrays`."""
    import torch  # deferred on purpose: heavy, and only training needs it

    torch.set_rng_state(torch.from_numpy(arrays["rng_torch"].copy()))
    pos, has_gauss, cached = arrays["rng_numpy_rest"]
    np.random.set_state(("MT19937", arrays["rng_numpy_keys"], int(pos), int(has_gauss), cached))
    version, gauss = arrays["rng_python_rest"]
    words = tuple(int(w) for w in arrays["rng_python_words"])
    random.setstate((int(version), words, None if np.isnan(gauss) else float(gauss)))


class _KeptBytesIO(io.BytesIO):
    """A BytesIO that keeps its contents when SB3 closes it after saving."""

    kept = b""

    def close(self) -> None:
        self.kept = self.getvalue()
        super().close()


def model_zip_bytes(model: Any) -> bytes:
    """What ``model.save`` writes, as bytes (nothing touches the disk)."""
    buffer = _KeptBytesIO()
    model.save(buffer)
    return buffer.kept if buffer.closed else buffer.getvalue()


class Trainer:
    """The parts of one run: the game, the envs, the model and the run's bookkeeping."""

    def __init__(self, config: TrainConfig) -> None:
        # deferred on purpose: the vector envs import stable_baselines3 (heavy, optional)
        from boardsim.training.vec import SidesVecEnv, learning_seats

        config.validate()
        self.config = config
        self.run_dir = Path(config.run_dir)
        self.game = make_game(config.game, **config.options)
        self.seats = learning_seats(self.game)
        groups = opponent_groups(config.opponents)
        self.env = SidesVecEnv(
            self.game,
            config.num_envs,
            self.seats,
            seed=config.seed,
            threads=config.threads,
            step_penalty=config.step_penalty,
            groups=[_group_opponents(g) for g in groups],
        )
        pool_groups = [j for j, g in enumerate(groups) if g == "pool"]
        self.pool = (
            OpponentPool(self.run_dir / "pool", pool_groups, config.seed) if pool_groups else None
        )
        self.stats = GameStats(config.num_envs)
        self.net_arch = list(config.net_arch or net_arch_for(self.game.observation_size))
        self.wall_before = 0.0  # wall seconds of earlier sessions of this run
        self.session_start = time.perf_counter()
        self.last_saved = -1
        self.model: Any = None

    # ------------------------------------------------------------ model
    def new_model(self) -> Any:
        """A fresh sb3-contrib ``MaskablePPO`` on the trainer's vector env, with the
        config's hyperparameters and network size.
        """
        from sb3_contrib import MaskablePPO  # deferred on purpose: heavy, optional

        c = self.config
        return MaskablePPO(
            "MlpPolicy",
            self.env,
            learning_rate=c.learning_rate,
            n_steps=c.n_steps,
            batch_size=c.batch_size,
            n_epochs=c.n_epochs,
            gamma=c.gamma,
            gae_lambda=c.gae_lambda,
            ent_coef=c.ent_coef,
            clip_range=c.clip_range,
            policy_kwargs={"net_arch": {"pi": self.net_arch, "vf": self.net_arch}},
            tensorboard_log=str(self.run_dir / "tb") if c.tensorboard else None,
            seed=c.seed % 2**32,  # SB3 seeds numpy's legacy generator: 32 bits
            device="cpu",
            verbose=0,
        )

    def load_model(self, checkpoint: Path) -> None:
        """Continue from ``checkpoint``: model, optimizer, envs, statistics, generators."""
        from sb3_contrib import MaskablePPO  # deferred on purpose: heavy, optional

        meta = read_metadata(checkpoint)
        arrays = read_resume_arrays(checkpoint)
        self.model = MaskablePPO.load(
            checkpoint,
            env=self.env,
            device="cpu",
            force_reset=False,
            tensorboard_log=str(self.run_dir / "tb") if self.config.tensorboard else None,
        )
        if self.config.tensorboard:
            # the steps the interrupted session logged after this checkpoint are logged again
            self.model.set_logger(resumed_logger(self.run_dir / "tb", self.model.num_timesteps))
        self.env.restore(arrays)
        self.stats.restore(arrays)
        if self.pool is not None:
            self.pool.restore(arrays, self.env)
        restore_rng(arrays)
        self.wall_before = float(meta.get("wall_seconds", 0.0))
        self.last_saved = int(meta["timesteps"])

    # ------------------------------------------------------------ checkpoints
    def wall_seconds(self) -> float:
        """Training time so far, this run and every run it resumed."""
        return self.wall_before + time.perf_counter() - self.session_start

    def metadata(self) -> dict[str, Any]:
        """What a checkpoint records of the run: game and version, options, sizes,
        timesteps, seeds and versions (``ppo:PATH`` checks it on loading).
        """
        return {
            **game_metadata(self.game),
            "seats": self.seats,
            "algorithm": "MaskablePPO",
            "net_arch": self.net_arch,
            "config": asdict(self.config),
            "timesteps": int(self.model.num_timesteps),
            "games": int(self.stats.finished),
            "win_rate_recent": _finite_or_none(self.stats.win_rate()),
            "return_mean_recent": _finite_or_none(self.stats.return_mean()),
            "wall_seconds": round(self.wall_seconds(), 3),
            "boardsim_version": __version__,
        }

    def save(self) -> Path:
        """Write a checkpoint of the run as it is now (between two rollouts); the policy
        joins the opponent pool first."""
        if self.pool is not None:
            self.pool.add(self.model, int(self.model.num_timesteps))
        arrays = {**self.env.state_arrays(), **self.stats.arrays(), **rng_arrays()}
        if self.pool is not None:
            arrays.update(self.pool.arrays())
        path = write_checkpoint(
            self.run_dir,
            model_zip_bytes(self.model),
            self.metadata(),
            arrays,
            keep=self.config.keep_checkpoints,
        )
        self.last_saved = int(self.model.num_timesteps)
        return path


TB_LOG_NAME = "ppo"  # TensorBoard logs in RUN_DIR/tb/ppo_<n>


def resumed_logger(tb_dir: Path, checkpoint_step: int) -> Any:
    """SB3's logger for a run resumed from the checkpoint of ``checkpoint_step``: its
    TensorBoard events go on in the run's latest log folder (as SB3 continues one), and
    whatever the interrupted session logged after the checkpoint is purged (hidden by
    TensorBoard: SummaryWriter's ``purge_step``), since this session logs those steps again.

    The purge starts one step after the checkpoint: SB3 logs a rollout's step before the
    checkpoint taken at it, and the resumed session does not log that step again.
    """
    # deferred on purpose: stable_baselines3 and torch are heavy and optional
    from stable_baselines3.common.logger import Logger, TensorBoardOutputFormat
    from stable_baselines3.common.utils import get_latest_run_id
    from torch.utils.tensorboard import SummaryWriter

    class PurgingTensorBoardFormat(TensorBoardOutputFormat):
        def __init__(self, folder: str, purge_step: int) -> None:
            after_earlier_event_files(folder)  # read after the interrupted session's file
            self.writer = SummaryWriter(log_dir=folder, purge_step=purge_step)
            self._is_closed = False

    run_id = max(get_latest_run_id(str(tb_dir), TB_LOG_NAME), 1)
    folder = str(tb_dir / f"{TB_LOG_NAME}_{run_id}")
    return Logger(folder, [PurgingTensorBoardFormat(folder, int(checkpoint_step) + 1)])


def _group_opponents(group: str) -> Any:
    """What a group's envs play at first: its name, a fixed network (``net:PATH``), or, for
    the pool, random until the pool's first draw (before the first step)."""
    if group == "pool":
        return "random"
    if group.startswith("net:"):
        net = Network.load(group[4:])
        return Seat(POLICY_NETWORK, net, {S_TEMPERATURE: 0.0}, group)
    return group


def _finite_or_none(x: float) -> float | None:
    return None if not np.isfinite(x) else round(float(x), 4)


def _callbacks(trainer: Trainer, total: int) -> list[Any]:
    """Progress bar, game statistics for TensorBoard, and checkpoints every K steps."""
    # deferred on purpose: stable_baselines3 is heavy and optional
    from stable_baselines3.common.callbacks import BaseCallback

    class RunCallback(BaseCallback):
        def __init__(self) -> None:
            super().__init__(verbose=0)
            self.bar: Any = None

        def _on_training_start(self) -> None:
            if trainer.config.progress:
                from tqdm.auto import tqdm  # deferred: only with a progress bar

                self.bar = tqdm(
                    total=total,
                    initial=int(self.model.num_timesteps),
                    unit="step",
                    dynamic_ncols=True,
                    desc=f"PPO {trainer.game.name}",
                )

        def _on_rollout_start(self) -> None:
            # between rollouts: model, optimizer, envs and generators agree
            if self.model.num_timesteps - trainer.last_saved >= trainer.config.checkpoint_every:
                trainer.save()
            rollout = self.model.num_timesteps // (self.model.n_envs * self.model.n_steps)
            if trainer.pool is not None and rollout % trainer.config.pool_swap == 0:
                trainer.pool.draw(trainer.env)

        def _on_step(self) -> bool:
            # the game's own returns in the statistics, without the step penalty
            rewards = self.locals["rewards"] + trainer.config.step_penalty
            trainer.stats.add_step(rewards, self.locals["dones"])
            if self.bar is not None:
                self.bar.update(self.model.n_envs)
            return True

        def _on_rollout_end(self) -> None:
            self.logger.record("games/win_rate", trainer.stats.win_rate())
            self.logger.record("games/return_mean", trainer.stats.return_mean())
            self.logger.record("games/finished", trainer.stats.finished)
            self.logger.record("time/wall_seconds", trainer.wall_seconds())
            if self.bar is not None:
                self.bar.set_postfix(
                    games=trainer.stats.finished,
                    win=f"{trainer.stats.win_rate():.3f}",
                    ret=f"{trainer.stats.return_mean():+.3f}",
                )

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.close()

    return [RunCallback()]


def _set_torch_threads(threads: int | None) -> None:
    if threads is not None:
        import torch  # deferred on purpose: heavy, and only training needs it

        torch.set_num_threads(threads)


def train(
    config: TrainConfig,
    resume: bool = False,
    log: Any = print,
    explicit: Mapping[str, str] | None = None,
) -> TrainResult:
    """Train (or, with ``resume``, continue) the run in ``config.run_dir``.

    On resume the run goes on with its saved configuration: ``config`` may change only
    :data:`RESUME_MAY_CHANGE` (``total_timesteps``, ``progress``, ``threads``,
    ``torch_threads``, ``tensorboard``, ``keep_checkpoints``); the game and options must be
    the saved ones, and any other setting given otherwise than the saved one is refused
    with an :class:`OptionError` naming each (``explicit``: the settings the caller set,
    each with its name for the message, e.g. a command's flags; by default those that
    differ from :class:`TrainConfig`'s defaults). ``config.json`` is written with the
    configuration the run trains with. Without a checkpoint, resume starts afresh.
    Returns the last checkpoint written (always one at the end).
    """
    run_dir = Path(config.run_dir)
    checkpoint = latest_checkpoint(run_dir) if resume else None
    if resume and checkpoint is None:
        log(f"no checkpoint in {run_dir}: starting a new run")
    if checkpoint is not None:
        config = _resumed_config(config, read_metadata(checkpoint), explicit)
    elif (run_dir / "checkpoints").exists() and any((run_dir / "checkpoints").glob("step_*.zip")):
        raise OptionError(
            f"{run_dir} already holds a run: pass resume=True (--resume) to continue it, "
            "or choose another run folder"
        )
    _set_torch_threads(config.torch_threads)
    trainer = Trainer(config)
    atomic_write_text(run_dir / "config.json", json.dumps(asdict(config), indent=2) + "\n")
    if checkpoint is not None:
        trainer.load_model(checkpoint)
        log(f"resuming {checkpoint} at {trainer.model.num_timesteps} steps")
    else:
        trainer.model = trainer.new_model()
        if config.imitate > 0:
            report = imitate_heuristic(trainer)
            log(
                f"imitated {report['decisions']} heuristic decisions ({report['games']} games, "
                f"{report['heuristic_win_rate']:.1%} won): the policy's first choice is the "
                f"heuristic's in {report['agreement']:.1%}"
            )
        if trainer.pool is not None:
            trainer.pool.add(trainer.model, 0)  # the policy PPO starts from: the pool's first
    start = int(trainer.model.num_timesteps)
    remaining = max(config.total_timesteps - start, 0)
    if remaining == 0 and checkpoint is not None:
        log(
            f"{run_dir} is already at {start} steps (total_timesteps {config.total_timesteps}): "
            "nothing to train; give a larger --timesteps to train on"
        )
        path = checkpoint
    else:
        planned = planned_timesteps(start, config.total_timesteps, config.num_envs, config.n_steps)
        if planned != config.total_timesteps:
            log(
                f"training to {planned} steps: PPO trains in whole rollouts of "
                f"{config.num_envs * config.n_steps} steps (--num-envs {config.num_envs} x "
                f"--n-steps {config.n_steps}), so {config.total_timesteps} is rounded up"
            )
        trainer.model.learn(
            total_timesteps=remaining,
            callback=_callbacks(trainer, planned),
            reset_num_timesteps=checkpoint is None,
            tb_log_name=TB_LOG_NAME,
        )
        path = trainer.save()
    return TrainResult(
        trained=int(trainer.model.num_timesteps) - start,
        run_dir=str(run_dir),
        checkpoint=str(path),
        timesteps=int(trainer.model.num_timesteps),
        games=trainer.stats.finished,
        win_rate=trainer.stats.win_rate(),
        return_mean=trainer.stats.return_mean(),
        wall_seconds=trainer.wall_seconds(),
    )


def imitate_heuristic(trainer: Trainer) -> dict[str, Any]:
    """Fit a fresh run's model to the heuristic (``config.imitate`` decisions), write
    ``RUN_DIR/imitation.json``; the envs are seeded again so PPO starts as it would have."""
    c = trainer.config
    demos = collect_heuristic_decisions(trainer.env, c.imitate, c.gamma, seed=c.seed)
    fit = imitate(trainer.model, demos, epochs=c.imitate_epochs, seed=c.seed)
    trainer.env.seed(c.seed)
    report = {
        "decisions": len(demos.actions),
        "games": demos.games,
        "heuristic_win_rate": demos.wins / demos.games if demos.games else float("nan"),
        **fit,
    }
    atomic_write_text(trainer.run_dir / "imitation.json", json.dumps(report, indent=2) + "\n")
    return report


# what a resumed run may change: how far it goes and how it runs, not what it learns
# a resume that does not set the budget trains to the run's own (like alphazero's)
RESUME_KEEPS_BUDGET = ("total_timesteps",)
RESUME_MAY_CHANGE = (
    "total_timesteps",
    "progress",
    "threads",
    "torch_threads",
    "tensorboard",
    "keep_checkpoints",
)


def _resumed_config(
    given: TrainConfig, meta: dict[str, Any], explicit: Mapping[str, str] | None = None
) -> TrainConfig:
    """The saved configuration of a run, with the few settings a resume may change; any
    other setting ``given`` asks to change is refused, named."""
    if meta.get("algorithm", "MaskablePPO") != "MaskablePPO":
        raise OptionError(f"{given.run_dir} is a {meta.get('algorithm')} run, not MaskablePPO")
    saved = TrainConfig(**meta["config"])
    return resume_settings(given, saved, RESUME_MAY_CHANGE, explicit, RESUME_KEEPS_BUDGET)
