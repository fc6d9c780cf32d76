"""Vector environments over the batched engine: Gymnasium ``VectorEnv`` and an SB3 ``VecEnv``.

No subprocesses: every row of the batch is stepped in one compiled call; the
other seats are played by a compiled policy (``"random"``, the game's
``"heuristic"``, or a network agent such as ``boardsim.agents.load("alphazero", game)``)
inside that call.
Finished games restart in the same step (Gymnasium's ``SAME_STEP`` autoreset):
the last observation of a finished game is in ``infos["final_obs"]``
(``infos["_final_obs"]`` marks the rows), and SB3's ``terminal_observation``.

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

from boardsim.core.batch import Batch
from boardsim.core.errors import IllegalActionError, OptionError
from boardsim.core.game import Game, checked_seed


class BoardsimVectorEnv(VectorEnv):
    """``num_envs`` games; seat ``seat`` learns in each, the others play a compiled policy.

    ``opponents``: None or ``"random"`` (uniform over legal actions), ``"heuristic"``
    (the game's rule-based player), an agent that plays in compiled code
    (``compiled_seat()``: a network), or one such a player.
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
            )
        except ValueError as exc:
            raise OptionError(str(exc)) from None
        self.num_envs = num_envs
        self.seat = seat
        self.check_actions = check_actions
        self.single_observation_space = spaces.Box(
            -np.inf, np.inf, (game.observation_size,), dtype=np.float32
        )
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
        return self.batch.obs.copy(), {"action_mask": self.batch.masks.astype(bool)}

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
            ok = (acts >= 0) & (acts < self.game.num_actions)
            ok[ok] = self.batch.masks[np.flatnonzero(ok), acts[ok]] != 0
            if not ok.all():
                row = int(np.flatnonzero(~ok)[0])
                legal = [int(a) for a in np.flatnonzero(self.batch.masks[row])]
                raise IllegalActionError(int(acts[row]), legal, f"in env {row}")
        b = self.batch
        b.step(acts)
        done = b.terminated | b.truncated
        infos: dict[str, Any] = {"action_mask": b.masks.astype(bool)}
        if done.any():
            infos["final_obs"] = np.where(done[:, None], b.final_obs, 0.0).astype(np.float32)
            infos["_final_obs"] = done.copy()
        return (
            b.obs.copy(),
            b.rewards[:, self.seat].astype(np.float32),
            b.terminated.copy(),
            b.truncated.copy(),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """``(num_envs, num_actions)`` booleans: the learner's legal actions in every env."""
        return self.batch.masks.astype(bool)

    def render(self) -> tuple[Any, ...] | None:
        """One frame per env, as the learner's seat sees it: the text board (``ansi``) or
        an image (``rgb_array``, its own hand drawn, nobody else's)."""
        if self.render_mode is None:
            return None
        from boardsim.render import to_rgb_array, to_text

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
    """``actions`` as ``int64[num_envs]``, refusing what is not integers (floats such as
    3.5, strings, booleans) with :class:`IllegalActionError` saying what was given."""
    given = np.asarray(actions)
    if given.dtype.kind not in "iu":
        raise IllegalActionError(
            given.ravel()[:4].tolist(), [], f"{given.dtype} actions, not integers"
        )
    return given.astype(np.int64).reshape(num_envs)


def make_sb3_vec_env(env: BoardsimVectorEnv) -> Any:
    """Wrap a :class:`BoardsimVectorEnv` as an SB3 ``VecEnv`` (imports SB3 lazily)."""
    from boardsim.wrappers.sb3 import BatchesVecEnv

    return BatchesVecEnv([env])
