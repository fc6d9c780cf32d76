"""Vector environments over the batched engine: Gymnasium ``VectorEnv`` and an SB3 ``VecEnv``.

No subprocesses: every row of the batch is stepped in one compiled call; the
other seats are played by a compiled policy (``"random"``, the game's
``"heuristic"``, or a network agent such as ``boardsim.agents.load("alphazero", game)``)
inside that call.
Finished games restart in the same step (Gymnasium's ``SAME_STEP`` autoreset):
the last observation of a finished game is in ``infos["final_obs"]``
(``infos["_final_obs"]`` marks the rows), and SB3's ``terminal_observation``.

**Zero copy.** ``reset`` and ``step`` return the batch's own arrays (observations,
rewards, flags, ``info["action_mask"]``, ``info["final_obs"]``), not copies: the compiled
step writes them in place, into one of two sets of buffers used in turn. So a step's arrays
stay as they are through the next step (a learner may keep ``obs`` and ``next_obs``, as
SB3's PPO and DQN do) and are overwritten by the step after it. Keep them longer by copying
them, or make the env with ``copy=True`` (every step then returns fresh arrays). The masks
are the engine's 0/1 bytes seen as booleans (no conversion); ``final_obs`` is written only
in the rows whose game ended (zeros in the others). ``obs_dtype="uint8"`` gives a game
whose observation is binary (connect four) one byte a feature instead of four.

Seeding follows Gymnasium: ``reset(seed=s)`` plays the games of run ``s``, the same
every time; an unseeded reset plays new games, their run seed drawn from the env's
``np_random`` (seeded by the last seeded reset, else from fresh operating-system
entropy, as ``np.random.default_rng()``), so a new env never seeded plays games no other
env played. ``seed=s`` when made is a seeded reset at once, and the first reset, given
no seed, replays it (as SB3's ``VecEnv.seed`` holds a seed for the next reset).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from boardsim.core.batch import Batch, checked_count
from boardsim.core.errors import IllegalActionError, OptionError
from boardsim.core.game import Game, checked_seed
from boardsim.render import to_rgb_array, to_text
from boardsim.wrappers.spaces import observation_space


class BoardsimVectorEnv(VectorEnv):
    """``num_envs`` games; seat ``seat`` learns in each, the others play a compiled policy.

    ``opponents``: None or ``"random"`` (uniform over legal actions), ``"heuristic"``
    (the game's rule-based player), an agent that plays in compiled code
    (``compiled_seat()``: a network), or one such a player.

    The arrays returned are the batch's own, overwritten by the step after the next
    (module docstring); ``copy=True`` returns copies. ``obs_dtype``: ``"float32"``, or
    ``"uint8"`` for a game whose observation is binary.
    """

    metadata = {
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": ["ansi", "rgb_array"],
        "render_fps": 2,
    }

    def __init__(
        self,
        game: Game,
        num_envs: int,
        threads: int | None = None,
        opponents: Any = None,
        seat: int = 0,
        seed: int | None = None,
        check_actions: bool = True,
        render_mode: str | None = None,
        copy: bool = False,
        obs_dtype: Any = "float32",
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(
                f"render_mode {render_mode!r}; choose one of {self.metadata['render_modes']}"
            )
        if opponents is None:
            opponents = "random"
        items = opponents if isinstance(opponents, list | tuple) else [opponents]
        if not all(isinstance(o, str) or hasattr(o, "compiled_seat") for o in items):
            raise OptionError(
                "the vector env plays the other seats with compiled policies: opponents=None, "
                "'random', 'heuristic', a network agent, or one such a player, got "
                f"{opponents!r}; "
                "use make_gym_env for Python opponents"
            )
        game.check_seat(seat)
        num_envs = checked_count(
            "num_envs", num_envs, Batch.bytes_per_env(game, np.dtype(np.float32)), "envs"
        )
        self.game = game
        self._seed_at_first_reset = seed
        try:
            self.batch = Batch(
                game,
                num_envs,
                seat=seat,
                seed=self._run_seed(seed),
                threads=threads,
                opponents=opponents,
                obs_dtype=obs_dtype,
            )
        except ValueError as exc:
            raise OptionError(str(exc)) from None
        self.num_envs = num_envs
        self.seat = seat
        self.check_actions = check_actions
        self.copy = bool(copy)
        # row r's mask starts at r * num_actions of the flattened masks
        self._row_base = np.arange(num_envs, dtype=np.int64) * game.num_actions
        self.single_observation_space = observation_space(game, self.batch.obs_dtype)
        self.single_action_space = spaces.Discrete(game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = render_mode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start new games in every row: those of run ``seed`` (the same for the same
        seed), or, unseeded, of a run drawn from ``np_random`` (new games); observations
        and ``info["action_mask"]``."""
        if seed is None:
            seed = self._seed_at_first_reset
        self._seed_at_first_reset = None
        self.batch.reset(self._run_seed(seed))
        out = self.batch.out
        if self.copy:
            return out.obs.copy(), {"action_mask": out.bool_masks.copy()}
        return out.obs, {"action_mask": out.bool_masks}

    def _run_seed(self, seed: int | None) -> int:
        """The batch's run seed for a reset: ``seed`` itself (and ``np_random`` reseeded
        from it, as Gymnasium's ``reset(seed=...)`` does), else one drawn from
        ``np_random``."""
        if seed is None:
            return int(self.np_random.integers(0, 2**62))
        run = checked_seed(seed)
        self._np_random, self._np_random_seed = seeding.np_random(run % 2**64)
        return run

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every game with its action, the opponents playing in compiled code; a
        finished game restarts in the same step (Gymnasium's ``SAME_STEP`` autoreset).
        """
        acts = integer_actions(actions, self.num_envs)
        if self.check_actions:
            self._refuse_illegal(acts)
        b = self.batch
        b.step(acts)
        out = b.out
        infos: dict[str, Any] = {"action_mask": out.bool_masks}
        if out.finished:
            infos["final_obs"] = out.final_obs
            infos["_final_obs"] = out.done
        if self.copy:
            infos = {key: value.copy() for key, value in infos.items()}
            return (
                out.obs.copy(),
                out.learner_rewards.copy(),
                out.terminated.copy(),
                out.truncated.copy(),
                infos,
            )
        return out.obs, out.learner_rewards, out.terminated, out.truncated, infos

    def _refuse_illegal(self, acts: np.ndarray) -> None:
        """Raise :class:`IllegalActionError` for the first env whose action its mask does
        not allow (one gather over the flattened masks when every action is in range)."""
        masks = self.batch.out.bool_masks
        n_actions = masks.shape[1]
        if acts.min() >= 0 and acts.max() < n_actions:
            legal = masks.reshape(-1)[self._row_base + acts]
            if legal.all():
                return
            row = int(np.argmin(legal))
        else:
            row = int(np.flatnonzero((acts < 0) | (acts >= n_actions))[0])
        allowed = [int(a) for a in np.flatnonzero(masks[row])]
        raise IllegalActionError(int(acts[row]), allowed, f"in env {row}")

    def action_masks(self) -> np.ndarray:
        """``(num_envs, num_actions)`` booleans: the learner's legal actions in every env
        (the batch's own masks, as the last step returned them; a copy with ``copy=True``)."""
        masks = self.batch.out.bool_masks
        return masks.copy() if self.copy else masks

    def render(self) -> tuple[Any, ...] | None:
        """One frame per env, as the learner's seat sees it: the text board (``ansi``) or
        an image (``rgb_array``, its own hand drawn, nobody else's)."""
        if self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return tuple(to_text(self.game, row) for row in self.batch.states)
        return tuple(to_rgb_array(self.game, row, viewer=self.seat) for row in self.batch.states)

    def to_sb3(self) -> Any:
        """This batch as a stable-baselines3 ``VecEnv`` (with ``action_masks()``)."""
        return make_sb3_vec_env(self)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
        pass


def integer_actions(actions: Any, num_envs: int) -> np.ndarray:
    """``actions`` as ``int64[num_envs]``, refusing with :class:`IllegalActionError` what
    is not one integer an env: floats such as 3.5, strings, booleans, or another count."""
    given = np.asarray(actions)
    if given.dtype.kind not in "iu":
        raise IllegalActionError(
            given.ravel()[:4].tolist(),
            None,
            f"{given.dtype} actions, not integers: actions are integers, one an env",
        )
    if given.size != num_envs:
        raise IllegalActionError(
            given.ravel()[:4].tolist(),
            None,
            f"expected {num_envs} actions, one an env, got {given.size}",
        )
    return given.astype(np.int64, copy=False).reshape(num_envs)


def make_sb3_vec_env(env: BoardsimVectorEnv) -> Any:
    """Wrap a :class:`BoardsimVectorEnv` as an SB3 ``VecEnv``."""
    # deferred on purpose: wrappers.sb3 imports stable_baselines3 (and torch), an optional
    # dependency the vector env does not need; wrappers.sb3 does not import this module
    from boardsim.wrappers.sb3 import BatchesVecEnv

    return BatchesVecEnv([env])
