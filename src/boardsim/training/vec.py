"""An SB3 ``VecEnv`` that trains one policy on every side of a game at once.

A :class:`~boardsim.wrappers.vector.BoardsimVectorEnv` has one learning seat.
A policy trained only as the first player of Farrapos would meet the other side
for the first time in a tournament, so :class:`SidesVecEnv` puts several of
them side by side, one a learning seat (the first player of each side), and
presents them to stable-baselines3 as one ``VecEnv`` with ``action_masks()``.
Its whole state (every game, the opponents' generators, the game counters) can
be saved and restored, so a resumed training run continues the very same games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from boardsim.core.errors import OptionError
from boardsim.core.game import Game
from boardsim.wrappers.vector import BoardsimVectorEnv

# Batch attributes a resumed run must get back to continue the same games
BATCH_ARRAYS = ("states", "obs", "masks", "terminated", "truncated", "game_index", "policy_rngs")
# seeds of the per-seat batches: far apart so their games never coincide
SEAT_SEED_STRIDE = 1_000_003


def learning_seats(game: Game) -> list[int]:
    """The first player of each side: the seats a policy must learn to play."""
    seats: list[int] = []
    seen: set[int] = set()
    for player, team in enumerate(game.teams):
        if team not in seen:
            seen.add(team)
            seats.append(player)
    return seats


class SidesVecEnv(VecEnv):
    """``num_envs`` games split evenly over ``seats``; the other players play ``opponents``.

    ``step_penalty`` is subtracted from the learner's reward at each of its decisions.
    """

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seats: Sequence[int],
        opponents: str | Sequence[str] = "random",
        seed: int = 0,
        threads: int | None = None,
        step_penalty: float = 0.0,
    ) -> None:
        seats = list(seats)
        if not seats:
            raise OptionError("train at least one seat")
        if num_envs < len(seats) or num_envs % len(seats):
            raise OptionError(
                f"num_envs={num_envs} must be a positive multiple of the {len(seats)} "
                f"learning seats {seats}"
            )
        per_seat = num_envs // len(seats)
        self.game = game
        self.seats = seats
        self.parts = [
            BoardsimVectorEnv(
                game,
                per_seat,
                threads=threads,
                opponents=opponents,
                seat=s,
                seed=seed + SEAT_SEED_STRIDE * k,
                check_actions=False,
            )
            for k, s in enumerate(seats)
        ]
        self.step_penalty = float(step_penalty)
        self._actions: np.ndarray | None = None
        self.render_mode = None
        first = self.parts[0]
        super().__init__(num_envs, first.single_observation_space, first.single_action_space)

    # ------------------------------------------------------------ VecEnv
    def reset(self) -> np.ndarray:
        base = self._seeds[0] if self._seeds and self._seeds[0] is not None else None
        obs = []
        for k, part in enumerate(self.parts):
            seed = None if base is None else base + SEAT_SEED_STRIDE * k
            obs.append(part.reset(seed=seed)[0])
        self._reset_seeds()
        return np.concatenate(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        assert self._actions is not None, "step_async first"
        obs, rewards, dones, infos = [], [], [], []
        start = 0
        for part in self.parts:
            acts = self._actions[start : start + part.num_envs]
            start += part.num_envs
            o, r, term, trunc, info = part.step(acts)
            done = term | trunc
            rows: list[dict[str, Any]] = [{} for _ in range(part.num_envs)]
            for i in np.flatnonzero(done):
                rows[i]["terminal_observation"] = info["final_obs"][i]
                rows[i]["TimeLimit.truncated"] = bool(trunc[i] and not term[i])
            obs.append(o)
            rewards.append(r - self.step_penalty if self.step_penalty else r)
            dones.append(done)
            infos.extend(rows)
        return np.concatenate(obs), np.concatenate(rewards), np.concatenate(dones), infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, num_actions)`` booleans, what sb3-contrib's MaskablePPO asks for."""
        return np.concatenate([p.action_masks() for p in self.parts])

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._indices(indices)]
        result = getattr(self, method_name)(*args, **kwargs)
        return [result] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    # ------------------------------------------------------------ saving
    def games_started(self) -> int:
        """Games begun so far, over every seat."""
        return sum(p.batch.next_game for p in self.parts)

    def state_arrays(self) -> dict[str, np.ndarray]:
        """Everything needed to continue these very games later (see :meth:`restore`)."""
        out: dict[str, np.ndarray] = {}
        for k, part in enumerate(self.parts):
            b = part.batch
            for name in BATCH_ARRAYS:
                out[f"env{k}_{name}"] = getattr(b, name).copy()
            out[f"env{k}_counters"] = np.array([b.seed, b.next_game], np.int64)
        return out

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Put back the games saved by :meth:`state_arrays` (same game, seats and sizes)."""
        for k, part in enumerate(self.parts):
            b = part.batch
            for name in BATCH_ARRAYS:
                key = f"env{k}_{name}"
                target = getattr(b, name)
                if key not in arrays or arrays[key].shape != target.shape:
                    raise OptionError(
                        f"saved env state {key} does not fit this env "
                        "(another number of envs or seats, or another game version)"
                    )
                target[...] = arrays[key]
            b.seed, b.next_game = (int(x) for x in arrays[f"env{k}_counters"])
