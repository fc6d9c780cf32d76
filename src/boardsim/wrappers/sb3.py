"""stable-baselines3's ``VecEnv`` over one or more batched engines: the one home of that
interface (``make_vec_env(...).to_sb3()`` and the training's every-side env use it).

Imports stable-baselines3, so :mod:`boardsim.wrappers.vector` imports this module only
when ``to_sb3()`` is called; the arrow goes that way only: this module takes its parts by
what they offer (:class:`BatchedEnv`, which ``BoardsimVectorEnv`` is), not by importing
the vector env.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from boardsim.core.batch import Batch, Outputs
from boardsim.core.game import SEED_LIMIT, Game

# seeds of the batches side by side: far apart so that their games never coincide
SEED_STRIDE = 1_000_003


class ReadOnlyInfo(dict):
    """The ``info`` of every env whose episode goes on: one shared, empty dict that
    refuses writes (a clear ``TypeError``), so that a step builds no dict per env. SB3 and
    its wrappers (``VecMonitor``, ``VecNormalize``, ``VecFrameStack``) write only into the
    infos of finished envs, which are each their own dict; copy this one to write into it.
    """

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            "this info is shared by every env whose episode goes on and is read-only: "
            "write into dict(info), or into the info of a finished env"
        )

    __setitem__ = __delitem__ = update = setdefault = pop = popitem = clear = _refuse
    __ior__ = _refuse


NO_INFO = ReadOnlyInfo()


class BatchedEnv(Protocol):
    """What :class:`BatchesVecEnv` needs of a part: a batched env with one learning seat
    (:class:`boardsim.wrappers.vector.BoardsimVectorEnv` is one)."""

    game: Game
    batch: Batch
    num_envs: int
    render_mode: str | None
    single_observation_space: spaces.Space[Any]
    single_action_space: spaces.Space[Any]

    def reset(self, *, seed: int | None = None) -> Any:
        """Start new games in every row (those of run ``seed`` when given)."""
        ...

    def step(self, actions: np.ndarray) -> Any:
        """Step every row with its action (``int64[num_envs]``)."""
        ...


class BatchesVecEnv(VecEnv):
    """SB3's ``VecEnv`` over ``parts`` (batched envs, each with its learning seat), their
    rows one after another; ``action_masks()`` for sb3-contrib's MaskablePPO.

    ``step_penalty`` is subtracted from the learner's reward at each of its decisions.
    A seeded ``reset`` seeds part ``k`` with ``seed + SEED_STRIDE * k`` (modulo ``2**63``).

    Finished episodes are reported as SB3's ``VecMonitor`` reports them: on an env's
    last step, ``info["episode"] = {"r": return, "l": length, "t": seconds}`` (the
    return of the rewards this env gave, the step penalty taken off; the length in the
    learner's decisions; the wall seconds since the env was made), which SB3 logs as
    ``rollout/ep_rew_mean`` and ``rollout/ep_len_mean``.

    The parts write into one set of arrays (each its rows), so the observations, rewards
    and dones a step returns are those arrays themselves, not a concatenation: valid
    through the next step (SB3 reads the last step's observations after the next one),
    overwritten by the step after it, as :class:`BoardsimVectorEnv`'s are.
    """

    def __init__(self, parts: Sequence[BatchedEnv], step_penalty: float = 0.0) -> None:
        if not parts:
            raise ValueError("BatchesVecEnv needs at least one batched env")
        self.parts = list(parts)
        self.step_penalty = float(step_penalty)
        self._actions: np.ndarray | None = None
        first = self.parts[0]
        self.render_mode = first.render_mode
        super().__init__(
            sum(p.num_envs for p in self.parts),
            first.single_observation_space,
            first.single_action_space,
        )
        self.episode_returns = np.zeros(self.num_envs, np.float64)
        self.episode_lengths = np.zeros(self.num_envs, np.int64)
        self.t_start = time.time()
        self._share_outputs()

    def _share_outputs(self) -> None:
        """Make every part write its rows of two joint sets of outputs (in turn, as a
        batch does), so that a step of all the parts fills one array a kind."""
        game, dtype = self.parts[0].game, self.parts[0].batch.obs_dtype
        self.joint = (
            Outputs.allocate(game, self.num_envs, dtype),
            Outputs.allocate(game, self.num_envs, dtype),
        )
        # each env's row of each set's final observations, as views made once
        self._final_rows = {id(joint): list(joint.final_obs) for joint in self.joint}
        start = 0
        for part in self.parts:
            stop = start + part.num_envs
            views = tuple(joint.rows(start, stop) for joint in self.joint)
            # the part's current set becomes the joint set 0, whichever it was
            part.batch.use_outputs(views if part.batch.current == 0 else views[::-1])
            start = stop

    def _outputs(self) -> Outputs:
        """The joint outputs the parts wrote last (the parts step together)."""
        parent = self.parts[0].batch.out.parent
        assert parent is not None
        return parent

    def reset(self) -> np.ndarray:
        """Reset every env; the observations, stacked."""
        base = self._seeds[0] if self._seeds and self._seeds[0] is not None else None
        for k, part in enumerate(self.parts):
            seed = None if base is None else (base + SEED_STRIDE * k) % SEED_LIMIT
            part.reset(seed=seed)
        self._reset_seeds()
        self.episode_returns[:] = 0.0
        self.episode_lengths[:] = 0
        return self._outputs().obs

    def step_async(self, actions: np.ndarray) -> None:
        """Take the actions of every env for :meth:`step_wait`."""
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Step every env with the actions given: observations, rewards, dones, infos
        (SB3's convention: a finished env is reset at once, its last observation in
        ``info["terminal_observation"]``).
        """
        assert self._actions is not None, "step_async first"
        start = 0
        for part in self.parts:
            part.step(self._actions[start : start + part.num_envs])
            start += part.num_envs
        out = self._outputs()
        rewards = out.learner_rewards
        if self.step_penalty:
            rewards = rewards - np.float32(self.step_penalty)
        infos: list[dict[str, Any]] = [NO_INFO] * self.num_envs
        self._report_episodes(rewards, out, infos)
        return out.obs, rewards, out.done, infos

    def _report_episodes(
        self, rewards: np.ndarray, out: Outputs, infos: list[dict[str, Any]]
    ) -> None:
        """Add a step to each env's episode; for those that ended, their own ``info``:
        the last observation (a view of its row, valid through the next step as the
        observations are), whether time cut it, and ``"episode"`` (one pass over the
        finished rows, their numbers read out of numpy at once)."""
        self.episode_returns += rewards
        self.episode_lengths += 1
        rows = np.flatnonzero(out.done)
        if not rows.size:
            return
        returns = np.round(self.episode_returns[rows], 6).tolist()
        lengths = self.episode_lengths[rows].tolist()
        cut = (out.truncated[rows] & ~out.terminated[rows]).tolist()
        seconds = round(time.time() - self.t_start, 6)
        finals = self._final_rows[id(out)]
        for i, r, length, truncated in zip(rows.tolist(), returns, lengths, cut, strict=True):
            infos[i] = {
                "terminal_observation": finals[i],
                "TimeLimit.truncated": truncated,
                "episode": {"r": r, "l": length, "t": seconds},
            }
        self.episode_returns[rows] = 0.0
        self.episode_lengths[rows] = 0

    def episode_arrays(self) -> dict[str, np.ndarray]:
        """The episodes under way (return and length so far, per env), to save."""
        return {
            "episode_returns": self.episode_returns.copy(),
            "episode_lengths": self.episode_lengths.copy(),
        }

    def restore_episodes(self, arrays: dict[str, np.ndarray]) -> None:
        """Put back :meth:`episode_arrays`; arrays saved without them (or for another
        number of envs) start the episodes under way from zero."""
        for name in ("episode_returns", "episode_lengths"):
            target = getattr(self, name)
            saved = arrays.get(name)
            ok = saved is not None and np.shape(saved) == target.shape
            target[:] = saved if ok else 0

    def action_masks(self) -> np.ndarray:
        """``(num_envs, num_actions)`` booleans, what sb3-contrib's MaskablePPO asks for."""
        return self._outputs().bool_masks

    def close(self) -> None:
        """Nothing to release."""
        pass

    def _target(self, attr_name: str) -> Any:
        """Whose attribute ``attr_name`` is: this env's, else the first batch's."""
        return self if hasattr(self, attr_name) else self.parts[0]

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """An attribute of the underlying env, once per index."""
        return [getattr(self._target(attr_name), attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute of the underlying env."""
        setattr(self._target(attr_name), attr_name, value)

    def env_method(
        self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        """Call a method of the underlying env (``action_masks`` per env)."""
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._indices(indices)]
        result = getattr(self._target(method_name), method_name)(*args, **kwargs)
        return [result] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """No env is wrapped: ``False`` for each index."""
        return [False] * len(self._indices(indices))

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)
