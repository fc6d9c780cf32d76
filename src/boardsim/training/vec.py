"""An SB3 ``VecEnv`` that trains one policy on every side of a game at once.

A :class:`~boardsim.wrappers.vector.BoardsimVectorEnv` has one learning seat.
A policy trained only as the first player of Farrapos would meet the other side
for the first time in a tournament, so :class:`SidesVecEnv` puts several of
them side by side, one a learning seat (the first player of each side), and
presents them to stable-baselines3 as one ``VecEnv`` with ``action_masks()``.
Its whole state (every game, the opponents' generators, the game counters) can
be saved and restored, so a resumed training run continues the very same games.

With several opponent *groups* (``groups=["heuristic", "pool"]``), each learning seat's
envs are split evenly between them: each group's envs play their own opponents, which
can be changed between steps (:meth:`SidesVecEnv.set_group_opponents`: the PPO
trainer's pool of its own past policies).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardsim.core.batch import Batch, Outputs, checked_count
from boardsim.core.errors import OptionError, StateFormatError
from boardsim.core.game import SEED_LIMIT, Game
from boardsim.wrappers.sb3 import SEED_STRIDE, BatchesVecEnv
from boardsim.wrappers.vector import BoardsimVectorEnv

# Batch attributes a resumed run must get back to continue the same games
BATCH_ARRAYS = ("states", "obs", "masks", "terminated", "truncated", "game_index", "policy_rngs")
SEAT_SEED_STRIDE = SEED_STRIDE  # the per-seat batches' seeds: far apart (wrappers/sb3.py)


def learning_seats(game: Game) -> list[int]:
    """The first player of each side: the seats a policy must learn to play."""
    seats: list[int] = []
    seen: set[int] = set()
    for player, team in enumerate(game.teams):
        if team not in seen:
            seen.add(team)
            seats.append(player)
    return seats


class SidesVecEnv(BatchesVecEnv):
    """``num_envs`` games split evenly over ``seats`` (and, within a seat, over the opponent
    ``groups``); the other players play ``opponents`` (or their group's).

    ``step_penalty`` is subtracted from the learner's reward at each of its decisions.
    """

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seats: Sequence[int],
        opponents: Any = "random",
        seed: int = 0,
        threads: int | None = None,
        step_penalty: float = 0.0,
        groups: Sequence[Any] | None = None,
    ) -> None:
        seats = list(seats)
        groups = list(groups) if groups else [opponents]
        if not seats:
            raise OptionError("train at least one seat")
        parts_count = len(seats) * len(groups)
        num_envs = checked_count("num_envs", num_envs, 1, "envs")
        if num_envs < parts_count or num_envs % parts_count:
            raise OptionError(
                f"num_envs={num_envs} must be a positive multiple of the {len(seats)} "
                f"learning seats {seats} times the {len(groups)} opponent groups"
            )
        # all of it up front (the parts, and the joint outputs SB3 reads), so that a count
        # too large for the memory is refused before anything is allocated
        per_env = Batch.bytes_per_env(game, np.dtype(np.float32))
        checked_count(
            "num_envs",
            num_envs,
            per_env + 2 * Outputs.bytes_per_row(game, np.dtype(np.float32)),
            "envs",
        )
        per_part = num_envs // parts_count
        self.game = game
        self.seats = seats
        self.groups = groups
        parts = [
            BoardsimVectorEnv(
                game,
                per_part,
                threads=threads,
                opponents=group,
                seat=s,
                seed=(seed + SEAT_SEED_STRIDE * (k * len(groups) + j)) % SEED_LIMIT,
                check_actions=False,
            )
            for k, s in enumerate(seats)
            for j, group in enumerate(groups)
        ]
        super().__init__(parts, step_penalty)

    def group_parts(self, group: int) -> list[BoardsimVectorEnv]:
        """The batched envs of opponent group ``group`` (one a learning seat)."""
        return self.parts[group :: len(self.groups)]

    def set_group_opponents(self, group: int, opponents: Any) -> None:
        """Group ``group``'s envs play ``opponents`` from the next step on."""
        for part in self.group_parts(group):
            part.batch.set_opponents(opponents)

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
        return {**out, **self.episode_arrays()}

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Put back the games saved by :meth:`state_arrays` (same game, seats and sizes).

        The saved games are untrusted input: every row is checked (``Batch.check_states``)
        before anything is put back, and the observations and masks are computed from the
        states rather than read."""
        checked = []
        for k, part in enumerate(self.parts):
            b = part.batch
            saved = {}
            for name in (*BATCH_ARRAYS, "counters"):
                key = f"env{k}_{name}"
                target = getattr(b, name) if name != "counters" else np.zeros(2, np.int64)
                if key not in arrays or np.shape(arrays[key]) != target.shape:
                    raise OptionError(
                        f"saved env state {key} does not fit this env "
                        "(another number of envs or seats, or another game version)"
                    )
                saved[name] = arrays[key]
            try:
                states, rngs = b.check_states(saved["states"], saved["policy_rngs"])
            except StateFormatError as exc:
                raise StateFormatError(f"saved env state env{k}_states: {exc}") from None
            checked.append((saved, states, rngs))
        for part, (saved, states, rngs) in zip(self.parts, checked, strict=True):
            b = part.batch
            b.adopt_states(states, rngs)
            for name in ("terminated", "truncated", "game_index"):
                getattr(b, name)[...] = saved[name]
            b.seed, b.next_game = (int(x) for x in saved["counters"])
        self.restore_episodes(arrays)
